"""Property-based tests (hypothesis): random legal Sabika games with 2, 3 and 4 players to final scoring.

Each example is a whole game (the table's answers to questions about printed values are random too),
with the invariants checked after every action and replay compared with the live game at the end.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.sabika import Answer, Game, SetupOptions, action_from_dict, action_to_dict
from companion.games.sabika.components import GOOD_OF, RAWS, SHIPS, WORKER_RING
from companion.games.sabika.handlers import capacity
from companion.games.sabika.log import read_log, write_log
from companion.games.sabika.rules import (
    activate_options,
    budget,
    carve_options,
    carve_possible,
    expand_options,
    legal_squares,
    storehouse_possible,
    work_problem,
)
from companion.games.sabika.simulate import DEFAULT_NAMES, random_action, table_setup


def check_invariants(game: Game) -> None:
    """What must hold after every action."""
    s = game.s
    assert 1 <= s.narrator <= 6 and 1 <= s.round <= 5
    if s.phase == "actions" and s.pending is None:
        assert s.narrator == s.round
        assert next(iter(game.legal_actions()), None) is not None, "no legal action in the Actions Phase"
    if s.pending is not None:
        assert s.pending["options"], s.pending
    for p in s.players:
        assert p.dinars >= 0 and p.seals >= 0 and p.parias >= 0, (p.name, p.dinars, p.seals, p.parias)
        assert all(n >= 0 for n in p.items.values()), p.items
        assert all(0 <= p.poem_goods[x] <= p.items[x] for x in p.poem_goods), (p.items, p.poem_goods)
        if s.phase != "setup" and all(f"storehouse.{t}.boxes" in s.profile for ts in p.storehouses for t in ts):
            assert p.held() <= capacity(game, p), (p.name, p.items)
        assert p.score == sum(p.breakdown.values())
        assert len(p.ships) <= SHIPS and all(where in ("left", "right") for where in p.ships.values())
        assert all(len(tiles) <= 2 for tiles in p.storehouses)
        assert len(p.grey_poems) <= 2 and len(p.raws) == len(set(p.raws))
        at = [p.workers[w].at for w in ("builder1", "builder2")]
        assert at[0] is None or at[0] != at[1], "Master Builders share a square"
    if s.phase == "actions":  # the legal-move checks agree with the options the handlers word
        seat, mover = s.turn, s.players[s.turn]
        for left in (0, budget(mover)):
            assert carve_possible(game, seat, left) == bool(carve_options(game, seat, left))
        for square in (None, *[sq for sq in game.layout.squares["outer"]
                               if game.layout.action["outer"][sq] == "storehouse"]):
            assert storehouse_possible(game, seat, square) == bool(expand_options(game, seat, square)
                                                                   or activate_options(game, seat))
    if s.bag:
        total = int(s.profile["bag.tokens_per_type"])
        for raw in RAWS:  # a Good on its way to a full Storehouse waits in an "item" effect
            in_transit = sum(1 for e in s.stack if e["k"] == "item" and e["kind"] == GOOD_OF[raw])
            count = (s.bag[raw] + s.discard[raw] + s.raw_spots.count(raw) + in_transit
                     + sum(p.raws.count(raw) + p.items[GOOD_OF[raw]] for p in s.players))
            assert count == total, f"{raw} tokens not conserved: {count} != {total}"
    assert sum(s.seals) + sum(p.seals for p in s.players) <= len(s.seals)
    if s.setup["table_draws"]:  # the decks are face down: no card count to conserve
        return
    cards = ([c for c in s.minor_display if c is not None] + s.minor_deck + s.minor_discard
             + [c for p in s.players for c in p.minor_row if c])
    assert sorted(cards) == sorted(s.setup["draws"]["minor_deck"])
    poems = ([m for m in s.poem_display if m is not None] + s.poem_deck
             + [m for p in s.players for m in p.blue_poems + p.red_poems])
    assert sorted(poems) == sorted(s.setup["draws"]["poem_deck"])


def play_checked(players: int, seed: int, advanced: bool = False, table_draws: bool = False) -> Game:
    rng = random.Random(seed)
    setup_seed = rng.randrange(2**32)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:players], seed=setup_seed, advanced=advanced,
                                 table_draws=table_draws,
                                 draws=table_setup(players, setup_seed) if table_draws else {}))
    check_invariants(game)
    for _ in range(20_000):
        if game.finished:
            return game
        action = random_action(game, rng)
        assert action_from_dict(action_to_dict(action)) == action
        game.apply(action)
        check_invariants(game)
    raise AssertionError("game did not finish")


@settings(max_examples=14, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(min_value=0, max_value=2**31), advanced=st.booleans())
def test_random_games_keep_invariants_and_replay_exactly(players: int, seed: int, advanced: bool) -> None:
    game = play_checked(players, seed, advanced)
    assert game.s.event_at == (len(game.profile.get("events.change_spaces", [])) if advanced else 0)
    assert game.finished and game.s.narrator == 6 and game.s.final["winners"]
    assert game.s.final["scores"] == {p.name: p.score for p in game.players}
    live = game.to_dict()
    assert Game.replay(game.setup, game.log).to_dict() == live
    assert read_log(write_log(game), "random.jsonl").to_dict() == live


@settings(max_examples=4, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(min_value=0, max_value=2**31))
def test_table_draw_games_ask_every_turned_up_component(players: int, seed: int) -> None:
    """With table draws, every bag token and card turned up in play is a ``draw`` answer in the log, never
    a board value kept in the profile. (A board whose bag and decks leave no choice asks nothing: 3
    players, seed 21500; ``test_a_table_draw_game_asks_what_was_turned_up`` shows a game that asks.)"""
    game = play_checked(players, seed, table_draws=True)
    assert not any(key.startswith("draw.") for key in game.profile)
    assert read_log(write_log(game), "table.jsonl").to_dict() == game.to_dict()


def test_a_table_draw_game_asks_what_was_turned_up() -> None:
    game = play_checked(3, 1, table_draws=True)
    assert any(isinstance(a, Answer) and a.key.startswith("draw.") for a in game.log)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_every_listed_legal_action_is_accepted(seed: int) -> None:
    """At a few positions of a random game, each action ``legal_actions`` lists is accepted by ``apply``."""
    rng = random.Random(seed)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:3], seed=seed))
    checked = 0
    while not game.finished and checked < 6:
        if game.pending is None and game.phase == "actions":
            seat = game.s.turn
            for worker in game.players[seat].active_workers():  # the fast listing agrees with the check
                listed = set(legal_squares(game, seat, worker))
                for square in game.layout.squares[WORKER_RING[worker]]:
                    assert (square in listed) == (work_problem(game, seat, worker, square) is None)
            if rng.random() < 0.2:
                for action in list(game.legal_actions()):
                    game.apply(action)
                    game.undo()
                checked += 1
        game.apply(random_action(game, rng))


def test_a_saved_profile_means_no_questions() -> None:
    """The profile answered in one game, passed to the next, asks the table nothing again (same draws)."""
    first = play_checked(4, 3)
    answers = sum(1 for a in first.log if isinstance(a, Answer))
    assert answers > 50
    again = Game.new(SetupOptions(players=DEFAULT_NAMES[:4], seed=first.setup["seed"], profile=first.profile))
    assert again.pending is None or again.pending["kind"] == "choice"
