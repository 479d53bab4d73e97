"""The rules the worked examples do not show, one test each (with the rulebook lines they check)."""

from __future__ import annotations

from companion.games.sabika import Game, Rest, SetupOptions, Work
from companion.games.sabika.rules import work_problem
from tests.games.sabika.helpers import (
    BASE_PROFILE,
    BLUE,
    DRAWS,
    NAMES,
    PINK,
    YELLOW,
    answer_questions,
    choose,
    give,
    new_game,
)


def rest_round(g: Game) -> None:
    """Everyone rests until the next round starts (first option for every decision)."""
    start = g.s.round
    while g.s.round == start and not g.finished:
        answer_questions(g)
        if g.pending is not None:
            choose(g, g.pending["options"][0])
        else:
            g.apply(Rest(g.s.turn, g.players[g.s.turn].active_workers()[0]))


def test_setup_by_player_count_L104_L112() -> None:
    """L104-119: 3/4/5 Minor Poems and 4/6/8 Major Poems for 2/3/4 players; 9 Cities; Era II tiles."""
    for players, poems in ((2, 3), (3, 4), (4, 5)):
        g = new_game(players)
        assert len(g.s.poem_display) == poems and len(g.s.major_poems) == 2 * players
        assert len({m[0] for m in g.s.major_poems if m}) == 2 * players  # different letters (L112-115)
        assert len(g.s.city_tiles) == 9 and len(g.s.minor_display) == 4
        assert [len(pair) for pair in g.s.store_display] == [2, 2]
        assert len(g.s.major_tiles["II"]) == (9 if players == 2 else 12)  # L91-92
        assert all(p.score == 5 and p.parias == 0 and p.ships_home() == 9 for p in g.players)  # L140-149


def test_starting_tile_player_dinars_and_paria_pile_L154() -> None:
    """L154-162: the highest Starting Tile starts; Dinars by turn position; the starter's Paria token on top."""
    g = new_game(4, start=PINK)
    assert g.s.start_player == PINK and g.s.turn == PINK
    order = g.s.order()
    assert order == [PINK, 3, BLUE, YELLOW]
    dinars = [g.players[seat].dinars for seat in order]
    assert dinars == [2 + 1, 3 + 1, 4 + 1, 5 + 1]  # start_dinars.1-4 plus the Starting Tile's 1 Dinar
    stamps = [g.players[seat].paria_stamp for seat in order]
    assert stamps == sorted(stamps, reverse=True)


def test_storehouse_expansion_pp_and_limit_L520() -> None:
    """L520-529: 1 PP for the first expansion, 2 for the second, at most 2 per Storehouse; then the Bonus."""
    g = new_game(2, profile={f"storehouse.{t}.bonus": ["dinars:1"] for t in range(1, 25)})
    p = g.players[BLUE]
    p.storehouses[0] = [99]
    g.profile["storehouse.99.boxes"] = 1
    g.profile["storehouse.99.bonus"] = ["pp:1"]
    tile = g.s.store_display[0][0]
    dinars = p.dinars
    g.apply(Work(BLUE, "builder1", 3))
    choose(g, f"Storehouse Tile {tile} on Storehouse 1")
    assert p.storehouses[0] == [99, tile] and p.breakdown["storehouses"] == 2 and p.dinars == dinars + 1
    assert g.s.store_display[0][0] is None  # refilled in Maintenance (L991-992)


def test_secondary_actions_cost_by_worker_and_empty_squares_L868() -> None:
    """L868-896: Raw square costs the Master Builder 1, the Merchant 0; empty Marble square gives Gypsum or Wood."""
    g = new_game(2)
    p = g.players[BLUE]
    g.s.raw_spots[1] = "silk"
    dinars = p.dinars
    g.apply(Work(BLUE, "builder1", 5))  # outer 5: Construction (impossible) + Raw Material square 2
    assert p.dinars == dinars - 1 and p.raws == ["silk"] and g.s.raw_spots[1] is None
    g.apply(Rest(YELLOW, "poet"))
    g.s.marble_spots[0] = False
    p.dinars = 1
    g.apply(Work(BLUE, "poet", 2))  # inner 2: Reactivate (impossible) + Marble square 1 (empty): Poet pays 1
    choose(g, "Wood")
    assert p.dinars == 0 and p.items["wood"] == 1


def test_empty_raw_square_processes_instead_L876() -> None:
    g = new_game(2)
    p = g.players[BLUE]
    g.s.raw_spots[0] = None
    p.raws = ["clay"]
    g.apply(Work(BLUE, "merchant", 1))
    assert p.raws == [] and p.items["pottery"] == 1


def test_artisanal_labour_L851() -> None:
    g = new_game(2)
    p = g.players[BLUE]
    p.blue_poems, p.red_poems, p.grey_poems = [1, 2], [3], []
    dinars = p.dinars
    g.apply(Work(BLUE, "poet", 3))
    assert p.dinars == dinars + 3 + 1


def test_quarry_three_materials_in_any_combination_L511() -> None:
    g = new_game(2)
    g.apply(Work(BLUE, "builder1", 2))  # Major Quarry: Wood and Marble
    assert set(g.pending["options"]) == {"3 Wood + 0 Marble", "2 Wood + 1 Marble", "1 Wood + 2 Marble",  # type: ignore[index]
                                          "0 Wood + 3 Marble"}
    choose(g, "0 Wood + 3 Marble")
    assert g.players[BLUE].items["marble"] == 3


def test_full_storehouses_return_or_refuse_L308() -> None:
    g = new_game(2)
    give(g, BLUE, gypsum=4)
    g.apply(Work(BLUE, "builder1", 2))
    choose(g, "0 Wood + 3 Marble")
    choose(g, "return 1 Gypsum")
    choose(g, "return 1 Gypsum")
    choose(g, "leave the Marble")
    p = g.players[BLUE]
    assert (p.items["gypsum"], p.items["marble"], p.held()) == (2, 2, 4)


