"""The Classic rulebook's worked examples that differ from Essential, reproduced through ``ClassicGame``.

(Examples told identically in both editions run as Classic games in ``test_classic_shared_examples``.)

Citations: CLA:Lnnn = shared/rules/marrakesh-classic-en.md line of the example. In Classic all keshis
are wooden and stand on the boards: a test builds a board position with ``deploy`` (keshis moved from
the supply onto the board, so the 25-per-colour count stays true) and then plays the example's actions
through ``apply``. Printed values the text does not give are the table's answers in the profile.
"""

from __future__ import annotations

from typing import Any

from companion import COLOURS
from companion.games.marrakesh import Claim, Game, Release, SetupOptions
from companion.games.marrakesh.classic import ClassicGame
from companion.games.marrakesh.desert_towns import town_value
from companion.games.marrakesh.scoring import final_effects
from tests.games.marrakesh.helpers import (
    JAN,
    LUKAS,
    MARIE,
    NAMES,
    SARAH,
    choose,
    finish_turn,
    run_effects,
    select_all,
    to_assistants,
    use,
)

STAIRS: dict[str, Any] = {"palace.segment_starts": [2, 6], "mosque.segment_starts": [2, 6],
                          "palace.segment4_start": 11, "palace.final_step": 16, "mosque.final_step": 16}


def classic(players: int = 4, profile: dict[str, Any] | None = None, expansions: tuple[int, ...] = (),
            **draws: Any) -> ClassicGame:
    """A Classic game with Sarah as start player and seed 1 for the draws the test does not give."""
    game = Game.new(SetupOptions(players=NAMES[:players], seed=1, start_player=0, draws=draws,
                                 profile=profile or {}, edition="classic", expansions=expansions))
    assert isinstance(game, ClassicGame)
    return game


def deploy(g: ClassicGame, seat: int, **counts: int) -> None:
    """Put wooden keshis from the supply into ``seat``'s five track sectors (the example's position)."""
    p = g.players[seat]
    for colour, n in counts.items():
        p.markers[colour] += n
        g.s.supply[colour] -= n


def conserved(g: ClassicGame) -> bool:
    """25 wooden keshis of every colour, wherever they are."""
    return all(g.wooden_in_play(c) == 25 for c in COLOURS)


def test_claim_round_keshis_are_deployed_at_once() -> None:
    """Claim example (CLA:L364-370): Sarah 2 turquoise, Jan 2 green, Marie 1 pink, Lukas 1 gray; then
    turquoise, orange, purple, white; Sarah takes the last brown: 4/3/2/2, each deployed immediately."""
    g = classic()
    select_all(g, {SARAH: ("turquoise", "green", "pink"), JAN: ("turquoise", "green", "gray"),
                   MARIE: ("orange", "purple", "turquoise"), LUKAS: ("white", "black", "brown")})
    supply = dict(g.s.supply)
    g.apply(Release({"turquoise": 3, "green": 2, "pink": 1, "gray": 1, "orange": 1, "purple": 1, "white": 1,
                     "brown": 1}))
    assert g.s.tower_inside["black"] == 1
    g.apply(Claim(SARAH, ("turquoise", "turquoise")))
    assert g.players[SARAH].markers["turquoise"] == 2 and g.phase == "claim"  # on her board already
    g.apply(Claim(JAN, ("green", "green")))
    assert g.players[JAN].breakdown["green_steps"] == 2  # deployment bonus: 1 point per date picker
    g.apply(Claim(MARIE, ("pink",)))
    assert g.pending is not None and g.pending["player"] == MARIE  # the entertainer's space, right now
    choose(g, "water")
    assert g.players[MARIE].entertainers == ["water"] and g.players[MARIE].resources["water"] == 2
    for claim in (Claim(LUKAS, ("gray",)), Claim(SARAH, ("turquoise",)), Claim(JAN, ("orange",)),
                  Claim(MARIE, ("purple",)), Claim(LUKAS, ("white",)), Claim(SARAH, ("brown",))):
        assert g.to_move == claim.player and claim in g.legal_claims()
        g.apply(claim)
    choose(g, "left")  # Sarah's caravan discovers the first oasis on the left path
    sarah, jan, marie, lukas = (g.players[i] for i in (SARAH, JAN, MARIE, LUKAS))
    assert sarah.markers["turquoise"] == 3 and sarah.caravans() == 1 and sarah.discovered[0]
    assert jan.markers["green"] == 2 and jan.goods["orange"] == 1
    assert marie.goods["purple"] == 1 and lukas.markers["gray"] == 1 and lukas.markers["white"] == 1
    assert g.phase == "assistants"
    assert g.s.supply == supply  # the claimed keshis went from the tower base onto the boards, not the supply
    assert conserved(g)


