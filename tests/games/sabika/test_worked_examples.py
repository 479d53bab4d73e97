"""Every worked example of the Sabika rulebook (shared/rules/sabika-en.txt), one test each, citing its lines."""

from __future__ import annotations

from companion.games.sabika import Rest, Work
from companion.games.sabika.routes import export_costs, longest_chain
from companion.games.sabika.scoring import card_points, winners
from tests.games.sabika.helpers import (
    ALGIERS,
    BLUE,
    CAIRO,
    CONSTANTINOPLE,
    FLORENCE,
    PINK,
    RAGUSA,
    VENICE,
    YELLOW,
    choose,
    give,
    new_game,
)


def test_raw_material_already_on_processing_space_is_processed_L237() -> None:
    """L237-246: earning a Clay with a Clay on the Processing Space leaves the token on the Rondel
    and flips the Workshop's Clay into Pottery in a Storehouse."""
    g = new_game(2)
    g.s.raw_spots[0] = "clay"
    g.players[BLUE].raws = ["clay"]
    g.apply(Work(BLUE, "merchant", 1))  # middle square 1 (Export, impossible) connects to Raw Material square 1
    assert g.s.raw_spots[0] == "clay"
    assert g.players[BLUE].raws == []
    assert g.players[BLUE].items["pottery"] == 1


def test_movement_costs_extra_steps_and_other_workers_L483() -> None:
    """L483-487: 4 steps cost 2 Dinars, 2 other Workers on the square 2 more."""
    g = new_game(3)
    g.players[BLUE].workers["builder1"].at = 1
    g.players[YELLOW].workers["builder1"].at = 5
    g.players[PINK].workers["builder2"].at = 5
    give(g, BLUE, dinars=10, gypsum=1)
    g.apply(Work(BLUE, "builder1", 5))
    assert g.players[BLUE].dinars == 6
    assert not g.players[BLUE].workers["builder1"].active  # laid down (L475-476)
    assert g.pending is not None and g.pending["player"] == BLUE  # then the Main and/or Secondary Action


def test_market_action_trade_then_sell_L575() -> None:
    """L575-577: earn 2 Dinars, trade 1 Wood for 1 Marble, sell 1 Good for 3 Dinars."""
    g = new_game(2)
    give(g, BLUE, dinars=1, wood=1, sugar=1)
    g.apply(Work(BLUE, "builder1", 4))
    choose(g, "trade 1 Wood for 1 Marble")
    choose(g, "sell 1 Sugar for 3")
    p = g.players[BLUE]
    assert (p.dinars, p.items["wood"], p.items["marble"], p.items["sugar"]) == (1 + 2 + 3, 0, 1, 0)
    assert g.pending is None and g.s.turn == YELLOW  # 2 transactions used: the turn is over


def test_major_construction_gypsum_and_marble_L624() -> None:
    """L624-628: Gypsum (mandatory) + Marble earn 4 PP; Gypsum alone would earn 1; Materials go back."""
    g = new_game(2)
    give(g, BLUE, gypsum=1, marble=1)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Major Construction")
    choose(g, "Era I Major Construction Tile 3")
    assert set(g.pending["options"]) == {"Gypsum", "Gypsum + Marble"}  # type: ignore[index]
    choose(g, "Gypsum + Marble")
    p = g.players[BLUE]
    assert p.breakdown["constructions"] == 4
    assert p.items["gypsum"] == p.items["marble"] == 0
    assert p.major_tiles == ["I-3"] and 3 not in g.s.major_tiles["I"]
    assert p.favour == 1  # the Sultan's Favour comes with every Major Construction (L634-637)


def test_export_from_florence_to_constantinople_L735() -> None:
    """L735-742: 2 routes of 2 Dinars from Florence, the Seal, Clothes (in demand) + Sugar = 3 PP and
    3 Parias, then the City Bonus (any Material)."""
    g = new_game(2, profile={f"city_tile.{CONSTANTINOPLE}.demand": "clothes",
                             f"city_tile.{CONSTANTINOPLE}.bonus": ["material:1"]})
    p = g.players[BLUE]
    p.ships = {FLORENCE: "left"}
    give(g, BLUE, dinars=10, sugar=1, clothes=1)
    assert export_costs(g.profile, p.ships)[CONSTANTINOPLE] == 4
    score, parias = p.score, p.parias
    g.apply(Work(BLUE, "merchant", 1))
    choose(g, "Export Action")
    choose(g, f"City {CONSTANTINOPLE}")
    choose(g, "Sugar + Clothes")
    choose(g, "Marble")
    assert p.dinars == 6 and p.seals == 1 and not g.s.seals[CONSTANTINOPLE - 1]
    assert p.score - score == 3 and p.parias - parias == 3
    assert p.ships == {FLORENCE: "left", CONSTANTINOPLE: "left"}
    assert p.items["marble"] == 1 and p.items["sugar"] == p.items["clothes"] == 0


