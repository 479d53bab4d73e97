"""Drop timing: how long after a toss each piece crosses the exit beam, and how long a burst lasts.

A toss's drop times are milliseconds from the toss. Three distributions matter to a table: the time
to the first drop (is the tower "slow"?), every drop's time (the histogram the dashboard shows), and
the burst length (first to last drop of one toss, and how many pieces it carried).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

HISTOGRAM_BINS = 40
QUANTILES = (0.1, 0.5, 0.9)


@dataclass(frozen=True)
class Distribution:
    """Count, mean and the 10/50/90 % quantiles of a sample (None when it is empty)."""

    count: int
    mean: float | None
    quantiles: dict[str, float | None]


@dataclass(frozen=True)
class DropStats:
    """Drop-time distributions over a set of tosses, with a histogram of every drop time."""

    drops: int
    tosses_with_drops: int
    first_drop_ms: Distribution
    drop_ms: Distribution
    burst_ms: Distribution
    burst_size: Distribution
    histogram_edges_ms: list[float]
    histogram_counts: list[int]


#: Samples at least this large have their quantiles found by ``_bracketed_quantiles``.
BRACKET_FROM = 100_000
#: About how many values ``_bracketed_quantiles`` sorts to bracket each order statistic.
BRACKET_SAMPLE = 1 << 16


def distribution(values: npt.NDArray[np.floating[Any]]) -> Distribution:
    """Summarise ``values``; an empty sample gives None for every statistic."""
    names = [f"p{int(q * 100)}" for q in QUANTILES]
    if values.size == 0:
        return Distribution(0, None, dict.fromkeys(names))
    # in single precision (a million tosses have eight million drops: 32 MB, not 64 MB); times are
    # recorded to 0.1 ms, so the quantiles are rounded to 0.01 ms
    points = _bracketed_quantiles(values.astype(np.float32, copy=False)) if values.size >= BRACKET_FROM else None
    if points is None:  # a private copy, partitioned in place
        points = np.quantile(values.astype(np.float32), QUANTILES, overwrite_input=True)
    summary: dict[str, float | None] = {
        name: round(float(value), 2) for name, value in zip(names, points, strict=True)
    }
    return Distribution(int(values.size), float(values.mean(dtype=np.float64)), summary)


def drop_stats(offsets: npt.NDArray[np.int64], times_ms: npt.NDArray[np.floating[Any]]) -> DropStats:
    """Drop statistics from per-toss ``offsets`` into the flat ``times_ms`` (see ``load.drop_times``)."""
    counts = np.diff(offsets)
    some = counts > 0
    first = times_ms[offsets[:-1][some]]
    several = counts > 1
    bursts = times_ms[offsets[1:][several] - 1] - times_ms[offsets[:-1][several]]
    if times_ms.size:
        # numpy bins equal-width bins arithmetically, 65,536 values at a time (bounded temporaries)
        hist, edges = np.histogram(times_ms, bins=HISTOGRAM_BINS)
        edge_list, count_list = [float(e) for e in edges], [int(h) for h in hist]
    else:
        edge_list, count_list = [], []
    return DropStats(
        drops=int(times_ms.size),
        tosses_with_drops=int(some.sum()),
        first_drop_ms=distribution(first),
        drop_ms=distribution(times_ms),
        burst_ms=distribution(bursts),
        burst_size=distribution(counts[some].astype(np.float64)),
        histogram_edges_ms=edge_list,
        histogram_counts=count_list,
    )


def _bracketed_quantiles(values: npt.NDArray[np.float32]) -> npt.NDArray[np.float64] | None:
    """``numpy.quantile(values, QUANTILES)`` exactly (None: a NaN, or a bracket missed: let numpy do it).

    numpy partitions the whole sample around each order statistic it needs (a third of the drop
    statistics' time at eight million drops). Here a sorted sample of about ``BRACKET_SAMPLE`` values
    brackets each one; counting the values below the bracket and partitioning only those inside it
    gives that order statistic exactly (a count that does not put it inside: numpy's way after all).
    Each quantile is then numpy's own interpolation between its two order statistics: ``numpy.quantile``
    of the pair at the fraction numpy's position has (the same operations on the same values).
    """
    n = values.shape[0]
    sample = np.sort(values[:: max(n // BRACKET_SAMPLE, 1)])
    if np.isnan(values.max()):  # numpy's quantiles are NaN then
        return None
    positions = (n - 1) * np.asarray(QUANTILES)  # numpy's virtual indexes for its "linear" method
    below_ranks = np.floor(positions)
    m = sample.shape[0]
    margin = 4.0 * np.sqrt(m) + 2.0  # a bracket of a few standard deviations of a sample's order statistic
    points = np.empty(len(QUANTILES))
    for k, (position, below_rank) in enumerate(zip(positions, below_ranks, strict=True)):
        ranks = [int(below_rank), min(int(below_rank) + 1, n - 1)]  # the two order statistics it lies between
        centre = position / max(n - 1, 1) * (m - 1)
        low, high = sample[max(int(centre - margin), 0)], sample[min(int(centre + margin) + 1, m - 1)]
        below = int(np.count_nonzero(values < low))
        inside = values[(values >= low) & (values <= high)]
        if not (below <= ranks[0] and ranks[1] < below + inside.shape[0]):
            return None
        within = [rank - below for rank in ranks]
        pair = np.partition(inside, within)[within]
        points[k] = np.quantile(pair, np.array([position - below_rank]))[0]
    return points

