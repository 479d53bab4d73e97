"""One illegal action per rule: the error names the rule and the player, and the state is unchanged."""

from __future__ import annotations

import pytest

from companion.games.marrakesh import (
    Answer,
    Choose,
    Claim,
    Game,
    IllegalAnswer,
    IllegalAssistant,
    IllegalChoice,
    IllegalClaim,
    IllegalRelease,
    IllegalSelection,
    NotYourTurn,
    Release,
    RuleError,
    Select,
    UseAssistant,
    WrongPhase,
)
from companion.games.marrakesh.simulate import play_random_game
from tests.games.engine_helpers import rejected
from tests.games.marrakesh.helpers import JAN, LUKAS, MARIE, SARAH, new_game, select_all, to_assistants

# --- phase 1 -----------------------------------------------------------------------------------------

def test_select_exactly_three() -> None:
    rejected(new_game(), Select(SARAH, ("green", "gray")), IllegalSelection, "Sarah must select exactly 3")


def test_select_only_from_behind_the_screen() -> None:
    g = new_game()
    g.players[SARAH].screen["green"] = 0
    rejected(g, Select(SARAH, ("green", "gray", "white")), IllegalSelection, "Sarah has no green keshi")


def test_select_not_the_placeholder_colour() -> None:
    g = new_game()
    g.players[JAN].screen["pink"] = 0
    g.players[JAN].placeholders = ["pink"]
    rejected(g, Select(JAN, ("pink", "gray", "white")), IllegalSelection, "Jan has no pink", "placeholder")


def test_select_once_per_round() -> None:
    g = new_game()
    g.apply(Select(SARAH, ("green", "gray", "white")))
    rejected(g, Select(SARAH, ("black", "pink", "beige")), IllegalSelection, "Sarah has already selected")


def test_red_is_wild_but_needs_a_sector() -> None:
    rejected(new_game(), Select(MARIE, ("red", "gray", "white")), IllegalSelection,
             "Marie must name one sector per red keshi")


def test_one_assistant_per_space() -> None:
    rejected(new_game(), Select(LUKAS, ("red", "turquoise", "gray"), ("river",)), IllegalSelection,
             "Lukas cannot put 2 assistants in the river")


def test_unknown_wild_sector() -> None:
    rejected(new_game(), Select(LUKAS, ("red", "turquoise", "gray"), ("casino",)), IllegalSelection,
             "Lukas", "unknown sector 'casino'")


def test_souk_takes_three_assistants() -> None:
    g = new_game()
    g.apply(Select(SARAH, ("yellow", "orange", "purple")))
    assert g.players[SARAH].assistants == ["souk", "souk", "souk"]


# --- the tower ---------------------------------------------------------------------------------------

def test_a_release_of_pieces_not_believed_inside_is_booked_as_leftover() -> None:
    """The pieces are in the tray: the table's count wins over the engine's belief (issue 11)."""
    g = new_game()
    select_all(g, {SARAH: ("green", "gray", "white"), JAN: ("green", "gray", "black")})
    assert g.s.tower_inside["green"] == 2 and g.s.tower_inside["orange"] == 0
    supply = dict(g.s.supply)
    g.apply(Release({"green": 3, "orange": 1}))
    tower = g.to_dict()["tower"]
    assert tower["leftovers"]["green"] == 1 and tower["leftovers"]["orange"] == 1
    assert tower["display"]["green"] == 3 and tower["display"]["orange"] == 1
    assert tower["inside"]["green"] == 0 and tower["inside"]["orange"] == 0
    assert g.s.supply["green"] == supply["green"] - 1 and g.s.supply["orange"] == supply["orange"] - 1
    g.undo()
    assert g.to_dict()["tower"]["leftovers"]["green"] == 0 and g.s.supply == supply


def test_a_release_count_must_be_a_whole_number() -> None:
    g = new_game()
    select_all(g, {SARAH: ("green", "gray", "white"), JAN: ("green", "gray", "black")})
    rejected(g, Release({"green": -1}), IllegalRelease, "tower release must count", "'green'")


def test_release_only_after_the_toss() -> None:
    rejected(new_game(), Release({}), WrongPhase, "only after the toss")


# --- phase 2 -----------------------------------------------------------------------------------------

def claim_game(**display: int) -> Game:
    """All four select; the tower releases ``display`` (each player tossed what is needed)."""
    g = new_game()
    select_all(g, {SARAH: ("turquoise", "black", "pink"), JAN: ("turquoise", "black", "green"),
                   MARIE: ("green", "black", "white"), LUKAS: ("black", "gray", "white")})
    g.apply(Release(display))
    return g