def test_consolidate_with_cairo_L771() -> None:
    """L771-779: Blue and Pink consolidated earlier and get 1 PP and 1 Dinar; red Cairo gives Yellow a
    Construction Action at once."""
    g = new_game(4, start=YELLOW, profile={f"city_tile.{CAIRO}.colour": "red",
                                            f"city_tile.{CAIRO}.consolidate": ["construction"]})
    g.players[BLUE].ships = {CAIRO: "right"}
    g.players[PINK].ships = {CAIRO: "right"}
    g.players[YELLOW].ships = {CAIRO: "left"}
    give(g, YELLOW, gypsum=1)
    before = [(p.score, p.dinars) for p in g.players]
    g.apply(Work(YELLOW, "merchant", 2))
    choose(g, "Consolidate Action")
    assert g.players[YELLOW].ships[CAIRO] == "right"
    for seat in (BLUE, PINK):
        assert (g.players[seat].score, g.players[seat].dinars) == (before[seat][0] + 1, before[seat][1] + 1)
    assert g.pending is not None and g.pending["player"] == YELLOW
    assert "Major Construction" in g.pending["options"]


def test_rest_earns_3_dinars_loses_1_pp_L489() -> None:
    """L489-494: the Worker lies down in the Workshop, +3 Dinars, -1 PP."""
    g = new_game(2)
    p = g.players[BLUE]
    p.workers["poet"].at = 3
    dinars, score = p.dinars, p.score
    g.apply(Rest(BLUE, "poet"))
    assert (p.dinars, p.score, p.workers["poet"].at, p.workers["poet"].active) == (dinars + 3, score - 1, None, False)


def test_chain_of_ships_ignores_granada_L1110() -> None:
    """L1110-1113: Algiers joins Florence only through Granada, so the chain is Florence, Cairo, Ragusa,
    Constantinople and Venice: 5 Ships."""
    g = new_game(2)
    ships = {c: "left" for c in (ALGIERS, FLORENCE, CAIRO, RAGUSA, CONSTANTINOPLE, VENICE)}
    assert longest_chain(g.profile, ships) == 5


def test_majority_ties_take_the_lower_place_L1030() -> None:
    """L1030-1036: 14/9/6 PP; tied for first scores 9; fourth scores nothing."""
    g = new_game(4)
    for seat, poems in enumerate((3, 3, 1, 1)):
        g.players[seat].blue_poems = list(range(100, 100 + poems))
    g.players[3].blue_poems = []
    assert [card_points(g.s, seat, "major_poem.A1") for seat in range(4)] == [9, 9, 6, 0]
    g.players[1].blue_poems = [100]
    assert [card_points(g.s, seat, "major_poem.A1") for seat in range(3)] == [14, 6, 6]  # a tie for 2nd: 3rd's 6


def test_two_players_skip_second_place_L1034() -> None:
    """L1034-1036: with 2 players a tie for first or second place earns third place's 6 PP."""
    g = new_game(2)
    g.players[BLUE].blue_poems = [1, 2]
    g.players[YELLOW].blue_poems = [3]
    assert [card_points(g.s, seat, "major_poem.A1") for seat in (BLUE, YELLOW)] == [14, 6]
    g.players[YELLOW].blue_poems = [3, 4]
    assert [card_points(g.s, seat, "major_poem.A1") for seat in (BLUE, YELLOW)] == [6, 6]


def test_type_a_poems_count_themselves_L1038() -> None:
    """L1038-1039 with A2 (L333-336): 3 Minor Poems + A2 itself = 4 Poems = 8 PP (max. 14)."""
    g = new_game(2)
    p = g.players[BLUE]
    p.blue_poems, p.red_poems, p.grey_poems = [1, 2], [3], ["A2"]
    assert card_points(g.s, BLUE, "major_poem.A2") == 8
    p.blue_poems = list(range(1, 10))
    assert card_points(g.s, BLUE, "major_poem.A2") == 14


def test_tie_broken_by_constructions_then_shared_L1057() -> None:
    """L1057-1061: most PP wins; tied, most Constructions; still tied, shared."""
    g = new_game(3)
    for p in g.players:
        p.score = 40
    g.players[YELLOW].score = 30
    g.players[PINK].major_tiles = ["I-1"]
    assert winners(g.s) == [PINK]
    g.players[BLUE].minor_row = [0, 5]
    assert winners(g.s) == [BLUE, PINK]


