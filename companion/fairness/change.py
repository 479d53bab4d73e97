"""Change detection: has one colour's release changed part-way through the log (a dented tower)?

A colour that turns stickier half-way hides in the whole-log tests: its early tosses pull its rates
back towards the rest. A CUSUM (Page, 1954) per colour and direction watches for it.

What it watches is robust to the tower's own moods. For each toss and colour, the residual
``e = out - tossed p_new - held p_held`` (pooled rates from ``moments``) has mean zero while the
colour behaves, and each toss's colours share whatever shook that toss (pieces that move together,
a fuller tower that holds more). So each colour's residual is compared with its toss-mates':
``e_c - w_c E`` with ``E`` the toss's summed residual and ``w_c`` the colour's share of the toss's
binomial variance. A colour ``SHIFT`` stickier in both rates moves that contrast by about ``-SHIFT
(tossed + held)(1 - w_c)``. The increments are the Gaussian log-likelihood ratio of that shift,
scaled by an over-dispersion factor (the per-game variance of the contrasts over their binomial
variance, pooled over the colours, at least 1), so the walk is the same on a tower whose pieces stick
together.

The running sum ``W`` drifts down while the colour behaves and up once it has changed; the CUSUM
``S_t = W_t - min(0, min_{s<=t} W_s)`` is how far it has climbed since its lowest point, and the
toss after that lowest point is where the change most likely began. An alarm is raised when ``S_t``
exceeds ``threshold(t) = H0 + GROWTH * log(1 + t / T0)``: a fixed level would be crossed by a fair
tower sooner or later; the slowly growing one keeps the total over an unbounded log finite. ``H0``
was set with the error-rate study (``python -m companion.fairness.study``) so that fair towers read
for three times the promised length raise a change alarm in at most about ``ALPHA_CHANGE`` of
sessions, over all 12 colours and both directions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.two_rate import Counts

SHIFT = 0.10
ALPHA_CHANGE = 0.02
H0 = 9.5
GROWTH = 2.0
T0 = 1000.0


@dataclass(frozen=True)
class ChangeAlarm:
    """A colour whose release changed: direction, the toss the alarm went off, where it began."""

    colour: str
    direction: str
    alarm_toss: int
    start_toss: int
    statistic: float


def threshold(tosses: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The alarm level after ``tosses`` tosses (1-based)."""
    return H0 + GROWTH * np.log1p(tosses / T0)


def change_alarms(
    held: Counts, tossed: Counts, out: Counts,
    game: npt.NDArray[np.int64], p_new: float, p_held: float,
) -> list[ChangeAlarm]:
    """The first alarm of each colour and direction over a layer's ``(tosses, 12)`` grids (``game``
    codes each toss's game), at the pooled rates (p_new, p_held)."""
    tosses = held.shape[0]
    colours = held.shape[1] if held.ndim == 2 else 0

    def column(c: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        # single precision: a million tosses' per-colour arrays stay at 4 MB each
        i, b = tossed[:, c].astype(np.float32), held[:, c].astype(np.float32)
        residual = out[:, c] - i * np.float32(p_new) - b * np.float32(p_held)
        variance = i * np.float32(p_new * (1 - p_new)) + b * np.float32(p_held * (1 - p_held))
        return residual.astype(np.float32), variance, i + b

    # the toss's totals over colours (the residual and variance are linear in the counts, so from
    # the row sums: one pass over each grid instead of one per colour)
    if not colours:
        return []
    tossed_all, held_all = (a.sum(axis=1, dtype=np.float32) for a in (tossed, held))
    toss_residual = out.sum(axis=1, dtype=np.float32) - tossed_all * np.float32(p_new) - held_all * np.float32(p_held)
    toss_variance = tossed_all * np.float32(p_new * (1 - p_new)) + held_all * np.float32(p_held * (1 - p_held))
    del tossed_all, held_all
    safe_total = np.where(toss_variance > 0, toss_variance, np.float32(1.0))
    del toss_variance
    game_codes = game - int(game.min()) if tosses else game  # codes for bincount (gaps cost nothing)

    def contrast(c: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        residual, variance, exposed = column(c)
        share = variance / safe_total
        kept = 1 - share
        return ((residual - share * toss_residual).astype(np.float32), (variance * kept).astype(np.float32),
                (np.float32(SHIFT) * exposed * kept).astype(np.float32))

    per_game_squares = expected = 0.0
    for c in range(colours):  # over-dispersion, pooled over colours (a stray one barely moves it)
        differences, variance, _ = contrast(c)
        per_game_squares += float(np.sum(np.bincount(game_codes, weights=differences) ** 2))
        expected += float(variance.sum(dtype=np.float64))
    dispersion = max(1.0, per_game_squares / expected) if expected > 0 else 1.0
    levels = threshold(np.arange(1, tosses + 1, dtype=np.float64))
    alarms = []
    for c in range(colours):
        differences, variance, signal = contrast(c)
        silent = variance <= 0
        # per direction: (+-signal * difference - signal^2 / 2) / variance, in place (bounded memory)
        gain = signal * differences
        gain /= np.maximum(variance, np.float32(1e-12))
        cost = signal * signal
        cost /= np.maximum(variance, np.float32(1e-12)) * np.float32(2.0)
        gain[silent] = 0.0
        cost[silent] = 0.0
        del differences, variance, signal
        for direction, sign in (("stickier", -1.0), ("looser", 1.0)):
            steps = gain * np.float32(sign)
            steps -= cost
            walk = np.cumsum(steps, dtype=np.float64)
            del steps
            walk /= dispersion
            alarm = _first_alarm(walk, levels)
            if alarm is not None:
                alarms.append(ChangeAlarm(COLOURS[c], direction, *alarm))
    return sorted(alarms, key=lambda a: a.alarm_toss)


def _first_alarm(walk: npt.NDArray[np.float64], levels: npt.NDArray[np.float64]) -> tuple[int, int, float] | None:
    """(alarm toss, start toss, statistic) of the first crossing of the CUSUM of ``walk``, 1-based."""
    lowest = np.minimum(walk, 0.0)
    np.minimum.accumulate(lowest, out=lowest)
    excess = walk - lowest
    excess -= levels
    above = np.flatnonzero(excess > 0)
    del excess
    if above.size == 0:
        return None
    alarm = int(above[0])
    low = lowest[alarm]
    # the toss after the lowest point of the walk before the alarm is where the change began
    start = int(np.flatnonzero(walk[: alarm + 1] == low)[-1]) + 2 if low < 0 else 1
    return alarm + 1, start, float(walk[alarm] - low)


def describe(alarm: ChangeAlarm) -> str:
    """The alarm in player words."""
    if alarm.start_toss == 1:
        return (f"{alarm.colour} has been {alarm.direction} than the rest from the start "
                f"(noticed at toss {alarm.alarm_toss})")
    return (f"{alarm.colour} became {alarm.direction} from about toss {alarm.start_toss} "
            f"(noticed at toss {alarm.alarm_toss})")