def test_river_and_jetty_sarah() -> None:
    """River example (CLA:L428): 5 fish keshis + 2 water; the 1st extra step reaches the 4-point jetty
    spot, the 2nd gives 1 point."""
    profile = {f"river.space.{i}": "plain" for i in range(1, 6)} | {"river.space.6": "jetty", "river.jetty.1": 4}
    g = classic(profile=profile)
    to_assistants(g, {SARAH: ("turquoise", "gray", "white")})
    deploy(g, SARAH, turquoise=5)
    sarah = g.players[SARAH]
    sarah.resources["water"] = 2
    score = sarah.score
    use(g, SARAH, "river", "action", 2)
    assert sarah.jetty_spot == 4 and sarah.fisherman == 6
    assert sarah.score == score + 5 and sarah.resources["water"] == 0


def test_new_keshi_lukas_date_orchard_and_mosque() -> None:
    """New-keshi example (CLA:L407): a green keshi from the supply gives 1 point; the mosque's water vendor
    (deployed in an earlier turn) gives 1 water."""
    g = classic()
    to_assistants(g, {LUKAS: ("green", "black", "gray")})
    lukas = g.players[LUKAS]
    lukas.water_vendors.append("mosque")
    g.s.supply["red"] -= 1
    for seat in (SARAH, JAN, MARIE):
        finish_turn(g, seat)
    score, water, supply = lukas.score, lukas.resources["water"], dict(g.s.supply)
    use(g, LUKAS, "date_orchard", "keshi")
    use(g, LUKAS, "mosque", "keshi")
    assert lukas.markers["green"] == 1 and lukas.markers["black"] == 1
    assert lukas.score == score + 1 and lukas.resources["water"] == water + 1
    assert g.s.supply["green"] == supply["green"] - 1 and g.s.supply["black"] == supply["black"] - 1
    assert conserved(g)


def test_date_orchard_jan_four_date_pickers() -> None:
    """Date-orchard example (CLA:L446): 4 date-picker keshis -> 4 dates."""
    g = classic()
    to_assistants(g, {JAN: ("green", "gray", "white")})
    finish_turn(g, SARAH)
    deploy(g, JAN, green=4)
    jan = g.players[JAN]
    dates = jan.resources["dates"]
    use(g, JAN, "date_orchard", "action")
    assert jan.resources["dates"] == dates + 4


def test_souk_exchange_office_and_slipper() -> None:
    """Souk examples (CLA:L461, L469): 1 purple keshi -> 2 dates; 1 orange keshi buys the slipper (1 water,
    2 points); the returned keshis go back to the common supply."""
    profile = {"office.1.purple": {"dates": 2}, "luxury.1.cost": {"orange": 1},
               "luxury.1.reward": {"water": 1, "points": 2}, "luxury.1.type": "slipper",
               **{f"luxury.{n}.cost": {"yellow": 3, "purple": 2} for n in (2, 3, 4, 5)}}
    g = classic(profile=profile, exchange_offices=[1, 2, 3], luxury_display=[1, 2, 3, 4, 5])
    to_assistants(g, {SARAH: ("purple", "orange", "gray")})
    sarah = g.players[SARAH]
    sarah.goods.update({"purple": 1, "orange": 1})
    g.s.supply["purple"] -= 1
    g.s.supply["orange"] -= 1
    dates, water, score, supply = sarah.resources["dates"], sarah.resources["water"], sarah.score, dict(g.s.supply)
    use(g, SARAH, "souk", "action", "office:purple")
    assert sarah.resources["dates"] == dates + 2 and g.s.supply["purple"] == supply["purple"] + 1
    use(g, SARAH, "souk", "action", "luxury:1")
    assert sarah.luxury_goods == [1] and sarah.resources["water"] == water + 1 and sarah.score == score + 2
    assert g.s.supply["orange"] == supply["orange"] + 1 and conserved(g)


def test_palace_threshold_lukas_and_final_space_sarah() -> None:
    """Palace examples (CLA:L540, L542): 2 nobles cross the 1st threshold: 1 dinar and one bonus of the line
    (1 dinar, turquoise, gray or yellow keshi, 5 points); on the top space 5 nobles give 5 points."""
    line = ["dinars:1", "keshi:turquoise", "keshi:gray", "keshi:yellow", "points:5"]
    g = classic(profile={**STAIRS, "line.2.1": line})
    to_assistants(g, {SARAH: ("white", "gray", "green")})
    deploy(g, SARAH, white=2)
    sarah = g.players[SARAH]
    dinars, supply = sarah.resources["dinars"], g.s.supply["turquoise"]
    use(g, SARAH, "palace", "action")
    assert g.pending is not None and g.pending["options"] == line
    choose(g, "keshi:turquoise")
    assert sarah.palace == 2 and sarah.resources["dinars"] == dinars + 1
    assert sarah.markers["turquoise"] == 1 and g.s.supply["turquoise"] == supply - 1  # a wooden fish keshi
    g2 = classic(profile=STAIRS)
    to_assistants(g2, {SARAH: ("white", "gray", "green")})
    deploy(g2, SARAH, white=5)
    g2.players[SARAH].palace = 16
    use(g2, SARAH, "palace", "action")
    assert g2.players[SARAH].breakdown["palace_final"] == 5


