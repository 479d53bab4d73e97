"""The sequential colour tests: the look schedule's budget, and the score sums recomputed by hand."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from companion import COLOURS
from companion.fairness.score_sums import GameSums, colour_scores
from companion.fairness.sequential import (
    ALPHA_TESTS,
    FIRST_LOOK,
    look_alpha,
    look_at,
    look_points,
    prepare,
    quadratic_form,
    robust_p_value,
)
from companion.fairness.study_tower import StudyTower, game_index, play


def test_the_looks_never_spend_more_than_the_budget() -> None:
    assert look_points(FIRST_LOOK - 1) == [] and look_points(FIRST_LOOK) == [FIRST_LOOK]
    looks = look_points(100_000)
    assert looks == sorted(set(looks)) and looks[-1] <= 100_000 < look_at(len(looks))
    spent = sum(look_alpha(j, family=1) for j in range(10_000))
    assert spent <= ALPHA_TESTS and spent == pytest.approx(ALPHA_TESTS, rel=1e-3)
    assert look_alpha(0, family=24) == pytest.approx(ALPHA_TESTS / 2 / 24)


def brute_force(held: np.ndarray, tossed: np.ndarray, out: np.ndarray, game: np.ndarray, colour: int) -> tuple:
    """The pooled rates, one colour's score and its robust variance, toss by toss with plain loops."""
    x_all = [(tossed[t, c], held[t, c], out[t, c]) for t in range(len(game)) for c in range(12)]
    a = sum(np.outer([i, b], [i, b]) for i, b, _ in x_all)
    rhs = sum(np.array([i, b]) * o for i, b, o in x_all)
    theta = np.linalg.solve(a, rhs)
    games = sorted(set(game.tolist()))
    a_c = sum(np.outer([tossed[t, colour], held[t, colour]], [tossed[t, colour], held[t, colour]])
              for t in range(len(game)))
    rows_of_residuals = []
    for g in games:
        rows = [t for t in range(len(game)) if game[t] == g]

        def score(c: int, rows: list[int] = rows) -> np.ndarray:
            return sum((np.array([tossed[t, c], held[t, c]]) * (out[t, c] - tossed[t, c] * theta[0]
                                                                - held[t, c] * theta[1]) for t in rows), np.zeros(2))

        total = sum((score(c) for c in range(12)), np.zeros(2))
        rows_of_residuals.append(score(colour) - a_c @ np.linalg.inv(a) @ total)
    residuals = np.array(rows_of_residuals)
    u = residuals.sum(axis=0)  # the reference's scores sum to zero at the fit
    centred = residuals - residuals.mean(axis=0)
    variance = centred.T @ centred * len(games) / (len(games) - 1)
    return theta, u, variance


def test_score_sums_equal_a_toss_by_toss_recomputation() -> None:
    grids = play(StudyTower(cohesion=0.2), 1, 48 * 5, np.random.default_rng(3))
    held, tossed, out = grids.counts(0)
    game = game_index(held.shape[0])
    sums = GameSums.of(prepare(held, tossed, out, game))
    p_new, p_held = sums.rates(list(range(12)))
    assert p_new is not None and p_held is not None
    theta = (p_new, p_held)
    red = COLOURS.index("red")
    expected_theta, expected_u, expected_v = brute_force(held, tossed, out, game, red)
    assert theta == pytest.approx(tuple(expected_theta), abs=1e-12)
    scores = colour_scores(sums, *theta)
    assert scores.score[red] == pytest.approx(expected_u, abs=1e-9)
    assert scores.variance[red] == pytest.approx(expected_v, rel=1e-9)


def test_quadratic_form_drops_a_rate_never_exercised() -> None:
    statistic, df = quadratic_form(np.array([3.0, 0.0]), np.array([[4.0, 0.0], [0.0, 0.0]]))
    assert df == 1 and statistic == pytest.approx(9 / 4)
    assert quadratic_form(np.array([1.0, 1.0]), np.full((2, 2), np.inf)) == (0.0, 0)


def test_few_games_give_larger_p_values_tending_to_chi_square() -> None:
    assert robust_p_value(12.0, 2, 20) > robust_p_value(12.0, 2, 200) > stats.chi2.sf(12.0, 2)
    assert robust_p_value(12.0, 2, 100_000) == pytest.approx(stats.chi2.sf(12.0, 2), rel=1e-3)
