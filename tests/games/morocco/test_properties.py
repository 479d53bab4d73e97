"""Property-based tests (hypothesis): random legal Morocco games with 2-5 players to final scoring.

Each example is a whole game played by the seeded random player; example counts are kept small so
the file runs in a few seconds. Invariants are checked after every action.
"""

from __future__ import annotations

import copy
import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.games.morocco import Game, Pass, Place, action_from_dict, action_to_dict, board
from companion.games.morocco.log import read_log, write_log
from companion.games.morocco.simulate import new_random_game, play_random_game
from tests.games.engine_helpers import play_out

players_st = st.sampled_from([2, 3, 4, 5])
seed_st = st.integers(min_value=0, max_value=2**31)


def check_invariants(game: Game) -> None:
    """What must hold after every action."""
    s = game.s
    workers = {(seat, kind): 0 for seat in range(len(s.players)) for kind in board.WEIGHT}
    for occupant in s.spaces:
        if occupant is not None:
            workers[(occupant[0], occupant[1])] += 1
    moving = [e["p"] for e in s.stack if e["k"] == "tourist"]
    for seat, p in enumerate(s.players):
        assert all(n >= 0 for n in p.cubes.values()), p.cubes
        assert 0 <= p.gold <= board.GOLD_MAX
        assert p.assistants + workers[(seat, "assistant")] == board.ASSISTANTS
        assert p.bodyguards + p.quarters + workers[(seat, "bodyguard")] == board.BODYGUARDS
        assert p.tourists + workers[(seat, "tourist")] + moving.count(seat) + p.tourists_gone == board.TOURISTS
        assert p.market_tiles + s.tiles.count(seat) == board.MARKET_TILES
        assert 0 <= p.cousins <= board.COUSINS and min(p.assistants, p.bodyguards, p.quarters, p.tourists) >= 0
        assert p.score == sum(p.breakdown.values()) and p.score >= 0
    assert sum(p.gold for p in s.players) + s.gold_supply == board.GOLD_COINS
    assert sum(1 for v in s.juice if v) + sum(len(p.juice) for p in s.players) == board.CORNERS
    assert s.empty_tiles == max(0, board.EMPTY_STALL_TILES - s.tiles.count("empty"))
    for stall in range(board.STALLS):
        spaces = board.stall_spaces(stall)
        if s.tiles[stall] is not None:
            assert all(s.spaces[sp] is None for sp in spaces), "a closed stall holds workers"
        assert (s.arrows[stall] is not None) <= isinstance(s.tiles[stall], int), "only market tiles have arrows"
        pointing = sum(1 for other, arrow in enumerate(s.arrows)
                       if arrow is not None and board.stall_neighbours(other)[arrow] == stall)
        assert s.overflow[stall] <= pointing
    if s.pending is None and not s.finished:
        assert not s.stack and not s.to_close
        assert all(game.count(st) < board.FULL_AT for st in range(board.STALLS) if s.tiles[st] is None)
    round_start = s.pending is None and ((s.phase == "roll" and s.rolls == 0) or (s.phase == "scout" and s.turn == 0
                                                                                  and len(s.players) > 3))
    if round_start:  # one stored cube at most (MOR:L173), the pawn in the centre (MOR:L171)
        assert all(p.cube_total() <= 1 for p in s.players) and s.pawn == board.ROOFTOP_CENTRE
    assert s.phase != "assign" or 0 <= s.turn <= 2 * len(s.players)
    assert s.pawn in (board.ROOFTOP_CENTRE, *board.ROOFTOP_OUTER)
    assert s.finished == (s.phase == "finished")


@settings(max_examples=40, deadline=None)
@given(players=players_st, seed=seed_st)
@example(players=5, seed=14235)  # a tourist in the last stall closed was lost from the count (found by a run)
def test_random_games_reach_final_scoring_keeping_the_invariants(players: int, seed: int) -> None:
    game, player = new_random_game(players, seed)
    play_out(game, player, check_invariants)
    assert game.s.end_reason is not None and game.to_move is None and list(game.legal_actions()) == []
    for p in game.players:
        assert {"juice", "largest_district", "gold"} <= set(p.breakdown)
    assert game.winners()


@settings(max_examples=15, deadline=None)
@given(players=players_st, seed=seed_st)
def test_replay_of_the_log_equals_the_live_state_and_the_log_round_trips(players: int, seed: int) -> None:
    game = play_random_game(players, seed)
    assert Game.replay(game.setup, game.log).to_dict() == game.to_dict()
    text = write_log(game)
    again = read_log(text)
    assert again.to_dict() == game.to_dict() and write_log(again) == text
    for line, action in zip(text.splitlines()[1:], game.log, strict=True):
        assert action_from_dict(json.loads(line)) == action
        assert action_to_dict(action) == json.loads(line)


@settings(max_examples=8, deadline=None)
@given(players=players_st, seed=seed_st, length=st.integers(min_value=1, max_value=80))
def test_undo_of_everything_returns_the_initial_state(players: int, seed: int, length: int) -> None:
    game, player = new_random_game(players, seed)
    initial = game.to_dict()
    for _ in range(length):
        if game.finished:
            break
        game.apply(player.action(game))
    while game.log:
        game.undo()
    assert game.to_dict() == initial


@settings(max_examples=5, deadline=None)
@given(players=players_st, seed=seed_st)
def test_undo_takes_back_exactly_the_last_action(players: int, seed: int) -> None:
    game = play_random_game(players, seed)
    log = list(game.log)
    last = game.undo()
    assert last == log[-1] and game.log == log[:-1]
    assert game.to_dict() == Game.replay(game.setup, log[:-1]).to_dict()


@settings(max_examples=6, deadline=None)
@given(players=players_st, seed=seed_st)
def test_listed_legal_actions_are_accepted_and_include_the_random_players_moves(players: int, seed: int) -> None:
    """legal_actions() lists what apply() accepts; a pass is listed exactly when no placement is."""
    game, player = new_random_game(players, seed)
    while not game.finished:
        listed = list(game.legal_actions())
        assert listed, f"no legal action in phase {game.phase}"
        action = player.action(game)
        assert action in listed
        placements = [a for a in listed if isinstance(a, Place)]
        if game.phase == "assign" and game.pending is None and not game.s.placed:
            assert (Pass(game.to_move) in listed) == (not placements)  # type: ignore[arg-type]
        for other in (listed[0], listed[-1], listed[len(listed) // 2]):
            copy.deepcopy(game).apply(other)
        game.apply(action)


def test_random_games_exercise_every_action_and_worker() -> None:
    """The property tests above reach every rule: nine seeded games use every action type and worker."""
    seen: set[str] = set()
    moved = 0
    for seed in range(3):
        for players in (2, 3, 4):
            game = play_random_game(players, seed)
            moved += sum(p.tourists_gone for p in game.players)
            for action in game.log:
                data = action_to_dict(action)
                seen.add(data["type"] + (f"/{data['worker']}" if data["type"] == "place" else ""))
    assert seen >= {"roll", "scout", "place/assistant", "place/bodyguard", "place/tourist", "place/cousins",
                    "pass", "swap", "end_turn", "choose", "answer"}, seen
    assert moved > 0
