"""Rules that only the Classic edition has (digest §15; CLA:Lnnn = shared/rules/marrakesh-classic-en.md).

Edition selection and the log, wooden keshis on the boards (25 per colour, no markers), the supply
shortage exchange, lap tiles 100/200, academy stacks and souk shops with their refills, the scholar
count, per-keshi action strength, water-vendor income from earlier turns.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion import COLOURS
from companion.games.marrakesh import Claim, Game, IllegalClaim, Release, SetupError, SetupOptions, UseAssistant
from companion.games.marrakesh.classic import ClassicGame, classic_board_data
from companion.games.marrakesh.log import read_log, write_log
from companion.games.marrakesh.report import result_summary
from companion.games.marrakesh.simulate import RandomPlayer, play_random_game
from companion.tower.model import SimulatedTower, TowerParams
from tests.games.marrakesh.helpers import NAMES, SARAH, choose, finish_turn, run_effects, select_all, to_assistants, use
from tests.games.marrakesh.test_classic_examples import STAIRS, classic, conserved, deploy

#: Luxury-good costs the table would give (only asked because the souk action lists what can be bought).
COSTS = {f"luxury.{n}.cost": {"yellow": 3, "purple": 2} for n in range(1, 26)}

# --- edition selection, view and log ---------------------------------------------------------------------


def test_setup_options_select_the_classic_edition() -> None:
    g = Game.new(SetupOptions(players=NAMES, seed=3, edition="classic"))
    assert type(g) is ClassicGame and g.setup["edition"] == "classic" and g.to_dict()["edition"] == "classic"
    assert type(ClassicGame.new(SetupOptions(players=NAMES))) is ClassicGame  # the class names its edition
    with pytest.raises(SetupError, match="unknown edition 'deluxe'; known: essential, classic"):
        Game.new(SetupOptions(players=NAMES, edition="deluxe"))


def test_the_log_names_the_edition_and_replays_as_classic() -> None:
    g = play_random_game(3, 5, edition="classic")
    text = write_log(g)
    head = json.loads(text.splitlines()[0])
    assert head["edition"] == "classic" and head["setup"]["edition"] == "classic"
    again = read_log(text)
    assert type(again) is ClassicGame and again.to_dict() == g.to_dict()
    assert Game.replay(g.setup, g.log).to_dict() == g.to_dict()  # the base class dispatches on the setup


def test_random_classic_game_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    out = tmp_path / "classic.jsonl"
    assert main(["game", "random", "--players", "2", "--seed", "4", "--edition", "classic", "--out", str(out)]) == 0
    assert json.loads(out.read_text().splitlines()[0])["edition"] == "classic"
    capsys.readouterr()
    assert main(["game", "replay", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["edition"] == "classic" and summary["finished"] is True


# --- wooden keshis on the boards ----------------------------------------------------------------------------


def test_no_markers_25_wooden_keshis_per_colour() -> None:
    """CLA:L52-56: 300 wooden keshis, 25 per colour; no markers: the track sectors start empty."""
    g = classic(players=2, storage_keshis=[["green", "pink", "red"], ["gray", "white", "beige"]])
    view = g.to_dict()
    assert all("markers" not in p and set(p["sector_keshis"].values()) == {0} for p in view["players"])
    assert g.s.supply["green"] == 25 - 2 - 1  # 1 behind each screen, 1 on Sarah's storage track
    assert g.s.supply["yellow"] == 25 - 2 and conserved(g)


def test_claimed_keshis_fill_the_sector_and_the_last_space_rule() -> None:
    """Claim & deploy (CLA:L349-355): 7 fish keshis leave 1 free space: only 1 of 2 may be taken; with 8
    the sector is complete and turquoise cannot be claimed at all."""
    g = classic(players=2)
    deploy(g, SARAH, turquoise=7)
    select_all(g, {SARAH: ("turquoise", "green", "gray"), 1: ("turquoise", "green", "gray")})
    g.apply(Release({"turquoise": 2, "green": 1, "gray": 1}))
    assert Claim(SARAH, ("turquoise",)) in g.legal_claims() and Claim(SARAH, ("turquoise", "turquoise")) \
        not in g.legal_claims()
    g.apply(Claim(SARAH, ("turquoise",)))
    assert g.players[SARAH].markers["turquoise"] == 8  # deployed now, so the sector is complete now
    g.apply(Claim(1, ("green",)))
    with pytest.raises(IllegalClaim, match="Sarah's river is complete: Sarah may not claim turquoise"):
        g.apply(Claim(SARAH, ("turquoise",)))
    assert conserved(g)


def test_new_keshis_come_from_the_supply_and_returned_goods_go_back() -> None:
    g = classic(profile={"office.1.yellow": {"water": 1}, **COSTS}, exchange_offices=[1, 2, 3])
    to_assistants(g, {SARAH: ("yellow", "orange", "green")})
    supply = dict(g.s.supply)
    use(g, SARAH, "souk", "keshi", "yellow")
    assert g.s.supply["yellow"] == supply["yellow"] - 1
    use(g, SARAH, "souk", "action")  # the only option: the office for her 1 yellow keshi
    assert g.s.supply["yellow"] == supply["yellow"] and g.players[SARAH].goods["yellow"] == 0
    use(g, SARAH, "date_orchard", "keshi")
    assert g.s.supply["green"] == supply["green"] - 1 and conserved(g)


def test_an_empty_supply_exchanges_a_board_keshi_for_another_colour() -> None:
    """CLA:L58: with no yellow keshi left in the supply, a yellow keshi on a board is exchanged for a keshi of
    another colour from the supply; it still counts as yellow. When it leaves the board the real colour
    goes back."""
    g = classic(players=2, profile={"office.1.yellow": {"water": 1}, **COSTS}, exchange_offices=[1, 2, 3])
    to_assistants(g, {SARAH: ("yellow", "orange", "purple")})
    sarah = g.players[SARAH]
    sarah.goods["yellow"] = g.s.supply["yellow"]  # every yellow of the supply is on Sarah's board
    g.s.supply["yellow"] = 0
    use(g, SARAH, "souk", "keshi", "yellow")
    assert sarah.goods["yellow"] == 24 and g.s.supply["yellow"] == 0
    assert len(g.s.stand_ins[SARAH]) == 1 and g.s.stand_ins[SARAH][0][0] == "yellow"
    stand_in = g.s.stand_ins[SARAH][0][1]
    assert stand_in != "yellow" and conserved(g)
    sarah.goods["yellow"] = 1  # (the table returned the others; keep the count honest:)
    g.s.supply["yellow"] += 23
    before = g.s.supply[stand_in]
    use(g, SARAH, "souk", "action")  # the only option: the office for her 1 yellow keshi
    assert g.s.stand_ins[SARAH] == [] and g.s.supply[stand_in] == before + 1 and conserved(g)


def test_screens_are_refilled_through_the_shortage_rule() -> None:
    """Preparing a season (CLA:L795-804): 1 keshi of each colour behind every screen, even from an empty
    supply (CLA:L58) - no placeholders in Classic."""
    g = classic(players=2)
    deploy(g, SARAH, gray=g.s.supply["gray"])
    assert g.s.supply["gray"] == 0
    g._refill_screens()
    assert all(p.screen == {c: 2 for c in COLOURS} and not p.placeholders for p in g.players)
    assert len(g.s.stand_ins[SARAH]) == 2 and conserved(g)


def test_lap_tiles_show_100_and_200() -> None:
    """CLA:L234: lap tiles 100/200 (Essential 70/140)."""
    g = classic(players=2)
    g.players[0].score, g.players[1].score = 199, 200
    tiles = [p["lap_tile"] for p in result_summary(g)["players"]]
    assert tiles == ["100", "200"]
    e = Game.new(SetupOptions(players=NAMES[:2]))
    e.players[0].score = 100
    assert result_summary(e)["players"][0]["lap_tile"] == "70"


# --- action strength = keshis in the sector ----------------------------------------------------------------


def test_action_strength_is_the_number_of_keshis() -> None:
    """§15.3: river steps, dates, staircase steps = keshis of that colour on the board (CLA:L417, L436, L530)."""
    g = classic(profile={**STAIRS, "line.2.1": ["points:1"], **{f"river.space.{i}": "plain" for i in range(1, 4)}})
    to_assistants(g, {SARAH: ("turquoise", "green", "white")})
    deploy(g, SARAH, turquoise=3, green=2, white=1)
    sarah = g.players[SARAH]
    sarah.resources["water"] = 0
    use(g, SARAH, "river", "action")
    use(g, SARAH, "date_orchard", "action")
    use(g, SARAH, "palace", "action")
    assert (sarah.fisherman, sarah.resources["dates"], sarah.palace) == (3, 1 + 2, 1)


def test_scholar_count_limits_the_scrolls() -> None:
    """Madrasa (CLA:L574-586): the scrolls' requirements together may not exceed the scholars deployed."""
    g = classic(scroll_display={"gray": [19, 1, 2], "yellow": [22, 23, 24]})
    to_assistants(g, {SARAH: ("gray", "green", "white")})
    deploy(g, SARAH, gray=3)
    g.players[SARAH].resources.update({"dates": 5, "dinars": 0})
    use(g, SARAH, "madrasa", "action", "scroll:22")  # 3 scholars spent on a yellow scroll
    assert g.pending is None or all(not str(o).startswith("scroll:") for o in g.pending["options"])
    assert g.players[SARAH].scrolls == [22]


