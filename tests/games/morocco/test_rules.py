"""Each rule of the Morocco text doing what it says (MOR:Lnnn = shared/rules/morocco-en.txt)."""

from __future__ import annotations

from companion.games.morocco import Answer, Choose, EndTurn, Game, Pass, Place, Roll, Scout, SetupOptions, Swap, board
from companion.games.morocco.scoring import largest_district
from tests.games.morocco.helpers import (
    COLUMNS,
    JAN,
    JUICE,
    LUKAS,
    MARIE,
    ROOFTOP,
    ROWS,
    SARAH,
    give,
    new_game,
    put,
    space,
    stall,
    to_assign,
)

ONE = {"overflow.market_tile": 1}


def idx(at: tuple[int, int]) -> int:
    return at[0] * board.SPACES_PER_SIDE + at[1]


def assign_game(players: int = 4, profile: dict[str, int] | None = None) -> Game:
    g = new_game(players, profile=profile)
    to_assign(g)
    for seat in range(players):
        give(g, seat)
    return g


# --- setup by player count (MOR:L30-40, L67-71) --------------------------------------------------

def test_setup_scores_zero_bodyguards_in_the_quarters_one_cube_of_each_colour() -> None:
    g = new_game(4)
    for p in g.players:
        assert p.score == 0 and p.quarters == 2 and p.bodyguards == 0
        assert (p.assistants, p.tourists, p.cousins, p.market_tiles) == (12, 2, 2, 12)
    for line in (g.s.rows, g.s.columns, g.s.rooftop):
        assert sorted(line) == sorted(board.CUBE_COLOURS)
    assert g.s.pawn == board.ROOFTOP_CENTRE and len(g.s.juice) == 36 and g.s.gold_supply == 15
    assert g.phase == "scout"  # 4 players: no market die


def test_three_players_the_start_player_rolls_once_and_everyone_gains_that_cube() -> None:
    g = new_game(3)
    assert g.phase == "roll" and g.to_move == SARAH
    g.apply(Roll(SARAH, "blue"))
    assert all(p.cubes["blue"] == 1 for p in g.players)
    assert g.phase == "scout"


def test_two_players_each_roll_once() -> None:
    g = new_game(2)
    g.apply(Roll(SARAH, "white"))
    assert g.phase == "roll" and g.to_move == JAN
    g.apply(Roll(JAN, "white"))
    assert all(p.cubes["white"] == 2 for p in g.players) and g.phase == "scout"


def test_wild_face_each_player_chooses_a_cube() -> None:
    g = new_game(3)
    g.apply(Roll(SARAH, "wild"))
    picks = {SARAH: "orange", JAN: "blue", MARIE: "orange"}
    for seat in (SARAH, JAN, MARIE):
        assert g.pending is not None and g.pending["player"] == seat
        g.apply(Choose(seat, picks[seat]))
    assert [p.cubes["orange"] for p in g.players] == [1, 0, 1] and g.players[JAN].cubes["blue"] == 1


# --- playing workers (MOR:L86-102) ------------------------------------------------------------------

def test_tourist_costs_row_column_and_any_third_cube() -> None:
    g = assign_game()
    give(g, SARAH, green=1, brown=1, white=1)
    g.apply(Place(SARAH, "tourist", space(1, 1, "tl"), "white"))
    assert g.players[SARAH].cube_total() == 0 and g.players[SARAH].tourists == 1


def test_bodyguard_costs_two_cubes_once_won() -> None:
    g = assign_game()
    g.players[SARAH].quarters, g.players[SARAH].bodyguards = 1, 1
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "bodyguard", space(1, 1, "tl")))
    assert g.players[SARAH].bodyguards == 0 and g.s.spaces[0] == [SARAH, "bodyguard"]


def test_each_player_takes_two_turns_one_at_a_time() -> None:
    g = assign_game(2)
    give(g, SARAH, green=2, brown=2)
    give(g, JAN, green=2, brown=2)
    order = []
    while g.phase == "assign" and g.pending is None:
        seat = g.to_move
        assert isinstance(seat, int)
        order.append(seat)
        free = next(sp for sp in board.stall_spaces(stall(1, 1)) if g.s.spaces[sp] is None)
        g.apply(Place(seat, "assistant", divmod(free, 10)))
    assert order == [SARAH, JAN, SARAH, JAN]


