"""One illegal action per rule: refused with an error naming the rule and the player; nothing changes."""

from __future__ import annotations

from companion.games.marrakesh import RuleError as MarrakeshRuleError
from companion.games.morocco import (
    Answer,
    Choose,
    EndTurn,
    Game,
    IllegalAnswer,
    IllegalChoice,
    IllegalEndTurn,
    IllegalPass,
    IllegalPlacement,
    IllegalRoll,
    IllegalScout,
    IllegalSwap,
    NotYourTurn,
    Pass,
    Place,
    Roll,
    Scout,
    Swap,
    WrongPhase,
)
from companion.games.morocco.simulate import play_random_game
from tests.games.engine_helpers import rejected
from tests.games.morocco.helpers import JAN, MARIE, SARAH, give, new_game, put, space, to_assign


def idx(at: tuple[int, int]) -> int:
    return at[0] * 10 + at[1]


def assign_game(players: int = 4) -> Game:
    g = new_game(players, profile={"overflow.market_tile": 1})
    to_assign(g)
    for seat in range(players):
        give(g, seat)
    return g


# --- market die (MOR:L67-71) ----------------------------------------------------------------------------

def test_roll_only_a_face_of_the_market_die() -> None:
    rejected(new_game(3), Roll(SARAH, "purple"), IllegalRoll, "Sarah", "cannot show 'purple'")


def test_roll_by_the_first_player_with_three_players() -> None:
    rejected(new_game(3), Roll(JAN, "green"), NotYourTurn, "not Jan's turn to roll", "Sarah must act")


def test_no_market_die_with_four_players() -> None:
    rejected(new_game(4), Roll(SARAH, "green"), WrongPhase, "Sarah cannot roll the market die now")


# --- scout stalls (MOR:L55-61) --------------------------------------------------------------------------

def test_the_pawn_must_move() -> None:
    g = new_game(4)
    g.apply(Scout(SARAH, 3))
    rejected(g, Scout(JAN, 3), IllegalScout, "Jan must move the pawn to another rooftop space", "MOR:L59")


def test_the_pawn_moves_to_an_outer_space() -> None:
    rejected(new_game(4), Scout(SARAH, 0), IllegalScout, "Sarah must move the pawn to one of the outer")


def test_scouting_in_turn_order() -> None:
    rejected(new_game(4), Scout(MARIE, 2), NotYourTurn, "not Marie's turn", "Sarah must act")


# --- assign workers (MOR:L75-102) ----------------------------------------------------------------------------

def test_no_worker_placement_while_scouting() -> None:
    rejected(new_game(4), Place(SARAH, "assistant", (0, 0)), WrongPhase, "Sarah cannot place a worker now")


def test_place_only_on_your_turn() -> None:
    g = assign_game()
    give(g, JAN, green=1, brown=1)
    rejected(g, Place(JAN, "assistant", space(1, 1, "tl")), NotYourTurn, "not Jan's turn")


def test_assistant_needs_the_row_and_column_cubes() -> None:
    g = assign_game()
    give(g, SARAH, green=1, orange=1)
    rejected(g, Place(SARAH, "assistant", space(1, 1, "tl")), IllegalPlacement,
             "Sarah cannot pay for an assistant in the stall in row 1, column 1", "1 green (row 1) + 1 brown "
             "(column 1)", "needs 1 more brown")


def test_tourist_needs_a_third_cube() -> None:
    g = assign_game()
    give(g, SARAH, green=1, brown=1)
    rejected(g, Place(SARAH, "tourist", space(1, 1, "tl"), "brown"), IllegalPlacement, "Sarah", "needs 1 more brown")


def test_tourist_names_its_additional_cube() -> None:
    g = assign_game()
    give(g, SARAH, green=2, brown=1)
    rejected(g, Place(SARAH, "tourist", space(1, 1, "tl")), IllegalPlacement,
             "Sarah must name the colour of the additional cube")


def test_assistant_costs_no_additional_cube() -> None:
    g = assign_game()
    give(g, SARAH, green=2, brown=1)
    rejected(g, Place(SARAH, "assistant", space(1, 1, "tl"), "green"), IllegalPlacement, "Sarah pays no additional")


def test_bodyguard_only_once_won_from_the_quarters() -> None:
    g = assign_game()
    give(g, SARAH, green=1, brown=1)
    rejected(g, Place(SARAH, "bodyguard", space(1, 1, "tl")), IllegalPlacement, "Sarah has no bodyguard left")


