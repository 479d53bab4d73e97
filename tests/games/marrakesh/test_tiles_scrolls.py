"""Every scroll 01-72 (addendum EN:L1864-2395, digest §14.1): one test per number or group of identical
tiles, the named interactions, and the addendum's worked examples (cited by scroll number and line).

Printed values the text does not give (ring positions, spectators, lines, ...) are supplied as the
table's answers in the board profile, as a real table would.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.marrakesh import IllegalAssistant, UseAssistant
from companion.games.marrakesh.board import MARKER_COLOURS, SQUARE_BONUSES
from companion.games.marrakesh.tiles import SCROLL_EFFECTS, timed_effects
from tests.games.marrakesh.helpers import JAN, LUKAS, MARIE, SARAH, choose, new_game, run_effects, to_assistants, use

STAIRS: dict[str, Any] = {"palace.segment_starts": [2, 6], "mosque.segment_starts": [2, 6],
                          "line.2.1": ["points:1"], "line.1.2": ["points:1"], "line.2.2": ["points:1"]}


def square(facing: dict[str, int], rotation: int = 0) -> dict[str, Any]:
    """Ring positions in SQUARE_BONUSES order and disc sections so that, with the disc at ``rotation``,
    each space faces ``facing[space]`` spectators (0 for the others)."""
    profile: dict[str, Any] = {}
    for position, space in enumerate(SQUARE_BONUSES):
        profile[f"square.position.{space}"] = position
        profile[f"disc.section.{(position - rotation) % 8}"] = facing.get(space, 0)
    return profile


def acquire(g: Any, seat: int, number: int, *choices: Any) -> None:
    """Take scroll ``number`` (as if bought) and run its instant effect, answering ``choices``."""
    g.players[seat].scrolls.append(number)
    run_effects(g, *SCROLL_EFFECTS[number].on_acquire(seat))
    choose(g, *choices)


def test_every_scroll_number_has_an_effect_with_a_known_timing() -> None:
    assert sorted(SCROLL_EFFECTS) == list(range(1, 73))
    assert {SCROLL_EFFECTS[n].timing for n in (28,)} == {"end_of_season"}
    assert SCROLL_EFFECTS[69].timing == "end_of_round"


@pytest.mark.parametrize("number", range(1, 13))
def test_scrolls_01_12_take_the_depicted_keshi(number: int) -> None:
    colour = MARKER_COLOURS[number % 5]
    g = new_game(profile={f"scroll.{number}.colour": colour})
    before = g.players[SARAH].markers[colour]
    acquire(g, SARAH, number)
    assert g.players[SARAH].markers[colour] == before + 1


@pytest.mark.parametrize(("number", "extra"), [(13, ("water", 1)), (14, ("dates", 1)), (15, ("dinars", 1)),
                                               (16, ("fisherman", 1))])
def test_scrolls_13_16_threshold_extras(number: int, extra: tuple[str, int]) -> None:
    g = new_game(profile={**STAIRS, "line.2.1": ["points:1"], "river.space.1": "plain"})
    sarah = g.players[SARAH]
    sarah.scrolls, sarah.resources = [number], {"water": 0, "dates": 0, "dinars": 0}
    run_effects(g, {"k": "stair", "p": SARAH, "which": "palace", "steps": 2})
    assert sarah.palace == 2 and sarah.thresholds == 1 and sarah.breakdown["line_bonus"] == 1
    kind, n = extra
    got = sarah.fisherman if kind == "fisherman" else sarah.resources[kind] - (1 if kind == "dinars" else 0)
    assert got == n and sarah.resources["dinars"] >= 1


def test_scroll_17_crossing_a_rapid_gives_its_bonus_and_60_doubles_it() -> None:
    g = new_game(profile={"river.space.1": "rapid:3_points", "river.space.2": "plain", "river.space.3": "plain"})
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.resources["water"] = 1, 0
    run_effects(g, {"k": "river", "p": SARAH, "steps": 1})
    assert "river_bonus" not in sarah.breakdown  # without scroll 17 crossing gives nothing
    sarah.fisherman, sarah.scrolls = 1, [17]
    run_effects(g, {"k": "river", "p": SARAH, "steps": 1})
    assert sarah.breakdown["river_bonus"] == 3
    sarah.fisherman, sarah.scrolls = 1, [17, 60]
    run_effects(g, {"k": "river", "p": SARAH, "steps": 1})
    assert sarah.breakdown["river_bonus"] == 3 + 6


def test_scroll_18_exchange_office_gives_one_more_resource() -> None:
    g = new_game(profile={"office.1.purple": {"dates": 2}}, exchange_offices=[1, 2, 3])
    sarah = g.players[SARAH]
    sarah.scrolls, sarah.goods["purple"] = [18], 1
    water = sarah.resources["water"]
    run_effects(g, {"k": "office", "p": SARAH, "colour": "purple"})
    choose(g, "water")
    assert sarah.resources["water"] == water + 1 and sarah.resources["dates"] == 1 + 2


@pytest.mark.parametrize(("number", "kind", "n"), [(19, "water", 2), (20, "dinars", 2), (21, "dates", 3)])
def test_scrolls_19_21_resources(number: int, kind: str, n: int) -> None:
    g = new_game()
    before = g.players[SARAH].resources[kind]
    acquire(g, SARAH, number)
    assert g.players[SARAH].resources[kind] == before + n


GATES: dict[str, Any] = {"workshop.1.price": 1, "workshop.1.points": 1, "workshop.2.price": 2,
                         "workshop.2.points": 3, **{f"gate_space.{k}": "red" for k in range(1, 9)}}
WORKSHOPS = [["brown"] * 3 + ["red"] * 3 + ["yellow"] * 2, ["green"] * 3 + ["gray"] * 3 + ["purple"] * 2,
             ["white"] * 3 + ["black"] * 3 + ["orange"] * 2, ["pink"] * 3 + ["turquoise"] * 3 + ["beige"] * 2]


def build_gate(g: Any, seat: int, workshop: int, colour: str, *gains: Any) -> None:
    """One gate purchase through the medina action, then stop (placing the gained keshis)."""
    g.players[seat].watchtower = max(1, g.players[seat].watchtower)
    run_effects(g, {"k": "medina", "p": seat, "gained": []})
    choose(g, f"gate:{workshop}:{colour}")
    choose(g, g.pending["options"][0])  # the first free gate space
    while g.pending is not None and g.pending["prompt"].startswith("Pay"):
        choose(g, g.pending["options"][0])
    if g.pending is not None and g.pending["prompt"].startswith("Buy a city gate"):
        choose(g, "done")
    choose(g, *gains)


def test_scroll_22_left_workshop_loses_no_points() -> None:
    g = new_game(profile=GATES, workshops=WORKSHOPS)
    sarah = g.players[SARAH]
    build_gate(g, SARAH, 0, "brown", "left")
    assert sarah.breakdown["gates"] == -3
    sarah.scrolls = [22]
    build_gate(g, SARAH, 0, "brown", "left")
    assert sarah.breakdown["gates"] == -3  # the second gate cost nothing


def test_scrolls_23_25_date_orchard_dates_become_other_resources() -> None:
    g = new_game()
    to_assistants(g, {SARAH: ("green", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.markers["green"], sarah.scrolls = 3, [23, 24, 25]
    sarah.resources = {"water": 0, "dates": 0, "dinars": 0}
    use(g, SARAH, "date_orchard", "action", 1, 1, 0)  # 1 water, 1 dinar, 0 points, the rest dates
    assert sarah.resources == {"water": 1, "dates": 1, "dinars": 1} and "scrolls" not in sarah.breakdown


@pytest.mark.parametrize(("number", "kind"), [(26, "dates"), (27, "water")])
def test_scrolls_26_27_buy_further_staircase_steps(number: int, kind: str) -> None:
    g = new_game(profile={**STAIRS, "line.1.2": ["points:1"]})
    sarah = g.players[SARAH]
    sarah.scrolls, sarah.resources[kind] = [number], 2
    run_effects(g, {"k": "stair", "p": SARAH, "which": "mosque", "steps": 1})
    choose(g, 2)
    assert sarah.mosque == 3 and sarah.resources[kind] == 0


def test_scroll_28_each_crossed_rapid_at_the_start_of_season_scoring() -> None:
    g = new_game(profile={"river.space.1": "rapid:1_point", "river.space.2": "rapid:3_points"})
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.scrolls = 3, [28]
    run_effects(g, *timed_effects("end_of_season", [(SARAH, sarah.scrolls)]))
    assert sarah.breakdown["river_bonus"] == 4


def test_scroll_29_example_lucas_4_points() -> None:
    """Scroll 29 example (EN:L1896-1912): 2 spectators face the 2-point space -> 4 points at the end."""
    g = new_game(profile=square({"2_points": 2, "water": 1}))
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    lukas_stand_in = g.players[SARAH]
    lukas_stand_in.entertainers, lukas_stand_in.disc_orientation, lukas_stand_in.scrolls = ["water"], 7, [29]
    use(g, SARAH, "main_square", "action")
    assert lukas_stand_in.breakdown["scrolls"] == 4 and lukas_stand_in.resources["water"] == 2


def test_scroll_32_gates_cost_one_dinar_less() -> None:
    g = new_game(profile=GATES, workshops=WORKSHOPS)
    sarah = g.players[SARAH]
    sarah.resources["dinars"], sarah.scrolls = 1, [32]
    build_gate(g, SARAH, 1, "green")
    assert sarah.resources["dinars"] == 1  # 1-dinar workshop for 0


def test_scroll_33_example_marie_pays_2_dates_and_1_dinar() -> None:
    """Scroll 33 example (EN:L2065-2075): the right workshop's 3 dinars paid as 2 dates + 1 dinar."""
    g = new_game(profile={**GATES, "gate_space.1": "pink"}, workshops=WORKSHOPS)
    marie = g.players[MARIE]
    marie.scrolls, marie.watchtower = [33], 1
    marie.resources = {"water": 0, "dates": 3, "dinars": 1}
    run_effects(g, {"k": "medina", "p": MARIE, "gained": []})
    assert "gate:3:pink" in g.pending["options"]  # type: ignore[index]  # 3 dinars affordable via 33
    choose(g, "gate:3:pink", 1)  # gate space 1
    assert g.pending["options"] == [{"dates": 3}, {"dinars": 1, "dates": 2}]  # type: ignore[index]
    choose(g, {"dinars": 1, "dates": 2}, "water")  # then the pink gate's entertainer
    assert marie.resources == {"water": 1, "dates": 1, "dinars": 0}


