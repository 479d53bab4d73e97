"""One illegal action per rule: the error names the rule and the player, and the state is unchanged."""

from __future__ import annotations

import pytest

from companion.games.sabika import (
    ActionFormatError,
    Answer,
    Choose,
    Game,
    IllegalAnswer,
    IllegalChoice,
    IllegalWork,
    LogError,
    NotYourTurn,
    Rest,
    RuleError,
    SetupError,
    SetupOptions,
    Work,
    action_from_dict,
)
from companion.games.sabika.log import read_log, write_log
from tests.games.engine_helpers import rejected
from tests.games.sabika.helpers import BASE_PROFILE, BLUE, NAMES, PINK, YELLOW, answer_questions, choose, give, new_game


def test_turn_order() -> None:
    rejected(new_game(2), Work(YELLOW, "poet", 3), NotYourTurn, "turn order", "Blue's turn", "not Yellow's")


def test_no_such_player() -> None:
    rejected(new_game(2), Rest(5, "poet"), NotYourTurn, "no player 5")


def test_lying_worker_cannot_be_chosen() -> None:
    g = new_game(2)
    g.players[BLUE].workers["poet"].active = False
    rejected(g, Work(BLUE, "poet", 3), IllegalWork, "active Workers", "Blue's Poet is lying down")
    rejected(g, Rest(BLUE, "poet"), IllegalWork, "Blue's Poet is lying down")


def test_unknown_worker() -> None:
    rejected(new_game(2), Work(BLUE, "vizier", 1), IllegalWork, "Blue has no Worker called 'vizier'")


def test_square_must_exist_on_the_workers_rondel() -> None:
    rejected(new_game(2), Work(BLUE, "poet", 9), IllegalWork, "Rondel squares", "no usable square 9", "Blue's Poet")


def test_cancelled_square_in_three_player_games() -> None:
    g = new_game(3, profile={"rondel.large.inner.4.four_only": "yes"})
    rejected(g, Work(BLUE, "poet", 4), IllegalWork, "no usable square 4")


def test_worker_must_move() -> None:
    g = new_game(2)
    g.players[BLUE].workers["poet"].at = 3
    rejected(g, Work(BLUE, "poet", 3), IllegalWork, "movement (L457-458)", "Blue's Poet must move")


def test_master_builders_never_share_a_square() -> None:
    g = new_game(2)
    g.players[BLUE].workers["builder2"].at = 4
    rejected(g, Work(BLUE, "builder1", 4), IllegalWork, "Master Builders", "Blue's 2 Master Builders")


def test_movement_must_be_affordable() -> None:
    g = new_game(2)
    p = g.players[BLUE]
    p.workers["poet"].at = 1
    p.dinars = 1
    rejected(g, Work(BLUE, "poet", 6), IllegalWork, "movement costs", "needs 3 Dinars", "Blue has 1")


def test_other_workers_cost_a_dinar_each() -> None:
    g = new_game(2)
    g.players[YELLOW].workers["poet"].at = 3
    g.players[BLUE].dinars = 0
    rejected(g, Work(BLUE, "poet", 3), IllegalWork, "movement costs", "needs 1 Dinars")


def test_destination_must_offer_an_action() -> None:
    g = new_game(2)
    g.players[BLUE].dinars = 0  # the Marble Secondary Action on inner square 2 costs the Poet 1 Dinar
    rejected(g, Work(BLUE, "poet", 2), IllegalWork, "at least one action", "Blue could carry out neither",
             "Reactivate")


def test_construction_needs_materials() -> None:
    g = new_game(2)
    g.s.raw_spots = [None, None]
    g.players[BLUE].dinars = 0
    rejected(g, Work(BLUE, "builder1", 5), IllegalWork, "at least one action", "Construction")


def test_export_needs_a_good() -> None:
    g = new_game(2)
    g.s.raw_spots = [None, None]
    rejected(g, Work(BLUE, "merchant", 4), IllegalWork, "at least one action", "Export")


def test_choice_must_be_an_option() -> None:
    g = new_game(2)
    give(g, BLUE, wood=1)
    g.apply(Work(BLUE, "builder1", 4))
    rejected(g, Choose(BLUE, "sell 1 Wood for 9"), IllegalChoice, "Blue", "not an option")


def test_choice_by_the_deciding_player_only() -> None:
    g = new_game(2)
    give(g, BLUE, wood=1)
    g.apply(Work(BLUE, "builder1", 4))
    rejected(g, Choose(YELLOW, "no more transactions"), NotYourTurn, "Blue must decide", "not Yellow")