def test_tourists_run_out() -> None:
    g = assign_game()
    g.players[SARAH].tourists = 0
    give(g, SARAH, green=2, brown=1)
    rejected(g, Place(SARAH, "tourist", space(1, 1, "tl"), "green"), IllegalPlacement, "Sarah has no tourist left")


def test_an_open_space_only() -> None:
    g = assign_game()
    put(g, JAN, "assistant", space(1, 1, "tl"))
    give(g, SARAH, green=1, brown=1)
    rejected(g, Place(SARAH, "assistant", space(1, 1, "tl")), IllegalPlacement,
             "top-left space of the stall in row 1, column 1 is taken by Jan's assistant", "Sarah must choose")


def test_not_in_a_closed_stall() -> None:
    g = assign_game()
    g.s.tiles[0] = JAN
    give(g, SARAH, green=1, brown=1)
    rejected(g, Place(SARAH, "assistant", space(1, 1, "tl")), IllegalPlacement,
             "the stall in row 1, column 1 is closed: Sarah cannot")


def test_a_space_on_the_market() -> None:
    g = assign_game()
    rejected(g, Place(SARAH, "assistant", (10, 2)), IllegalPlacement, "Sarah named no market space")


def test_cousins_needs_a_token() -> None:
    g = assign_game()
    g.players[SARAH].cousins = 0
    give(g, SARAH, green=1, brown=1, blue=1)
    rejected(g, Place(SARAH, "cousins", space(1, 1, "br"), "blue", space(1, 2, "bl")), IllegalPlacement,
             "Sarah has no cousins left")


def test_cousins_second_assistant_next_to_the_first() -> None:
    g = assign_game()
    give(g, SARAH, green=1, brown=1, blue=1)
    rejected(g, Place(SARAH, "cousins", space(1, 1, "br"), "blue", space(1, 3, "bl")), IllegalPlacement,
             "Sarah's second cousin must go next to the first, in a different stall")


def test_cousins_second_assistant_in_a_different_stall() -> None:
    g = assign_game()
    give(g, SARAH, green=1, brown=1, blue=1)
    rejected(g, Place(SARAH, "cousins", space(1, 1, "br"), "blue", space(1, 1, "bl")), IllegalPlacement,
             "in a different stall (MOR:L100)")


def test_cousins_second_assistant_on_an_open_space() -> None:
    g = assign_game()
    put(g, MARIE, "assistant", space(1, 2, "bl"))
    give(g, SARAH, green=1, brown=1, blue=1)
    rejected(g, Place(SARAH, "cousins", space(1, 1, "br"), "blue", space(1, 2, "bl")), IllegalPlacement,
             "taken by Marie's assistant")


def test_one_worker_per_turn() -> None:
    g = assign_game()
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    give(g, SARAH, green=2, brown=2)
    g.apply(Place(SARAH, "assistant", space(1, 1, "tl")))
    rejected(g, Place(SARAH, "assistant", space(1, 1, "tr")), IllegalPlacement, "Sarah has already placed")


def test_no_pass_when_able_to_place() -> None:
    g = assign_game()
    give(g, SARAH, green=1, brown=1)
    rejected(g, Pass(SARAH), IllegalPass, "Sarah is able to place a worker and must place one")


# --- gold coins (MOR:L155-165) ----------------------------------------------------------------------------

def test_swap_costs_a_gold_coin() -> None:
    rejected(assign_game(), Swap(SARAH, ("row1", "row2")), IllegalSwap, "Sarah has no gold coin")


def test_no_swap_between_a_row_and_a_column() -> None:
    g = assign_game()
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    rejected(g, Swap(SARAH, ("row1", "column2")), IllegalSwap, "Sarah may not swap a cube from a row to a column")


def test_swap_two_different_lines() -> None:
    g = assign_game()
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    rejected(g, Swap(SARAH, ("row3", "row3")), IllegalSwap, "Sarah must swap two different rows")


def test_swap_named_lines_only() -> None:
    g = assign_game()
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    rejected(g, Swap(SARAH, ("row1", "row6")), IllegalSwap, "Sarah named 'row6'")


def test_gold_only_during_assign_workers() -> None:
    g = new_game(4)
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    rejected(g, Swap(SARAH, ("row1", "row2")), WrongPhase, "Sarah cannot spend a gold coin now")