def test_wood_poem_gives_at_most_one_bonus_L1079() -> None:
    """L1079-1081 (Minor Poem 5*): Wood in a construction: +1 PP and 1 Paria."""
    g = new_game(2)
    p = g.players[BLUE]
    p.blue_poems = [5]
    give(g, BLUE, gypsum=1, wood=1)
    parias = p.parias
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Major Construction")
    choose(g, "Era I Major Construction Tile 1")
    choose(g, "Gypsum + Wood")
    assert p.breakdown["constructions"] == 3 and p.breakdown["poems"] == 1 and p.parias == parias + 1


def test_poem_scaffold_allows_two_extras_and_adds_pp_L1083() -> None:
    """L1083-1085 (Minor Poem 10*): up to 2 extra Materials when carving, +1 PP per Material."""
    g = new_game(2)
    p = g.players[BLUE]
    p.blue_poems = [10]
    give(g, BLUE, dinars=5, gypsum=1, wood=1, glazed=1)
    g.apply(Work(BLUE, "poet", 1))  # inner square 1: Carve Poem, no Secondary Action
    choose(g, f"blue Minor Poem {g.s.poem_display[0]}")
    choose(g, "Gypsum + Wood + Glazed Ceramic")
    assert p.breakdown["poems"] == (1 + 2 + 4) + 3
    assert p.dinars == 5 - 2  # blue: 1 + 1 per blue Poem already carved (L810-811)


def test_export_poem_doubles_base_earnings_L1102() -> None:
    """L1102-1104 (Minor Poem 20*): 2 PP and 2 Parias per Good, +1 each if in demand."""
    g = new_game(2, profile={f"city_tile.{ALGIERS}.demand": "pottery"})
    p = g.players[BLUE]
    p.blue_poems = [20]
    give(g, BLUE, dinars=5, pottery=1, sugar=1)
    score, parias = p.score, p.parias
    g.apply(Work(BLUE, "merchant", 1))
    choose(g, "Export Action")
    choose(g, f"City {ALGIERS}")
    choose(g, "Sugar + Pottery")
    assert p.breakdown["export"] == 2 + 3 and p.parias - parias == 5 and p.score - score >= 5


def test_free_ship_poem_no_seal_no_bonus_L1087() -> None:
    """L1087-1092 (Minor Poem 14*): a free Ship, 1 Good exported, no Seal, no City Bonus."""
    g = new_game(2, profile={"minor_poem.14.blue": "unmodelled", f"city_tile.{VENICE}.bonus": ["dinars:5"]})
    p = g.players[BLUE]
    g.s.poem_display[0] = 14
    give(g, BLUE, dinars=5, gypsum=1, clothes=1)
    g.apply(Work(BLUE, "poet", 1))
    choose(g, "red Minor Poem 14")  # the only base Material: Gypsum, taken at once
    dinars = p.dinars
    choose(g, f"City {VENICE}")
    choose(g, "Clothes")
    assert p.ships == {VENICE: "left"} and p.seals == 0 and g.s.seals[VENICE - 1]
    assert p.dinars == dinars and p.breakdown["export"] == 1


def play_out_round(g: object) -> None:
    """Every player rests every Worker (answering each pending choice with its first option)."""
    from companion.games.sabika import Game

    assert isinstance(g, Game)
    start_round = g.s.round
    while g.s.round == start_round and not g.finished:
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            seat = g.s.turn
            g.apply(Rest(seat, g.players[seat].active_workers()[0]))


def test_income_poem_and_new_starting_player_L1070() -> None:
    """L1070-1073 (Minor Poem 1*): 2 Dinars in the Income Phase and 2 PP on becoming Starting Player."""
    g = new_game(2, profile={"tribute.2": 0})
    p = g.players[YELLOW]
    p.blue_poems = [1]
    p.parias, g.players[BLUE].parias = 5, 0  # Yellow leads on the Paria Track and chooses
    dinars = p.dinars
    while g.pending is None or g.pending["prompt"].find("who starts") < 0:
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))
    assert g.pending["player"] == YELLOW
    assert p.dinars == dinars + 4 * 3 + 2  # 4 rests, then 2 Dinars in the Income Phase
    poems_pp = p.breakdown.get("poems", 0)
    choose(g, "Yellow")
    assert g.s.start_player == YELLOW and p.breakdown["poems"] == poems_pp + 2 and g.s.round == 2


def test_paria_tie_goes_to_the_top_of_the_pile_L998() -> None:
    """L996-1000: tied on the Paria Track, the token on top of the pile leads (the last to arrive)."""
    g = new_game(3, profile={"tribute.2": 0})
    for seat in (BLUE, YELLOW, PINK):
        g.players[seat].parias = 3
    g.players[PINK].paria_stamp = 50  # arrived last: on top
    while g.pending is None or "who starts" not in g.pending["prompt"]:
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))
    assert g.pending["player"] == PINK