def test_a_player_unable_to_place_and_without_gold_passes_automatically() -> None:
    g = assign_game(2)
    give(g, SARAH, green=2, brown=2)
    g.apply(Place(SARAH, "assistant", space(1, 1, "tl")))  # Jan holds no cubes: he passes by himself
    assert g.to_move == SARAH and g.players[JAN].passes == 1 and g.s.turn == 2


def test_a_player_unable_to_place_but_holding_gold_may_swap_then_pass() -> None:
    g = assign_game(2)
    g.s.tiles = [None, *["empty"] * 24]  # only row 1, column 1 (green x brown) is open
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    give(g, SARAH, orange=1, brown=1)
    assert not g.can_place(SARAH) and Pass(SARAH) in set(g.legal_actions())
    g.apply(Swap(SARAH, ("row1", "row2")))
    assert g.s.rows[:2] == ["orange", "green"] and g.players[SARAH].gold == 0 and g.s.gold_supply == 15
    assert g.can_place(SARAH)  # now row 1 orange x column 1 brown
    g.apply(Place(SARAH, "assistant", space(1, 1, "tl")))
    assert g.to_move == JAN


def test_gold_may_be_spent_after_placing_until_the_turn_is_ended() -> None:
    g = assign_game(2)
    g.players[SARAH].gold, g.s.gold_supply = 2, 13
    give(g, SARAH, green=1, brown=1)
    give(g, JAN, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "tl")))
    assert g.to_move == SARAH and set(g.legal_actions()) >= {EndTurn(SARAH), Swap(SARAH, ("column1", "column5"))}
    g.apply(Swap(SARAH, ("column1", "column5")))
    g.apply(EndTurn(SARAH))
    assert g.s.columns[0] == "blue" and g.players[SARAH].gold == 1 and g.s.gold_supply == 14
    assert g.to_move == JAN


# --- scoring and closing a stall (MOR:L115-151) ----------------------------------------------------------

def test_first_and_second_place_rewards_juice_sellers_and_workers_going_home() -> None:
    g = assign_game(4, ONE)
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    sarah, jan = g.players[SARAH], g.players[JAN]
    assert sarah.breakdown == {"first_place": 5} and g.s.tiles[stall(1, 1)] == SARAH and sarah.market_tiles == 11
    assert jan.breakdown == {"second_place": 2} and jan.gold == 1 and jan.bodyguards == 1 and jan.quarters == 1
    assert sorted(sarah.juice) == [2, 3, 4] and jan.juice == [3]  # the corner token at each own worker
    assert g.s.juice[0] == g.s.juice[1] == g.s.juice[6] == g.s.juice[7] == 0
    assert sarah.assistants == 12 and jan.assistants == 12
    assert all(g.s.spaces[sp] is None for sp in board.stall_spaces(stall(1, 1)))
    assert g.pending is not None and g.pending["player"] == SARAH and set(g.pending["options"]) == {"down", "right"}


def test_tie_for_first_gives_5_each_an_empty_stall_tile_and_a_third_place() -> None:
    g = assign_game(4)
    g.players[SARAH].quarters, g.players[SARAH].bodyguards = 1, 1
    put(g, JAN, "bodyguard", space(1, 1, "tl"))
    put(g, MARIE, "assistant", space(1, 1, "tr"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "bodyguard", space(1, 1, "bl")))  # 2 + 1 + 2: bodyguards count two (MOR:L119)
    assert g.players[SARAH].breakdown == {"first_place": 5} and g.players[JAN].breakdown == {"first_place": 5}
    assert g.s.tiles[stall(1, 1)] == "empty" and g.s.empty_tiles == 11 and g.s.arrows[stall(1, 1)] is None
    assert g.players[MARIE].breakdown == {"third_place": 1}
    assert g.pending is not None and g.pending["player"] == MARIE and g.pending["options"] == ["gold", "bodyguard"]
    g.apply(Choose(MARIE, "bodyguard"))
    assert g.players[MARIE].bodyguards == 1 and g.players[MARIE].quarters == 1
    assert g.players[SARAH].quarters == 2 and g.players[JAN].quarters == 2  # bodyguards back in the quarters


