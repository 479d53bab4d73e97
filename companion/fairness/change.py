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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.two_rate import Counts
from companion.i18n import Msg, colour_name, word

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


#: Tosses handled at once when all colours are treated together: a block's arrays (24 walks in double
#: precision) stay within the processor's cache, and numpy works on whole rows instead of on one
#: strided colour at a time.
BLOCK_ROWS = 1 << 13
#: Colours whose contrasts the over-dispersion keeps at once (4 MB per colour per million tosses).
DISPERSION_COLOURS = 4


def threshold(tosses: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The alarm level after ``tosses`` tosses (1-based)."""
    return H0 + GROWTH * np.log1p(tosses / T0)


#: Single-precision arrays (numpy's typing widens their arithmetic to any float)
Floats = npt.NDArray[np.floating[Any]]


def change_alarms(
    held: Counts, tossed: Counts, out: Counts,
    game: npt.NDArray[np.int64], p_new: float, p_held: float,
) -> list[ChangeAlarm]:
    """The first alarm of each colour and direction over a layer's ``(tosses, 12)`` grids (``game``
    codes each toss's game), at the pooled rates (p_new, p_held).

    All colours and both directions are walked together, a block of tosses at a time (the walks'
    running sums and lows carried from block to block, so every value is the one a walk over the
    whole log gives); only a walk that crosses its level is then walked alone, whole, to find where
    its change began.
    """
    tosses = held.shape[0]
    colours = held.shape[1] if held.ndim == 2 else 0
    if not colours:
        return []
    # the toss's totals over colours (the residual and variance are linear in the counts, so from
    # the row sums: one pass over each grid instead of one per colour)
    tossed_all, held_all = (a.sum(axis=1, dtype=np.float32) for a in (tossed, held))
    toss_residual = out.sum(axis=1, dtype=np.float32) - tossed_all * np.float32(p_new) - held_all * np.float32(p_held)
    toss_variance = tossed_all * np.float32(p_new * (1 - p_new)) + held_all * np.float32(p_held * (1 - p_held))
    del tossed_all, held_all
    safe_total = np.where(toss_variance > 0, toss_variance, np.float32(1.0))
    del toss_variance

    def contrast(rows: slice, cols: slice) -> tuple[Floats, Floats, Floats]:
        """Each colour's contrast with its toss-mates, its variance and the shift's signal (single
        precision: a million tosses' arrays stay at 4 MB per colour)."""
        i, b = tossed[rows, cols].astype(np.float32), held[rows, cols].astype(np.float32)
        residual = out[rows, cols] - i * np.float32(p_new) - b * np.float32(p_held)
        variance = i * np.float32(p_new * (1 - p_new)) + b * np.float32(p_held * (1 - p_held))
        share = variance / safe_total[rows, None]
        kept = 1 - share
        return (residual - share * toss_residual[rows, None], variance * kept,
                np.float32(SHIFT) * (i + b) * kept)

    def steps(rows: slice, cols: slice) -> Floats:
        """The walks' increments, stickier then looser for each colour of ``cols``: per direction
        (+-signal * difference - signal^2 / 2) / variance."""
        differences, variance, signal = contrast(rows, cols)
        silent = variance <= 0
        gain = signal * differences
        gain /= np.maximum(variance, np.float32(1e-12))
        cost = signal * signal
        cost /= np.maximum(variance, np.float32(1e-12)) * np.float32(2.0)
        gain[silent] = 0.0
        cost[silent] = 0.0
        return np.concatenate([gain * np.float32(sign) - cost for sign, _ in _DIRECTIONS], axis=1)

    dispersion = _dispersion(contrast, tosses, colours, game - int(game.min()) if tosses else game)
    blocks = [slice(start, min(start + BLOCK_ROWS, tosses)) for start in range(0, tosses, BLOCK_ROWS)]
    crossed = _crossing_walks(blocks, lambda rows: steps(rows, slice(None)), 2 * colours, dispersion)
    alarms = []
    if crossed:
        levels = threshold(np.arange(1, tosses + 1, dtype=np.float64))
    for colour, direction in sorted((c % colours, c // colours) for c in crossed):
        # a walk that crosses is walked alone over the whole log, for where its change began
        walk = np.cumsum(steps(slice(None), slice(colour, colour + 1))[:, direction], dtype=np.float64)
        walk /= dispersion
        alarm = _first_alarm(walk, levels)
        if alarm is not None:
            alarms.append(ChangeAlarm(COLOURS[colour], _DIRECTIONS[direction][1], *alarm))
    return sorted(alarms, key=lambda a: a.alarm_toss)


_DIRECTIONS = ((-1.0, "stickier"), (1.0, "looser"))


def _dispersion(
    contrast: Callable[[slice, slice], tuple[Floats, Floats, Floats]], tosses: int, colours: int,
    game_codes: npt.NDArray[np.int64],
) -> float:
    """The over-dispersion factor: per-game variance of the contrasts over their binomial variance,
    pooled over colours (a stray one barely moves it), at least 1.

    The contrasts are formed a block of tosses at a time for ``DISPERSION_COLOURS`` colours at once
    and kept colour by colour (contiguous, so each colour's sums are the ones a single colour's array
    gives; a few colours at a time, so a million tosses' copies stay at 32 MB)."""
    per_game_squares = expected = 0.0
    for first in range(0, colours, DISPERSION_COLOURS):
        cols = slice(first, min(first + DISPERSION_COLOURS, colours))
        differences = np.empty((cols.stop - first, tosses), dtype=np.float32)
        variances = np.empty_like(differences)
        for start in range(0, tosses, BLOCK_ROWS):
            rows = slice(start, min(start + BLOCK_ROWS, tosses))
            block_differences, block_variances, _ = contrast(rows, cols)
            differences[:, rows] = block_differences.T
            variances[:, rows] = block_variances.T
        for c in range(differences.shape[0]):
            per_game_squares += float(np.sum(np.bincount(game_codes, weights=differences[c]) ** 2))
            expected += float(variances[c].sum(dtype=np.float64))
        del differences, variances
    return max(1.0, per_game_squares / expected) if expected > 0 else 1.0


def _crossing_walks(
    blocks: list[slice], steps: Callable[[slice], Floats], walks: int, dispersion: float
) -> list[int]:
    """The columns of ``steps`` whose CUSUM (running sum over all blocks, divided by ``dispersion``)
    crosses ``threshold`` somewhere, in column order."""
    total = np.zeros(walks)  # each walk's sum so far (before dividing: the division is per value)
    low = np.zeros(walks)  # each walk's lowest point so far, 0 at the start
    crossed = np.zeros(walks, dtype=bool)
    for rows in blocks:
        running = np.empty((rows.stop - rows.start + 1, walks))
        running[0] = total
        running[1:] = steps(rows)
        np.cumsum(running, axis=0, out=running)
        total = running[-1].copy()
        walk = running[1:]
        walk /= dispersion
        lowest = np.minimum(walk, 0.0)
        np.minimum(lowest[0], low, out=lowest[0])
        np.minimum.accumulate(lowest, axis=0, out=lowest)
        low = lowest[-1].copy()
        walk -= lowest
        walk -= threshold(np.arange(rows.start + 1, rows.stop + 1, dtype=np.float64))[:, None]
        crossed |= (walk > 0).any(axis=0)
    return [int(c) for c in np.flatnonzero(crossed)]


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
    """The alarm in player words (English)."""
    return describe_say(alarm).english()


def describe_say(alarm: ChangeAlarm) -> Msg:
    """The alarm in player words, as a message (the colour and its direction are words too)."""
    colour, direction = colour_name(alarm.colour), word("direction", alarm.direction)  # stickier / looser
    if alarm.start_toss == 1:
        return Msg("{colour} has been {direction} than the rest from the start (noticed at toss {alarm})",
                   colour=colour, direction=direction, alarm=alarm.alarm_toss)
    return Msg("{colour} became {direction} from about toss {start} (noticed at toss {alarm})",
               colour=colour, direction=direction, start=alarm.start_toss, alarm=alarm.alarm_toss)