# --- academy stacks and souk shops ------------------------------------------------------------------------


def test_academy_has_three_equal_stacks_per_colour() -> None:
    """CLA:L235: 21/21/18/12 scrolls in 3 equal stacks per colour; the 3 tops are face up."""
    g = classic()
    sizes = {c: [len(st) for st in stacks] for c, stacks in g.s.academy.items()}
    assert sizes == {"gray": [7, 7, 7], "yellow": [7, 7, 7], "pink": [6, 6, 6], "orange": [4, 4, 4]}
    assert all(g.s.scroll_display[c] == [st[0] for st in g.s.academy[c]] for c in g.s.academy)
    assert [len(shop) for shop in g.s.shops] == [5] * 5 and g.s.luxury_display == [sh[0] for sh in g.s.shops]


def test_a_bought_scroll_is_replaced_from_its_own_stack_at_the_end_of_the_turn() -> None:
    """CLA:L576: a new scroll is revealed only at the end of the player's turn, on the same stack."""
    g = classic(scroll_display={"gray": [19, 1, 2]})
    to_assistants(g, {SARAH: ("gray", "green", "white")})
    deploy(g, SARAH, gray=1)
    next_top = g.s.academy["gray"][0][1]
    use(g, SARAH, "madrasa", "action", "scroll:19")
    assert g.s.scroll_display["gray"] == [1, 2] and not g.s.academy_open["gray"][0]
    finish_turn(g, SARAH)
    assert g.s.academy["gray"][0][0] == next_top and g.s.scroll_display["gray"] == [next_top, 1, 2]


