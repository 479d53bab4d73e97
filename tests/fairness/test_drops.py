"""Drop-time statistics: a large sample's quantiles are numpy's, bit for bit, found without
partitioning the whole sample."""

from __future__ import annotations

import numpy as np
import pytest

from companion.fairness import drops
from companion.fairness.drops import QUANTILES, distribution


def samples() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    n = drops.BRACKET_FROM + 12_345
    tied = np.full(n, 3.5, dtype=np.float32)
    tied[: n // 3] = 1.0
    return {
        "drop times to 0.1 ms": (180.0 + rng.gamma(2.0, 15.0, n)).round(1).astype(np.float32),
        "pieces per burst (few values, many ties)": rng.integers(1, 12, n).astype(np.float64),
        "spread both ways": rng.standard_normal(n).astype(np.float32),
        "two values": tied,
    }


@pytest.mark.parametrize("name", list(samples()))
def test_a_large_samples_quantiles_are_numpys(name: str) -> None:
    values = samples()[name]
    expected = np.quantile(values.astype(np.float32), QUANTILES)
    found = drops._bracketed_quantiles(values.astype(np.float32))
    assert found is not None and found.dtype == expected.dtype and np.array_equal(found, expected)
    summary = distribution(values)
    assert list(summary.quantiles.values()) == [round(float(v), 2) for v in expected]


def test_a_sample_with_nan_is_left_to_numpy() -> None:
    values = samples()["spread both ways"]
    values[17] = np.nan
    assert drops._bracketed_quantiles(values) is None
    assert all(np.isnan(v) for v in distribution(values).quantiles.values())  # type: ignore[arg-type]
