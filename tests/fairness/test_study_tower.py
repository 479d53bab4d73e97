"""The independent study tower plays game-shaped sessions with the behaviours it promises."""

from __future__ import annotations

import numpy as np
import pytest

from companion.fairness.study_tower import (
    REAL_GAME_TOSSES,
    ROUNDS_PER_SEASON,
    TOSSES_PER_GAME,
    StudyTower,
    game_index,
    play,
)


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


def test_a_game_can_be_the_real_games_twelve_rounds() -> None:
    """12-toss games: the tower is empty at every 12th toss, each colour goes in once per player per
    season, and the grids name each toss's game by that length."""
    grids = play(StudyTower(tosses_per_game=REAL_GAME_TOSSES), 5, 4 * REAL_GAME_TOSSES, np.random.default_rng(4))
    starts = grids.held_before[:, ::REAL_GAME_TOSSES].astype(np.int64).sum(axis=2)
    assert (starts == 0).all()
    assert (grids.held_before[:, 1:REAL_GAME_TOSSES].sum(axis=(1, 2)) > 0).all()  # it fills within a game
    seasons = grids.pieces_in.astype(np.int64).reshape(5, -1, ROUNDS_PER_SEASON, 12).sum(axis=2)
    players = grids.pieces_in[:, ::ROUNDS_PER_SEASON].astype(np.int64).sum(axis=2) // 3
    assert (seasons == players[:, :, None]).all()
    assert grids.games().tolist() == np.repeat(np.arange(4), REAL_GAME_TOSSES).tolist()
    assert grids.games(13).tolist() == [0] * 12 + [1]


def test_the_game_length_decides_how_full_a_clogging_tower_gets() -> None:
    """The audit's clogging tower (-0.15 logit per piece held) holds about 23 pieces in 12-toss games,
    its own figure, and about 200 in 48-toss ones."""
    rng = np.random.default_rng(5)
    fill = {
        per_game: float(play(StudyTower(p_new=0.78, p_held=0.5, load_logit=-0.15, tosses_per_game=per_game),
                             20, 240, rng).held_before.sum(axis=2).mean())
        for per_game in (REAL_GAME_TOSSES, TOSSES_PER_GAME)
    }
    assert 18 < fill[REAL_GAME_TOSSES] < 30 and fill[TOSSES_PER_GAME] > 150


@pytest.mark.parametrize("tosses", [0, -12, 10])
def test_a_game_that_does_not_end_with_a_whole_season_is_refused(tosses: int) -> None:
    with pytest.raises(ValueError, match=f"whole number of 4-round seasons, not {tosses} tosses"):
        StudyTower(tosses_per_game=tosses)
