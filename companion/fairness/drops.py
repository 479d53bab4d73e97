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


def distribution(values: npt.NDArray[np.floating[Any]]) -> Distribution:
    """Summarise ``values``; an empty sample gives None for every statistic."""
    names = [f"p{int(q * 100)}" for q in QUANTILES]
    if values.size == 0:
        return Distribution(0, None, dict.fromkeys(names))
    # in single precision on a private copy (a million tosses have eight million drops: 32 MB, not
    # twice 64 MB); times are recorded to 0.1 ms, so the quantiles are rounded to 0.01 ms
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