def test_tied_second_places_each_get_1_vp_and_gold_or_bodyguard_in_turn_order() -> None:
    g = assign_game(4, ONE)
    g.players[SARAH].quarters, g.players[SARAH].bodyguards = 1, 1
    put(g, JAN, "assistant", space(1, 1, "tl"))
    put(g, MARIE, "assistant", space(1, 1, "tr"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "bodyguard", space(1, 1, "bl")))  # 3 workers, count 4: full
    assert g.players[SARAH].breakdown == {"first_place": 5}
    assert g.players[JAN].breakdown == g.players[MARIE].breakdown == {"second_place": 1}
    assert g.pending is not None and g.pending["player"] == JAN
    g.apply(Choose(JAN, "gold"))
    assert g.pending is not None and g.pending["player"] == MARIE
    g.apply(Choose(MARIE, "bodyguard"))
    assert g.players[JAN].gold == 1 and g.players[MARIE].bodyguards == 1


def test_gold_never_above_three() -> None:
    g = assign_game(4, ONE)
    g.players[JAN].gold = 3
    g.s.gold_supply = 12
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    assert g.players[JAN].gold == 3 and g.players[JAN].bodyguards == 1 and g.s.gold_supply == 12


def test_a_tied_second_with_three_gold_takes_the_bodyguard_without_being_asked() -> None:
    g = assign_game(4, ONE)
    g.players[MARIE].gold, g.s.gold_supply = 3, 12
    put(g, JAN, "assistant", space(1, 1, "tl"))
    put(g, MARIE, "assistant", space(1, 1, "tr"))
    g.players[SARAH].quarters, g.players[SARAH].bodyguards = 1, 1
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "bodyguard", space(1, 1, "bl")))  # Jan and Marie tied 2nd
    g.apply(Choose(JAN, "gold"))
    assert g.players[MARIE].gold == 3 and g.players[MARIE].bodyguards == 1
    assert g.pending is not None and g.pending["player"] == SARAH  # next: Sarah's overflow arrow


def test_overflow_arrow_counts_toward_a_full_stall_and_is_asked_once() -> None:
    g = assign_game(4)
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    g.apply(Choose(SARAH, "right"))  # overflow into the stall in row 1, column 2
    assert g.pending is not None and g.pending["kind"] == "question" and g.to_move == "table"
    g.apply(Answer("overflow.market_tile", 1))
    assert g.profile["overflow.market_tile"] == 1 and g.s.overflow[stall(1, 2)] == 1
    assert g.s.arrows[stall(1, 1)] == "right" and g.count(stall(1, 2)) == 1
    # Jan's turn: 2 workers + 1 overflow, and his assistant makes 4.
    put(g, MARIE, "assistant", space(1, 2, "tl"))
    put(g, LUKAS, "assistant", space(1, 2, "tr"))
    give(g, JAN, green=2)  # row 1 green x column 2 green
    g.apply(Place(JAN, "assistant", space(1, 2, "bl")))
    assert g.s.tiles[stall(1, 2)] == "empty"  # three tied at 1: an empty stall tile


def test_overflow_arrow_must_point_at_an_open_stall_if_there_is_one() -> None:
    g = assign_game(4, ONE)
    g.s.tiles[stall(2, 1)] = LUKAS
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    assert g.pending is None and g.s.arrows[stall(1, 1)] == "right"  # the only open neighbour


def test_overflow_arrow_may_point_at_a_closed_stall_when_no_open_one_is_adjacent() -> None:
    g = assign_game(4, ONE)
    g.s.tiles[stall(2, 1)] = LUKAS
    g.s.tiles[stall(1, 2)] = "empty"
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    assert g.pending is not None and g.pending["options"] == ["down", "right"]
    g.apply(Choose(SARAH, "down"))
    assert g.s.overflow[stall(2, 1)] == 0  # a closed stall takes no overflow


