"""How fast *any* monitor could find a mid-session dent: the oracle CUSUM on the study tower.

Issue 13 asks that a colour dented by 10 points in both rates from toss 312 be found within 300
tosses in 80 % of sessions, with at most 5 % false alarms. The change monitor (``change``) finds it
in about half. This module measures what the best possible monitor would do, to tell whether the
target can be met at all. The oracle knows everything the real monitor must estimate: the true
rates before the dent, the dent's exact size, and for every toss how many pieces of each colour
were tossed in and held; it uses the exact likelihood ratio of the pieces out (the sum of two
binomials), so by Moustakides' theorem its CUSUM detects a change of exactly this kind, at a given
false-alarm rate, as fast as any procedure can. It still does not know which colour will be
dented or in which direction, so it watches 12 colours × 2 directions, as the report must.

Run: ``python -m companion.fairness.dent_bound [--sessions 400] [--seed 7] [--long-sessions 100]``.
It plays fair and dented sessions of ``study.DENT_AT + study.DENT_WINDOW`` (612) tosses and sets the
oracle's level so that 5 % of fair sessions raise any alarm by then (all of the false-alarm budget
spent on those first 612 tosses: far more lenient than the report, which must stay quiet over
thousands), then so that 5 % raise one within the study's 3 L (``--horizon``); for each it reports
the share of dented sessions caught by toss 612, and the level 80 % of them would need with its
false alarms.
"""

from __future__ import annotations

import argparse

import numpy as np
import numpy.typing as npt
from scipy import stats

from companion.fairness.study import DENT_AT, DENT_WINDOW
from companion.fairness.study_tower import StudyGrids, StudyTower, play

SHIFT = 0.10
FALSE_ALARMS = 0.05
TARGET = 0.80


def log_pmf(p_new: float, p_held: float, most_in: int, most_held: int) -> npt.NDArray[np.float64]:
    """``table[i, b, k]``: log P(k pieces out | i tossed in, b held) for independent pieces."""
    table = np.full((most_in + 1, most_held + 1, most_in + most_held + 1), -np.inf)
    for i in range(most_in + 1):
        new = stats.binom.pmf(np.arange(i + 1), i, p_new)
        for b in range(most_held + 1):
            pmf = np.convolve(new, stats.binom.pmf(np.arange(b + 1), b, p_held))
            with np.errstate(divide="ignore"):
                table[i, b, : i + b + 1] = np.log(pmf)
    return table


def cusum_peaks(grids: StudyGrids, tower: StudyTower) -> npt.NDArray[np.float64]:
    """Per session, colour and direction (stickier, looser): the highest value the oracle CUSUM of
    "both rates ``SHIFT`` lower (higher)" reaches over the session, ``(sessions, 12, 2)``."""
    tossed, held, out = (a.astype(np.int64) for a in (grids.pieces_in, grids.held_before, grids.pieces_out))
    most_in, most_held = int(tossed.max()), int(held.max())
    fair = log_pmf(tower.p_new, tower.p_held, most_in, most_held)
    shifted = [log_pmf(tower.p_new + sign * SHIFT, tower.p_held + sign * SHIFT, most_in, most_held)
               for sign in (-1.0, 1.0)]
    walk = np.zeros(tossed.shape[::2] + (2,))
    peak = np.zeros_like(walk)
    for t in range(tossed.shape[1]):
        cells = (tossed[:, t], held[:, t], out[:, t])
        base = fair[cells]
        for d, table in enumerate(shifted):
            walk[:, :, d] = np.maximum(0.0, walk[:, :, d] + table[cells] - base)
        np.maximum(peak, walk, out=peak)
    return peak


def information_per_toss(grids: StudyGrids, colour: npt.NDArray[np.int64], tower: StudyTower) -> float:
    """Mean Kullback-Leibler information per toss (nats) the dented colour's pieces out carry about
    the dent, over the tosses after it (what any monitor has to work with)."""
    sessions = np.arange(colour.shape[0])
    tossed = grids.pieces_in[sessions, DENT_AT:, colour.tolist()].astype(np.int64)
    held = grids.held_before[sessions, DENT_AT:, colour.tolist()].astype(np.int64)
    most_in, most_held = int(tossed.max()), int(held.max())
    fair = log_pmf(tower.p_new, tower.p_held, most_in, most_held)
    dented = log_pmf(tower.p_new - SHIFT, tower.p_held - SHIFT, most_in, most_held)
    with np.errstate(invalid="ignore"):
        terms = np.where(np.isfinite(dented), np.exp(dented) * (dented - fair), 0.0)
    kl = terms.sum(axis=2)
    return float(kl[tossed, held].mean())


def run(sessions: int, seed: int, long_sessions: int, horizon: int) -> dict[str, float]:
    """Play fair and dented sessions and measure the oracle (see the module docstring); the level
    is set twice: for 5 % false alarms by the dent's deadline, and by ``horizon`` tosses (the
    study's 3 L, over ``long_sessions`` fair sessions played in blocks of 50)."""
    rng = np.random.default_rng(seed)
    tosses = DENT_AT + DENT_WINDOW
    tower = StudyTower()
    fair_peaks = cusum_peaks(play(tower, sessions, tosses, rng), tower)
    colour = rng.integers(0, fair_peaks.shape[1], size=sessions)
    dent = StudyTower(new_shift=-SHIFT, held_shift=-SHIFT, shift_from=DENT_AT)
    dented_grids = play(dent, sessions, tosses, rng, colour)
    dented_peaks = cusum_peaks(dented_grids, tower)[np.arange(sessions), colour, 0]
    long_peaks = np.concatenate([
        cusum_peaks(play(tower, min(50, long_sessions - start), horizon, rng), tower).max(axis=(1, 2))
        for start in range(0, long_sessions, 50)
    ])
    short_peaks = fair_peaks.max(axis=(1, 2))
    level_short = float(np.quantile(short_peaks, 1 - FALSE_ALARMS))
    level_long = float(np.quantile(long_peaks, 1 - FALSE_ALARMS))
    needed = float(np.quantile(dented_peaks, 1 - TARGET))
    return {
        "information per toss after the dent (nats)": information_per_toss(dented_grids, colour, tower),
        f"level for 5 % false alarms by toss {tosses}": level_short,
        "  dents found by then at that level": float(np.mean(dented_peaks >= level_short)),
        f"level for 5 % false alarms by toss {horizon}": level_long,
        "  dents found at that level": float(np.mean(dented_peaks >= level_long)),
        "level that finds 80 % of dents": needed,
        f"  false alarms at that level by toss {tosses}": float(np.mean(short_peaks >= needed)),
        f"  false alarms at that level by toss {horizon}": float(np.mean(long_peaks >= needed)),
    }


def main() -> None:
    """``python -m companion.fairness.dent_bound``."""
    parser = argparse.ArgumentParser(description="the oracle CUSUM's detection of a mid-session dent")
    parser.add_argument("--sessions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--long-sessions", type=int, default=100, help="fair sessions of --horizon tosses")
    parser.add_argument("--horizon", type=int, default=3 * 9226, help="the study's 3 L (default 27,678)")
    args = parser.parse_args()
    for name, value in run(args.sessions, args.seed, args.long_sessions, args.horizon).items():
        print(f"{name}: {value:.3f}")


if __name__ == "__main__":
    main()
