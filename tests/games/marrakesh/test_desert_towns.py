"""Expansion 5, desert towns (EN:L1508-1570; addendum EN:L2494-2613; digest §13.5, §14.3): the covered
start oasis, the 4th caravan spaces, the 4-point placement bonus, claiming with yellow + orange + purple,
the instant towns 10-12, at most 2 scored, the Sahara-complete rule, and the addendum's examples."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.marrakesh import Game, SetupError, SetupOptions
from companion.games.marrakesh.desert_towns import town_value
from companion.games.marrakesh.scoring import filled_sectors, final_effects
from tests.games.marrakesh.helpers import JAN, LUKAS, MARIE, NAMES, SARAH, choose, run_effects


def town_game(players: int = 4, towns: list[int] | None = None, profile: dict[str, Any] | None = None,
              **draws: Any) -> Game:
    towns = towns or [1, 5, 6, 9, 10, 11, 12][: {2: 3, 3: 5, 4: 7}[players]]
    return Game.new(SetupOptions(players=NAMES[:players], seed=1, start_player=0, expansions=(5,),
                                 draws={"desert_towns": towns, **draws}, profile=profile or {}))


def test_display_size_per_player_count_and_setup_errors() -> None:
    for n, size in ((2, 3), (3, 5), (4, 7)):
        g = Game.new(SetupOptions(players=NAMES[:n], seed=2, expansions=(5,)))
        assert len(g.s.desert_town_display) == size == len(set(g.s.desert_town_display))
    with pytest.raises(SetupError, match="desert_towns must list 3 distinct towns"):
        town_game(2, towns=[1, 2])
    with pytest.raises(SetupError, match="belongs to expansion 5"):
        Game.new(SetupOptions(players=NAMES[:2], draws={"desert_towns": [1, 2, 3]}))


def test_start_oasis_covered_and_fourth_space_places_a_town_for_4_points() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    run_effects(g, {"k": "place_brown", "p": SARAH})
    assert g.pending is not None and g.pending["options"] == ["left", "right"]  # no start path
    choose(g, "left")
    sarah.sahara["left"] = 3
    score = sarah.score
    run_effects(g, {"k": "place_brown", "p": SARAH})
    choose(g, "left", 6)
    assert sarah.sahara["left"] == 4 and sarah.desert_towns == [{"path": "left", "number": 6, "claimed": False}]
    assert sarah.score == score + 4 and 6 not in g.s.desert_town_display


def test_no_town_left_no_fourth_space() -> None:
    g = town_game(2)
    g.s.desert_town_display = []
    sarah = g.players[SARAH]
    sarah.sahara = {"left": 3, "right": 2, "start": 0}
    run_effects(g, {"k": "place_brown", "p": SARAH})
    assert sarah.sahara == {"left": 3, "right": 3, "start": 0}  # the only possible path


def test_claim_costs_one_goods_keshi_of_each_colour_and_takes_no_storage_space() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    sarah.desert_towns = [{"path": "left", "number": 1, "claimed": False}]
    sarah.goods = {"yellow": 1, "orange": 1, "purple": 0}
    run_effects(g, {"k": "act_sahara", "p": SARAH})
    assert g.pending is None  # nothing claimable without purple
    sarah.goods["purple"], sarah.scrolls = 2, [45]  # scroll 45 does not apply (digest A25)
    run_effects(g, {"k": "act_sahara", "p": SARAH})
    choose(g, "town:1")
    assert sarah.goods == {"yellow": 0, "orange": 0, "purple": 1} and sarah.desert_towns[0]["claimed"]
    assert sarah.claimed_oases == []


def test_scroll_62_cannot_claim_desert_towns() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    sarah.desert_towns = [{"path": "left", "number": 1, "claimed": False}]
    sarah.goods = {"yellow": 1, "orange": 1, "purple": 1}
    run_effects(g, {"k": "sahara", "p": SARAH, "claimed": 0, "free": 3})
    assert not sarah.desert_towns[0]["claimed"]


def set_towns(g: Game, seat: int, *numbers: int) -> None:
    g.players[seat].desert_towns = [{"path": path, "number": n, "claimed": True}
                                    for path, n in zip(("left", "right", "left"), numbers, strict=False)]


def test_towns_01_03_two_points_per_gate_luxury_good_scroll() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    sarah.gates, sarah.luxury_goods, sarah.scrolls = [{"space": 1, "colour": "red"}] * 3, [1, 2], [19]
    assert [town_value(g, SARAH, n) for n in (1, 2, 3)] == [6, 4, 2]


def test_town_05_example_lucas_11_points() -> None:
    """Desert town 05 example (EN:L2520-2530): first stair of segment 4 = 11 steps -> 11 points."""
    g = town_game()
    g.players[LUKAS].mosque = 11
    assert town_value(g, LUKAS, 5) == 11
    g.players[LUKAS].palace = 16
    assert town_value(g, LUKAS, 4) == 16  # at most 16


def test_town_06_example_sarah_41_makes_13() -> None:
    """Desert town 06 example (EN:L2532-2541): 41 cardboard keshis (goods excluded) plus marker values -> 13.

    Sarah's board from the final-scoring example (EN:L1379-1400): full Sahara, river and mosque
    markers on 8, white on 2, 3 water vendors; the rest (the example's picture) is set to total 41.
    """
    g = town_game()
    sarah = g.players[SARAH]
    sarah.sahara = {"left": 3, "right": 3, "start": 2}
    sarah.markers.update(turquoise=8, black=8, white=2, green=2, gray=2)
    sarah.water_vendors = ["sahara", "river", "mosque"]
    sarah.entertainers, sarah.watchtower = ["water", "date", "dinar", "goods"], 4
    sarah.goods["yellow"] = 5  # goods do not count
    assert 8 + 8 + 8 + 2 + 2 + 2 + 3 + 4 + 4 == 41
    assert town_value(g, SARAH, 6) == 13


def test_town_07_river_steps_in_season_3_not_the_head_start() -> None:
    g = town_game(profile={f"river.space.{k}": "plain" for k in range(1, 8)})
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.resources["water"] = 2, 0  # e.g. the crocodile head start: not steps made
    run_effects(g, {"k": "river", "p": SARAH, "steps": 4})
    assert town_value(g, SARAH, 7) == 4


def test_town_08_sectors_with_four_the_vendor_counts() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    sarah.markers.update(turquoise=4, green=3)
    sarah.water_vendors = ["date_orchard"]
    sarah.goods["yellow"] = 9  # the souk never counts
    assert town_value(g, SARAH, 8) == 2 * 2


def test_town_09_example_marie_6_points() -> None:
    """Desert town 09 example (EN:L2543-2556): 2, 1 and 3 spectators face Marie's entertainers -> 6."""
    ring = ["water", "date", "dinar", "2_points", "river_step", "palace_step", "mosque_step", "goods"]
    profile = {f"square.position.{s}": i for i, s in enumerate(ring)}
    profile |= {"disc.section.0": 2, "disc.section.1": 1, "disc.section.2": 3}
    g = town_game(profile=profile, disc_orientation=[0, 0, 0, 0])
    g.players[MARIE].entertainers = ["water", "date", "dinar"]
    assert town_value(g, MARIE, 9) == 6


def test_town_10_example_lucas_takes_an_orange_scroll_free() -> None:
    """Desert town 10 example (EN:L2560-2570): an orange (7-scholar) scroll, no requirement, no dates."""
    g = town_game(scroll_display={"orange": [67, 70, 72]})
    lukas = g.players[LUKAS]
    lukas.goods = {"yellow": 1, "orange": 1, "purple": 1}
    lukas.desert_towns = [{"path": "right", "number": 10, "claimed": False}]
    lukas.resources["dates"] = 0
    run_effects(g, {"k": "act_sahara", "p": LUKAS})
    choose(g, "town:10", 67, "white", "black", "green")
    assert 67 in lukas.scrolls and lukas.markers["white"] == 1 and lukas.resources["dates"] == 0


LUXURY = {"luxury.2.cost": {"purple": 3, "orange": 2}, "luxury.2.reward": {"points": 13},
          "luxury.2.type": "necklace"}


def test_town_11_example_sarah_necklace_13_points() -> None:
    """Desert town 11 example (EN:L2580-2590): the necklace without its 3 purple + 2 orange -> 13 points."""
    g = town_game(profile=LUXURY, luxury_display=[2, 3, 4, 5, 6])
    sarah = g.players[SARAH]
    sarah.goods = {"yellow": 1, "orange": 1, "purple": 1}
    sarah.desert_towns = [{"path": "left", "number": 11, "claimed": False}]
    score = sarah.score
    run_effects(g, {"k": "act_sahara", "p": SARAH})
    choose(g, "town:11", 2)
    assert sarah.luxury_goods == [2] and sarah.score == score + 13 and sarah.goods["purple"] == 0


def test_town_12_example_jan_white_gate_right_workshop_7_plus_2() -> None:
    """Desert town 12 example (EN:L2592-2613): a white gate from the right workshop, free: +7, +2, a guard."""
    workshops = [["brown"] * 3 + ["red"] * 3 + ["yellow"] * 2, ["green"] * 3 + ["gray"] * 3 + ["purple"] * 2,
                 ["pink"] * 3 + ["black"] * 3 + ["orange"] * 2, ["white"] * 3 + ["turquoise"] * 3 + ["beige"] * 2]
    g = town_game(profile={"gate_space.4": "white"}, workshops=workshops)
    jan = g.players[JAN]
    jan.goods = {"yellow": 1, "orange": 1, "purple": 1}
    jan.desert_towns = [{"path": "left", "number": 12, "claimed": False}]
    jan.watchtower, dinars, score = 1, jan.resources["dinars"], jan.score
    run_effects(g, {"k": "act_sahara", "p": JAN})
    choose(g, "town:12", "gate:3:white", 4)
    assert jan.score == score + 9 and jan.resources["dinars"] == dinars
    assert jan.gates == [{"space": 4, "colour": "white"}] and jan.watchtower == 0 and jan.markers["white"] == 1


def test_at_most_two_towns_score_and_instant_towns_score_nothing() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    set_towns(g, SARAH, 1, 2, 3)  # a third cannot exist on the board; the rule still caps at 2
    sarah.gates, sarah.luxury_goods, sarah.scrolls = [{"space": 1, "colour": "red"}], [1, 2], [19, 20, 21]
    sarah.resources = {"water": 0, "dates": 0, "dinars": 0}
    run_effects(g, *[e for e in final_effects(g) if e["p"] == SARAH])
    assert sarah.breakdown["desert_towns"] == 6 + 4
    assert town_value(g, SARAH, 12) == 0


def test_sahara_complete_needs_both_desert_town_spaces() -> None:
    g = town_game()
    sarah = g.players[SARAH]
    sarah.water_vendors = ["sahara"]
    sarah.sahara = {"left": 3, "right": 3, "start": 0}
    assert "sahara" not in filled_sectors(g, SARAH)
    sarah.sahara = {"left": 4, "right": 4, "start": 0}
    assert "sahara" in filled_sectors(g, SARAH)


def test_storage_icons_are_asked_for_the_reverse_side_of_the_supply_board() -> None:
    """Expansion 5 turns the supply board over (EN:L1515-1518): its storage icons are asked anew."""
    g = town_game()
    sarah = g.players[SARAH]
    sarah.oases[0], sarah.discovered[0] = 5, True
    sarah.resources["dinars"] = 1
    run_effects(g, {"k": "sahara", "p": SARAH, "claimed": 0})
    choose(g, 0)
    assert g.pending is not None and g.pending["key"] == "storage.reverse.1"
