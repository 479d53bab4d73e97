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

**Each check is judged once.** A check's answer depends on its prefix of the log alone, so it is
remembered (``CheckMemo``: keyed by a digest of the prefix's counts and games, at most
``MEMO_SIZE`` checks). Read after every game, a log still waiting for its answers walked every
earlier check again on each read (100 reads of a 4,800-toss log: 129 s instead of 44 s); with the
memo a read judges only the checks it has not seen. The dashboard computes each report in a fresh
process, so ``offload`` hands the memo to each report child and keeps what it brings back.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from companion.fairness.score_sums import PreparedLog
from companion.fairness.sequential import FIRST_LOOK, STAGES, StagePower, look_points, sequential_power
from companion.fairness.two_rate import Counts

#: Checks remembered (a few hundred bytes each).
MEMO_SIZE = 512


class CheckMemo:
    """Each judged check's per-question power, by a digest of its prefix (least recently used first out)."""

    def __init__(self) -> None:
        self._entries: OrderedDict[bytes, dict[str, StagePower]] = OrderedDict()

    def get(self, key: bytes) -> dict[str, StagePower] | None:
        """The remembered answer of the check with digest ``key`` (None: not judged yet)."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: bytes, stages: dict[str, StagePower]) -> None:
        """Remember a check's answer."""
        self._entries[key] = stages
        self._entries.move_to_end(key)
        while len(self._entries) > MEMO_SIZE:
            self._entries.popitem(last=False)

    def entries(self) -> list[tuple[bytes, dict[str, StagePower]]]:
        """Everything remembered, oldest first (what a report child hands back)."""
        return list(self._entries.items())

    def clear(self) -> None:
        """Forget every check (a benchmark times a report that judges them all)."""
        self._entries.clear()

    def update(self, entries: list[tuple[bytes, dict[str, StagePower]]]) -> None:
        """Take over ``entries`` (from ``entries`` of another process's memo)."""
        for key, stages in entries:
            self.put(key, stages)


#: The memo of this process (the report child's, filled from the server's by ``offload``).
MEMO = CheckMemo()


@dataclass
class _Standing:
    """One question's state as the checks are walked: its answer's check, the latest power, the promise."""

    kinds: tuple[str, ...]
    answered_at: int | None = None
    power: float = 0.0
    promised: int | None = None
    projected: float | None = None


def kept_stages(
    prepared: PreparedLog, family: int, tossed: Counts, game: npt.NDArray[np.int64],
    curves: list[tuple[float, float, float] | None] | None = None,
) -> dict[str, StagePower]:
    """Per question (``STAGES``), its answer and promise by the rules above, after ``prepared.tosses``
    tosses (``tossed`` and ``game``: the layer's pieces tossed in and game codes; ``curves[j]``: the
    fill-level curve of the tosses up to check ``j``, for the power's replay)."""
    if prepared.tosses < FIRST_LOOK:
        return {name: _before_first_check(kinds, prepared.tosses) for name, kinds in STAGES.items()}
    standing = {name: _Standing(kinds) for name, kinds in STAGES.items()}
    for j, look in enumerate(look_points(prepared.tosses)):
        if all(s.answered_at is not None for s in standing.values()):
            break
        stages = _judged(prepared, j, look, family, tossed, game, None if curves is None else curves[j])
        for name, state in standing.items():
            if state.answered_at is None:
                _update(state, stages[name], look)
    return {name: _result(state, prepared.tosses) for name, state in standing.items()}


def _before_first_check(kinds: tuple[str, ...], tosses: int) -> StagePower:
    """A question before the first check: nothing promised yet, the first check ``tosses`` away."""
    return StagePower(kinds, 0.0, False, None, max(FIRST_LOOK - tosses, 0))


def _judged(
    prepared: PreparedLog, j: int, look: int, family: int, tossed: Counts, game: npt.NDArray[np.int64],
    curve: tuple[float, float, float] | None,
) -> dict[str, StagePower]:
    """The per-question power at check ``j`` (``look`` tosses), from ``MEMO`` when judged before (the
    fill-level ``curve`` is fitted on the same prefix, so the prefix's digest covers it)."""
    key = _digest(prepared, j, look, family, tossed, game)
    stages = MEMO.get(key)
    if stages is None:
        stages = sequential_power(_prefix(prepared, j, look), family, tossed[:look], game[:look], curve).stages
        MEMO.put(key, stages)
    return stages


def _digest(
    prepared: PreparedLog, j: int, look: int, family: int, tossed: Counts, game: npt.NDArray[np.int64]
) -> bytes:
    """What a check's answer depends on, digested: the family size, the prefix's per-(game, segment)
    sums (they hold every count the tests read) and its pieces tossed in with their games (the replay)."""
    digest = hashlib.blake2b(f"{family}:{j}:{look}".encode(), digest_size=20)
    keep = prepared.segment <= j
    for part in (prepared.game[keep], prepared.segment[keep], prepared.products[keep],
                 tossed[:look], game[:look] - (int(game[0]) if look else 0)):
        digest.update(np.ascontiguousarray(part).tobytes())
    return digest.digest()


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