def test_end_turn_only_after_placing() -> None:
    g = assign_game()
    g.players[SARAH].gold, g.s.gold_supply = 1, 14
    rejected(g, EndTurn(SARAH), IllegalEndTurn, "Sarah must place a worker")


# --- decisions and questions ---------------------------------------------------------------------------

def test_choose_one_of_the_options() -> None:
    g = new_game(3)
    g.apply(Roll(SARAH, "wild"))
    rejected(g, Choose(SARAH, "purple"), IllegalChoice, "Sarah chose 'purple', which is not an option")


def test_choose_only_your_own_decision() -> None:
    g = new_game(3)
    g.apply(Roll(SARAH, "wild"))
    rejected(g, Choose(JAN, "green"), NotYourTurn, "not Jan's choice", "Sarah must answer")


def test_no_action_while_a_decision_is_open() -> None:
    g = new_game(3)
    g.apply(Roll(SARAH, "wild"))
    rejected(g, Scout(SARAH, 1), WrongPhase, "Sarah must first answer")


def test_answer_the_open_question_only() -> None:
    rejected(new_game(4), Answer("overflow.market_tile", 1), IllegalAnswer, "no open question")


def test_answer_with_a_possible_value() -> None:
    g = new_game(4)
    to_assign(g)
    put(g, SARAH, "assistant", space(1, 1, "tl"))
    put(g, SARAH, "assistant", space(1, 1, "tr"))
    put(g, JAN, "assistant", space(1, 1, "bl"))
    give(g, SARAH, green=1, brown=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    g.apply(Choose(SARAH, "right"))
    rejected(g, Answer("overflow.market_tile", 7), IllegalAnswer, "7 is not a possible answer")
    rejected(g, Answer("overflow.other", 1), IllegalAnswer, "the open question is about 'overflow.market_tile'")


def test_nothing_after_the_end() -> None:
    g = play_random_game(2, 3)
    rejected(g, Pass(SARAH), WrongPhase, "the game is over")


def test_errors_are_rule_errors_of_the_whole_product() -> None:
    g = new_game(4)
    rejected(g, Scout(SARAH, 9), MarrakeshRuleError, "Sarah")


# --- choices bound by a rule ---------------------------------------------------------------------------

def closing_position(game: Game) -> None:
    """Sarah's assistant fills the stall in row 1, column 1: Sarah 3 (1st), Jan 1 (2nd)."""
    put(game, SARAH, "assistant", space(1, 1, "tl"))
    put(game, SARAH, "assistant", space(1, 1, "tr"))
    put(game, JAN, "tourist", space(1, 1, "bl"))
    give(game, SARAH, green=1, brown=1)
    game.apply(Place(SARAH, "assistant", space(1, 1, "br")))


def test_overflow_arrow_not_at_a_closed_stall_while_an_open_one_is_adjacent() -> None:
    g = assign_game()
    g.s.tiles[1] = MARIE  # row 1, column 2 is closed; the other neighbours of row 2, column 2 are open
    put(g, SARAH, "assistant", space(2, 2, "tl"))
    put(g, SARAH, "assistant", space(2, 2, "tr"))
    give(g, SARAH, orange=1, green=1)
    g.s.spaces[idx(space(2, 2, "bl"))] = [JAN, "assistant"]
    g.players[JAN].assistants -= 1
    g.apply(Place(SARAH, "assistant", space(2, 2, "br")))
    rejected(g, Choose(SARAH, "up"), IllegalChoice, "Sarah chose 'up'", "options: ['down', 'left', 'right']")


def test_overflow_arrow_stays_on_the_board() -> None:
    g = assign_game()
    closing_position(g)
    rejected(g, Choose(SARAH, "up"), IllegalChoice, "Sarah chose 'up', which is not an option")


def test_tourist_moves_only_into_the_stall_the_arrow_points_at() -> None:
    g = assign_game()
    closing_position(g)
    g.apply(Choose(SARAH, "right"))
    rejected(g, Choose(JAN, list(space(2, 1, "tl"))), IllegalChoice, "Jan chose [2, 0]")


def test_store_a_cube_of_a_colour_you_hold() -> None:
    g = new_game(3)
    to_assign(g)
    for seat in (SARAH, JAN, MARIE):
        give(g, seat)
    give(g, SARAH, green=1, brown=2)
    g.s.turn, g.s.placed_this_round = 6, True
    g._run()
    rejected(g, Choose(SARAH, "white"), IllegalChoice, "Sarah chose 'white'", "options: ['green', 'brown']")
