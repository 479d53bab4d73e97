"""Change detection: has one colour's release changed part-way through the log (a dented tower)?

A colour that turns stickier half-way hides in the whole-log tests: its early tosses pull its rates
back towards the rest. A CUSUM (Page, 1954) per colour and direction watches for it.

What it watches is robust to the tower's own moods. For each toss and colour, the residual
``e = out - tossed p_new - held p_held`` (pooled rates from ``moments``) has mean zero while the
colour behaves, and each toss's colours share whatever shook that toss (pieces that move together,
a fuller tower that holds more). So each colour's residual is compared with its toss-mates':
``e_c - w_c E`` with ``E`` the toss's summed residual and ``w_c`` the colour's share of the toss's
binomial variance. A colour ``SHIFT`` stickier in both rates moves that contrast by about ``-SHIFT
(tossed + held)(1 - w_c)``, or less where a rate is below ``SHIFT`` (a rate never goes below 0: in a
tower that grips harder when fuller, late in a game). The increments are the Gaussian log-likelihood
ratio of that shift, scaled by an over-dispersion factor (the per-game variance of the contrasts over
their binomial variance, pooled over the colours, at least 1), so the walk is the same on a tower
whose pieces stick together.

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

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.sequential import FIRST_LOOK, look_points
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
#: Colours whose contrasts the over-dispersion keeps at once (8 MB per colour per million tosses: two
#: colours keep the report under its 500 MB at a million tosses).
DISPERSION_COLOURS = 2


def threshold(tosses: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The alarm level after ``tosses`` tosses (1-based)."""
    return H0 + GROWTH * np.log1p(tosses / T0)


#: Single-precision arrays (numpy's typing widens their arithmetic to any float)
Floats = npt.NDArray[np.floating[Any]]
#: A block's contrasts' inputs to the shift's signal: its rows, tossed and held counts, kept share.
Contrasted = tuple[slice, Floats, Floats, Floats]


