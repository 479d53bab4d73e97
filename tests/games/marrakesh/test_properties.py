"""Property-based tests (hypothesis): random legal games with 2, 3 and 4 players.

Each example is a whole game played by seeded random players and a simulated tower; example counts
are kept small so this file runs in a few seconds. Every property runs for the Essential base game,
Essential with all five expansions on, and the Classic edition (base and with all expansions).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import COLOURS
from companion.games.marrakesh import Game, SetupOptions, action_from_dict, action_to_dict
from companion.games.marrakesh.board import MARKER_COLOURS, SQUARE_BONUSES, TRACK_MAX, wooden_total
from companion.games.marrakesh.classic import ClassicGame
from companion.games.marrakesh.effects import sahara_paths
from companion.games.marrakesh.log import read_log, write_log
from companion.games.marrakesh.simulate import DEFAULT_NAMES, RandomPlayer, play_random_game
from companion.tower.model import SimulatedTower, TowerParams
from tests.games.engine_helpers import play_out

players_st = st.sampled_from([2, 3, 4])
ALL_EXPANSIONS = (1, 2, 3, 4, 5)
with_expansions = pytest.mark.parametrize(
    ("edition", "expansions"),
    [("essential", ()), ("essential", ALL_EXPANSIONS), ("classic", ()), ("classic", ALL_EXPANSIONS)],
    ids=["base", "expansions", "classic", "classic-expansions"])
seed_st = st.integers(min_value=0, max_value=2**31)


def check_invariants(game: Game) -> None:
    """What must hold after every action."""
    s = game.s
    n = len(s.players)
    for p in s.players:
        assert all(v >= 0 for v in p.resources.values()), p.resources
        assert all(v >= 0 for v in p.goods.values()), p.goods
        assert all(0 <= v <= TRACK_MAX for v in p.markers.values()), p.markers
        assert len(p.entertainers) == len(set(p.entertainers)) <= 8 and set(p.entertainers) <= set(SQUARE_BONUSES)
        assert p.watchtower >= 0 and p.guards() <= 8 and len(p.gates) <= 8
        assert all(0 <= p.sahara[k] <= length for k, length in sahara_paths(game).items())
        assert len(p.desert_towns) == sum(1 for k in ("left", "right") if p.sahara[k] == 4)
        assert len(p.water_vendors) == len(set(p.water_vendors)) and "souk" not in p.water_vendors
        assert all(v >= 0 for v in p.screen.values())
        assert p.score == sum(p.breakdown.values())
    untossed = s.phase == "select"  # revealed selections are tossed once everyone has selected
    for c in COLOURS:
        if isinstance(game, ClassicGame):  # 25 wooden keshis per colour: boards, storage tracks, stand-ins too
            assert game.wooden_in_play(c) == 25, f"wooden {c} keshis not conserved: {game.wooden_in_play(c)}"
            assert s.supply[c] >= 0
            assert s.tower_inside[c] == s.tossed_total[c] + s.tower_leftovers[c] - s.released_total[c]
            continue
        selected = sum(p.selected.count(c) for p in s.players) if untossed else 0
        in_play = (s.supply[c] + selected + sum(p.screen[c] for p in s.players) + s.tower_inside[c] + s.display[c]
                   + sum(p.claimed.count(c) for p in s.players) + (n if c in MARKER_COLOURS else 0))
        assert in_play == wooden_total(c), f"wooden {c} keshis not conserved: {in_play}"
        assert s.tower_inside[c] == s.tossed_total[c] + s.tower_leftovers[c] - s.released_total[c]
        assert s.supply[c] >= 0 and s.tower_inside[c] >= 0 and s.display[c] >= 0


def random_session(players: int, seed: int, expansions: Sequence[int] = (), edition: str = "essential"
                   ) -> tuple[Game, RandomPlayer]:
    rng = random.Random(seed)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:players], seed=rng.randrange(2**32),
                                 expansions=tuple(expansions), edition=edition))
    return game, RandomPlayer(rng, SimulatedTower(TowerParams(), rng))


@with_expansions
@settings(max_examples=12, deadline=None)
@given(players=players_st, seed=seed_st)
def test_random_games_reach_final_scoring_keeping_the_invariants(players: int, seed: int,
                                                                  expansions: Sequence[int], edition: str) -> None:
    game, player = random_session(players, seed, expansions, edition)
    play_out(game, player, check_invariants)
    assert game.season == 3 and game.phase == "finished"
    assert {"filled_sectors", "oases", "resources"} <= set().union(*(p.breakdown for p in game.players))
    assert game.winners()


@with_expansions
@settings(max_examples=10, deadline=None)
@given(players=players_st, seed=seed_st, length=st.integers(min_value=1, max_value=60))
def test_undo_of_everything_returns_the_initial_state(players: int, seed: int, length: int,
                                                      expansions: Sequence[int], edition: str) -> None:
    game, player = random_session(players, seed, expansions, edition)
    initial = game.to_dict()
    for _ in range(length):
        game.apply(player.action(game))
    while game.log:
        game.undo()
    assert game.to_dict() == initial


@with_expansions
@settings(max_examples=6, deadline=None)
@given(players=players_st, seed=seed_st)
def test_undo_takes_back_exactly_the_last_action(players: int, seed: int, expansions: Sequence[int],
                                                 edition: str) -> None:
    game = play_random_game(players, seed, expansions=expansions, edition=edition)
    log = list(game.log)
    last = game.undo()
    assert last == log[-1] and game.log == log[:-1]
    assert game.to_dict() == Game.replay(game.setup, log[:-1]).to_dict()


@with_expansions
@settings(max_examples=8, deadline=None)
@given(players=players_st, seed=seed_st)
def test_replay_of_the_log_equals_the_live_state_and_the_log_round_trips(players: int, seed: int,
                                                                         expansions: Sequence[int],
                                                                         edition: str) -> None:
    game = play_random_game(players, seed, expansions=expansions, edition=edition)
    assert Game.replay(game.setup, game.log).to_dict() == game.to_dict()
    text = write_log(game)
    again = read_log(text)
    assert again.to_dict() == game.to_dict()
    assert write_log(again) == text
    for line, action in zip(text.splitlines()[1:], game.log, strict=True):
        assert action_from_dict(json.loads(line)) == action
        assert action_to_dict(action) == json.loads(line)


@with_expansions
@settings(max_examples=2, deadline=None)
@given(players=players_st, seed=seed_st)
def test_every_listed_legal_action_is_accepted(players: int, seed: int, expansions: Sequence[int],
                                               edition: str) -> None:
    """legal_actions() never lists an action that apply() rejects (up to 3 per position, on a copy)."""
    game, player = random_session(players, seed, expansions, edition)
    while not game.finished:
        if game.phase != "select" or game.pending is not None:
            listed = list(game.legal_actions())
            assert listed, f"no legal action in phase {game.phase}"
            for action in listed[:3]:
                copy.deepcopy(game).apply(action)
        game.apply(player.action(game))
