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
from collections.abc import Callable, Iterator, Sequence
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
#: strided colour at a time. A block ends where a game does if one ends within another
#: ``BLOCK_ROWS`` tosses (``_blocks``), so a game's sums are formed in one go, as one pass over the
#: log forms them.
BLOCK_ROWS = 1 << 13


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
    del segment, basis  # 16 MB per million tosses (the blocks know their segment)
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

    def steps(contrasted: tuple[Floats, Floats, Contrasted], scale: np.float32) -> Floats:
        """The walks' increments, stickier then looser for each contrasted colour: per direction
        (+-signal * difference - signal^2 / 2) / variance, over the basis over-dispersion (``scale``
        is its inverse)."""
        differences, variance, inputs = contrasted
        shifts = signal(inputs)
        weight = scale / np.maximum(variance, np.float32(1e-12))
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

    # One pass over the log: each block's contrasts (all colours at once) feed the over-dispersion
    # of its look segment and then the walks. A toss is judged by the over-dispersion up to the look
    # before it, which the blocks before (and, for the block that ends a segment, this block) have
    # completed; the tosses up to the first look are judged by the first look's, so that segment is
    # one block.
    codes = game - int(game.min())
    dispersion = _Dispersion(colours)
    spread = np.ones(looks.size)
    walks = _Walks(2 * colours)
    scaled: list[tuple[slice, np.float32]] = []  # each block and its scale, for a crossing walk's second pass
    for rows, look_segment, ends_segment in _blocks(looks, codes, tosses):
        contrasted = contrast(rows, slice(None))
        dispersion.add(codes[rows], contrasted[0], contrasted[1])
        if ends_segment:
            spread[look_segment] = dispersion.close_segment()
        scale = np.float32(1.0 / spread[max(look_segment - 1, 0)])
        walks.add(rows, steps(contrasted, scale))
        scaled.append((rows, scale))
    del codes  # 8 MB per million tosses, not kept through a crossing walk's pass
    alarms = []
    if walks.crossed.any():
        levels = _levels(0, tosses)
    for colour, direction in sorted((c % colours, c // colours) for c in np.flatnonzero(walks.crossed).tolist()):
        # a walk that crosses is walked alone over the whole log, for where its change began
        walk = _walk(scaled, functools.partial(_one_walk, steps, contrast, colour, direction))
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


def _blocks(
    looks: npt.NDArray[np.int64], games: npt.NDArray[np.int64], tosses: int
) -> Iterator[tuple[slice, int, bool]]:
    """The log in blocks of about ``BLOCK_ROWS`` tosses: (rows, their look segment, whether the block
    ends the segment). No block spans two segments; the first segment (up to the first look) is one
    block; a block is stretched by up to ``BLOCK_ROWS`` tosses to end where a game does."""
    bounds = [0, *(int(look) for look in looks), tosses]
    game_starts = np.flatnonzero(games[1:] != games[:-1]) + 1
    for segment, (start, end) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        while start < end:
            stop = end if segment == 0 else min(start + BLOCK_ROWS, end)
            later = game_starts[np.searchsorted(game_starts, stop):][:1]
            cut = min(int(later[0]), end) if later.size else end
            if cut <= stop + BLOCK_ROWS:
                stop = cut
            yield slice(start, stop), segment, stop == end and segment < looks.size
            start = stop


class _Dispersion:
    """The over-dispersion factor look by look, from each block's contrasts as the pass forms them:
    the per-game variance of the contrasts over their binomial variance, over the tosses up to the
    look, pooled over colours (a stray one barely moves it), at least 1. A game that a look cuts
    counts as two (what was known at the look).

    The sums are added in the order a sum over the whole log takes them (game by game, each game's
    tosses in order; colour by colour), so the factor does not depend on where the blocks end,
    except for a game whose tosses are not together (not one run) or run past a block's stretch:
    its parts are added as sums of their own, which moves its sum by round-off."""

    def __init__(self, colours: int) -> None:
        self._run_games: list[npt.NDArray[np.int64]] = []  # the current segment's runs of one game
        self._run_sums: list[npt.NDArray[np.float64]] = []  # and each run's summed contrasts, per colour
        self._expected = np.zeros(colours)  # the current segment's binomial variance, per colour
        self._squares = 0.0  # over the segments closed so far
        self._variance = 0.0

    def add(self, games: npt.NDArray[np.int64], differences: Floats, variance: Floats) -> None:
        """A block's contrasts and their variances, ``(tosses, colours)``, and each toss's game."""
        starts = np.flatnonzero(np.concatenate(([True], games[1:] != games[:-1])))
        self._run_games.append(games[starts])
        self._run_sums.append(np.add.reduceat(differences.astype(np.float64), starts, axis=0))
        # the running sum carried from block to block (sequential, as one sum over the segment)
        carried = np.concatenate((self._expected[None], variance.astype(np.float64)))
        self._expected = np.cumsum(carried, axis=0)[-1]

    def close_segment(self) -> float:
        """The factor up to the look that ends the blocks added since the last call."""
        games = np.concatenate(self._run_games)
        order = np.argsort(games, kind="stable")
        games = games[order]
        firsts = np.flatnonzero(np.concatenate(([True], games[1:] != games[:-1])))
        per_game = np.add.reduceat(np.concatenate(self._run_sums)[order], firsts, axis=0)
        squares = np.cumsum(per_game**2, axis=0)[-1]  # game by game, in order of their codes
        segment_squares = segment_variance = 0.0  # colour by colour, then added to the looks before
        for colour_squares, colour_variance in zip(squares.tolist(), self._expected.tolist(), strict=True):
            segment_squares += colour_squares
            segment_variance += colour_variance
        self._squares += segment_squares
        self._variance += segment_variance
        self._run_games, self._run_sums = [], []
        self._expected = np.zeros_like(self._expected)
        return max(self._squares / self._variance, 1.0) if self._variance > 0 else 1.0


class _Walks:
    """Every colour's CUSUM in both directions, block by block: each walk's running sum and lowest
    point carried from block to block (so every value is the one a walk over the whole log gives),
    and whether it has crossed its level (``_levels``) yet."""

    def __init__(self, walks: int) -> None:
        self._total = np.zeros(walks)  # each walk's sum so far
        self._low = np.zeros(walks)  # each walk's lowest point so far, 0 at the start
        self.crossed = np.zeros(walks, dtype=bool)

    def add(self, rows: slice, steps: Floats) -> None:
        """The next block's steps, ``(tosses, walks)``."""
        running = np.empty((rows.stop - rows.start + 1, steps.shape[1]))
        running[0] = self._total
        running[1:] = steps
        np.cumsum(running, axis=0, out=running)
        self._total = running[-1].copy()
        walk = running[1:]
        lowest = np.minimum(walk, 0.0)
        np.minimum(lowest[0], self._low, out=lowest[0])
        np.minimum.accumulate(lowest, axis=0, out=lowest)
        self._low = lowest[-1].copy()
        walk -= lowest
        walk -= _levels(rows.start, rows.stop)[:, None]
        self.crossed |= (walk > 0).any(axis=0)


def _one_walk(
    steps: Callable[[tuple[Floats, Floats, Contrasted], np.float32], Floats],
    contrast: Callable[[slice, slice], tuple[Floats, Floats, Contrasted]],
    colour: int, direction: int, rows: slice, scale: np.float32,
) -> Floats:
    """The steps of one colour's walk in one direction over ``rows``."""
    return steps(contrast(rows, slice(colour, colour + 1)), scale)[:, direction]


def _walk(
    blocks: list[tuple[slice, np.float32]], steps: Callable[[slice, np.float32], Floats]
) -> npt.NDArray[np.float64]:
    """One walk's running sum over all blocks (each with its scale), its steps formed a block at a
    time (a million tosses' single walk needs 8 MB, not the 40 MB of its whole contrast at once); the
    sum is carried from block to block, so every value is the one a cumulative sum over the whole
    log gives."""
    walk = np.empty(blocks[-1][0].stop if blocks else 0)
    total = 0.0
    for rows, scale in blocks:
        running = np.empty(rows.stop - rows.start + 1)
        running[0] = total
        running[1:] = steps(rows, scale)
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