def test_claim_in_turn_order() -> None:
    g = claim_game(turquoise=2)
    rejected(g, Claim(JAN, ("turquoise", "turquoise")), NotYourTurn, "not Jan's turn", "Sarah")


def test_no_claims_for_a_complete_sector() -> None:
    g = claim_game(black=2, turquoise=2, green=2, white=2, gray=1)
    g.players[LUKAS].markers["black"] = 8
    g.apply(Claim(SARAH, ("turquoise", "turquoise")))
    g.apply(Claim(JAN, ("green", "green")))
    g.apply(Claim(MARIE, ("white", "white")))
    assert g.to_move == LUKAS and g.legal_claims() == [Claim(LUKAS, ("gray",))]
    rejected(g, Claim(LUKAS, ("black", "black")), IllegalClaim,
             "Lukas's mosque is complete: Lukas may not claim black keshis")


def test_players_with_only_complete_colours_are_skipped() -> None:
    g = claim_game(black=2, gray=1)
    g.players[JAN].markers["gray"] = 8
    g.apply(Claim(SARAH, ("black", "black")))
    assert g.to_move == MARIE  # Jan can claim nothing: skipped (EN:L642-645)
    g.apply(Claim(MARIE, ("gray",)))
    assert g.phase == "assistants"


def test_take_two_when_two_are_there() -> None:
    rejected(claim_game(turquoise=2), Claim(SARAH, ("turquoise",)), IllegalClaim, "Sarah must take 2 turquoise")


def test_marker_on_seven_takes_only_one() -> None:
    g = claim_game(turquoise=2)
    g.players[SARAH].markers["turquoise"] = 7
    rejected(g, Claim(SARAH, ("turquoise", "turquoise")), IllegalClaim, "Sarah may take only 1 turquoise")
    g.apply(Claim(SARAH, ("turquoise",)))
    assert g.s.display["turquoise"] == 1


def test_one_colour_per_claim_without_scroll_61() -> None:
    rejected(claim_game(turquoise=1, black=1), Claim(SARAH, ("turquoise", "black")), IllegalClaim,
             "Sarah may claim keshis of a single colour only")


def test_claim_only_what_the_base_shows() -> None:
    rejected(claim_game(turquoise=2), Claim(SARAH, ("pink",)), IllegalClaim,
             "Sarah cannot claim 1 pink: the tower base shows 0")


def test_must_claim_at_least_one() -> None:
    g = claim_game(turquoise=2)
    rejected(g, Claim(SARAH, ()), IllegalClaim, "Sarah cannot claim nothing")
    assert all(isinstance(a, Claim) and a.colours for a in g.legal_actions())


def test_unclaimable_keshis_go_back_to_the_supply() -> None:
    """Digest A4: nobody may claim the rest -> it returns to the common supply."""
    g = new_game()
    select_all(g, {SARAH: ("turquoise", "black", "pink"), JAN: ("turquoise", "black", "green")})
    for p in g.players:
        p.markers["black"] = 8
    supply = g.s.supply["black"]
    g.apply(Release({"black": 2}))
    assert g.phase == "assistants" and g.s.supply["black"] == supply + 2 and g.s.returned_unclaimed["black"] == 2


# --- phase 3 -----------------------------------------------------------------------------------------

def assistants_game() -> Game:
    g = new_game()
    to_assistants(g, {SARAH: ("turquoise", "green", "gray")})
    return g


def test_use_only_deployed_assistants() -> None:
    rejected(assistants_game(), UseAssistant(SARAH, "palace", "keshi"), IllegalAssistant,
             "Sarah has no unused assistant in the palace")


def test_no_new_keshi_in_a_complete_sector() -> None:
    g = assistants_game()
    g.players[SARAH].markers["turquoise"] = 8
    rejected(g, UseAssistant(SARAH, "river", "keshi"), IllegalAssistant, "Sarah's river is complete")


def test_no_sector_action_without_effect() -> None:
    rejected(assistants_game(), UseAssistant(SARAH, "river", "action"), IllegalAssistant,
             "Sarah cannot perform the river action")


