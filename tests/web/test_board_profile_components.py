"""The Board page lists every printed value a game without expansions can ask: a table that gave them
all is asked nothing in a whole game (either edition), and the river is listed up to its jetty."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games.marrakesh.actions import Answer
from companion.games.marrakesh.game import Game
from companion.games.marrakesh.setup import SetupOptions
from companion.games.marrakesh.simulate import DEFAULT_NAMES, RandomPlayer, SimulatedTower, TowerParams
from companion.table.board_profile import rulebook_values
from companion.table.board_profile_components import component_of, game_keys, river_length
from companion.table.board_profile_keys import info

RIVER = {"river.space.1": "plain", "river.space.2": "rapid:resource", "river.space.3": "plain",
         "river.space.4": "jetty"}


def every_value(edition: str) -> dict[str, Any]:
    """The rulebook's values, the river above, and for every other listed key a possible value."""
    profile: dict[str, Any] = {**rulebook_values(edition), **RIVER}
    ring = iter(range(8))
    for key in game_keys(profile):
        if key not in profile:
            options = info(key).options
            profile[key] = (next(ring) if key.startswith("square.position.") else [options[0]] if info(key).multi
                            else options[-1] if key.endswith("final_step") else options[0])
    return profile


@pytest.mark.parametrize(("edition", "seed"), [("essential", 1), ("essential", 2), ("classic", 3)])
def test_a_table_that_gave_every_listed_value_is_asked_nothing(edition: str, seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:3], seed=seed, tower_layer="B1", edition=edition,
                                 profile=every_value(edition)))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(layer="B1"), rng))
    asked = []
    while not game.finished:
        action = player.action(game)
        if isinstance(action, Answer):
            asked.append(action.key)
        game.apply(action)
    assert asked == []


def test_without_any_value_a_game_asks_keys_the_page_lists() -> None:
    """The other way round: what an empty table is asked is on the page (no key the page misses)."""
    rng = random.Random(4)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:2], seed=4, tower_layer="B1"))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(layer="B1"), rng))
    asked: dict[str, Any] = {}
    while not game.finished:
        action = player.action(game)
        if isinstance(action, Answer):
            asked[action.key] = action.value
        game.apply(action)
    listed = set(game_keys({**rulebook_values("essential"), **asked}))
    assert asked and set(asked) <= listed


def test_the_river_is_listed_up_to_its_jetty() -> None:
    assert river_length({}) == 1  # nothing known: the first space
    assert river_length({"river.space.1": "plain", "river.space.2": "plain"}) == 3  # one past the last known
    assert river_length(RIVER) == 4  # the jetty ends the river
    plain = {f"river.space.{n}": "plain" for n in range(1, 100)}  # a table that never names the jetty
    assert river_length(plain) == 99 and [info(k) for k in game_keys(plain)]  # every listed key is one a page can show
    assert [k for k in game_keys(RIVER) if k.startswith("river.space.")] == [f"river.space.{n}" for n in range(1, 5)]


def test_each_listed_value_is_on_a_board_or_a_tile() -> None:
    keys = game_keys({})
    assert {component_of(k) for k in keys} == {"board", "tiles"}
    assert component_of("disc.section.3") == "board" and component_of("scroll.40.goods") == "tiles"
    assert len(keys) == len(set(keys))