def test_no_work_while_a_decision_waits() -> None:
    g = new_game(2)
    give(g, BLUE, wood=1)
    g.apply(Work(BLUE, "builder1", 4))
    rejected(g, Rest(BLUE, "poet"), NotYourTurn, "Blue may not rest a Worker now", "must first answer")


def test_choose_without_a_decision() -> None:
    rejected(new_game(2), Choose(BLUE, "x"), IllegalChoice, "no decision waiting for Blue")


def test_answer_must_be_an_option() -> None:
    g = Game.new(SetupOptions(players=NAMES[:2], seed=1))
    rejected(g, Answer("rondel.small.outer.size", 99), IllegalAnswer, "does not answer")
    rejected(g, Answer("tribute.2", 3), IllegalAnswer, "must answer 'rondel.small.outer.size' first")


def test_multi_answer_needs_the_exact_count() -> None:
    g = Game.new(SetupOptions(players=NAMES[:2], seed=1, profile={
        k: v for k, v in new_game(2).profile.items() if k != "major.II.two_player_removed"}))
    assert g.pending is not None and g.pending["key"] == "major.II.two_player_removed"
    listed = list(g.legal_actions())
    assert listed and all(isinstance(a, Answer) and len(a.value) == 3 for a in listed)
    rejected(g, Answer("major.II.two_player_removed", [1, 2]), IllegalAnswer, "a list of 3 distinct options")
    rejected(g, Answer("major.II.two_player_removed", [1, 1, 2]), IllegalAnswer, "a list of 3")


def test_answer_without_a_question() -> None:
    rejected(new_game(2), Answer("tribute.2", 1), IllegalAnswer, "no question")


def test_nothing_after_the_end() -> None:
    from companion.games.sabika.simulate import play_random_game

    g = play_random_game(2, 5)
    assert g.finished
    rejected(g, Rest(BLUE, "poet"), NotYourTurn, "not the Actions Phase")


def test_undo_at_the_start() -> None:
    g = Game.new(SetupOptions(players=NAMES[:2], seed=1))
    with pytest.raises(RuleError, match="nothing to undo"):
        g.undo()


def test_undo_takes_back_exactly_one_action() -> None:
    g = new_game(2)
    before = g.to_dict()
    g.apply(Work(BLUE, "builder1", 4))
    middle = g.to_dict()
    choose(g, "buy 1 Gypsum")
    g.undo()
    assert g.to_dict() == middle
    g.undo()
    assert g.to_dict() == before


@pytest.mark.parametrize(("players", "fragment"), [(("A",), "2 to 4 players"), (("A", "A"), "distinct"),
                                                   (("A", "B", "C", "D", "E"), "not 5")])
def test_setup_player_count_and_names(players: tuple[str, ...], fragment: str) -> None:
    with pytest.raises(SetupError, match=fragment):
        Game.new(SetupOptions(players=players))


def test_setup_draws_are_checked() -> None:
    with pytest.raises(SetupError, match="one each of A, B and C"):
        Game.new(SetupOptions(players=("A", "B"), draws={"wish_tiles": ["A1", "A2", "C1"]}))
    with pytest.raises(SetupError, match="different letters"):
        Game.new(SetupOptions(players=("A", "B"), draws={"major_poems": ["A1", "A2", "B1", "C1"]}))
    with pytest.raises(SetupError, match="unknown setup draw"):
        Game.new(SetupOptions(players=("A", "B"), draws={"dice": [1]}))


def test_advanced_mode_needs_three_known_events() -> None:
    with pytest.raises(SetupError, match="3 different Event Tiles numbered 1-14"):
        Game.new(SetupOptions(players=("A", "B"), events=(1, 1, 15)))


def test_table_draws_need_the_face_up_components_entered() -> None:
    with pytest.raises(SetupError, match="table draws: enter the setup draw"):
        Game.new(SetupOptions(players=("A", "B"), table_draws=True, draws={"trade_card": 3}))


def test_draw_answer_must_be_an_option() -> None:
    from companion.games.sabika.simulate import table_setup

    g = Game.new(SetupOptions(players=NAMES[:2], seed=4, table_draws=True, draws=table_setup(2, 4),
                              profile={**BASE_PROFILE, "bag.tokens_per_type": 5}))
    answer_questions(g)  # the face-up components' printed values first
    assert g.pending is not None and g.pending["kind"] == "draw" and g.pending["key"] == "draw.raw"
    rejected(g, Answer("draw.raw", "Gold"), IllegalAnswer, "does not answer")
    g.apply(Answer("draw.raw", "Silk"))
    assert g.s.raw_spots[0] == "silk" and g.s.bag["silk"] == 4 and "draw.raw" not in g.profile


