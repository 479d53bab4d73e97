"""Answers that keep their word: each question's answer and promise, from the checks so far.

The power behind "no colour bias detected" and "about N more tosses" is an estimate, and it wobbles
as games come in. Read after every game, an estimate taken afresh each time would say "no colour
bias detected", then "not enough data yet" again, and would move its promise by a whole check back
and forth. So each question is answered from the scheduled checks (``sequential.look_points``), each
judged on the tosses up to it alone, and by two rules:

* **An answer stays.** Once the power at a check reached the target (80 % for a colour 10 points
  off), "no colour bias detected" is said from that check on; only a flag, a stronger finding, can
  replace it. Its error rate is the one it quotes: a colour 10 points off would have been flagged at
  that check with the quoted power (the study measures it at the promised check); the false-alarm
  rate of the flags is untouched (``sequential.ALPHA_TESTS`` and ``change.ALPHA_CHANGE``).
* **A promise only moves earlier,** to a check that a later check's estimate expects to reach the
  target, or, once its check came without the answer, to the check the latest estimate expects.
  That check coming and going is the new evidence; between checks "about N more tosses" only
  counts down, one game at a time.

Every check is judged on its own prefix of the log, so a read of more tosses repeats what earlier
reads said. The checks are walked from the first until both questions are answered, so a long log
costs the few short prefixes before its answers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from companion.fairness.score_sums import PreparedLog
from companion.fairness.sequential import FIRST_LOOK, STAGES, StagePower, look_points, sequential_power
from companion.fairness.two_rate import Counts


@dataclass
class _Standing:
    """One question's state as the checks are walked: its answer's check, the latest power, the promise."""

    kinds: tuple[str, ...]
    answered_at: int | None = None
    power: float = 0.0
    promised: int | None = None
    projected: float | None = None


def kept_stages(
    prepared: PreparedLog, family: int, tossed: Counts, game: npt.NDArray[np.int64]
) -> dict[str, StagePower]:
    """Per question (``STAGES``), its answer and promise by the rules above, after ``prepared.tosses``
    tosses (``tossed`` and ``game``: the layer's pieces tossed in and game codes)."""
    if prepared.tosses < FIRST_LOOK:
        return {name: _before_first_check(kinds, prepared.tosses) for name, kinds in STAGES.items()}
    standing = {name: _Standing(kinds) for name, kinds in STAGES.items()}
    for j, look in enumerate(look_points(prepared.tosses)):
        if all(s.answered_at is not None for s in standing.values()):
            break
        power = sequential_power(_prefix(prepared, j, look), family, tossed[:look], game[:look])
        for name, state in standing.items():
            if state.answered_at is None:
                _update(state, power.stages[name], look)
    return {name: _result(state, prepared.tosses) for name, state in standing.items()}


def _before_first_check(kinds: tuple[str, ...], tosses: int) -> StagePower:
    """A question before the first check: nothing promised yet, the first check ``tosses`` away."""
    return StagePower(kinds, 0.0, False, None, max(FIRST_LOOK - tosses, 0))


def _prefix(prepared: PreparedLog, j: int, look: int) -> PreparedLog:
    """The sums of the tosses up to look ``j`` (segments 0 to ``j``)."""
    keep = prepared.segment <= j
    return replace(prepared, tosses=look, game=prepared.game[keep], segment=prepared.segment[keep],
                   products=prepared.products[keep])


def _update(state: _Standing, stage: StagePower, look: int) -> None:
    """Take the power at the check after ``look`` tosses into a question not yet answered."""
    state.power = stage.power_now
    if stage.enough:
        state.answered_at = look
        return
    new = stage.promised_tosses
    if state.promised is None or new is None or state.promised <= look or new <= state.promised:
        state.promised, state.projected = new, stage.power_at_promise
    else:
        state.projected = stage.power_by_look.get(state.promised, state.projected)


def _result(state: _Standing, tosses: int) -> StagePower:
    """The question's ``StagePower`` as the verdict reads it."""
    answered = state.answered_at is not None
    promised = None if answered else state.promised
    by_look = {} if promised is None or state.projected is None else {promised: state.projected}
    return StagePower(
        state.kinds, state.power, answered, promised,
        None if promised is None else max(promised - tosses, 0), by_look, state.answered_at,
    )
