"""One layer's verdict inputs: the sequential colour tests, the change monitor, and the robust fit.

``build_report`` and the error-rate study (``companion.fairness.study``) both call ``monitor_layer``,
so the study measures exactly what the report decides.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.change import ChangeAlarm, change_alarms
from companion.fairness.sequential import SequentialTests, prepare, robust_fits, sequential_tests
from companion.fairness.two_rate import Counts, RateFit


@dataclass(frozen=True)
class LayerMonitor:
    """A layer's sequential tests, change alarms, and the pooled and per-colour rates (robust intervals)."""

    tests: SequentialTests
    alarms: list[ChangeAlarm]
    pooled: tuple[RateFit, RateFit]
    colours: list[tuple[RateFit, RateFit]]

    @property
    def flagged(self) -> dict[str, str]:
        """Colour -> direction, for every colour a test or the change monitor flagged."""
        result: dict[str, str] = {}
        for colour in COLOURS:
            score = self.tests.flag(colour)
            if score is not None and score.direction:
                result[colour] = score.direction
        for alarm in self.alarms:
            result.setdefault(alarm.colour, alarm.direction)
        return result


def monitor_layer(
    held: Counts, tossed: Counts, out: Counts,
    game: npt.NDArray[np.int64], family: int = len(COLOURS),
) -> LayerMonitor:
    """Test, monitor and fit one layer's ``(tosses, 12)`` grids; ``game`` codes each toss's game."""
    prepared = prepare(held, tossed, out, game)
    tests = sequential_tests(held, tossed, out, game, family, prepared=prepared)
    pooled, colours = robust_fits(prepared)
    alarms: list[ChangeAlarm] = []
    if pooled[0].estimate is not None:
        p_held = pooled[1].estimate if pooled[1].estimate is not None else 0.5
        alarms = change_alarms(held, tossed, out, game, pooled[0].estimate, p_held)
    return LayerMonitor(tests, alarms, pooled, colours)