def change_alarms(
    held: Counts, tossed: Counts, out: Counts,
    game: npt.NDArray[np.int64], rates: Sequence[tuple[float, float]],
    curves: Sequence[tuple[float, float, float] | None] | None = None,
) -> list[ChangeAlarm]:
    """The first alarm of each colour and direction over a layer's ``(tosses, 12)`` grids (``game``
    codes each toss's game); ``rates[j]`` are the pooled (p_new, p_held) of the tosses up to look
    ``j`` (``sequential.look_points``), one pair per look reached; ``curves[j]``, when given, the
    fill-level curve ``(a_new, a_held, beta)`` fitted there (``fill_level``): a toss is then judged
    at the rates of its own fill level (a tower that grips harder when fuller releases far less late
    in a game, and constant rates would weigh those tosses wrongly).

    **Read after read, the same alarms.** Each toss is judged with what was known at the latest
    look before it (``basis``): the rates and the over-dispersion of the tosses up to that look
    (the tosses up to the first look with the first look's). So the walks up to any toss depend on
    the tosses up to it alone: an alarm, once raised, is raised again by every later read, at the
    same toss, and a later read never finds an alarm at a toss an earlier read had already passed.
    Before the first look nothing is known and no alarm is raised.

    All colours and both directions are walked together, a block of tosses at a time (the walks'
    running sums and lows carried from block to block, so every value is the one a walk over the
    whole log gives); only a walk that crosses its level is then walked alone, whole, to find where
    its change began.
    """
    tosses = held.shape[0]
    colours = held.shape[1] if held.ndim == 2 else 0
    looks = np.array(look_points(tosses), dtype=np.int64)
    if not colours or looks.size == 0 or len(rates) < looks.size:
        return []
    # the look each toss is judged by, and the look segment it belongs to (both 0-based)
    segment = np.searchsorted(looks, np.arange(1, tosses + 1), side="left")
    basis = np.maximum(segment - 1, 0)
    known = np.array(rates[: looks.size], dtype=np.float64)
    p_new = known[basis, 0].astype(np.float32)[:, None]
    p_held = known[basis, 1].astype(np.float32)[:, None]
    along_curve = False
    if curves is not None and all(curve is not None for curve in curves[: looks.size]):
        along_curve = True
        theta = np.array(curves[: looks.size], dtype=np.float64)[basis]
        level = held.sum(axis=1, dtype=np.float64)
        p_new, p_held = (
            (1.0 / (1.0 + np.exp(-(theta[:, k] + theta[:, 2] * level)))).astype(np.float32)[:, None] for k in (0, 1)
        )
        del theta, level  # 32 MB per million tosses, not kept through the walks
    # the shift a colour SHIFT stickier (looser) can really have: its rate never goes below 0 (above 1).
    # In a clogged tower a held piece falls with a few per cent; walking such tosses as if the colour
    # could be a full SHIFT stickier there charged each of them more than the dent can repay, and
    # the walks of a dented colour went down instead of up (a dent in 0 of 40 clogging sessions)
    # (``reach`` and ``rate_variances`` are formed a block of tosses at a time, as the contrasts are:
    # kept whole they would be 24 MB per million tosses)
    def reach(rows: slice) -> list[tuple[Floats, Floats]]:
        return [(np.minimum(p[rows], np.float32(SHIFT)), np.minimum(1 - p[rows], np.float32(SHIFT)))
                for p in (p_new, p_held)]

    # along a curve, the variance at rates kept within [SHIFT, 1 - SHIFT]: the walk's Gaussian steps
    # stand for a binomial only while its rate is not near 0 or 1 (one piece falling where the curve
    # expects one in a million would otherwise be a jump no level holds; a clogged tower read so
    # raised alarms in every session); the residuals stay at the curve's own rates (unbiased)
    def rate_variances(rows: slice) -> list[Floats]:
        return [q * (1 - q) for q in (np.clip(p[rows], np.float32(SHIFT), np.float32(1 - SHIFT)) if along_curve
                                      else p[rows] for p in (p_new, p_held))]

    # the toss's totals over colours (the residual and variance are linear in the counts, so from
    # the row sums: one pass over each grid instead of one per colour)
    tossed_all, held_all = (a.sum(axis=1, dtype=np.float32)[:, None] for a in (tossed, held))
    toss_residual = out.sum(axis=1, dtype=np.float32)[:, None] - tossed_all * p_new - held_all * p_held
    new_var, held_var = rate_variances(slice(None))
    toss_variance = tossed_all * new_var + held_all * held_var
    del tossed_all, held_all, new_var, held_var
    safe_total = np.where(toss_variance > 0, toss_variance, np.float32(1.0))
    del toss_variance

    def contrast(rows: slice, cols: slice) -> tuple[Floats, Floats, Contrasted]:
        """Each colour's contrast with its toss-mates and its variance (single precision: a million
        tosses' arrays stay at 4 MB per colour), and what ``signal`` needs for the same tosses."""
        i, b = tossed[rows, cols].astype(np.float32), held[rows, cols].astype(np.float32)
        residual = out[rows, cols] - i * p_new[rows] - b * p_held[rows]
        new_var, held_var = rate_variances(rows)
        variance = i * new_var + b * held_var
        share = variance / safe_total[rows]
        kept = 1 - share
        return residual - share * toss_residual[rows], variance * kept, (rows, i, b, kept)

    def signal(contrasted: Contrasted) -> Floats:
        """The shift's signal on each colour's contrast, stickier then looser (only the walks need it,
        not the over-dispersion)."""
        rows, i, b, kept = contrasted
        (new_stickier, new_looser), (held_stickier, held_looser) = reach(rows)
        signals = [(i * new_stickier + b * held_stickier) * kept, (i * new_looser + b * held_looser) * kept]
        return np.concatenate(signals, axis=1)

    codes = game - int(game.min())
    spread = _dispersions(contrast, colours, codes, segment, looks.size)
    scale = (1.0 / spread[basis]).astype(np.float32)[:, None]
    del codes, segment, basis  # 24 MB per million tosses, not kept through the walks

    def steps(rows: slice, cols: slice) -> Floats:
        """The walks' increments, stickier then looser for each colour of ``cols``: per direction
        (+-signal * difference - signal^2 / 2) / variance, over the toss's basis over-dispersion."""
        differences, variance, contrasted = contrast(rows, cols)
        shifts = signal(contrasted)
        weight = scale[rows] / np.maximum(variance, np.float32(1e-12))
        weight[variance <= 0] = 0.0
        width = differences.shape[1]
        result: Floats = np.empty_like(shifts)
        for d, (sign, _) in enumerate(_DIRECTIONS):
            shift, walk = (a[:, d * width: (d + 1) * width] for a in (shifts, result))
            np.multiply(shift, np.float32(-0.5), out=walk)
            walk += differences if sign > 0 else -differences
            walk *= shift
            walk *= weight
        return result

    blocks = [slice(start, min(start + BLOCK_ROWS, tosses)) for start in range(0, tosses, BLOCK_ROWS)]
    crossed = _crossing_walks(blocks, lambda rows: steps(rows, slice(None)), 2 * colours)
    alarms = []
    if crossed:
        levels = _levels(0, tosses)
    for colour, direction in sorted((c % colours, c // colours) for c in crossed):
        # a walk that crosses is walked alone over the whole log, for where its change began
        walk = _walk(blocks, functools.partial(_one_walk, steps, colour, direction))
        alarm = _first_alarm(walk, levels)
        if alarm is not None:
            alarms.append(ChangeAlarm(COLOURS[colour], _DIRECTIONS[direction][1], *alarm))
    return sorted(alarms, key=lambda a: a.alarm_toss)


def _levels(start: int, stop: int) -> npt.NDArray[np.float64]:
    """The alarm level of tosses ``start + 1`` to ``stop``: ``threshold``, and out of reach before
    the first look (nothing is known yet)."""
    tosses = np.arange(start + 1, stop + 1, dtype=np.float64)
    return np.where(tosses < FIRST_LOOK, np.inf, threshold(tosses))


_DIRECTIONS = ((-1.0, "stickier"), (1.0, "looser"))


def _dispersions(
    contrast: Callable[[slice, slice], tuple[Floats, Floats, Contrasted]], colours: int,
    game_codes: npt.NDArray[np.int64], segment: npt.NDArray[np.int64], looks: int,
) -> npt.NDArray[np.float64]:
    """Per look, the over-dispersion factor of the tosses up to it: the per-game variance of the
    contrasts over their binomial variance, pooled over colours (a stray one barely moves it), at
    least 1. A game that a look cuts counts as two (what was known at the look).

    The contrasts are formed a block of tosses at a time for ``DISPERSION_COLOURS`` colours at once
    (a million tosses' copies stay at 32 MB)."""
    tosses = segment.shape[0]
    key = game_codes * (looks + 1) + segment
    squares = np.zeros(looks + 1)
    expected = np.zeros(looks + 1)
    part_segment = np.arange(int(key.max()) + 1 if tosses else 0) % (looks + 1)
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
            per_part = np.bincount(key, weights=differences[c], minlength=part_segment.shape[0])
            squares += np.bincount(part_segment, weights=per_part**2, minlength=looks + 1)
            expected += np.bincount(segment, weights=variances[c], minlength=looks + 1)
        del differences, variances
    squares, expected = np.cumsum(squares[:looks]), np.cumsum(expected[:looks])
    ratio = np.divide(squares, expected, out=np.ones(looks), where=expected > 0)
    return np.maximum(ratio, 1.0)


def _crossing_walks(blocks: list[slice], steps: Callable[[slice], Floats], walks: int) -> list[int]:
    """The columns of ``steps`` whose CUSUM (running sum over all blocks) crosses its level
    (``_levels``) somewhere, in column order."""
    total = np.zeros(walks)  # each walk's sum so far
    low = np.zeros(walks)  # each walk's lowest point so far, 0 at the start
    crossed = np.zeros(walks, dtype=bool)
    for rows in blocks:
        running = np.empty((rows.stop - rows.start + 1, walks))
        running[0] = total
        running[1:] = steps(rows)
        np.cumsum(running, axis=0, out=running)
        total = running[-1].copy()
        walk = running[1:]
        lowest = np.minimum(walk, 0.0)
        np.minimum(lowest[0], low, out=lowest[0])
        np.minimum.accumulate(lowest, axis=0, out=lowest)
        low = lowest[-1].copy()
        walk -= lowest
        walk -= _levels(rows.start, rows.stop)[:, None]
        crossed |= (walk > 0).any(axis=0)
    return [int(c) for c in np.flatnonzero(crossed)]


def _one_walk(steps: Callable[[slice, slice], Floats], colour: int, direction: int, rows: slice) -> Floats:
    """The steps of one colour's walk in one direction over ``rows``."""
    return steps(rows, slice(colour, colour + 1))[:, direction]


def _walk(blocks: list[slice], steps: Callable[[slice], Floats]) -> npt.NDArray[np.float64]:
    """One walk's running sum over all blocks, its steps formed a block at a time (a million tosses'
    single walk needs 8 MB, not the 40 MB of its whole contrast at once); the sum is carried from
    block to block, so every value is the one a cumulative sum over the whole log gives."""
    walk = np.empty(blocks[-1].stop if blocks else 0)
    total = 0.0
    for rows in blocks:
        running = np.empty(rows.stop - rows.start + 1)
        running[0] = total
        running[1:] = steps(rows)
        np.cumsum(running, out=running)
        walk[rows] = running[1:]
        total = float(running[-1])
    return walk


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
