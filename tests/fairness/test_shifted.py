"""The power's replay: a colour's robust variance under a shift, from a fair log's tossed-in stream,
matches the variance the tests see on towers where that colour really is shifted."""

from __future__ import annotations

import numpy as np

from companion import COLOURS
from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.score_sums import GameSums, colour_scores
from companion.fairness.sequential import _pooled, _shifts, prepare
from companion.fairness.shifted import shifted_variances
from companion.tower.model import TowerParams

TOSSES = 3000
GAME = np.arange(TOSSES) // 12


def robust_variance(grids: object, session: int, colour: int) -> np.ndarray:
    held, tossed, out = (getattr(grids, name)[session] for name in ("held_before", "pieces_in", "pieces_out"))
    sums = GameSums.of(prepare(held, tossed, out, GAME))
    pooled = _pooled(sums)
    assert pooled is not None
    return colour_scores(sums, *pooled).variance[colour]


def test_replayed_variance_under_a_both_rates_shift_matches_shifted_towers() -> None:
    red = COLOURS.index("red")
    fair = simulate_sessions(TowerParams(layer="B1"), 1, TOSSES, np.random.default_rng(3))
    sums = GameSums.of(prepare(fair.held_before[0], fair.pieces_in[0], fair.pieces_out[0], GAME))
    pooled = _pooled(sums)
    assert pooled is not None
    replayed = shifted_variances(fair.pieces_in[0].astype(np.int64), GAME, *pooled, _shifts(*pooled))
    shifted = simulate_sessions(TowerParams(layer="B1", bias={"red": 0.10}), 8, TOSSES, np.random.default_rng(4))
    measured = np.mean([robust_variance(shifted, s, red) for s in range(8)], axis=0)
    fair_variance = colour_scores(sums, *pooled).variance[red]
    # the held-held variance grows well beyond a fair colour's, and the replay sees that growth
    assert measured[1, 1] > 1.4 * fair_variance[1, 1]
    assert abs(replayed["both"].variance[red][1, 1] / measured[1, 1] - 1) < 0.25
    assert abs(replayed["both"].variance[red][0, 0] / measured[0, 0] - 1) < 0.25


def test_along_a_clogging_curve_a_shift_moves_the_score_less_than_information_times_shift() -> None:
    """Where the tower's fill level drives its rates towards 0, a colour cannot be 10 points stickier
    in the fuller tosses: the score the replay sees it move by is well below ``A_c d`` (what the
    power assumed before), and without a curve the replay leaves it to ``A_c d``."""
    red = COLOURS.index("red")
    fair = simulate_sessions(TowerParams(layer="B1"), 1, TOSSES, np.random.default_rng(3))
    tossed = fair.pieces_in[0].astype(np.int64)
    shift = {"both": np.array([0.10, 0.10])}
    clogging = shifted_variances(tossed, GAME, 0.5, 0.3, shift, curve=(1.3, 0.0, -0.3))["both"]
    assert clogging.expected is not None
    assert (clogging.expected[red] < 0.7 * clogging.information[red] @ shift["both"]).all()
    assert shifted_variances(tossed, GAME, 0.8, 0.55, shift)["both"].expected is None