def test_sultans_wishes_scored_when_added_to_the_tower_L914() -> None:
    """L914-920: at the end of round 1 the first Wishes tile enters the Tower and is scored."""
    g = new_game(2, profile={"wish.A1.elements": ["seals"], "wish.A1.seals.points": 2, "tribute.2": 0},
                 draws={"wish_tiles": ["A1", "B1", "C1"]})
    g.players[BLUE].seals = 2
    play_out_round(g)
    assert g.s.wish_tower == ["A1"] and g.players[BLUE].breakdown["wishes"] == 4
    assert g.s.narrator == 2


def test_tribute_payment_options_L922() -> None:
    """L922-933: Parias are paid from the track, 2 Dinars, a Seal or 1 PP each."""
    g = new_game(2, profile={"tribute.2": 2})
    p = g.players[BLUE]
    p.parias, p.seals = 1, 1
    while g.pending is None or "pays 2 Parias" not in g.pending["prompt"]:
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))
    assert g.pending["player"] == BLUE
    options = g.pending["options"]
    assert "1 on the Paria Track, 1 Seals" in options and "2 PP" in options and "1 on the Paria Track, 1 PP" in options
    score = p.score
    choose(g, "1 on the Paria Track, 1 Seals")
    assert (p.parias, p.seals, p.score) == (0, 0, score)


def test_whole_game_ends_after_round_5_with_final_scoring_L1008() -> None:
    """L1008-1055: no End of Round after round 5: Income, Narrator to the last space (6 Parias),
    Major Poems, Trade, leftovers (1 PP per Seal, Good, Marble, Glazed Ceramic, 2 Dinars)."""
    g = new_game(2, profile={"trade.7.metric": "seals", "trade.7.mode": "per", "trade.7.points": 1,
                             "trade.7.max": 0})
    for _ in range(5):
        play_out_round(g)
    assert g.finished and g.s.narrator == 6 and g.s.round == 5
    p = g.players[BLUE]
    assert p.breakdown["tribute"] <= 0
    assert "leftovers" in p.breakdown and p.score == sum(p.breakdown.values())


def test_a_bonus_never_repeats_the_action_it_came_from() -> None:
    """Decision (docs/sabika.md): a Storehouse Tile whose Bonus is the Storehouse Action does not loop."""
    g = new_game(2, profile={"storehouse.99.bonus": ["storehouse", "dinars:2"], "storehouse.99.boxes": 1})
    p = g.players[BLUE]
    p.storehouses[0] = [99]
    dinars = p.dinars
    g.apply(Work(BLUE, "builder1", 3))  # outer square 3: the Storehouse Action, no Secondary Action
    choose(g, "activate Storehouse 1")
    assert p.dinars == dinars + 2 and g.s.turn == YELLOW


def test_goods_storehouse_poem_L1094() -> None:
    """L1094-1097 (Minor Poem 16*): a special Storehouse for 2 Goods; each Good placed there earns 1 PP
    and 1 Paria; its 2 Store Boxes count for Store Box scoring."""
    from companion.games.sabika.scoring import metric

    g = new_game(2)
    p = g.players[BLUE]
    p.blue_poems = [16]
    p.raws = ["cane"]
    assert metric(g.s, p, "store_boxes") == 4 + 2
    parias = p.parias
    g.apply(Work(BLUE, "merchant", 3))  # Produce: process up to 2 Raw Materials
    choose(g, "Sugar cane")
    choose(g, "store the Sugar in Minor Poem 16's Storehouse")
    assert p.items["sugar"] == 1 and p.poem_goods["sugar"] == 1 and p.held() == 0
    assert p.breakdown["poems"] == 1 and p.parias == parias + 1


def test_storehouse_capacity_any_combination_L305() -> None:
    """L298-306: a Starting Storehouse holds 1; expanded with a 2-box Tile it holds 3, in any combination."""
    from companion.games.sabika.handlers import capacity

    g = new_game(2, profile={"storehouse.97.boxes": 2})
    p = g.players[BLUE]
    assert capacity(g, p) == 4
    p.storehouses[2] = [97]
    assert capacity(g, p) == 6
    give(g, BLUE, gypsum=2, glazed=1, sugar=2, clothes=1)
    assert p.held() == capacity(g, p)
    g.apply(Work(BLUE, "builder1", 1))  # Minor Quarry: full, so each Material asks for room
    choose(g, "Minor Quarry Action")
    choose(g, "3 Gypsum")
    assert g.pending is not None and "return 1 Sugar to make room" in g.pending["options"]
