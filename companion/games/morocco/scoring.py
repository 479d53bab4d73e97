"""Final scoring and the winner (MOR:L183-189)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.morocco import board

if TYPE_CHECKING:
    from companion.games.morocco.state import GameState


def largest_district(tiles: list[int | str | None], seat: int) -> int:
    """Market tiles in ``seat``'s largest group of orthogonally connected claimed stalls (MOR:L186)."""
    own = {i for i, owner in enumerate(tiles) if owner == seat}
    best = 0
    while own:
        group, todo = 0, [own.pop()]
        while todo:
            stall = todo.pop()
            group += 1
            for neighbour in board.stall_neighbours(stall).values():
                if neighbour in own:
                    own.remove(neighbour)
                    todo.append(neighbour)
        best = max(best, group)
    return best


def final_scoring(s: GameState) -> None:
    """Juice seller tokens, 3 VP per tile of the largest market district, 1 VP per gold coin."""
    for seat, p in enumerate(s.players):
        p.add_points("juice", sum(p.juice))
        p.add_points("largest_district", board.DISTRICT_VP * largest_district(s.tiles, seat))
        p.add_points("gold", p.gold)


def winners(s: GameState) -> list[int]:
    """Most points; ties: most claimed stalls; still tied: a shared victory (MOR:L189)."""
    best = max(p.score for p in s.players)
    tied = [i for i, p in enumerate(s.players) if p.score == best]
    claimed = {i: s.tiles.count(i) for i in tied}
    most = max(claimed.values())
    return [i for i in tied if claimed[i] == most]