def test_tourist_moves_along_the_arrow_becomes_an_assistant_and_fills_the_next_stall() -> None:
    g = assign_game(4, ONE)
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "tourist", space(1, 1, "bl"))
    put(g, MARIE, "assistant", space(1, 2, "tl"))
    put(g, LUKAS, "assistant", space(1, 2, "tr"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    g.apply(Choose(SARAH, "right"))  # arrow into row 1, column 2: overflow 1 there, count 3
    assert g.pending is not None and g.pending["player"] == JAN
    assert g.pending["options"] == [list(space(1, 2, "bl")), list(space(1, 2, "br"))]
    g.apply(Choose(JAN, list(space(1, 2, "br"))))
    jan = g.players[JAN]
    assert jan.tourists == 1 and jan.tourists_gone == 1
    # The tourist's assistant made the next stall full (3 workers + 1 overflow): scored next, all tied,
    # and that assistant took the juice seller at its corner.
    assert g.s.tiles[stall(1, 2)] == "empty" and jan.breakdown == {"second_place": 2, "first_place": 5}
    assert jan.juice == [3, 2] and jan.assistants == 12


def test_tourist_goes_to_the_space_its_family_chooses_after_the_rewards() -> None:
    g = assign_game(4)
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, JAN, "tourist", space(1, 1, "tr"))
    put(g, MARIE, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))  # Sarah 2, Jan 1, Marie 1: tied 2nd
    g.apply(Choose(JAN, "gold"))
    g.apply(Choose(MARIE, "gold"))
    g.apply(Choose(SARAH, "down"))
    g.apply(Answer("overflow.market_tile", 2))
    assert g.pending is not None and g.pending["player"] == JAN  # Jan's tourist goes to row 2, column 1
    g.apply(Choose(JAN, list(space(2, 1, "tl"))))
    assert g.s.spaces[idx(space(2, 1, "tl"))] == [JAN, "assistant"] and g.count(stall(2, 1)) == 3


def test_two_stalls_filled_by_cousins_score_in_the_order_they_filled() -> None:
    g = assign_game(4, ONE)
    put(g, SARAH, "assistant", space(2, 2, "tl"))
    put(g, SARAH, "assistant", space(2, 2, "tr"))
    put(g, JAN, "assistant", space(2, 2, "bl"))
    put(g, MARIE, "assistant", space(2, 3, "tl"))
    put(g, MARIE, "assistant", space(2, 3, "tr"))
    put(g, LUKAS, "assistant", space(2, 3, "br"))
    give(g, SARAH, orange=1, green=1, white=1)  # row 2 orange x column 2 green, + any
    g.apply(Place(SARAH, "cousins", space(2, 2, "br"), "white", space(2, 3, "bl")))
    assert g.s.tiles[stall(2, 2)] == SARAH and g.s.tiles[stall(2, 3)] is None
    assert g.s.to_close == [stall(2, 3)] and g.pending is not None and g.pending["player"] == SARAH
    g.apply(Choose(SARAH, "up"))
    assert g.s.tiles[stall(2, 3)] == MARIE
    assert g.players[LUKAS].breakdown == {"second_place": 1}


# --- round end and the end of the game (MOR:L169-189) ---------------------------------------------

def test_round_end_keeps_one_cube_passes_the_start_marker_and_returns_the_pawn() -> None:
    g = new_game(3)
    to_assign(g)
    for seat in (SARAH, JAN, MARIE):
        give(g, seat)
    g.s.turn = 6  # every player had two turns (none could place): the round ends
    g.players[SARAH].cubes.update(green=1, brown=1)
    g.s.placed_this_round = True
    g._run()
    assert g.pending is not None and g.pending["player"] == SARAH and g.pending["options"] == ["green", "brown"]
    g.apply(Choose(SARAH, "brown"))
    assert g.players[SARAH].cubes["brown"] == 1 and g.players[SARAH].cube_total() == 1
    assert g.round == 2 and g.s.start_player == JAN and g.s.pawn == 0 and g.phase == "roll" and g.to_move == JAN


