"""The oracle CUSUM behind the dent's information bound: exact likelihoods, and it sees a dent."""

from __future__ import annotations

import numpy as np
from scipy import stats

from companion.fairness.dent_bound import cusum_peaks, log_pmf
from companion.fairness.study_tower import StudyTower, play


def test_log_pmf_is_the_sum_of_two_binomials() -> None:
    table = log_pmf(0.8, 0.55, 3, 4)
    assert np.allclose(np.exp(table).sum(axis=2), 1.0)
    # 2 tossed in, 1 held: P(out = 2) = P(new 2, held 0) + P(new 1, held 1)
    expected = 0.8**2 * 0.45 + stats.binom.pmf(1, 2, 0.8) * 0.55
    assert np.isclose(np.exp(table[2, 1, 2]), expected)
    assert table[0, 0, 1] == -np.inf  # nothing inside cannot give a piece


def test_the_dented_colours_stickier_walk_climbs_highest() -> None:
    rng = np.random.default_rng(3)
    colour = np.array([4, 9])
    grids = play(StudyTower(new_shift=-0.25, held_shift=-0.25, shift_from=100), 2, 600, rng, colour)
    peaks = cusum_peaks(grids, StudyTower())
    for session in range(2):
        assert np.unravel_index(np.argmax(peaks[session]), peaks[session].shape) == (colour[session], 0)
