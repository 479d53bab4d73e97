"""Advanced mode (L1120-1186): the Event Tiles' rule changes, each tested against the basic rule."""

from __future__ import annotations

from companion.games.sabika import Rest, Work
from companion.games.sabika.outer import price
from companion.games.sabika.rules import poem_cost, work_problem
from tests.games.sabika.helpers import BLUE, YELLOW, choose, give, new_game


def test_active_and_future_event_change_after_the_tribute_L1138() -> None:
    """L1128-1142: the first Event is active; on a marked space the Future Event replaces it after the Tribute."""
    g = new_game(2, events=(1, 8, 12), profile={"tribute.2": 0})
    assert g.event() == 1
    while g.s.round == 1:
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))
    assert g.event() == 8 and g.s.event_at == 1


def test_event_1_cheaper_buying_dearer_selling_L1150() -> None:
    g = new_game(2, events=(1, 2, 3))
    assert price(g, "buy", "gypsum") == 0 and price(g, "buy", "glazed") == 2 and price(g, "buy", "raw") == 0
    assert price(g, "sell", "glazed") == 5 and price(g, "sell", "sugar") == 4
    basic = new_game(2)
    assert price(basic, "buy", "gypsum") == 1 and price(basic, "sell", "sugar") == 3


def test_events_2_and_6_poem_cost_L1153_L1162() -> None:
    g = new_game(2)
    p = g.players[BLUE]
    assert (poem_cost(p, "red", 2), poem_cost(p, "red", 6), poem_cost(p, "red")) == (1, 3, 2)
    assert poem_cost(p, "blue", 2) == 0


def test_event_3_extra_paria_per_good_L1155() -> None:
    g = new_game(2, events=(3, 4, 5))
    p = g.players[BLUE]
    give(g, BLUE, dinars=5, sugar=2)
    parias = p.parias
    g.apply(Work(BLUE, "merchant", 1))
    choose(g, "Export Action")
    choose(g, "City 1")
    choose(g, "Sugar + Sugar")
    demand = g.profile[f"city_tile.{g.s.city_tiles[0]}.demand"]
    assert p.parias - parias == 2 * (1 + (demand == "sugar")) + 2


def test_event_4_same_materials_allowed_L1157() -> None:
    g = new_game(2, events=(4, 5, 6))
    give(g, BLUE, gypsum=1, marble=2)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Major Construction")
    choose(g, "Era I Major Construction Tile 1")
    assert "Gypsum + Marble + Marble" in g.pending["options"]  # type: ignore[index]
    choose(g, "Gypsum + Marble + Marble")
    assert g.players[BLUE].breakdown["constructions"] == 1 + 3 + 3
    basic = new_game(2)
    give(basic, BLUE, gypsum=1, marble=2)
    basic.apply(Work(BLUE, "builder1", 5))
    choose(basic, "Construction Action")
    choose(basic, "Major Construction")
    choose(basic, "Era I Major Construction Tile 1")
    assert "Gypsum + Marble + Marble" not in basic.pending["options"]  # type: ignore[index]


def test_event_7_one_pp_less_per_material_L1164() -> None:
    g = new_game(2, events=(7, 5, 6))
    give(g, BLUE, gypsum=1, marble=1)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Major Construction")
    choose(g, "Era I Major Construction Tile 1")
    choose(g, "Gypsum + Marble")
    assert g.players[BLUE].breakdown["constructions"] == 0 + 2


def test_events_5_8_14_tribute_L1160_L1167_L1181() -> None:
    for events, due in (((5, 1, 2), 1), ((8, 1, 2), 3)):
        g = new_game(2, events=events, profile={"tribute.2": 2})
        while g.pending is None or "Parias how" not in g.pending["prompt"]:
            if g.pending is not None:
                choose(g, g.pending["options"][0])
            else:
                g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))
        assert f"pays {due} Parias" in g.pending["prompt"]
    g = new_game(2, events=(14, 1, 2), profile={"tribute.2": 1})
    p = g.players[BLUE]
    while g.pending is None or "Blue pays 1 Parias" not in g.pending["prompt"]:
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))
    p.dinars = p.seals = 0
    choose(g, "1 PP")
    assert p.breakdown["tribute"] == -2  # the Paria, and 1 PP for the Dinar Blue cannot pay
    yellow = g.players[YELLOW].dinars
    choose(g, "1 PP")
    assert g.players[YELLOW].dinars == yellow - 1


def test_event_9_routes_cost_more_L1169() -> None:
    from companion.games.sabika.routes import export_costs

    g = new_game(2)
    assert export_costs(g.profile, {}, 1)[4] == export_costs(g.profile, {})[4] + 3  # Granada-Florence-Ragusa-Const.


def test_event_10_consolidating_costs_a_dinar_L1171() -> None:
    g = new_game(2, events=(10, 1, 2))
    p = g.players[BLUE]
    p.ships = {1: "left"}
    p.dinars = 0
    assert work_problem(g, BLUE, "merchant", 2) is not None
    p.dinars = 1
    g.apply(Work(BLUE, "merchant", 2))  # the only action there: consolidating, paid at once
    assert p.dinars == 0 and p.ships[1] == "right"


def test_events_11_12_13_movement_and_secondary_costs_L1173() -> None:
    g = new_game(2, events=(11, 1, 2))
    p = g.players[BLUE]
    p.workers["poet"].at = 1
    p.dinars = 1
    assert work_problem(g, BLUE, "poet", 3) is None  # 2 steps: 1 Dinar
    p.dinars = 0
    assert "needs 1 Dinars" in str(work_problem(g, BLUE, "poet", 3) or "")
    g = new_game(2, events=(12, 1, 2))
    g.players[YELLOW].workers["poet"].at = 3
    g.players[BLUE].dinars = 1
    assert "needs 2 Dinars" in str(work_problem(g, BLUE, "poet", 3) or "")
    g = new_game(2, events=(13, 1, 2))
    g.players[BLUE].dinars = 1  # the Poet's Marble Secondary Action now costs 2
    assert work_problem(g, BLUE, "poet", 2) is not None


def test_event_10_bonus_consolidation_needs_the_dinar() -> None:
    """A Consolidate Action earned as a Bonus is skipped when Event 10's Dinar cannot be paid."""
    g = new_game(2, events=(10, 1, 2), profile={"storehouse.99.boxes": 1, "storehouse.99.bonus": ["consolidate"]})
    p = g.players[BLUE]
    p.storehouses[0] = [99]
    p.ships = {1: "left"}
    p.dinars = 0
    g.apply(Work(BLUE, "builder1", 3))
    choose(g, "activate Storehouse 1")
    assert p.ships == {1: "left"} and p.dinars == 0 and g.s.turn == YELLOW
