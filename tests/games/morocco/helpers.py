"""Scenario helpers for Morocco tests: a table of Sarah, Jan, Marie, Lukas (and Amal), fixed draws.

Tests set a board position on the state directly (cubes, workers already in stalls), as the
Marrakesh rules tests do, then play the rulebook's actions through ``apply``.
"""

from __future__ import annotations

from typing import Any

from companion.games.morocco import Game, Roll, Scout, SetupOptions, board

SARAH, JAN, MARIE, LUKAS, AMAL = 0, 1, 2, 3, 4
NAMES = ("Sarah", "Jan", "Marie", "Lukas", "Amal")
ROWS = ["green", "orange", "brown", "blue", "white"]
COLUMNS = ["brown", "green", "white", "orange", "blue"]
ROOFTOP = ["green", "brown", "orange", "blue", "white"]
JUICE = [[2 + (r + c) % 3 for c in range(6)] for r in range(6)]
"""Token values 2, 3, 4 along the diagonals: corner (r, c) holds 2 + (r + c) % 3."""


def new_game(players: int = 4, profile: dict[str, Any] | None = None, **draws: Any) -> Game:
    """A game with Sarah as start player and the fixed draws above (overridable)."""
    chosen = {"rows": ROWS, "columns": COLUMNS, "rooftop": ROOFTOP, "juice": JUICE} | draws
    return Game.new(SetupOptions(players=NAMES[:players], seed=1, start_player=0, draws=chosen,
                                 profile=profile or {}))


def stall(row: int, column: int) -> int:
    """Stall index from a row and column counted from 1, as the rulebook and people count."""
    return (row - 1) * board.SIZE + column - 1


def space(row: int, column: int, corner: str) -> tuple[int, int]:
    """``(y, x)`` of a stall's ``corner`` space (``"tl"``, ``"tr"``, ``"bl"``, ``"br"``)."""
    dy, dx = {"tl": (0, 0), "tr": (0, 1), "bl": (1, 0), "br": (1, 1)}[corner]
    return 2 * (row - 1) + dy, 2 * (column - 1) + dx


def to_assign(game: Game, face: str = "green") -> None:
    """Roll (2-3 players) and scout round-robin over rooftop spaces 1, 2, 3...: the Assign Workers phase."""
    while game.phase == "roll":
        seat = game.to_move
        assert isinstance(seat, int)
        game.apply(Roll(seat, face))
    target = 1
    while game.phase == "scout":
        seat = game.to_move
        assert isinstance(seat, int)
        if target == game.s.pawn:
            target = target % 5 + 1
        game.apply(Scout(seat, target))
        target = target % 5 + 1
    assert game.phase == "assign" and game.pending is None, (game.phase, game.pending)


def give(game: Game, seat: int, **cubes: int) -> None:
    """Set ``seat``'s information cubes to exactly ``cubes``."""
    game.s.players[seat].cubes = {c: cubes.get(c, 0) for c in board.CUBE_COLOURS}


def put(game: Game, seat: int, worker: str, at: tuple[int, int]) -> None:
    """Put a worker of ``seat`` on a market space, taking it from that player's supply."""
    p = game.s.players[seat]
    game.s.spaces[at[0] * board.SPACES_PER_SIDE + at[1]] = [seat, worker]
    if worker == "assistant":
        p.assistants -= 1
    elif worker == "bodyguard":
        if p.bodyguards == 0:  # straight from the guards' quarters
            p.quarters -= 1
            p.bodyguards += 1
        p.bodyguards -= 1
    else:
        p.tourists -= 1