def test_action_format_errors() -> None:
    with pytest.raises(ActionFormatError, match="unknown action type"):
        action_from_dict({"type": "fly"})
    with pytest.raises(ActionFormatError, match="lacks the field 'square'"):
        action_from_dict({"type": "work", "player": 0, "worker": "poet"})
    with pytest.raises(ActionFormatError, match="must be an integer"):
        action_from_dict({"type": "work", "player": "0", "worker": "poet", "square": 1})


def test_damaged_log_names_source_and_line() -> None:
    g = new_game(2)
    g.apply(Rest(BLUE, "poet"))
    lines = write_log(g).splitlines()
    lines[5] = "{not json"
    with pytest.raises(LogError, match=r"game\.jsonl:6: not valid JSON"):
        read_log("\n".join(lines), "game.jsonl")
    lines = write_log(g).splitlines()
    lines[-1] = '{"type": "rest", "player": 1, "worker": "poet"}'
    with pytest.raises(LogError, match=rf"game\.jsonl:{len(lines)}: turn order"):
        read_log("\n".join(lines), "game.jsonl")
    with pytest.raises(LogError, match="game.jsonl:1: not a keshi-game-log header"):
        read_log('{"format": "x"}\n', "game.jsonl")
    with pytest.raises(LogError, match="empty game log"):
        read_log("", "game.jsonl")


def test_three_player_seat_check() -> None:
    g = new_game(3, start=PINK)
    rejected(g, Rest(BLUE, "poet"), NotYourTurn, "Pink's turn")


# --- rules inside an action: the refused option is not among the decision's options ------------------------

def test_no_second_export_to_a_city_with_presence_L714() -> None:
    g = new_game(2)
    g.players[BLUE].ships = {1: "left"}
    give(g, BLUE, dinars=9, sugar=1)
    g.apply(Work(BLUE, "merchant", 1))
    choose(g, "Export Action")
    rejected(g, Choose(BLUE, "City 1"), IllegalChoice, "Blue", "'City 1' is not an option")


def test_no_material_twice_on_a_scaffold_L611() -> None:
    g = new_game(2)
    give(g, BLUE, gypsum=1, marble=2)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Major Construction")
    choose(g, "Era I Major Construction Tile 1")
    rejected(g, Choose(BLUE, "Gypsum + Marble + Marble"), IllegalChoice, "not an option")


def test_major_construction_of_the_current_era_only_L594() -> None:
    g = new_game(2)
    give(g, BLUE, gypsum=1)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "Major Construction")
    rejected(g, Choose(BLUE, "Era II Major Construction Tile 1"), IllegalChoice, "not an option")


def test_trade_only_with_the_next_material_L561() -> None:
    g = new_game(2)
    give(g, BLUE, gypsum=1)
    g.apply(Work(BLUE, "builder1", 4))
    rejected(g, Choose(BLUE, "trade 1 Gypsum for 1 Marble"), IllegalChoice, "not an option")


def test_minor_cards_refreshed_once_per_turn_L585() -> None:
    g = new_game(2, profile={f"minor_card.{c}.base": "gypsum" for c in range(1, 25)})
    give(g, BLUE, dinars=5, gypsum=1)
    g.apply(Work(BLUE, "builder1", 5))
    choose(g, "Construction Action")
    choose(g, "pay 1 Dinar")
    answer_questions(g)  # the 4 new Cards' printed values
    rejected(g, Choose(BLUE, "pay 1 Dinar to replace the 4 Minor Construction Cards"), IllegalChoice, "not an option")


def test_storehouse_expanded_at_most_twice_L527() -> None:
    g = new_game(2, profile={"storehouse.98.boxes": 1, "storehouse.99.boxes": 1})
    g.players[BLUE].storehouses[0] = [98, 99]
    tile = g.s.store_display[0][0]
    g.apply(Work(BLUE, "builder1", 3))
    rejected(g, Choose(BLUE, f"Storehouse Tile {tile} on Storehouse 1"), IllegalChoice, "not an option")


def test_at_most_two_major_poems_L817() -> None:
    g = new_game(2)
    p = g.players[BLUE]
    p.grey_poems = ["H1", "H2"]
    give(g, BLUE, dinars=20, gypsum=1)
    g.apply(Work(BLUE, "poet", 1))
    poem = next(m for m in g.s.major_poems if m)
    rejected(g, Choose(BLUE, f"grey Major Poem {poem}"), IllegalChoice, "not an option")


def test_poem_needs_a_base_material_L820() -> None:
    g = new_game(2)
    give(g, BLUE, dinars=20, glazed=2)
    rejected(g, Work(BLUE, "poet", 1), IllegalWork, "at least one action", "Carve Poem")