def test_carve_costs_and_two_major_poems_at_most_L810() -> None:
    """L810-818: blue 1+, red 2+, grey 4+ per Poem of that colour; at most 2 grey Poems."""
    g = new_game(2)
    p = g.players[BLUE]
    give(g, BLUE, dinars=30, gypsum=3)
    p.grey_poems = ["H1", "H2"]
    g.apply(Work(BLUE, "poet", 1))
    assert not any(o.startswith("grey") for o in g.pending["options"])  # type: ignore[index]
    assert f"blue Minor Poem {g.s.poem_display[0]}" in g.pending["options"]  # type: ignore[index]
    g2 = new_game(2, profile={"minor_poem.1.red": ["pp:1"]})
    p2 = g2.players[BLUE]
    give(g2, BLUE, dinars=6, gypsum=1)
    p2.red_poems = [40, 41]
    g2.apply(Work(BLUE, "poet", 1))
    choose(g2, f"red Minor Poem {g2.s.poem_display[0]}")
    assert p2.dinars == 6 - 4 and len(p2.red_poems) == 3


def test_minor_construction_architectural_balance_L665() -> None:
    """L665-691: a single-colour Ceramic Artwork earns its Bonus; the Balance Card's right half is wild."""
    g = new_game(2, profile={"minor_card.1.left": "coins", "minor_card.1.base": "gypsum"})
    give(g, BLUE, gypsum=1)
    g.s.minor_display = [1, None, None, None]
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Minor Construction")
    choose(g, "right end")  # card 1's left half (coins) beside the wild half
    choose(g, "2 Dinars and 2 Parias")
    p = g.players[BLUE]
    assert p.minor_row == [0, 1] and p.balances == 1 and p.parias == 2 and p.breakdown["constructions"] == 1


def test_minor_construction_without_balance_L681() -> None:
    g = new_game(2, profile={"minor_card.1.right": "trade", "minor_card.1.base": "gypsum",
                             "balance.2.left": "coins"})
    g.players[BLUE].balance_card = 2
    give(g, BLUE, gypsum=1)
    g.s.minor_display = [1, None, None, None]
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Minor Construction")
    choose(g, "left end")  # card 1's right half (trade) beside the Balance Card's left half (coins)
    p = g.players[BLUE]
    assert p.minor_row == [1, 0] and p.balances == 0


def test_refresh_minor_cards_once_per_turn_L583() -> None:
    g = new_game(2, profile={f"minor_card.{c}.base": "gypsum" for c in range(1, 25)})
    give(g, BLUE, dinars=5, gypsum=1)
    shown = list(g.s.minor_display)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "pay 1 Dinar")
    p = g.players[BLUE]
    assert g.s.minor_discard == shown and g.s.minor_display != shown and p.breakdown["constructions"] == 1
    assert g.pending is not None and g.pending["kind"] == "question"  # the new Cards' printed values first
    answer_questions(g)
    assert g.pending is not None and g.pending["player"] == BLUE
    assert "Minor Construction" in g.pending["options"]
    assert not any(o.startswith("pay 1 Dinar") for o in g.pending["options"])


def test_seals_pay_dinars_L744() -> None:
    g = new_game(2)
    p = g.players[BLUE]
    p.workers["poet"].at = 1
    p.dinars, p.seals = 0, 2
    give(g, BLUE, gypsum=1)  # so the Carve Poem Action on square 4 is possible
    assert "needs 3 Dinars to reach square 6, Blue has 2" in str(work_problem(g, BLUE, "poet", 6) or "")
    g.apply(Work(BLUE, "poet", 4))  # 3 steps: 1 Dinar, paid with a Seal
    assert p.seals == 1


def test_sultans_workers_count_and_move_L469_L969() -> None:
    g = new_game(2, profile={"sultan.2p.count": 1, "sultan.2p.1": "inner 3"})
    assert g.s.sultan_workers == [["inner", 3]]
    g.players[BLUE].dinars = 0
    assert "needs 1 Dinars" in str(work_problem(g, BLUE, "poet", 3) or "")
    rest_round(g)
    assert g.s.sultan_workers == [["inner", 4]]


def test_income_from_blue_consolidated_cities_L904() -> None:
    g = new_game(2, profile={"city_tile.1.colour": "blue", "city_tile.1.consolidate": ["dinars:3"], "tribute.2": 0})
    p = g.players[BLUE]
    p.ships = {1: "right"}
    dinars = p.dinars
    rest_round(g)
    assert p.dinars == dinars + 4 * 3 + 3  # 4 rests and the income


def test_era_change_and_maintenance_L973_L1002() -> None:
    g = new_game(2, profile={"tribute.2": 0, "tribute.3": 0})
    g.s.raw_spots = [None, None]
    g.s.marble_spots = [False, False]
    g.s.poem_display[0] = None
    rest_round(g)
    assert all(g.s.raw_spots) and all(g.s.marble_spots) and g.s.poem_display[0] is not None
    assert g.s.major_tiles["I"]
    rest_round(g)
    assert g.s.narrator == 3 and g.s.era() == "II" and g.s.major_tiles["I"] == []


def test_a_profile_answered_once_is_not_asked_again() -> None:
    first = Game.new(SetupOptions(players=NAMES[:2], seed=3, draws=DRAWS, profile=BASE_PROFILE))
    answer_questions(first)
    again = Game.new(SetupOptions(players=NAMES[:2], seed=3, draws=DRAWS, profile=first.profile))
    assert again.pending is None or again.pending["kind"] == "choice"
