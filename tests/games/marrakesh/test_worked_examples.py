"""Every worked example of the English Essential rulebook, reproduced through the engine.

Citations: EN:Lnnn = shared/rules/marrakesh-essential-en.txt line of the example. Where an example
depends on a printed value the text does not give (river spaces, staircase segments, ...), the test
supplies it as the table's answer in the board profile, as a real table would.
"""

from __future__ import annotations

from companion.games.marrakesh import Claim, IllegalAssistant, Release, UseAssistant
from companion.games.marrakesh.scoring import final_effects, oasis_value
from tests.games.marrakesh.helpers import (
    JAN,
    LUKAS,
    MARIE,
    SARAH,
    choose,
    finish_turn,
    new_game,
    run_effects,
    select_all,
    to_assistants,
    use,
)


def test_claim_round_4_3_2_2() -> None:
    """Claim & exchange example (EN:L673-698): Sarah 4, Jan 3, Marie 2, Lukas 2 keshis."""
    g = new_game()
    select_all(g, {SARAH: ("turquoise", "green", "pink"), JAN: ("turquoise", "green", "gray"),
                   MARIE: ("orange", "purple", "turquoise"), LUKAS: ("white", "black", "brown")})
    g.apply(Release({"turquoise": 3, "green": 2, "pink": 1, "gray": 1, "orange": 1, "purple": 1, "white": 1,
                     "brown": 1}))
    assert g.s.tower_inside["black"] == 1  # the 12th keshi stayed in the tower
    claims = [Claim(SARAH, ("turquoise", "turquoise")), Claim(JAN, ("green", "green")), Claim(MARIE, ("pink",)),
              Claim(LUKAS, ("gray",)), Claim(SARAH, ("turquoise",)), Claim(JAN, ("orange",)),
              Claim(MARIE, ("purple",)), Claim(LUKAS, ("white",)), Claim(SARAH, ("brown",))]
    for claim in claims:
        assert g.to_move == claim.player
        assert claim in g.legal_claims()
        g.apply(claim)
    taken = {seat: sum(len(c.colours) for c in claims if c.player == seat) for seat in (SARAH, JAN, MARIE, LUKAS)}
    assert taken == {SARAH: 4, JAN: 3, MARIE: 2, LUKAS: 2}
    assert sum(g.s.display.values()) == 0
    # Exchange in turn order: Sarah's markers first, then her caravan asks for a Sahara path.
    assert g.phase == "exchange" and g.pending is not None and g.pending["player"] == SARAH
    assert g.players[SARAH].markers["turquoise"] == 3
    choose(g, "left", "water")  # Sarah's caravan; then Marie's entertainer space
    assert g.players[JAN].markers["green"] == 2 and g.players[JAN].goods["orange"] == 1
    assert g.players[MARIE].goods["purple"] == 1 and g.players[MARIE].entertainers == ["water"]
    assert g.players[LUKAS].markers["gray"] == 1 and g.players[LUKAS].markers["white"] == 1
    assert g.phase == "assistants"


def test_exchange_jan_two_green_one_brown() -> None:
    """Exchange example (EN:L701-712): 2 green -> green marker +2 (+2 points, digest A33); brown -> Sahara."""
    g = new_game(players=2)
    select_all(g, {SARAH: ("green", "yellow", "gray"), JAN: ("green", "brown", "black")})
    g.players[SARAH].sahara = {"left": 3, "right": 3, "start": 2}  # Sarah's Sahara is complete: she skips brown
    g.apply(Release({"green": 2, "brown": 1, "yellow": 1}))
    g.apply(Claim(SARAH, ("yellow",)))
    g.apply(Claim(JAN, ("green", "green")))
    assert g.to_move == JAN and g.legal_claims(SARAH) == []  # Sarah is skipped
    g.apply(Claim(JAN, ("brown",)))
    assert g.phase == "exchange"
    supply = dict(g.s.supply)
    choose(g, "left")  # Jan's caravan goes onto the left Sahara path and discovers its first oasis
    jan = g.players[JAN]
    assert jan.caravans() == 1 and jan.discovered[0]
    assert jan.markers["green"] == 2 and jan.breakdown["green_steps"] == 2
    assert g.s.supply == supply  # the wooden keshis went back to the supply when the display emptied


