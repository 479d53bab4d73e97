"""Every worked example of the Morocco rulebook, played through the engine.

Citations: MOR:Lnnn = shared/rules/morocco-en.txt. The rulebook has three examples (MOR:L65,
L106-108, L112); the board pictures they refer to are set up with the draws in ``helpers``.
"""

from __future__ import annotations

from companion.games.morocco import Place, Scout, board
from tests.games.morocco.helpers import JAN, LUKAS, MARIE, SARAH, give, new_game, space, stall, to_assign


def test_scouting_green_player_moves_the_pawn_to_the_brown_cube() -> None:
    """MOR:L65: the pawn on the brown outer space gives the mover green + orange, everyone else brown."""
    g = new_game()  # rooftop spaces 1-5: green, brown, orange, blue, white (a ring)
    assert g.phase == "scout" and g.to_move == SARAH
    g.apply(Scout(SARAH, 2))  # Sarah plays green; space 2 holds the brown cube
    assert g.s.pawn == 2
    assert g.players[SARAH].cubes == {"green": 1, "orange": 1, "brown": 0, "blue": 0, "white": 0}
    for seat in (JAN, MARIE, LUKAS):
        assert g.players[seat].cubes == {"green": 0, "orange": 0, "brown": 1, "blue": 0, "white": 0}
    assert g.to_move == JAN  # clockwise (MOR:L57)


def test_cousins_second_assistant_goes_to_either_white_arrow_space() -> None:
    """MOR:L106-108: row cube + column cube + any one cube, a cousins token, then a free second assistant
    in one of the two spaces next to the first that lie in a different stall."""
    g = new_game()
    to_assign(g)
    target = stall(3, 3)  # row 3 brown, column 3 white: an inner stall, like the picture's
    assert g.cost(target) == ("brown", "white")
    give(g, SARAH, brown=1, white=1, blue=1)
    first = space(3, 3, "tl")
    cousin_moves = [a for a in g.legal_placements(SARAH) if a.worker == "cousins" and a.space == first]
    seconds = {a.second for a in cousin_moves}
    assert seconds == {space(2, 3, "bl"), space(3, 2, "tr")}  # the two white-arrow spaces
    assert all(a.second is not None and board.stall_of(a.second[0] * 10 + a.second[1]) != target
               for a in cousin_moves)
    sarah = g.players[SARAH]
    g.apply(Place(SARAH, "cousins", first, "blue", space(2, 3, "bl")))
    assert sarah.cubes == {c: 0 for c in board.CUBE_COLOURS}  # 3 cubes spent
    assert sarah.cousins == 1 and sarah.assistants == 10  # a token discarded, two assistants played
    assert g.s.spaces[first[0] * 10 + first[1]] == [SARAH, "assistant"]
    assert g.s.spaces[space(2, 3, "bl")[0] * 10 + space(2, 3, "bl")[1]] == [SARAH, "assistant"]


def test_assistant_costs_the_row_and_column_cubes() -> None:
    """MOR:L112: an assistant in the stall whose row cube is green and column cube brown costs one of each."""
    g = new_game()
    to_assign(g)
    assert g.cost(stall(1, 1)) == ("green", "brown")
    give(g, SARAH, green=2, brown=1, orange=1)
    g.apply(Place(SARAH, "assistant", space(1, 1, "br")))
    assert g.players[SARAH].cubes == {"green": 1, "orange": 1, "brown": 0, "blue": 0, "white": 0}
    assert g.players[SARAH].assistants == 11
