"""Table draws: at a real table nothing face-down is known in advance; the engine asks when a tile is
turned up (display refills, scroll refreshes, oases when discovered)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games.marrakesh import Answer, Game, IllegalAnswer, SetupError, SetupOptions
from companion.games.marrakesh.setup import resolve_setup
from companion.games.marrakesh.simulate import RandomPlayer
from companion.tower.model import SimulatedTower, TowerParams

NAMES = ("Sarah", "Jan", "Marie")


def table_draws(seed: int) -> dict[str, Any]:
    """What a table would type in at setup (taken from a seeded setup for the test)."""
    done = resolve_setup(SetupOptions(players=NAMES, seed=seed))
    keys = ("river_tiles", "exchange_offices", "workshops", "storage_keshis", "provisions", "first_provisions",
            "disc_orientation")
    draws = {k: done[k] for k in keys}
    draws["scroll_display"] = {c: stack[:3] for c, stack in done["scroll_stacks"].items()}
    draws["luxury_display"] = done["luxury_stack"][:5]
    return draws


def test_table_draws_must_be_entered() -> None:
    with pytest.raises(SetupError, match="the table must enter: river_tiles"):
        Game.new(SetupOptions(players=NAMES, table_draws=True))


def test_a_table_game_asks_for_every_tile_turned_up() -> None:
    rng = random.Random(4)
    game = Game.new(SetupOptions(players=NAMES, start_player=0, draws=table_draws(4), table_draws=True))
    assert all(p.oases == [0] * 6 for p in game.players)  # face down, unknown
    player = RandomPlayer(rng, SimulatedTower(TowerParams(), rng))
    asked: set[str] = set()
    while not game.finished:
        pending = game.pending
        if pending is not None and pending["kind"] == "draw":
            asked.add(pending["key"])
            assert game.to_move == "table"
            if pending["key"] == "draw.oasis":
                seen = {n for p in game.players for n in p.oases}
                assert not seen & set(pending["options"])
            before = dict(game.profile)
            with pytest.raises(IllegalAnswer):
                game.apply(Answer(pending["key"], -1))
            game.apply(player.action(game))
            assert game.profile == before  # a drawn tile is this game's event, not a board value
            continue
        game.apply(player.action(game))
    assert "draw.luxury" in asked or any(k.startswith("draw.scroll.") for k in asked)
    assert "draw.oasis" in asked
    assert Game.replay(game.setup, game.log).to_dict() == game.to_dict()
