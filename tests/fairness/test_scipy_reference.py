"""The statistics equal SciPy's reference results on fixed data (computed here straight from SciPy)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from companion import COLOURS
from companion.fairness.colour_tests import (
    chi_square,
    colour_tests,
    correct,
    first_pass_counts,
    rate_estimate,
    robust_tests,
)

# Fixed first-pass counts: releases and trials per colour (canonical order).
RELEASES = np.array([40, 38, 45, 41, 39, 22, 44, 40, 43, 37, 42, 41])
TRIALS = np.array([50, 50, 55, 52, 49, 45, 54, 50, 53, 48, 51, 50])


def test_wilson_interval_equals_scipy_proportion_ci() -> None:
    estimate = rate_estimate(22, 45)
    reference = stats.binomtest(22, 45).proportion_ci(0.95, method="wilson")
    assert estimate.rate == pytest.approx(22 / 45)
    assert estimate.interval == pytest.approx((reference.low, reference.high))


def test_no_trials_gives_the_whole_unit_interval() -> None:
    estimate = rate_estimate(0, 0)
    assert estimate.rate is None and estimate.interval == (0.0, 1.0)


def test_chi_square_equals_chi2_contingency() -> None:
    result = chi_square(RELEASES, TRIALS)
    reference = stats.chi2_contingency(np.stack([RELEASES, TRIALS - RELEASES], axis=1), correction=False)
    assert result is not None
    assert result.statistic == pytest.approx(reference.statistic)
    assert result.p_value == pytest.approx(reference.pvalue)
    assert result.dof == reference.dof == 11


def test_binomial_tests_and_correction_equal_binomtest_and_false_discovery_control() -> None:
    tests = correct({"B1": colour_tests(RELEASES, TRIALS)})["B1"]
    pooled = RELEASES.sum() / TRIALS.sum()
    raw = [stats.binomtest(int(k), int(n), pooled).pvalue for k, n in zip(RELEASES, TRIALS, strict=True)]
    adjusted = stats.false_discovery_control(raw, method="bh")
    assert tests.reference_rate == pytest.approx(pooled)
    for index, colour in enumerate(COLOURS):
        assert tests.colours[colour].p_value == pytest.approx(raw[index])
        assert tests.colours[colour].p_adjusted == pytest.approx(adjusted[index])
        assert tests.colours[colour].flagged == (adjusted[index] < 0.05)
    assert tests.flagged == ["red"]
    assert tests.colours["red"].direction == "stickier"


def test_first_pass_counts_only_use_tosses_with_nothing_of_that_colour_held() -> None:
    pieces_in = np.zeros((3, 12), dtype=np.int64)
    pieces_out = np.zeros((3, 12), dtype=np.int64)
    held = np.zeros((3, 12), dtype=np.int64)
    pieces_in[:, 0] = [3, 2, 1]
    pieces_out[:, 0] = [2, 2, 0]
    held[1, 0] = 1  # the second toss had a yellow held: its release cannot be told apart
    releases, trials = first_pass_counts(pieces_in, pieces_out, held)
    assert releases[0] == 2 and trials[0] == 4


def test_step_down_reference_flags_only_the_stray_colour() -> None:
    # With large samples, one colour 10 points lower drags the pooled rate down far enough for every
    # other colour to look "looser" against it; the step-down reference removes the stray first.
    trials = np.full(12, 60_000)
    releases = (trials * 0.80).astype(np.int64)
    releases[5] = int(60_000 * 0.70)
    one_round = correct({"B1": colour_tests(releases, trials)})["B1"]
    assert len(one_round.flagged) == 12
    robust = robust_tests({"B1": (releases, trials)})["B1"]
    assert robust.flagged == ["red"]
    assert robust.excluded == frozenset({"red"})
    assert robust.reference_rate == pytest.approx(0.80)


def test_layers_share_one_correction() -> None:
    both = robust_tests({"B1": (RELEASES, TRIALS), "B2": (RELEASES, TRIALS)})
    raw = [t.p_value for layer in both.values() for t in layer.colours.values()]
    adjusted = stats.false_discovery_control(raw, method="bh")
    got = [t.p_adjusted for layer in both.values() for t in layer.colours.values()]
    assert got == pytest.approx(list(adjusted))