def test_medina_jan_two_gates() -> None:
    """Medina example (CLA:L645-653): brown gate for 0 dinars (-3, +2 on the Sahara space), pink gate for
    1 dinar (+1) next to the gray madrasa; then the brown and pink keshis come from the supply."""
    profile = {"workshop.1.price": 1, "workshop.1.points": 1, "workshop.2.price": 2, "workshop.2.points": 4,
               "gate_space.5": "brown", "gate_space.4": "gray"}
    workshops = [["brown"] * 3 + ["red"] * 3 + ["beige"] * 2, ["pink"] * 3 + ["green"] * 3 + ["yellow"] * 2,
                 ["gray"] * 3 + ["white"] * 3 + ["orange"] * 2, ["black"] * 3 + ["turquoise"] * 3 + ["purple"] * 2]
    g = classic(profile=profile, workshops=workshops)
    to_assistants(g, {SARAH: ("beige", "gray", "green")})
    sarah = g.players[SARAH]
    sarah.watchtower = 2
    g.s.supply["beige"] -= 2
    score, dinars, supply = sarah.score, sarah.resources["dinars"], dict(g.s.supply)
    use(g, SARAH, "medina", "action", "gate:0:brown", 5, "gate:1:pink", 4)
    assert sarah.breakdown["gates"] == -3 + 2 + 1 and sarah.resources["dinars"] == dinars - 1
    choose(g, "left", "water")  # deploy the caravan (discovers an oasis) and the entertainer (1 water)
    assert sarah.discovered[0] and sarah.entertainers == ["water"] and sarah.score == score
    assert g.s.supply["brown"] == supply["brown"] - 1 and g.s.supply["pink"] == supply["pink"] - 1
    assert conserved(g)


def test_sahara_claims_sarah() -> None:
    """Claim example (CLA:L717-719): Sarah pays 1 dinar for the first left oasis and deploys the green date
    picker standing on storage space 1, then 1 date + 1 water for one on the right."""
    g = classic(profile={"sahara.cost.right.1": {"dates": 1, "water": 1}, "storage.2": "none"},
                storage_keshis=[["green", "pink"], ["gray", "white"], ["black", "turquoise"], ["beige", "red"]])
    to_assistants(g, {SARAH: ("brown", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.discovered = [True, False, False, True, False, False]
    supply = dict(g.s.supply)
    use(g, SARAH, "sahara", "action", 0, 3)
    assert sarah.claimed_oases == [sarah.oases[0], sarah.oases[3]]
    assert sarah.resources == {"water": 0, "dates": 0, "dinars": 0}
    assert sarah.markers["green"] == 1 and sarah.breakdown["green_steps"] == 1 and sarah.storage_keshis == ["pink"]
    assert g.s.supply == supply and conserved(g)  # the date picker came from the storage track, not the supply


def test_final_scoring_sarah_20_25_3() -> None:
    """Final-scoring example (CLA:L816-841): river and mosque filled (8 keshis + water vendor) = 20; oases
    05 (3 + 2 white) + 07 (3 + 8 turquoise) + 21 (3 + 6 dates) = 25 (03 gives only 2); 5 resources + 2
    goods = 3."""
    g = classic(profile={"oasis.3.colours": ["pink"]})
    sarah = g.players[SARAH]
    deploy(g, SARAH, turquoise=8, black=8, white=2)
    sarah.water_vendors = ["river", "mosque"]
    sarah.gates = [{"space": 2, "colour": "pink"}]
    sarah.claimed_oases = [3, 5, 7, 21]
    sarah.resources = {"water": 3, "dates": 6, "dinars": 2}
    sarah.goods["yellow"] = 2
    run_effects(g, *[e for e in final_effects(g) if e["p"] == SARAH])
    choose(g, 6)  # oasis 21: return 6 dates
    assert sarah.breakdown["filled_sectors"] == 20
    assert sarah.breakdown["oases"] == 25
    assert sarah.breakdown["resources"] == 3


def test_desert_town_06_sarah_39_keshis() -> None:
    """Desert town 06 example (CLA:L1601): 39 keshis on the board (goods not counted) -> 13 points."""
    g = classic(expansions=(5,))
    sarah = g.players[SARAH]
    deploy(g, SARAH, turquoise=8, green=5, gray=4, white=5, black=3)  # 25 in the track sectors
    sarah.entertainers = ["water", "date", "dinar"]
    sarah.watchtower = 4
    sarah.sahara = {"left": 3, "right": 1, "start": 0}
    sarah.water_vendors = ["river", "mosque", "palace"]  # 25 + 3 + 4 + 4 + 3 = 39
    sarah.goods = {"yellow": 2, "orange": 1, "purple": 0}  # goods do not count
    assert town_value(g, SARAH, 6) == 13
