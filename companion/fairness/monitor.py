"""One layer's verdict inputs: the sequential colour tests, the change monitor, and the robust fit.

``build_report`` and the error-rate study (``companion.fairness.study``) both call ``monitor_layer``,
so the study measures exactly what the report decides.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.change import ChangeAlarm, change_alarms
from companion.fairness.fill_level import FillEffect, FillLog, fill_effect, fill_log, load_matters
from companion.fairness.kept_word import kept_stages
from companion.fairness.score_sums import PreparedLog, solve_rates
from companion.fairness.sequential import SequentialTests, look_points, prepare, robust_fits, sequential_tests
from companion.fairness.two_rate import Counts, RateFit


@dataclass(frozen=True)
class LayerMonitor:
    """A layer's sequential tests, change alarms, and the pooled and per-colour rates (robust intervals)."""

    tests: SequentialTests
    alarms: list[ChangeAlarm]
    pooled: tuple[RateFit, RateFit]
    colours: list[tuple[RateFit, RateFit]]
    #: How the tower's fill level moves release, and whether the fill-level model describes it.
    fill: FillEffect

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
    fill = fill_log(held, tossed, out, game, look_points(prepared.tosses))
    tests = sequential_tests(held, tossed, out, game, family, prepared=prepared, fill=fill)
    looks = look_points(prepared.tosses)
    curves = look_curves(fill, len(looks))
    kept = kept_stages(prepared, family, tossed, game, curves)
    tests = replace(tests, power=replace(tests.power, stages=kept))
    pooled, colours = robust_fits(prepared)
    alarms = change_alarms(held, tossed, out, game, look_rates(prepared), curves)
    return LayerMonitor(tests, alarms, pooled, colours, fill_effect(fill, looks))


def look_curves(fill: FillLog, looks: int) -> list[tuple[float, float, float] | None]:
    """The fill-level curve ``(a_new, a_held, beta)`` of the tosses up to each look reached (None:
    none, or its slope not clearly off 0: constant rates serve), for the power's replay and the change
    monitor (as ``look_rates``: only what was known at each look)."""
    curves: list[tuple[float, float, float] | None] = []
    for j in range(looks):
        fitted = load_matters(fill, j, list(range(fill.held.shape[1])))
        curves.append(None if fitted is None else (float(fitted.theta[0]), float(fitted.theta[1]),
                                                   float(fitted.theta[2])))
    return curves


def look_rates(prepared: PreparedLog) -> list[tuple[float, float]]:
    """The pooled (p_new, p_held) of the tosses up to each look reached (an uninformed rate: 0.5).

    The change monitor judges each toss by these (``change.change_alarms``), so what it says about a
    toss never depends on tosses after the look before it.
    """
    reached = len(look_points(prepared.tosses))
    per_segment = np.zeros((reached + 1, prepared.products.shape[2]))
    np.add.at(per_segment, np.minimum(prepared.segment, reached), prepared.products.sum(axis=1))
    rates = []
    for io, bo, ii, ib, bb, *_ in np.cumsum(per_segment, axis=0)[:reached]:
        p_new, p_held = solve_rates(np.array([[ii, ib], [ib, bb]]), np.array([io, bo]))
        rates.append((0.5 if p_new is None else p_new, 0.5 if p_held is None else p_held))
    return rates