def test_an_empty_stack_takes_the_lower_half_of_the_larger_other_stack() -> None:
    """CLA:L578-580: the larger of the other two stacks gives its lower half (rounded down)."""
    g = classic(scroll_display={"orange": [61, 62, 63]})
    stacks = g.s.academy["orange"]
    stacks[0][:] = [61]
    stacks[1][:] = [62, 64, 65, 66, 67]
    stacks[2][:] = [63, 68, 69]
    g.s.scroll_display["orange"] = [62, 63]  # 61 was bought
    g.players[SARAH].scrolls.append(61)
    g._sync_displays(g.s)
    assert stacks[0] == [] and not g.s.academy_open["orange"][0]
    run_effects(g, {"k": "academy_top", "colour": "orange", "stack": 0})
    assert g.s.academy["orange"] == [[66, 67], [62, 64, 65], [63, 68, 69]]
    assert g.s.scroll_display["orange"] == [66, 62, 63]


def test_refresh_moves_each_top_to_the_bottom_of_its_stack() -> None:
    """CLA:L600-602: for 1 dinar the top of each of the 3 stacks goes to its bottom; the new tops show at
    once and one of them must be bought."""
    g = classic(scroll_display={"gray": [19, 1, 2]})
    to_assistants(g, {SARAH: ("gray", "green", "white")})
    deploy(g, SARAH, gray=1)
    seconds = [st[1] for st in g.s.academy["gray"]]
    use(g, SARAH, "madrasa", "action", "refresh:gray")
    assert g.s.scroll_display["gray"] == seconds
    assert [st[-1] for st in g.s.academy["gray"]] == [19, 1, 2]
    options = g.pending["options"]  # type: ignore[index]
    assert "done" not in options and {o.split(":")[1] for o in options} <= {str(n) for n in seconds}


def test_a_souk_shop_is_refilled_from_the_largest_shop() -> None:
    """CLA:L465: a bought luxury good is replaced at the end of the turn from its shop; an empty shop takes
    half (rounded down, the lower half, digest A24) of the largest other shop."""
    profile = {"luxury.1.cost": {"orange": 1}, "luxury.1.reward": {"points": 2}, "luxury.1.type": "slipper",
               **{f"luxury.{n}.cost": {"yellow": 3} for n in range(2, 26)}}
    g = classic(profile=profile, luxury_display=[1, 2, 3, 4, 5])
    g.s.shops[0][:] = [1]
    g.s.shops[1][:] = [2, 6, 7, 8, 9, 10, 11]
    to_assistants(g, {SARAH: ("orange", "gray", "white")})
    g.players[SARAH].goods["orange"] = 1
    g.s.supply["orange"] -= 1
    use(g, SARAH, "souk", "action", "luxury:1")
    assert g.s.luxury_display == [2, 3, 4, 5] and g.s.shops[0] == []
    finish_turn(g, SARAH)
    assert g.s.shops[0] == [9, 10, 11] and g.s.shops[1] == [2, 6, 7, 8]
    assert g.s.luxury_display == [9, 2, 3, 4, 5]


