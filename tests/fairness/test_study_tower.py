"""The independent study tower plays game-shaped sessions with the behaviours it promises."""

from __future__ import annotations

import numpy as np
import pytest

from companion.fairness.study_tower import ROUNDS_PER_SEASON, TOSSES_PER_GAME, StudyTower, game_index, play


def test_sessions_are_game_shaped() -> None:
    grids = play(StudyTower(), 6, 2 * TOSSES_PER_GAME, np.random.default_rng(1))
    pieces_in = grids.pieces_in.astype(np.int64)
    per_toss = pieces_in.sum(axis=2)
    assert set(np.unique(per_toss)) <= {9, 12} and (pieces_in.max(axis=2) <= per_toss // 3).all()
    seasons = pieces_in.reshape(6, -1, ROUNDS_PER_SEASON, 12).sum(axis=2)
    players = per_toss[:, ::ROUNDS_PER_SEASON] // 3
    assert (seasons == players[:, :, None]).all()  # each colour once per player per season
    assert (grids.held_before[:, ::TOSSES_PER_GAME] == 0).all()  # a game starts with an empty tower
    after = grids.held_before[:, :-1] + grids.pieces_in[:, :-1] - grids.pieces_out[:, :-1]
    in_game = (np.arange(1, 2 * TOSSES_PER_GAME) % TOSSES_PER_GAME) != 0
    assert (after[:, in_game] == grids.held_before[:, 1:][:, in_game]).all()
    assert game_index(100)[[0, 47, 48, 99]].tolist() == [0, 0, 1, 2]


def test_pieces_that_move_together_keep_their_rates_but_spread_more() -> None:
    rng = np.random.default_rng(2)
    apart = play(StudyTower(), 200, 48, rng)
    together = play(StudyTower(cohesion=0.5), 200, 48, rng)
    rates = []
    spreads = []
    for grids in (apart, together):
        first = grids.pieces_in[:, 0].sum(axis=1)  # the first toss of a game: only new pieces
        fell = grids.pieces_out[:, 0].sum(axis=1)
        rates.append(fell.sum() / first.sum())
        spreads.append(np.var(fell / first))
    assert rates[0] == pytest.approx(0.8, abs=0.03) and rates[1] == pytest.approx(0.8, abs=0.05)
    assert spreads[1] > 2 * spreads[0]


def test_a_shift_applies_to_its_colour_from_its_toss() -> None:
    tower = StudyTower(new_shift=-0.8, shift_from=24)
    grids = play(tower, 50, 48, np.random.default_rng(3), np.zeros(50, dtype=np.int64))
    held = grids.held_before.astype(np.float64)
    # before the shift the colour is held like the others; after it, new pieces of it stay inside
    assert held[:, 1:24, 0].mean() == pytest.approx(held[:, 1:24, 1:].mean(), abs=0.15)
    assert held[:, 30:, 0].mean() > 2 * held[:, 30:, 1:].mean()