def test_closing_to_five_open_stalls_triggers_the_final_round() -> None:
    g = assign_game(2, ONE)
    for i in range(19):  # 6 open stalls: rows 4-5 keep (4,5), (5,1)-(5,5)
        g.s.tiles[i] = "empty"
    put(g, SARAH, "assistant", space(5, 1, "tl"))
    put(g, SARAH, "assistant", space(5, 1, "tr"))
    put(g, JAN, "assistant", space(5, 1, "bl"))
    give(g, SARAH, white=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(5, 1, "br")))
    assert g.s.final_round and not g.finished and g.s.open_stalls() == 5 and g.to_move == JAN
    g.s.turn = 4  # the rest of the round is played out
    g._run()
    assert g.finished and g.s.end_reason == "the final round is over"


def test_closing_the_last_stall_ends_the_game_at_once() -> None:
    g = assign_game(2)
    g.s.tiles = [*["empty"] * 24, None]
    put(g, SARAH, "assistant", space(5, 5, "tl"))
    put(g, SARAH, "assistant", space(5, 5, "tr"))
    put(g, JAN, "assistant", space(5, 5, "bl"))
    give(g, SARAH, white=1, blue=1)
    g.apply(Place(SARAH, "assistant", space(5, 5, "br")))
    assert g.finished and g.phase == "finished" and g.s.end_reason == "the last stall was closed"
    assert g.players[SARAH].breakdown["largest_district"] == 3


def test_a_round_without_placements_ends_the_game_only_when_no_worker_is_left_to_play() -> None:
    g = assign_game(2)
    g._run()  # nobody holds cubes: both pass twice, but workers are left: the game goes on
    assert g.round == 2 and not g.finished and g.phase == "roll"
    g = assign_game(2)
    for p in g.players:
        p.assistants = p.tourists = 0
    g._run()
    assert g.finished and g.s.end_reason == "every worker is in the market and none can move"
    assert [p.passes for p in g.players] == [2, 2]


def test_final_scoring_juice_largest_district_and_gold() -> None:
    g = assign_game(2)
    for at in ((1, 1), (1, 2), (2, 2), (5, 5)):
        g.s.tiles[stall(*at)] = SARAH
    assert largest_district(g.s.tiles, SARAH) == 3
    g.players[SARAH].juice = [2, 3, 4]
    g.players[SARAH].gold = 2
    g.push({"k": "final", "reason": "test"})
    g._run()
    assert g.players[SARAH].breakdown == {"juice": 9, "largest_district": 9, "gold": 2}
    assert g.players[SARAH].score == 20


def test_a_tie_on_points_goes_to_the_most_claimed_stalls_then_is_shared() -> None:
    g = assign_game(3)
    for p in g.players:
        p.score = 30
    g.s.tiles[0:3] = [JAN, JAN, MARIE]
    assert g.winners() == [JAN]
    g.s.tiles[3] = MARIE
    assert g.winners() == [JAN, MARIE]


def test_scout_gives_the_mover_the_two_ring_neighbours() -> None:
    g = new_game(4)
    g.apply(Scout(SARAH, 1))  # neighbours of space 1: spaces 5 (white) and 2 (brown)
    assert g.players[SARAH].cubes["white"] == 1 and g.players[SARAH].cubes["brown"] == 1
    assert g.players[JAN].cubes["green"] == 1


def test_the_overflow_value_is_kept_in_the_profile_and_not_asked_again() -> None:
    g = assign_game(4)
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    g.apply(Choose(SARAH, "down"))
    g.apply(Answer("overflow.market_tile", 2))
    assert g.s.overflow[stall(2, 1)] == 1 and g.count(stall(2, 1)) == 2  # one arrow worth 2
    again = new_game(4, profile=g.profile)
    assert again.profile == {"overflow.market_tile": 2}


def test_a_real_table_enters_every_setup_draw() -> None:
    options = SetupOptions(players=("Sarah", "Jan"), start_player=1, table_draws=True,
                           draws={"rows": ROWS, "columns": COLUMNS, "rooftop": ROOFTOP, "juice": JUICE})
    g = Game.new(options)
    assert g.s.rows == ROWS and g.s.columns == COLUMNS and g.s.rooftop == ROOFTOP
    assert g.s.juice[:6] == JUICE[0] and g.to_move == JAN and g.phase == "roll"
