"""The extended error-rate study: the audit's game-shaped tower, whose tables favour some colours and
whose grip depends on how full it is (issue 27).

Run: ``python -m companion.fairness.study_load [--sessions 60] [--seed 11] [--loads -0.08 -0.15 0]``
(figures in docs/fairness.md). The tower is ``study_tower`` with p_new 0.78, p_held 0.50, colour
weights per session from Dirichlet(5) (``preferences``) and both rates shifted by ``load`` on the
logit scale per piece held (``load_logit``). Every session is judged by ``monitor.monitor_layer``,
the function the report uses.

**12-round games** (``study_tower.REAL_GAME_TOSSES``: 3 seasons of 4 rounds, the real game and the
product's own games). The tower starts each game empty, so the game length decides how full a
tower that grips harder when fuller gets: in 48-toss games it held on average about 110 pieces at
-0.08 and 200 at -0.15 (from the middle of a game almost nothing fell), in 12-toss games about 8
and 23 -- the audit's "clogging tower, about 23 pieces held" at -0.15. So the audit's tower plays
12 rounds a game (its "48-toss games" most likely count 4 players' tosses over 12 rounds). The
mean fill per load is printed with each load's figures, so this can be checked on every run.

Per load it measures:

1. **Promise**: what the report promises per stage after a 480-toss pilot of the fair tower (``L1``
   tossed-in keshis, ``L2`` keshis already inside; ``L`` the later one within ``LONGEST`` tosses).
2. **False alarms**: fair colours, read after every game up to ``3 L`` tosses (flags and alarms stay
   at their toss and never appear behind an earlier read, so one judgement at ``3 L`` is the union
   of all reads): the share of sessions with any colour flagged.
3. **Coverage** of the load effect's 95 % interval at ``3 L`` (how often it holds the true shift),
   and how often the goodness-of-fit check fires (the model is right here: it should rarely).
   ``--coverage-only`` measures the coverage alone, on as many sessions as it takes to tell 95 %
   from the edges of the 93-97 % asked (the interval is the report's ``fill_effect`` on all tosses,
   which needs no judging: 500 sessions a load in minutes, where the whole study's 50 give ± 2).
4. **Power** at each stage's promised check, one colour 10 points stickier in ``p_new`` (at L1), in
   both (at L1), in ``p_held`` (at L2).
5. **Dent**: one colour 10 points stickier in both rates from toss 312: found within 600 tosses.

Each figure comes with its binomial standard error (``study.share``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator

import numpy as np

from companion.fairness.fill_level import fill_effect, fill_log
from companion.fairness.study import DENT_AT, PILOT_TOSSES, caught, judge, sessions_of, share
from companion.fairness.study_tower import REAL_GAME_TOSSES, StudyGrids, StudyTower, play

DENT_WINDOW = 600
PREFERENCES = 5.0
#: A stage promised beyond this many tosses is reported, not studied (3 L sessions of a clogging
#: tower's held-piece promise would be a million tosses each).
LONGEST = 15_000
#: Sessions played at once by ``coverage_only`` (27,678 tosses x 3 grids x 12 colours x 2 bytes each).
COVERAGE_BATCH = 20


def tower(load: float, new_shift: float = 0.0, held_shift: float = 0.0, shift_from: int = 0) -> StudyTower:
    """The audit's tower, 12-round games, with ``load`` logit shift per piece held (shifts: one colour
    per session)."""
    return StudyTower(p_new=0.78, p_held=0.50, preferences=PREFERENCES, load_logit=load, new_shift=new_shift,
                      held_shift=held_shift, shift_from=shift_from, tosses_per_game=REAL_GAME_TOSSES)


def promised(load: float, rng: np.random.Generator) -> dict[str, int | None]:
    """Per stage, the toss count promised after a fair pilot (None: no check within reach)."""
    grids = play(tower(load), 1, PILOT_TOSSES, rng)
    return {name: stage.promised_tosses for name, stage in judge(grids, 0).tests.power.stages.items()}


def _promised_loads(
    loads: list[float], rng: np.random.Generator, report: Callable[[str], None]
) -> Iterator[tuple[float, dict[str, int | None], int, float]]:
    """Each load with its pilot's promises per stage, ``L`` (the later promise within ``LONGEST``
    tosses) and when its part of the study started; a load whose pilot promised neither within reach is
    reported and skipped."""
    for load in loads:
        started = time.perf_counter()
        lengths = promised(load, rng)
        length = max((n for n in lengths.values() if n is not None and n <= LONGEST), default=None)
        if length is None:
            report(f"load {load}: the pilot promised no check for either question: {lengths}")
            continue
        yield load, lengths, length, started


def run(sessions: int, seed: int, loads: list[float], report: Callable[[str], None] = print) -> None:
    """Every part of the study for each load, printed as it comes."""
    rng = np.random.default_rng(seed)
    for load, lengths, length, started in _promised_loads(loads, rng, report):
        report(f"load {load:+.2f} per piece held (mean pieces held {_mean_held(load, rng):.1f}): promised after a "
               f"{PILOT_TOSSES}-toss pilot: tossed-in keshis L1 = {lengths['new_pieces']}, keshis already inside "
               f"L2 = {lengths['held_pieces']} (L = {length})")
        fair = sessions_of(tower(load), sessions, 3 * length, rng, shifted=False)
        report(f"  false alarms, read after every game up to 3 L = {3 * length}: "
               f"{share([bool(j.monitor.flagged) for j in fair])} (tests "
               f"{share([bool(j.monitor.tests.flagged_at) for j in fair])}, change monitor "
               f"{share([bool(j.monitor.alarms) for j in fair])})")
        intervals = [j.monitor.fill.interval for j in fair]
        report(f"  load effect's 95 % interval holds {load}: "
               f"{share([i is not None and i[0] <= load <= i[1] for i in intervals])}; "
               f"median estimate {np.median([j.monitor.fill.beta or np.nan for j in fair]):+.4f}; "
               f"fit check fired: {share([j.monitor.fill.misfit_at is not None for j in fair])}")
        for kind, shifts, stage in (("p_new", (-0.10, 0.0), "new_pieces"), ("both", (-0.10, -0.10), "new_pieces"),
                                    ("p_held", (0.0, -0.10), "held_pieces")):
            at = lengths[stage]
            if at is None or at > LONGEST:
                report(f"  power, {kind} 10 points lower: promised check for {stage} {at} not studied")
                continue
            judged = sessions_of(tower(load, *shifts), sessions, at, rng, shifted=True)
            report(f"  power at the promised check {at}, {kind} 10 points lower: "
                   f"{share([caught(j, at) for j in judged])}")
        horizon = DENT_AT + DENT_WINDOW
        dented = sessions_of(tower(load, -0.10, -0.10, DENT_AT), sessions, horizon, rng, shifted=True)
        report(f"  dent (both rates 10 points lower from toss {DENT_AT}) found by toss {horizon}: "
               f"{share([caught(j, horizon) for j in dented])}")
        report(f"  ({sessions} sessions per setting, seed {seed}, {time.perf_counter() - started:.0f} s)")


def load_interval(grids: StudyGrids, session: int) -> tuple[float, float] | None:
    """The load effect's 95 % interval the report gives for one session's whole log (``fill_effect``
    without the looks, which only the goodness-of-fit check reads)."""
    held, tossed, out = grids.counts(session)
    return fill_effect(fill_log(held, tossed, out, grids.games(), []), []).interval


def coverage_only(sessions: int, seed: int, loads: list[float], report: Callable[[str], None] = print) -> None:
    """Per load, how often the load effect's 95 % interval holds the true shift over ``sessions`` fair
    sessions of ``3 L`` tosses (``L`` as ``run`` finds it), played in batches to bound memory."""
    rng = np.random.default_rng(seed)
    for load, _, length, started in _promised_loads(loads, rng, report):
        tosses = 3 * length
        inside: list[bool] = []
        while len(inside) < sessions:
            batch = min(COVERAGE_BATCH, sessions - len(inside))
            grids = play(tower(load), batch, tosses, rng)
            for s in range(batch):
                interval = load_interval(grids, s)
                inside.append(interval is not None and interval[0] <= load <= interval[1])
        report(f"load {load:+.2f}: the load effect's 95 % interval at 3 L = {tosses} tosses holds {load}: "
               f"{share(inside)} ({sessions} sessions, seed {seed}, {time.perf_counter() - started:.0f} s)")


def _mean_held(load: float, rng: np.random.Generator) -> float:
    """The tower's mean fill level over 4 sessions of 480 tosses (how clogged this load makes it)."""
    grids = play(tower(load), 4, 480, rng)
    return float(grids.held_before.sum(axis=2).mean())


def main() -> None:
    """``python -m companion.fairness.study_load``."""
    parser = argparse.ArgumentParser(description="error rates on a tower with favoured colours and a load effect")
    parser.add_argument("--sessions", type=int, default=60, help="sessions per setting (default 60)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--loads", type=float, nargs="+", default=[-0.08, -0.15, 0.0],
                        help="logit shifts per piece held (default -0.08 -0.15 0: the audit's two and none)")
    parser.add_argument("--coverage-only", action="store_true",
                        help="measure only the load effect's interval coverage (use many --sessions, e.g. 500)")
    args = parser.parse_args()
    (coverage_only if args.coverage_only else run)(args.sessions, args.seed, args.loads)


if __name__ == "__main__":
    main()
