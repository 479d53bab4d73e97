"""The error-rate study: how the fairness verdict behaves on a tower written apart from the product.

Run: ``python -m companion.fairness.study [--sessions 200] [--seed 1]`` (minutes on two cores; the
figures in docs/fairness.md come from it). Every session is played by ``study_tower`` (48-toss games,
3-4 players, colours from behind the screens) and judged by ``monitor.monitor_layer``, the same
function the report uses. It measures:

1. **Promise**: from a fair 10-game pilot, the toss count the report promises for each stage of the
   verdict (``L1``: tossed-in keshis, ``L2``: keshis already inside; ``L``, the later, is ``L2``).
2. **False alarms** on fair towers (independent pieces; pieces that move together in 30 % of tosses;
   a tower whose new pieces stick 3 points more per piece held) over sessions of ``3 L`` tosses: the
   share of sessions in which any colour is ever flagged by a test or the change monitor. Flags
   never disappear and the tests only change at fixed looks, so this is the false-alarm rate of a
   table that reads the report after every game.
3. **Power** at each stage's own promised length for one colour (random per session) 10 points
   stickier in ``p_new`` and in both (at ``L1``: the first stage's "no colour bias detected" rests on
   them) and in ``p_held`` (at ``L2``): the share of sessions in which that colour is flagged by then.
4. **Dent**: that colour 10 points stickier in both rates from toss 312 on: the share of sessions in
   which it is flagged by toss 612 (within 300 tosses), and how far the estimated start is off.
5. **Coverage** of the pooled fit's 95 % intervals (cluster-robust) for ``p_new`` and ``p_held``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from companion import COLOURS
from companion.fairness.monitor import LayerMonitor, monitor_layer
from companion.fairness.study_tower import StudyGrids, StudyTower, play

PILOT_TOSSES = 480
DENT_AT = 312
DENT_WINDOW = 300
FAIR_TOWERS = {
    "independent pieces": StudyTower(),
    "pieces move together (30 %)": StudyTower(cohesion=0.3),
    "load-dependent tower": StudyTower(load_effect=0.03),
}
#: Each kind of bias, with the stage whose promised length it is judged at (``sequential.STAGES``).
BIASES = {
    "p_new 10 points lower": (StudyTower(new_shift=-0.10), "new_pieces"),
    "p_held 10 points lower": (StudyTower(held_shift=-0.10), "held_pieces"),
    "both 10 points lower": (StudyTower(new_shift=-0.10, held_shift=-0.10), "new_pieces"),
}


@dataclass(frozen=True)
class Judged:
    """One session's monitor, with the colour that was shifted in it (-1: none)."""

    monitor: LayerMonitor
    shifted: int


def judge(grids: StudyGrids, session: int, upto: int | None = None) -> LayerMonitor:
    """The report's decision on one session's first ``upto`` tosses."""
    held, tossed, out = grids.counts(session, upto)
    return monitor_layer(held, tossed, out, grids.games(upto))


def sessions_of(
    tower: StudyTower, sessions: int, tosses: int, rng: np.random.Generator, shifted: bool, upto: int | None = None
) -> list[Judged]:
    """Play and judge ``sessions`` sessions (with a random shifted colour each when ``shifted``)."""
    colours = rng.integers(0, len(COLOURS), size=sessions) if shifted else np.full(sessions, -1)
    grids = play(tower, sessions, tosses, rng, colours)
    return [Judged(judge(grids, s, upto), int(colours[s])) for s in range(sessions)]


def promised_lengths(rng: np.random.Generator) -> dict[str, int]:
    """What the report promises, per stage, after a fair pilot of ``PILOT_TOSSES`` tosses."""
    grids = play(StudyTower(), 1, PILOT_TOSSES, rng)
    stages = judge(grids, 0).tests.power.stages
    promised = {name: stage.promised_tosses for name, stage in stages.items()}
    if None in promised.values():
        raise SystemExit(f"the pilot promised no toss count for a stage: {promised}")
    return {name: int(tosses or 0) for name, tosses in promised.items()}


def share(values: list[bool]) -> str:
    """A proportion with its binomial standard error, as text."""
    p = float(np.mean(values))
    return f"{100 * p:5.1f} % ± {100 * np.sqrt(p * (1 - p) / len(values)):.1f}"


def caught(judged: Judged, by: int) -> bool:
    """Was the shifted colour flagged (by a test or the change monitor) by toss ``by``?"""
    colour = COLOURS[judged.shifted]
    tests = judged.monitor.tests
    if colour in tests.flagged_at and tests.flagged_at[colour] <= by:
        return True
    return any(a.colour == colour and a.alarm_toss <= by for a in judged.monitor.alarms)


def run(sessions: int, seed: int, report: Callable[[str], None] = print) -> None:
    """Run every part of the study and print its figures."""
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    lengths = promised_lengths(rng)
    length = max(lengths.values())
    report(f"promised lengths after a {PILOT_TOSSES}-toss fair pilot: tossed-in keshis L1 = "
           f"{lengths['new_pieces']}, keshis already inside L2 = {lengths['held_pieces']} tosses (L = {length})")
    for name, tower in FAIR_TOWERS.items():
        judged = sessions_of(tower, sessions, 3 * length, rng, shifted=False)
        alarms = [bool(j.monitor.flagged) for j in judged]
        tests_only = [bool(j.monitor.tests.flagged_at) for j in judged]
        changes = [bool(j.monitor.alarms) for j in judged]
        report(f"false alarms, fair tower, {name}, read after every game up to 3 L: {share(alarms)} "
               f"(tests {share(tests_only)}, change monitor {share(changes)})")
        if name != "load-dependent tower":
            for k, (rate, truth) in enumerate((("p_new", tower.p_new), ("p_held", tower.p_held))):
                inside = [j.monitor.pooled[k].interval[0] <= truth <= j.monitor.pooled[k].interval[1] for j in judged]
                report(f"  coverage of the pooled {rate} 95 % interval ({name}, 3 L tosses): {share(inside)}")
    for name, (tower, stage) in BIASES.items():
        at = lengths[stage]
        judged = sessions_of(tower, sessions, at, rng, shifted=True)
        report(f"power at {'L1' if stage == 'new_pieces' else 'L2'} = {at}, {name}: "
               f"{share([caught(j, at) for j in judged])}")
    dent = StudyTower(new_shift=-0.10, held_shift=-0.10, shift_from=DENT_AT)
    horizon = DENT_AT + DENT_WINDOW
    judged = sessions_of(dent, sessions, horizon, rng, shifted=True)
    found = [caught(j, horizon) for j in judged]
    starts = [a.start_toss for j in judged for a in j.monitor.alarms if a.colour == COLOURS[j.shifted]]
    report(f"dent (both rates 10 points lower from toss {DENT_AT}) flagged by toss {horizon}: {share(found)}")
    if starts:
        report(f"  estimated start of the dent: median toss {np.median(starts):.0f} "
               f"(10-90 %: {np.quantile(starts, 0.1):.0f}-{np.quantile(starts, 0.9):.0f})")
    report(f"({sessions} sessions per setting, seed {seed}, {time.perf_counter() - started:.0f} s)")


def main() -> None:
    """``python -m companion.fairness.study``."""
    parser = argparse.ArgumentParser(description="error rates of the fairness verdict on an independent tower")
    parser.add_argument("--sessions", type=int, default=200, help="sessions per setting (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.sessions, args.seed)


if __name__ == "__main__":
    main()