def test_table_draws_name_the_new_top_of_a_stack() -> None:
    """At a real table the engine asks which scroll was revealed on the stack and puts it on top."""
    g = classic(scroll_display={"gray": [19, 1, 2]})
    g.s.setup["table_draws"] = True
    g.s.academy_open["gray"][0] = False
    g.s.academy["gray"][0].pop(0)
    g.s.scroll_display["gray"] = [1, 2]
    hidden = g.s.academy["gray"][2][3]
    run_effects(g, {"k": "academy_top", "colour": "gray", "stack": 0})
    assert g.pending is not None and g.pending["kind"] == "draw" and hidden in g.pending["options"]
    from companion.games.marrakesh import Answer

    g.apply(Answer("draw.scroll.gray", hidden))
    assert g.s.academy["gray"][0][0] == hidden and g.s.scroll_display["gray"][0] == hidden
    assert sorted(n for st in g.s.academy["gray"] for n in st) == sorted(set(range(1, 22)) - {19})


# --- water vendors --------------------------------------------------------------------------------------------


def test_a_water_vendor_deployed_this_turn_pays_from_the_next_turn() -> None:
    """CLA:L296: +1 water only "if they had deployed a red water vendor in this sector during a previous
    turn" (Essential pays at once, digest A6)."""
    for edition, water in (("classic", 1), ("essential", 2)):
        g = Game.new(SetupOptions(players=NAMES, seed=1, start_player=0, edition=edition))
        to_assistants(g, {SARAH: ("green", "gray", "white")})
        run_effects(g, {"k": "gain", "p": SARAH, "colour": "red"})
        choose(g, "date_orchard")
        g.apply(UseAssistant(SARAH, "date_orchard", "keshi"))
        assert g.players[SARAH].resources["water"] == water, edition


def test_scroll_50_pays_only_with_the_sector_action() -> None:
    """§15.42 (CLA scroll 50): +2 points "when performing the sector action" in a vendor's sector."""
    g = classic()
    to_assistants(g, {SARAH: ("green", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.water_vendors, sarah.scrolls = ["date_orchard", "madrasa"], [50]
    g.s.supply["red"] -= 2
    deploy(g, SARAH, green=1)
    score = sarah.score
    use(g, SARAH, "date_orchard", "keshi")
    assert sarah.score == score + 1  # only the green deployment bonus
    sarah.assistants.append("date_orchard")
    use(g, SARAH, "date_orchard", "action")
    assert sarah.score == score + 1 + 2


# --- printed values -----------------------------------------------------------------------------------------


def test_classic_ships_only_values_its_own_text_proves() -> None:
    values = classic_board_data()["values"]
    assert all(entry["source"].startswith("CLA:L") for entry in values.values())
    g = classic()
    assert g.profile["workshop.0.points"] == -3 and "palace.final_step" not in g.profile
    e = Game.new(SetupOptions(players=NAMES))
    assert e.profile["palace.final_step"] == 16  # Essential's text proves it, Classic's does not


def test_exchange_icon_may_return_a_start_oasis_caravan() -> None:
    """CLA:L699-701: only caravans next to a discovered or claimed oasis are protected; a start-oasis caravan
    (no oasis tile beside it) may be returned and exchanged. Essential forbids every caravan."""
    for edition, allowed in (("classic", True), ("essential", False)):
        g = Game.new(SetupOptions(players=NAMES, seed=1, start_player=0, edition=edition))
        sarah = g.players[SARAH]
        sarah.sahara, sarah.entertainers = {"left": 1, "right": 0, "start": 2}, ["date"]
        g.s.supply["brown"] -= 3 if edition == "classic" else 0
        g.s.supply["pink"] -= 1 if edition == "classic" else 0
        run_effects(g, {"k": "exchange_icon", "p": SARAH})
        assert g.pending is not None
        assert ("brown:start" in g.pending["options"]) is allowed, edition
        if allowed:
            supply = g.s.supply["brown"]
            choose(g, "brown:start", "pink", "water")
            assert sarah.sahara["start"] == 1 and sarah.sahara["left"] == 1 and sarah.entertainers == ["date", "water"]
            assert g.s.supply["brown"] == supply + 1



def test_play_continues_exactly_after_undo() -> None:
    """Undo then redo of every 7th action of a random Classic game gives the same state, and the game
    goes on to the end in step (academy and shop displays included)."""
    rng = random.Random(8)
    g = Game.new(SetupOptions(players=NAMES[:3], seed=8, edition="classic"))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(), rng))
    while not g.finished:
        action = player.action(g)
        g.apply(action)
        if len(g.log) % 7 == 0:
            view = g.to_dict()
            g.undo()
            g.apply(action)
            assert g.to_dict() == view
    assert isinstance(g, ClassicGame) and conserved(g)
    assert g.to_dict() == Game.replay(g.setup, g.log).to_dict()