def test_scroll_33_on_the_refresh_and_oasis_costs() -> None:
    g = new_game(profile={"sahara.cost.left.1": {"dinars": 1}, "storage.1": "none"})
    sarah = g.players[SARAH]
    sarah.resources = {"water": 1, "dates": 0, "dinars": 0}
    sarah.oases[0], sarah.discovered[0] = 5, True
    run_effects(g, {"k": "sahara", "p": SARAH, "claimed": 0})
    assert g.pending is None  # no dinar: nothing to claim
    sarah.scrolls = [33]
    run_effects(g, {"k": "sahara", "p": SARAH, "claimed": 0})
    choose(g, 0)  # 1 water stands in for the dinar (the only way to pay)
    assert sarah.claimed_oases == [5] and sarah.resources["water"] == 0


LUX = {f"luxury.{n}.{k}": v for n in (1, 2, 3, 4, 5) for k, v in (("cost", {"orange": 1}), ("reward", {"points": 2}),
                                                          ("type", "slipper"))}


def test_scroll_34_several_luxury_goods_and_46_several_exchanges() -> None:
    g = new_game(profile={**LUX, "office.1.yellow": {"water": 1}}, luxury_display=[1, 2, 3, 4, 5],
                 exchange_offices=[1, 2, 3])
    to_assistants(g, {SARAH: ("orange", "yellow", "purple")})
    sarah = g.players[SARAH]
    sarah.goods.update({"orange": 2, "yellow": 2})
    sarah.scrolls = [34, 46]
    use(g, SARAH, "souk", "action", "luxury:1", "luxury:2")
    assert sarah.luxury_goods == [1, 2] and sarah.goods["orange"] == 0
    use(g, SARAH, "souk", "action", "office:yellow")  # the first exchange is the only option; the 2nd: 46
    assert sarah.goods["yellow"] == 0 and sarah.resources["water"] == 1 + 2


