"""Every river tile 01-18 (addendum EN:L2615-2728, digest §14.4): the season winner's (and in season 3
the runner-up's) bonus, through the engine's river evaluation."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.marrakesh import Answer, Game, SetupError, SetupOptions
from companion.games.marrakesh.effects import passed_rapids
from tests.games.marrakesh.helpers import JAN, MARIE, SARAH, choose, new_game, run_effects

SEASON_OF = {t: s for s, tiles in {1: [1, 2, 7, 8, 13, 14], 2: [3, 4, 9, 10, 15, 16],
                                   3: [5, 6, 11, 12, 17, 18]}.items() for t in tiles}
FILLER = {1: 1, 2: 3, 3: 5}


def evaluate(tile: int, profile: dict[str, Any] | None = None, **draws: Any) -> Game:
    """A game in the tile's season where Sarah is first on the river and Marie second; runs the evaluation."""
    season = SEASON_OF[tile]
    tiles = [tile if s == season else FILLER[s] for s in (1, 2, 3)]
    g = new_game(profile=profile, river_tiles=tiles, **draws)
    g.s.season = season
    g.players[SARAH].fisherman, g.players[MARIE].fisherman = 9, 4
    for p in g.players:
        p.resources["water"] = 0
    run_effects(g, {"k": "river_eval"})
    return g


def test_tile_01_any_sector_action() -> None:
    g = new_game(river_tiles=[1, 3, 5])
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.markers["green"], sarah.markers["white"] = 9, 3, 0
    run_effects(g, {"k": "river_eval"})
    assert sarah.resources["dates"] == 1 + 3  # the only possible action: the date orchard


def test_tile_02_a_face_up_oasis_claimed_free_as_a_7th() -> None:
    g = evaluate(2, profile={"storage.1": "none"}, river_oases=[28, 29, 30],
                 oases=[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18], [19, 20, 21, 22, 23, 24]])
    assert g.s.river_oases == [28, 29, 30]
    choose(g, 29)
    sarah = g.players[SARAH]
    assert sarah.claimed_oases == [29] and g.s.river_oases == [28, 30] and sarah.resources["dinars"] == 1
    sarah.claimed_oases = [1, 2, 3, 4, 5, 6]  # a 7th claimed oasis is allowed
    g.s.season = 1
    run_effects(g, {"k": "river_oasis", "p": SARAH})
    choose(g, 30)
    assert len(sarah.claimed_oases) == 7


def test_tile_02_setup_draws_three_leftover_oases() -> None:
    g = Game.new(SetupOptions(players=("A", "B"), seed=3, draws={"river_tiles": [2, 3, 5]}))
    dealt = {n for tiles in g.setup["oases"] for n in tiles}
    assert len(g.s.river_oases) == 3 and not dealt & set(g.s.river_oases)
    with pytest.raises(SetupError, match="river_oases"):
        Game.new(SetupOptions(players=("A", "B"), seed=3, draws={"river_tiles": [1, 3, 5], "river_oases": [1, 2, 3]}))


def test_tile_03_two_keshis_of_choice() -> None:
    g = evaluate(3)
    choose(g, "gray", "gray")
    assert g.players[SARAH].markers["gray"] == 2


@pytest.mark.parametrize(("tile", "first", "second"), [(4, 5, None), (5, 7, 3), (8, 3, None)])
def test_tiles_04_05_08_points(tile: int, first: int, second: int | None) -> None:
    g = evaluate(tile)
    assert g.players[SARAH].breakdown["river_evaluation"] == first
    assert g.players[MARIE].breakdown.get("river_evaluation") == second


def test_tile_06_six_and_three_resources() -> None:
    g = evaluate(6)
    choose(g, *["water"] * 6, *["dates"] * 3)
    assert g.players[SARAH].resources["water"] == 6 and g.players[MARIE].resources["dates"] == 1 + 3


def test_tile_07_a_water_vendor() -> None:
    g = evaluate(7)
    choose(g, "palace")
    assert g.players[SARAH].water_vendors == ["palace"]


