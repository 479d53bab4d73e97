"""The two-rate model: the likelihood is the binomial convolution, and the fit recovers a known tower."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.two_rate import cells, fit_two_rate, log_likelihood
from companion.tower.model import TowerParams
from tests.fairness.conftest import colour_index


def test_log_likelihood_is_the_convolution_of_two_binomials() -> None:
    held = np.array([0, 2, 3, 1, 4])
    tossed = np.array([3, 1, 0, 2, 5])
    out = np.array([2, 3, 1, 0, 6])
    p_new, p_held = 0.7, 0.4
    expected = 0.0
    for b, i, o in zip(held, tossed, out, strict=True):
        terms = [stats.binom.pmf(k, b, p_held) * stats.binom.pmf(o - k, i, p_new) for k in range(b + 1)]
        expected += np.log(sum(terms))
    assert log_likelihood(cells(held, tossed, out), p_new, p_held) == pytest.approx(expected)


def test_cells_collapse_repeats_and_drop_empty_ones() -> None:
    c = cells(np.array([0, 0, 1, 0]), np.array([2, 2, 0, 0]), np.array([1, 1, 1, 0]))
    assert sorted(zip(c.held, c.tossed, c.out, c.weight, strict=True)) == [(0, 2, 1, 2), (1, 0, 1, 1)]


@pytest.mark.parametrize("layer", ["B1", "B2"])
def test_fit_recovers_the_simulated_tower_within_its_intervals(layer: str) -> None:
    """Each rate's truth lies within its interval stretched 1.5x about the estimate (~3 standard errors:
    four rates per case would miss a plain 95 % interval one time in five; coverage itself is tested below)."""
    params = TowerParams(layer=layer, bias={"red": 0.10})
    grids = simulate_sessions(params, 1, 3000, np.random.default_rng(11))
    red = colour_index("red")
    fair = np.ones(12, dtype=bool)
    fair[red] = False
    held, tossed, out = grids.held_before[0], grids.pieces_in[0], grids.pieces_out[0]
    pooled = fit_two_rate(cells(held[:, fair], tossed[:, fair], out[:, fair]))
    red_fit = fit_two_rate(cells(held[:, red], tossed[:, red], out[:, red]))
    for fit, colour in ((pooled, "yellow"), (red_fit, "red")):
        for rate, truth in ((fit.p_new, params.release_new(colour)), (fit.p_held, params.release_held(colour))):
            assert rate.estimate is not None
            low, high = rate.interval
            assert rate.estimate - 1.5 * (rate.estimate - low) < truth < rate.estimate + 1.5 * (high - rate.estimate)
            assert high - low < 0.2


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    params = TowerParams(layer="B1")
    grids = simulate_sessions(params, 60, 240, np.random.default_rng(5))
    covered = 0
    for s in range(60):
        fit = fit_two_rate(cells(grids.held_before[s], grids.pieces_in[s], grids.pieces_out[s]))
        covered += fit.p_new.interval[0] < params.release_new("red") < fit.p_new.interval[1]
        covered += fit.p_held.interval[0] < params.release_held("red") < fit.p_held.interval[1]
    assert covered / 120 >= 0.88


def test_no_cells_means_unknown_rates() -> None:
    empty = np.zeros(0, dtype=np.int64)
    fit = fit_two_rate(cells(empty, empty, empty))
    assert fit.p_new.estimate is None and fit.p_held.estimate is None
    assert fit.p_new.interval == (0.0, 1.0)


def test_only_new_pieces_leave_p_held_unknown() -> None:
    fit = fit_two_rate(cells(np.zeros(5, dtype=np.int64), np.full(5, 4), np.array([3, 4, 2, 3, 4])))
    assert fit.p_new.estimate == pytest.approx(16 / 20, abs=1e-4)
    assert fit.p_held.estimate is None