def test_river_and_jetty_sarah() -> None:
    """River example (EN:L788-795): marker 5 + 2 water; the 1st extra step reaches the 4-point jetty spot,
    the 2nd gives 1 point."""
    profile = {f"river.space.{i}": "plain" for i in range(1, 6)} | {"river.space.6": "jetty", "river.jetty.1": 4}
    g = new_game(profile=profile)
    to_assistants(g, {SARAH: ("turquoise", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.markers["turquoise"], sarah.resources["water"] = 5, 2
    score = sarah.score
    use(g, SARAH, "river", "action", 2)
    assert sarah.jetty_spot == 4 and sarah.fisherman == 6
    assert sarah.score == score + 5 and sarah.resources["water"] == 0


def test_new_keshi_lukas_date_orchard_and_mosque() -> None:
    """New keshi example (EN:L797-804): green +1 gives 1 point; the mosque's water vendor gives 1 water."""
    g = new_game()
    to_assistants(g, {LUKAS: ("green", "black", "gray")})
    lukas = g.players[LUKAS]
    lukas.water_vendors.append("mosque")
    for seat in (SARAH, JAN, MARIE):
        finish_turn(g, seat)
    score, water = lukas.score, lukas.resources["water"]
    use(g, LUKAS, "date_orchard", "keshi")
    use(g, LUKAS, "mosque", "keshi")
    assert lukas.markers["green"] == 1 and lukas.markers["black"] == 1
    assert lukas.score == score + 1 and lukas.resources["water"] == water + 1


def test_main_square_without_entertainer_jan() -> None:
    """Jan has no entertainer (EN:L806-816): no sector action, a new keshi instead, with its placement bonus."""
    g = new_game()
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    try:
        use(g, SARAH, "main_square", "action")
        raise AssertionError("main-square action without entertainer was accepted")
    except IllegalAssistant as exc:
        assert "main square" in str(exc) and "Sarah" in str(exc)
    use(g, SARAH, "main_square", "keshi", "goods", "purple")
    assert sarah.entertainers == ["goods"] and sarah.goods["purple"] == 1


def test_main_square_three_spectators_marie() -> None:
    """Main-square example (EN:L903-914): the goods space faces 3 spectators -> 3 purple carpets."""
    g = new_game(profile={"square.position.goods": 0, "disc.section.0": 3}, disc_orientation=[0, 0, 7, 0])
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.entertainers = ["goods"]
    sarah.disc_orientation = 7
    use(g, SARAH, "main_square", "action", "purple")
    assert sarah.disc_orientation == 0
    assert sarah.goods["purple"] == 3


def test_date_orchard_jan() -> None:
    """Date orchard example (EN:L916-918): green marker on 3 -> 3 dates."""
    g = new_game()
    to_assistants(g, {SARAH: ("green", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.markers["green"] = 3
    dates = sarah.resources["dates"]
    use(g, SARAH, "date_orchard", "action")
    assert sarah.resources["dates"] == dates + 3


LUXURY = {"luxury.1.cost": {"orange": 1}, "luxury.1.reward": {"water": 1, "points": 2}, "luxury.1.type": "slipper",
          "luxury.2.cost": {"purple": 3, "orange": 2}, "luxury.2.reward": {"points": 13}, "luxury.2.type": "necklace"}
LUXURY |= {f"luxury.{n}.cost": {"yellow": 3, "purple": 2} for n in (3, 4, 5)}


def test_souk_exchange_office_marie() -> None:
    """Exchange-office example (EN:L891-894): 1 purple keshi -> 2 dates."""
    g = new_game(profile={"office.1.purple": {"dates": 2}, **LUXURY}, exchange_offices=[1, 2, 3],
                 luxury_display=[1, 2, 3, 4, 5])
    to_assistants(g, {SARAH: ("purple", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.goods["purple"] = sarah.goods["yellow"] = 1
    dates = sarah.resources["dates"]
    use(g, SARAH, "souk", "action", "office:purple")
    assert sarah.resources["dates"] == dates + 2 and sarah.goods["purple"] == 0


def test_souk_luxury_slipper_jan() -> None:
    """Luxury-good example (EN:L896-898): 1 orange keshi buys the slipper: 1 water and 2 points."""
    g = new_game(profile=dict(LUXURY), luxury_display=[1, 2, 3, 4, 5])
    to_assistants(g, {SARAH: ("orange", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.goods["orange"] = 1
    water, score = sarah.resources["water"], sarah.score
    use(g, SARAH, "souk", "action", "luxury:1")
    assert sarah.luxury_goods == [1] and sarah.goods["orange"] == 0
    assert sarah.resources["water"] == water + 1 and sarah.score == score + 2
    assert 1 not in g.s.luxury_display  # refilled only at the end of the turn (EN:L843-846)


def test_madrasa_lukas_buys_1_plus_5() -> None:
    """Madrasa example (EN:L1008-1010): gray marker 6 buys a 1- and a 5-scholar scroll for 3 dates."""
    g = new_game(scroll_display={"gray": [19, 1, 2], "pink": [49, 50, 52]})
    to_assistants(g, {SARAH: ("gray", "green", "white")})
    sarah = g.players[SARAH]
    sarah.markers["gray"], sarah.resources["dates"], sarah.resources["dinars"] = 6, 3, 0
    g.apply(UseAssistant(SARAH, "madrasa", "action"))
    options = g.pending["options"]  # type: ignore[index]
    assert "scroll:19" in options and "scroll:49" in options
    choose(g, "scroll:49")
    assert "scroll:19" in g.pending["options"] and "scroll:50" not in g.pending["options"]  # type: ignore[index]
    choose(g, "scroll:19")
    assert sorted(sarah.scrolls) == [19, 49] and sarah.resources["dates"] == 0
    assert sarah.markers["gray"] == 6  # the marker is not reduced
    assert sarah.resources["water"] == 1 + 2  # scroll 19: +2 water (instant)


STAIRS = {"palace.segment_starts": [2, 6], "mosque.segment_starts": [2, 6]}


def test_palace_threshold_lukas() -> None:
    """Palace example (EN:L1013-1019): 2 steps cross the 1st threshold: 1 dinar + 1 bonus of the line."""
    line = ["dinars:1", "keshi:yellow", "keshi:turquoise", "keshi:gray", "points:5"]
    g = new_game(profile={**STAIRS, "line.2.1": line})
    to_assistants(g, {SARAH: ("white", "gray", "green")})
    sarah = g.players[SARAH]
    sarah.markers["white"] = 2
    dinars = sarah.resources["dinars"]
    g.apply(UseAssistant(SARAH, "palace", "action"))
    assert g.pending is not None and g.pending["options"] == line
    choose(g, "keshi:turquoise")
    assert sarah.palace == 2 and sarah.thresholds == 1
    assert sarah.resources["dinars"] == dinars + 1 and sarah.markers["turquoise"] == 1


def test_palace_final_space_sarah() -> None:
    """Palace final space (EN:L1021-1023): on the top space, white marker 5 gives 5 points."""
    g = new_game(profile=STAIRS)
    to_assistants(g, {SARAH: ("white", "gray", "green")})
    sarah = g.players[SARAH]
    sarah.markers["white"], sarah.palace = 5, 16
    score = sarah.score
    use(g, SARAH, "palace", "action")
    assert sarah.palace == 16 and sarah.score == score + 5 and sarah.breakdown["palace_final"] == 5


def test_medina_jan_two_gates() -> None:
    """Medina example (EN:L1108-1116): brown gate 0 dinars -3 +2 (matching Sahara space), pink gate
    1 dinar +1 next to the souk; then the brown and pink keshis are placed with their bonuses."""
    profile = {"workshop.1.price": 1, "workshop.1.points": 1, "workshop.2.price": 2, "workshop.2.points": 4,
               "gate_space.5": "brown", "gate_space.2": "yellow"}
    workshops = [["brown"] * 3 + ["red"] * 3 + ["beige"] * 2, ["pink"] * 3 + ["green"] * 3 + ["yellow"] * 2,
                 ["gray"] * 3 + ["white"] * 3 + ["orange"] * 2, ["black"] * 3 + ["turquoise"] * 3 + ["purple"] * 2]
    g = new_game(profile=profile, workshops=workshops)
    to_assistants(g, {SARAH: ("beige", "gray", "green")})
    sarah = g.players[SARAH]
    sarah.watchtower = 2
    score, dinars = sarah.score, sarah.resources["dinars"]
    use(g, SARAH, "medina", "action", "gate:0:brown", 5, "gate:1:pink", 2)
    assert sarah.breakdown["gates"] == -3 + 2 + 1
    assert sarah.resources["dinars"] == dinars - 1
    assert sarah.watchtower == 0 and len(sarah.gates) == 2
    choose(g, "left", "water")  # place the caravan (discovers an oasis) and the entertainer (1 water)
    assert sarah.discovered[0] and sarah.entertainers == ["water"]
    assert sarah.score == score


def test_sahara_two_caravans_discover_two_oases() -> None:
    """Sahara example (EN:L1173-1175): 2 caravans reveal the next 2 oases."""
    g = new_game()
    select_all(g, {SARAH: ("brown", "gray", "white"), JAN: ("brown", "gray", "white")})
    g.apply(Release({"brown": 2}))
    g.apply(Claim(SARAH, ("brown", "brown")))
    choose(g, "left", "left")
    assert g.players[SARAH].discovered == [True, True, False, False, False, False]


def test_start_oasis_marie() -> None:
    """Start-oasis example (EN:L1177-1184): right space first, any 2 resources (1 date + 1 dinar)."""
    g = new_game()
    to_assistants(g, {SARAH: ("brown", "gray", "white")})
    sarah = g.players[SARAH]
    use(g, SARAH, "sahara", "keshi", "start", "dates", "dinars")
    assert sarah.sahara["start"] == 1 and sarah.resources == {"water": 1, "dates": 2, "dinars": 2}
    sarah.assistants.append("sahara")
    use(g, SARAH, "sahara", "keshi", "start")
    assert sarah.breakdown["sahara"] == 2  # left space: 2 points


def test_sahara_claim_sarah() -> None:
    """Claim example (EN:L1186-1190): 1 dinar for the first left oasis (storage 1: green keshi -> marker +1,
    +1 point), then 1 date + 1 water for one on the right."""
    g = new_game(profile={"sahara.cost.right.1": {"dates": 1, "water": 1}, "storage.2": "none"},
                 storage_keshis=[["green", "pink"], ["gray", "white"], ["black", "turquoise"], ["beige", "red"]])
    to_assistants(g, {SARAH: ("brown", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.discovered = [True, False, False, True, False, False]
    use(g, SARAH, "sahara", "action", 0, 3)
    assert sarah.claimed_oases == [sarah.oases[0], sarah.oases[3]]
    assert sarah.resources == {"water": 0, "dates": 0, "dinars": 0}
    assert sarah.markers["green"] == 1 and sarah.breakdown["green_steps"] == 1


def test_water_vendor_jan_palace() -> None:
    """Water-vendor example (EN:L1252-1260): +1 water whichever option the palace assistant takes."""
    for mode in ("keshi", "action"):
        g = new_game(profile=STAIRS | {"line.1.1": ["points:1"]})
        to_assistants(g, {SARAH: ("white", "gray", "green")})
        sarah = g.players[SARAH]
        sarah.water_vendors.append("palace")
        sarah.markers["white"] = 1
        use(g, SARAH, "palace", mode)
        assert sarah.resources["water"] == 2, mode


def test_river_bonus_marie_middle_rapid() -> None:
    """River-bonus example (EN:L1248-1250): 3 rapids passed; the middle one's bonus: 1 dinar."""
    profile = {"river.space.2": "rapid:1_point", "river.space.4": "rapid:resource", "river.space.6": "rapid:3_points"}
    g = new_game(profile=profile)
    marie = g.players[MARIE]
    marie.fisherman = 7
    run_effects(g, {"k": "rapid_choice", "p": MARIE})
    assert g.pending is not None and set(g.pending["options"]) == {"1_point", "3_points", "resource", "none"}
    choose(g, "resource", "dinars")
    assert marie.resources["dinars"] == 2 and marie.fisherman == 7


def test_river_evaluation_season_3() -> None:
    """River-evaluation example (EN:L1339-1341): 1st Sarah 7 points, 2nd Marie 3 points (tile 05)."""
    g = new_game(river_tiles=[1, 3, 5])
    g.s.season = 3
    g.players[SARAH].fisherman, g.players[MARIE].fisherman = 9, 4
    run_effects(g, {"k": "river_eval"})
    assert g.players[SARAH].breakdown["river_evaluation"] == 7
    assert g.players[MARIE].breakdown["river_evaluation"] == 3
    assert "river_evaluation" not in g.players[JAN].breakdown  # still on the start space


def test_provisions_lukas_loses_8() -> None:
    """Provisions example (EN:L1333-1337): short on one tile -> all resources (incl. 2 water) gone, -8."""
    g = new_game(provisions=[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], first_provisions=[1, 4, 7, 10])
    g.s.profile.update({"provision.10.demand": {"dates": 2, "dinars": 2}, "provision.10.points": 5,
                        "provision.11.demand": {"water": 1}, "provision.11.points": 3})
    lukas = g.players[LUKAS]
    lukas.revealed_provisions = [10, 11]
    lukas.resources = {"water": 2, "dates": 1, "dinars": 1}
    score = lukas.score
    run_effects(g, {"k": "provisions", "p": LUKAS})
    assert lukas.resources == {"water": 0, "dates": 0, "dinars": 0} and lukas.score == score - 8


def test_final_scoring_sarah_30_25_3() -> None:
    """Final-scoring example (EN:L1379-1400): 3 filled sectors 30, oases 05+07+21 = 25, 5 resources
    + 2 goods = 3."""
    g = new_game(profile={"oasis.3.colours": ["pink"]})
    sarah = g.players[SARAH]
    sarah.sahara = {"left": 3, "right": 3, "start": 2}
    sarah.markers.update({"turquoise": 8, "black": 8, "white": 2})
    sarah.water_vendors = ["sahara", "river", "mosque"]
    sarah.gates = [{"space": 2, "colour": "pink"}]
    sarah.claimed_oases = [3, 5, 7, 21]
    sarah.resources = {"water": 3, "dates": 6, "dinars": 2}
    sarah.goods["yellow"] = 2
    run_effects(g, *[e for e in final_effects(g) if e["p"] == SARAH])
    choose(g, 6)  # oasis 21: return 6 dates
    assert sarah.breakdown["filled_sectors"] == 30
    assert sarah.breakdown["oases"] == 25
    assert sarah.breakdown["resources"] == 3


def test_scroll_61_jan_green_and_pink() -> None:
    """Scroll 61 example (EN:L2253-2272): Jan may claim 1 green + 1 pink, or both greens."""
    g = new_game()
    select_all(g, {SARAH: ("green", "pink", "gray"), JAN: ("green", "white", "black")})
    g.apply(Release({"green": 2, "pink": 1}))
    g.players[SARAH].scrolls.append(61)
    legal = g.legal_claims()
    assert Claim(SARAH, ("green", "pink")) in legal and Claim(SARAH, ("green", "green")) in legal
    g.apply(Claim(SARAH, ("green", "pink")))
    assert g.s.display["green"] == 1 and g.s.display["pink"] == 0


def test_oasis_tile_examples() -> None:
    """Oasis examples (EN:L2410-2490): gates 12, red 3+4, slippers 6, dates 3+5, sectors 16, thresholds 7."""
    g = new_game(profile={"oasis.1.colours": ["black", "turquoise", "green"], "oasis.1.points": 2,
                          "oasis.6.colour": "red", "oasis.14.luxury": "slipper", "oasis.14.points": 2,
                          "oasis.19.resource": "dates", **STAIRS,
                          **{f"luxury.{t}.type": "slipper" for t in (1, 2, 3)}})
    jan, sarah, lukas, marie = (g.players[i] for i in (JAN, SARAH, LUKAS, MARIE))
    jan.gates = [{"space": 1, "colour": "black"}] + [{"space": k, "colour": "turquoise"} for k in (2, 3, 4)] + \
        [{"space": k, "colour": "green"} for k in (5, 6)]
    assert oasis_value(g, JAN, 1) == 12
    sarah.water_vendors = ["river", "palace", "mosque", "sahara"]
    assert oasis_value(g, SARAH, 6) == 7
    lukas.luxury_goods = [1, 2, 3]
    assert oasis_value(g, LUKAS, 14) == 6
    marie.resources["dates"] = 5
    marie.claimed_oases = [19]
    run_effects(g, {"k": "oasis_return", "p": MARIE, "n": 19})
    choose(g, 5)
    assert oasis_value(g, MARIE, 19) == 8 and marie.resources["dates"] == 0
    jan.markers.update({"turquoise": 3, "green": 5, "gray": 8, "white": 6, "black": 2})
    jan.entertainers, jan.watchtower = ["water"] * 2, 0
    jan.sahara = {"left": 3, "right": 3, "start": 0}
    # sectors with <= 3: river (3), mosque (2), main square (2 entertainers); medina 6 gates -> 6 guards
    assert oasis_value(g, JAN, 24) == 4 * 3
    sarah.palace, sarah.mosque, sarah.thresholds = 16, 2, 5
    assert oasis_value(g, SARAH, 29) == 7


def test_scroll_31_section_counts_one_more() -> None:
    """Scroll 31 example (EN addendum, scroll 31): a 3-spectator section counts as 4."""
    g = new_game(profile={"square.position.goods": 0, "disc.section.0": 3})
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.entertainers, sarah.disc_orientation, sarah.scrolls = ["goods"], 7, [31]
    use(g, SARAH, "main_square", "action", "yellow")
    assert sarah.goods["yellow"] == 4


def test_scroll_48_one_more_staircase_step() -> None:
    """Scroll 48 example (EN addendum, scroll 48): an entertainer's 1 mosque step becomes 2 steps."""
    g = new_game(profile=STAIRS)
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.scrolls = [48]
    use(g, SARAH, "main_square", "keshi", "mosque_step")
    assert sarah.mosque == 2


def test_river_tile_choice_in_season_3() -> None:
    """Season 3 (EN:L1265-1268): the winner chooses between the tile's two bonuses, the runner-up gets
    the other (tile 12: A 1 point per gate, B points = green marker)."""
    g = new_game(river_tiles=[1, 3, 12])
    g.s.season = 3
    sarah, marie = g.players[SARAH], g.players[MARIE]
    sarah.fisherman, marie.fisherman = 9, 4
    sarah.markers["green"], marie.markers["green"] = 6, 1
    marie.gates = [{"space": 1, "colour": "pink"}, {"space": 2, "colour": "red"}]
    run_effects(g, {"k": "river_eval"})
    choose(g, "B")
    assert sarah.breakdown["river_evaluation"] == 6 and marie.breakdown["river_evaluation"] == 2