def test_tile_09_crocodile_head_start_next_season() -> None:
    g = evaluate(9, profile={"river.crocodile": 5, "river.space.1": "plain", "river.space.2": "rapid:1_point",
                             "river.space.3": "plain"})
    assert g.pending is not None and g.pending["key"] == "river.space.4"  # the spaces the head start passes
    g.apply(Answer("river.space.4", "plain"))
    assert g.players[SARAH].fisherman == 5 and g.players[MARIE].fisherman == 0
    assert passed_rapids(g, SARAH) == ["1_point"]
    assert g.players[SARAH].river_steps == 0  # a head start, not steps made (digest A36)


def test_tile_10_one_goods_keshi_of_each_colour() -> None:
    g = evaluate(10)
    assert g.players[SARAH].goods == {"yellow": 1, "orange": 1, "purple": 1}


def test_tile_11_three_steps_for_the_winner_one_for_the_runner_up() -> None:
    g = evaluate(11, profile={"palace.segment_starts": [5, 8], "mosque.segment_starts": [5, 8]})
    choose(g, "palace", "mosque")
    assert g.players[SARAH].palace == 3 and g.players[MARIE].mosque == 1


@pytest.mark.parametrize(("tile", "pick"), [(12, "A"), (17, "A"), (17, "B"), (18, "A"), (18, "B")])
def test_tiles_12_17_18_winner_chooses_runner_up_gets_the_other(tile: int, pick: str) -> None:
    g = new_game(river_tiles=[1, 3, tile])
    g.s.season = 3
    sarah, marie = g.players[SARAH], g.players[MARIE]
    sarah.fisherman, marie.fisherman = 9, 4
    for p in (sarah, marie):
        p.gates = [{"space": 1, "colour": "pink"}]
        p.markers["green"], p.entertainers, p.water_vendors, p.luxury_goods = 5, ["water", "date"], ["river"], [1]
        p.resources = {"water": 0, "dates": 0, "dinars": 0}
    run_effects(g, {"k": "river_eval"})
    choose(g, pick)
    value = {(12, "A"): 1, (12, "B"): 5, (18, "A"): (2 + 1 + 1 + 5) // 4, (18, "B"): 2}
    other = "B" if pick == "A" else "A"
    if tile == 17:
        a, b = {"water": 0, "dates": 2, "dinars": 2}, {"water": 1, "dates": 1, "dinars": 0}
        assert sarah.resources == (a if pick == "A" else b) and marie.resources == (a if other == "A" else b)
    else:
        assert sarah.breakdown["river_evaluation"] == value[(tile, pick)]
        assert marie.breakdown["river_evaluation"] == value[(tile, other)]


def test_tile_13_entertainer_caravan_or_guard() -> None:
    g = evaluate(13)
    choose(g, "beige")
    assert g.players[SARAH].watchtower == 1


def test_tile_14_water_dinar_date() -> None:
    g = evaluate(14)
    assert g.players[SARAH].resources == {"water": 1, "dates": 2, "dinars": 2}


def test_tile_15_two_discovered_oases_free() -> None:
    g = new_game(river_tiles=[1, 15, 5], profile={"storage.1": "none", "storage.2": "none"})
    g.s.season = 2
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.resources = 9, {"water": 0, "dates": 0, "dinars": 0}
    sarah.discovered = [True, True, True, False, False, False]
    run_effects(g, {"k": "river_eval"})
    choose(g, 0, 2)
    assert sarah.claimed_oases == [sarah.oases[0], sarah.oases[2]]


def test_tile_16_main_square_twice() -> None:
    profile = {f"square.position.{s}": i for i, s in enumerate(["water", "date", "dinar", "2_points", "river_step",
                                                                  "palace_step", "mosque_step", "goods"])}
    profile |= {f"disc.section.{k}": 1 for k in range(8)}
    g = new_game(river_tiles=[1, 16, 5], profile=profile)
    g.s.season = 2
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.entertainers, sarah.resources["water"] = 9, ["water"], 0
    orientation = sarah.disc_orientation
    run_effects(g, {"k": "river_eval"})
    assert sarah.resources["water"] == 2 and sarah.disc_orientation == (orientation + 2) % 8


def test_no_winner_on_the_start_space() -> None:
    g = new_game(river_tiles=[8, 3, 5])
    run_effects(g, {"k": "river_eval"})
    assert all("river_evaluation" not in p.breakdown for p in g.players)
    assert g.players[JAN].fisherman == 0