def test_forfeit_only_when_nothing_is_possible() -> None:
    g = assistants_game()
    rejected(g, UseAssistant(SARAH, "river", "forfeit"), IllegalAssistant, "Sarah may forfeit")
    g.players[SARAH].markers["gray"] = 8  # complete madrasa, and no scroll affordable (no dates)
    g.players[SARAH].resources["dates"] = 0
    g.apply(UseAssistant(SARAH, "madrasa", "forfeit"))
    assert "madrasa" not in g.players[SARAH].assistants


def test_assistant_mode_is_checked() -> None:
    rejected(assistants_game(), UseAssistant(SARAH, "river", "nap"), IllegalAssistant, "Sarah's assistant mode")


def test_assistants_in_turn_order() -> None:
    rejected(assistants_game(), UseAssistant(JAN, "river", "keshi"), NotYourTurn, "not Jan's turn")


# --- decisions and questions ------------------------------------------------------------------------

def pending_choice_game() -> Game:
    """Sarah's fisherman moved 3 plain spaces; she may now pay 0 or 1 water for extra steps."""
    g = new_game(profile={f"river.space.{i}": "plain" for i in range(1, 10)})
    to_assistants(g, {SARAH: ("turquoise", "green", "gray")})
    g.players[SARAH].markers["turquoise"] = 3
    g.apply(UseAssistant(SARAH, "river", "action"))
    assert g.pending is not None and g.pending["options"] == [0, 1]
    return g


def test_choose_one_of_the_options() -> None:
    rejected(pending_choice_game(), Choose(SARAH, 5), IllegalChoice, "Sarah chose 5", "options: [0, 1]")


def test_choose_only_your_own_decision() -> None:
    rejected(pending_choice_game(), Choose(JAN, 0), NotYourTurn, "not Jan's choice")


def test_answer_pending_decision_first() -> None:
    rejected(pending_choice_game(), UseAssistant(SARAH, "madrasa", "keshi"), WrongPhase, "Sarah must first answer")


def test_nothing_to_choose() -> None:
    rejected(new_game(), Choose(SARAH, 0), IllegalChoice, "Sarah has nothing to choose")


def question_game() -> Game:
    g = new_game()
    to_assistants(g, {SARAH: ("turquoise", "green", "gray")})
    g.players[SARAH].markers["turquoise"] = 1
    g.apply(UseAssistant(SARAH, "river", "action"))
    assert g.to_move == "table" and g.pending is not None and g.pending["key"] == "river.space.1"
    return g


def test_answer_the_open_question() -> None:
    rejected(question_game(), Answer("river.space.2", "plain"), IllegalAnswer, "'river.space.1'")


def test_answer_with_an_option() -> None:
    rejected(question_game(), Answer("river.space.1", "waterfall"), IllegalAnswer,
             "waterfall is not a possible answer to 'What is river space 1")


def test_no_question_open() -> None:
    rejected(new_game(), Answer("river.space.1", "plain"), IllegalAnswer, "no open question")


def test_answer_is_remembered_in_the_profile() -> None:
    g = question_game()
    g.apply(Answer("river.space.1", "rapid:3_points"))
    assert g.profile["river.space.1"] == "rapid:3_points" and g.players[SARAH].fisherman == 1


# --- game level ----------------------------------------------------------------------------------------

def test_undo_at_the_start() -> None:
    g = new_game()
    with pytest.raises(RuleError, match="nothing to undo"):
        g.undo()


def test_no_actions_after_the_end() -> None:
    g = play_random_game(2, 3)
    assert g.finished
    rejected(g, Release({}), WrongPhase, "the game is over")


def test_a_choice_is_kept_while_the_table_answers_a_question() -> None:
    """Building a gate: the player picks the space, then the table is asked the space's printed colour;
    the player's pick is not asked again."""
    g = new_game(profile={"workshop.1.price": 1, "workshop.1.points": 1, "workshop.2.price": 2,
                          "workshop.2.points": 4})
    to_assistants(g, {SARAH: ("beige", "gray", "green")})
    g.players[SARAH].watchtower = 1
    g.apply(UseAssistant(SARAH, "medina", "action"))
    gate = next(o for o in g.pending["options"] if o.startswith("gate:0:"))  # type: ignore[index]
    g.apply(Choose(SARAH, gate))
    g.apply(Choose(SARAH, 4))
    assert g.pending is not None and g.pending["key"] == "gate_space.4"
    g.apply(Answer("gate_space.4", gate.split(":")[2]))
    assert g.players[SARAH].gates == [{"space": 4, "colour": gate.split(":")[2]}]
    assert g.players[SARAH].breakdown["gates"] == -3 + 2