@pytest.mark.parametrize(("number", "water", "points"), [(35, 2, 0), (50, 1, 2)])
def test_scrolls_35_50_water_vendor_income(number: int, water: int, points: int) -> None:
    g = new_game()
    to_assistants(g, {SARAH: ("green", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.water_vendors, sarah.scrolls, sarah.markers["green"] = ["date_orchard"], [number], 1
    before, score = sarah.resources["water"], sarah.score
    use(g, SARAH, "date_orchard", "action")
    assert sarah.resources["water"] == before + water and sarah.score == score + points


def test_scrolls_36_and_66_gate_keshis_and_their_interaction() -> None:
    g = new_game(profile=GATES, workshops=WORKSHOPS)
    sarah = g.players[SARAH]
    sarah.resources["dinars"] = 9
    sarah.scrolls = [66]
    build_gate(g, SARAH, 1, "green")
    assert sarah.markers["green"] == 2  # scroll 66: 2 steps
    sarah.scrolls = [36]
    build_gate(g, SARAH, 1, "gray", "white")
    assert sarah.markers["white"] == 1 and sarah.markers["gray"] == 0  # scroll 36: any colour
    sarah.scrolls = [36, 66]
    build_gate(g, SARAH, 1, "gray", "black", "turquoise")  # both: 2 keshis of different colours
    assert sarah.markers["black"] == 1 and sarah.markers["turquoise"] == 1


def test_scrolls_37_42_both_depicted_goods() -> None:
    g = new_game(profile={f"scroll.{n}.goods": ["yellow", "purple"] for n in range(37, 43)})
    for number in range(37, 43):
        acquire(g, SARAH, number)
    assert g.players[SARAH].goods == {"yellow": 6, "orange": 0, "purple": 6}


@pytest.mark.parametrize(("number", "times"), [(30, 1), (43, 2), (67, 3)])
def test_scrolls_30_43_67_keshis_of_choice(number: int, times: int) -> None:
    g = new_game()
    acquire(g, SARAH, number, *["gray"] * times)
    assert g.players[SARAH].markers["gray"] == times


def test_scroll_44_example_sarah_pays_1_dinar_and_2_dates() -> None:
    """Scroll 44 example (EN:L1986-2004): 1 dinar once, then 1 resource of choice per provision tile."""
    g = new_game(provisions=[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], first_provisions=[1, 4, 7, 10])
    g.s.profile.update({"provision.1.demand": {"water": 3}, "provision.1.points": 4,
                        "provision.2.demand": {"dinars": 3}, "provision.2.points": 4})
    sarah = g.players[SARAH]
    sarah.revealed_provisions, sarah.scrolls = [1, 2], [44]
    sarah.resources = {"water": 1, "dates": 2, "dinars": 1}
    run_effects(g, {"k": "provisions", "p": SARAH})
    choose(g, "yes", "dates", "dates")
    assert sarah.resources == {"water": 1, "dates": 0, "dinars": 0} and "provisions" not in sarah.breakdown


def test_scroll_44_is_optional() -> None:
    g = new_game(provisions=[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], first_provisions=[1, 4, 7, 10])
    g.s.profile.update({"provision.1.demand": {"water": 1}, "provision.1.points": 4})
    sarah = g.players[SARAH]
    sarah.scrolls, sarah.resources = [44], {"water": 1, "dates": 0, "dinars": 1}
    run_effects(g, {"k": "provisions", "p": SARAH})
    choose(g, "no")
    assert sarah.resources == {"water": 0, "dates": 0, "dinars": 1}


def test_scroll_45_oasis_for_one_resource_of_choice() -> None:
    g = new_game(profile={"sahara.cost.left.1": {"dinars": 3}, "storage.1": "none"})
    sarah = g.players[SARAH]
    sarah.oases[0], sarah.discovered[0], sarah.scrolls = 5, True, [45]
    run_effects(g, {"k": "sahara", "p": SARAH, "claimed": 0})
    choose(g, 0, "water")
    assert sarah.claimed_oases == [5] and sarah.resources == {"water": 0, "dates": 1, "dinars": 1}


def test_scroll_47_example_jan_3_goods_and_3_mosque_steps() -> None:
    """Scroll 47 example (EN:L2019-2034): sections with 3 face the goods and the mosque-step spaces."""
    g = new_game(profile={**square({"goods": 3, "mosque_step": 3, "water": 2, "dinar": 1}), **STAIRS},
                 disc_orientation=[0, 0, 0, 0])
    jan = g.players[JAN]
    acquire(g, JAN, 47, "orange")
    assert jan.goods["orange"] == 3 and jan.mosque == 3 and jan.resources["water"] == 1


def test_scroll_47_and_51_count_scroll_31s_extra_spectator() -> None:
    """Digest A15: with scroll 31 a printed 2 counts as 3 (scroll 47), a printed 0 as 1 (scroll 51)."""
    g = new_game(profile={**square({"goods": 2, "water": 3}), **STAIRS}, disc_orientation=[0, 0, 0, 0])
    jan = g.players[JAN]
    jan.scrolls = [31]
    acquire(g, JAN, 47, "purple")
    assert jan.goods["purple"] == 3 and jan.resources["water"] == 1  # water's 3 counts as 4: not scored


def test_scroll_51_example_sarah_water_date_palace() -> None:
    """Scroll 51 example (EN:L2140-2157): 1-spectator sections face water, date and palace step."""
    g = new_game(profile={**square({"water": 1, "date": 1, "palace_step": 1, "goods": 3}), **STAIRS})
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.entertainers, sarah.disc_orientation, sarah.scrolls = ["goods"], 7, [51]
    use(g, SARAH, "main_square", "action", "yellow")
    assert sarah.goods["yellow"] == 3
    assert sarah.resources["water"] == 2 and sarah.resources["dates"] == 2 and sarah.palace == 1


def test_scroll_53_any_sector_action() -> None:
    g = new_game()
    sarah = g.players[SARAH]
    sarah.markers["green"], sarah.markers["turquoise"] = 4, 1
    acquire(g, SARAH, 53, "date_orchard")
    assert sarah.resources["dates"] == 1 + 4


def test_scroll_54_example_marie_2_points_water_and_dinar() -> None:
    """Scroll 54 example (EN:L2170-2190): the 2-point space lies between the water and dinar spaces."""
    ring = ["water", "2_points", "dinar", "date", "river_step", "palace_step", "mosque_step", "goods"]
    g = new_game(profile={f"square.position.{s}": i for i, s in enumerate(ring)})
    marie = g.players[MARIE]
    marie.scrolls = [54]
    run_effects(g, {"k": "gain", "p": MARIE, "colour": "pink"})
    choose(g, "2_points")
    assert marie.breakdown["main_square"] == 2
    assert marie.resources["water"] == 2 and marie.resources["dinars"] == 2


def test_scroll_55_three_steps_on_each_staircase() -> None:
    g = new_game(profile={**STAIRS, "line.2.1": ["points:1"], "line.2.2": ["points:2"]})
    sarah = g.players[SARAH]
    acquire(g, SARAH, 55, "palace")
    assert sarah.palace == 3 and sarah.mosque == 3 and sarah.breakdown["line_bonus"] == 1 + 2


def test_scroll_57_souk_vendor_pays_from_the_next_turn() -> None:
    g = new_game()
    to_assistants(g, {SARAH: ("yellow", "orange", "purple")})
    sarah = g.players[SARAH]
    acquire(g, SARAH, 57)
    assert sarah.resources["water"] == 1 + 3 and sarah.souk_vendor == 1
    use(g, SARAH, "souk", "keshi", "yellow")
    assert sarah.resources["water"] == 4  # not in the turn it was placed
    g.s.round = 2  # the next round's turn
    sarah.assistants = ["souk"]
    use(g, SARAH, "souk", "keshi", "yellow")
    assert sarah.resources["water"] == 5


def test_scroll_58_orange_scroll_for_one_date_and_the_sultan_floor() -> None:
    g = new_game(scroll_display={"orange": [65, 69, 71]}, profile=square({}))
    sarah = g.players[SARAH]
    sarah.resources["dates"] = 1
    acquire(g, SARAH, 58, 71)
    assert 71 in sarah.scrolls and sarah.resources["dates"] == 0 and 71 not in g.s.scroll_display["orange"]
    g.s.figures = {"sultan": {"holder": SARAH, "step": None}}
    acquire(g, SARAH, 58, 69)
    assert 69 in sarah.scrolls and sarah.resources["dates"] == 0  # Sultan: 0 dates (floor, digest A29)


def test_scroll_59_example_lucas_all_line_bonuses() -> None:
    """Scroll 59 example (EN:L2235-2246): 1 dinar, 3 points, a red keshi, a green step (+1 point, A39)."""
    g = new_game(profile={**STAIRS, "line.1.1": ["dinars:1", "points:3", "keshi:red", "keshi:green"]})
    lukas = g.players[LUKAS]
    score = lukas.score
    acquire(g, LUKAS, 59, "river")
    assert lukas.resources["dinars"] == 2 and lukas.water_vendors == ["river"] and lukas.markers["green"] == 1
    assert lukas.score == score + 4


def test_scroll_60_rapid_bonus_twice() -> None:
    g = new_game(profile={"river.space.1": "rapid:3_points"})
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.scrolls = 2, [60]
    run_effects(g, {"k": "rapid_choice", "p": SARAH})
    choose(g, "3_points")
    assert sarah.breakdown["river_bonus"] == 6


def test_scroll_62_three_oases_free() -> None:
    g = new_game(profile={f"storage.{k}": "none" for k in range(1, 4)})
    sarah = g.players[SARAH]
    sarah.oases = [5, 6, 7, 8, 9, 10]
    sarah.discovered = [True, True, False, True, False, False]
    sarah.resources = {"water": 0, "dates": 0, "dinars": 0}
    acquire(g, SARAH, 62, 0, 1, 3)
    assert sarah.claimed_oases == [5, 6, 8]


def test_scroll_63_two_different_connection_bonuses() -> None:
    g = new_game(profile={**STAIRS, "line.2.1": ["points:1", "points:3", "date"]})
    sarah = g.players[SARAH]
    sarah.scrolls = [63]
    run_effects(g, {"k": "stair", "p": SARAH, "which": "palace", "steps": 2})
    choose(g, "points:3")
    assert "points:3" not in g.pending["options"]  # type: ignore[index]
    choose(g, "date")
    assert sarah.breakdown["line_bonus"] == 3 and sarah.resources["dates"] == 2


def test_scroll_64_keshi_then_its_sector_action() -> None:
    g = new_game()
    sarah = g.players[SARAH]
    sarah.markers["green"] = 2
    acquire(g, SARAH, 64, "green")
    assert sarah.markers["green"] == 3 and sarah.resources["dates"] == 1 + 3  # the date orchard with 3


def test_scroll_65_example_marie_2_points_three_times_then_3_water() -> None:
    """Scroll 65 example (EN:L2309-2323): two rotations, two bonuses."""
    profile = square({}, 0)
    profile.update({"disc.section.3": 3, "disc.section.7": 3})  # 2-point space after the 1st, water after the 2nd
    g = new_game(profile=profile)
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    marie = g.players[SARAH]
    marie.entertainers, marie.disc_orientation, marie.scrolls = ["2_points", "water"], 7, [65]
    marie.resources["water"] = 0
    use(g, SARAH, "main_square", "action", "2_points", "yes", "water")
    assert marie.breakdown["main_square"] == 6 and marie.resources["water"] == 3


def test_scroll_65_with_29_scores_after_each_action_and_the_second_is_optional() -> None:
    """Digest A37/A17: scroll 29 after each of the two actions; the second action may be declined."""
    g = new_game(profile=square({"2_points": 2, "water": 1}))
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.entertainers, sarah.disc_orientation, sarah.scrolls = ["water"], 7, [65, 29]
    use(g, SARAH, "main_square", "action", "yes")
    assert sarah.breakdown["scrolls"] == 4 + 2 * g.s.profile["disc.section.7"]
    assert sarah.disc_orientation == 1
    g2 = new_game(profile=square({"2_points": 2, "water": 1}))
    to_assistants(g2, {SARAH: ("pink", "gray", "white")})
    s2 = g2.players[SARAH]
    s2.entertainers, s2.disc_orientation, s2.scrolls = ["water"], 7, [65]
    use(g2, SARAH, "main_square", "action", "no")
    assert s2.disc_orientation == 0


def test_scroll_36_with_66_choice_is_per_keshi() -> None:
    """Scroll 66 note (EN:L2330-2335): with 36 the two keshis may differ (covered above) or match."""
    g = new_game(profile=GATES, workshops=WORKSHOPS)
    sarah = g.players[SARAH]
    sarah.resources["dinars"], sarah.scrolls = 3, [36, 66]
    build_gate(g, SARAH, 1, "green", "white", "white")
    assert sarah.markers["white"] == 2


def test_scroll_68_discovered_oasis_scores_at_once() -> None:
    g = new_game(profile={"oasis.5.colour": "white"})
    sarah = g.players[SARAH]
    sarah.oases[0], sarah.scrolls, sarah.markers["white"] = 5, [68], 4
    run_effects(g, {"k": "place_brown", "p": SARAH})
    choose(g, "left")
    assert sarah.breakdown["scrolls"] == 7 and sarah.discovered[0] and sarah.claimed_oases == []


def test_scrolls_68_71_on_oases_19_21_return_resources_now() -> None:
    """Digest A18: scoring an oasis 19-21 early returns the resources now."""
    g = new_game(profile={"oasis.21.resource": "dates"})
    sarah = g.players[SARAH]
    sarah.claimed_oases, sarah.resources["dates"] = [21], 4
    acquire(g, SARAH, 71, 3)
    assert sarah.breakdown["scrolls"] == 3 + 3 and sarah.resources["dates"] == 1


def test_scroll_69_every_crossed_rapid_at_the_end_of_the_round() -> None:
    g = new_game(profile={"river.space.1": "rapid:1_point", "river.space.2": "rapid:3_points"})
    sarah = g.players[SARAH]
    sarah.fisherman, sarah.scrolls = 3, [69]
    run_effects(g, {"k": "rapid_choice", "p": SARAH}, *timed_effects("end_of_round", [(SARAH, [69])]))
    assert sarah.breakdown["river_bonus"] == 4


def test_scroll_70_example_jan() -> None:
    """Scroll 70 example (EN:L2362-2378): palace 1 step, river 3 steps, 3 dinars, 2 points."""
    g = new_game(profile={**square({"palace_step": 1, "river_step": 3, "dinar": 3, "2_points": 1}), **STAIRS,
                          **{f"river.space.{k}": "plain" for k in range(1, 4)}}, disc_orientation=[0, 0, 0, 0])
    jan = g.players[JAN]
    jan.entertainers, jan.resources["water"] = ["palace_step", "river_step", "dinar", "2_points"], 0
    acquire(g, JAN, 70)
    assert jan.palace == 1 and jan.fisherman == 3 and jan.resources["dinars"] == 4
    assert jan.breakdown["main_square"] == 2


def test_scroll_71_scores_a_claimed_oasis_now() -> None:
    g = new_game(profile={"oasis.5.colour": "white"})
    sarah = g.players[SARAH]
    sarah.claimed_oases, sarah.markers["white"] = [5], 2
    acquire(g, SARAH, 71)
    assert sarah.breakdown["scrolls"] == 5 and sarah.claimed_oases == [5]


def test_scroll_72_returns_resources_for_2_points_each() -> None:
    g = new_game()
    sarah = g.players[SARAH]
    acquire(g, SARAH, 72, 1, 0, 1)
    assert sarah.resources == {"water": 0, "dates": 1, "dinars": 0} and sarah.breakdown["scrolls"] == 4


def test_scrolls_49_52_56_final_spaces_pay_double() -> None:
    g = new_game(profile={**STAIRS, "palace.final_step": 3, "mosque.final_step": 3, "river.space.1": "jetty",
                          "river.jetty.1": 4})
    sarah = g.players[SARAH]
    sarah.palace = sarah.mosque = 3
    sarah.scrolls = [49, 52, 56]
    run_effects(g, *[{"k": "stair_step", "p": SARAH, "which": w} for w in ("palace", "mosque")])
    assert sarah.breakdown["palace_final"] == 2 and sarah.breakdown["mosque_final"] == 2
    sarah.jetty_spot = 4
    run_effects(g, {"k": "river_step", "p": SARAH})
    assert sarah.breakdown["jetty"] == 2


def test_scroll_31_adds_one_spectator_everywhere() -> None:
    g = new_game(profile=square({"water": 0}), disc_orientation=[0, 0, 0, 0])
    sarah = g.players[SARAH]
    sarah.entertainers, sarah.scrolls, sarah.resources["water"] = ["water"], [31], 0
    acquire(g, SARAH, 70)
    assert sarah.resources["water"] == 1  # 0 printed + 1


def test_scroll_48_adds_a_step_to_every_staircase_move() -> None:
    g = new_game(profile=STAIRS)
    sarah = g.players[SARAH]
    sarah.scrolls = [48]
    run_effects(g, {"k": "stair", "p": SARAH, "which": "mosque", "steps": 1})
    assert sarah.mosque == 2


def test_scroll_61_claims_two_of_any_colours() -> None:
    from companion.games.marrakesh import Claim, Release
    from tests.games.marrakesh.helpers import select_all

    g = new_game()
    select_all(g, {SARAH: ("green", "pink", "gray")})
    g.apply(Release({"green": 1, "pink": 1}))
    assert set(g.legal_claims()) == {Claim(SARAH, ("green",)), Claim(SARAH, ("pink",))}
    g.players[SARAH].scrolls.append(61)
    assert g.legal_claims() == [Claim(SARAH, ("green", "pink"))]


def test_scroll_57_souk_vendor_counts_as_a_red_keshi() -> None:
    """Oases 05-13 count it (3 + red keshis), and river tile 17B pays for it like any placed vendor."""
    from companion.games.marrakesh.scoring import oasis_value

    g = new_game(profile={"oasis.6.colour": "red"}, river_tiles=[1, 3, 17])
    sarah = g.players[SARAH]
    sarah.water_vendors = ["river"]
    acquire(g, SARAH, 57)
    assert oasis_value(g, SARAH, 6) == 3 + 2
    g.s.season, sarah.fisherman, sarah.resources = 3, 5, {"water": 0, "dates": 0, "dinars": 0}
    run_effects(g, {"k": "river_eval"})
    choose(g, "B")
    assert sarah.resources == {"water": 2, "dates": 2, "dinars": 0}


def test_scroll_33_on_the_scroll_refresh_and_scroll_44s_dinar() -> None:
    """Digest A28: the 1-dinar refresh and scroll 44's dinar may be paid with water or dates."""
    g = new_game(scroll_display={"gray": [1, 2, 3]})
    to_assistants(g, {SARAH: ("gray", "pink", "white")})
    sarah = g.players[SARAH]
    sarah.markers["gray"], sarah.resources = 1, {"water": 1, "dates": 0, "dinars": 0}
    with pytest.raises(IllegalAssistant, match="madrasa"):  # no dinar, no date: nothing to do there
        g.apply(UseAssistant(SARAH, "madrasa", "action"))
    g2 = new_game(scroll_display={"gray": [1, 2, 3]})
    to_assistants(g2, {SARAH: ("gray", "pink", "white")})
    s2 = g2.players[SARAH]
    s2.markers["gray"], s2.resources, s2.scrolls = 1, {"water": 1, "dates": 1, "dinars": 0}, [33]
    use(g2, SARAH, "madrasa", "action", "refresh:gray", {"water": 1})
    assert s2.resources["water"] == 0 and s2.refreshed_round == 1  # the water paid the dinar
    g3 = new_game(provisions=[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], first_provisions=[1, 4, 7, 10])
    g3.s.profile.update({"provision.1.demand": {"dinars": 2}, "provision.1.points": 4})
    s3 = g3.players[SARAH]
    s3.scrolls, s3.resources = [33, 44], {"water": 2, "dates": 0, "dinars": 0}
    run_effects(g3, {"k": "provisions", "p": SARAH})
    choose(g3, "yes")
    assert s3.resources == {"water": 0, "dates": 0, "dinars": 0} and "provisions" not in s3.breakdown


def test_scroll_65_with_51_after_each_action() -> None:
    """Digest A37: scroll 51's 1-spectator bonuses come at the end of each of scroll 65's actions."""
    g = new_game(profile=square({"water": 1}, 0) | {"disc.section.7": 1}, disc_orientation=[7, 0, 0, 0])
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.entertainers, sarah.scrolls, sarah.resources["water"] = ["date"], [65, 51], 0
    use(g, SARAH, "main_square", "action", "yes", "yellow")
    # 1st action (disc at 0): water faces section 0 and goods section 7 (1 each) -> 1 water, 1 goods;
    # 2nd action (disc at 1): the date entertainer faces section 0 (1 date), then 51: water (section 7)
    # and date (section 0) once more
    assert sarah.resources["water"] == 2 and sarah.goods["yellow"] == 1 and sarah.resources["dates"] == 1 + 2
