"""Who is who in a solo game (L1187-1191): the one human in seat 0, the automa Yusuf in seat 1.

Kept apart from ``yusuf`` (the automa's effects) so the rule modules can ask "is this Yusuf?"
without importing the effect handlers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.games.sabika.state import GameState, PlayerState

YUSUF = 1
"""Yusuf's seat; the human is seat 0."""
HUMAN = 0
NAME = "Yusuf"


def is_solo(s: GameState) -> bool:
    """A solo game: seat 1 is Yusuf."""
    return bool(s.setup.get("solo"))


def is_yusuf(s: GameState, seat: int) -> bool:
    """Whether ``seat`` is the automa."""
    return is_solo(s) and seat == YUSUF


def counts(s: GameState, p: PlayerState, name: str) -> int | None:
    """Yusuf's clarified counts (L1470-1489): each Minor Poem is blue or red, trios need 2 Minor + 1 Major
    Poem, each Minor Construction counts as an Architectural Balance; None = count as usual."""
    minors = len(p.red_poems)  # Yusuf's Minor Poems are kept there (yusuf.h_yusuf_carve)
    counts = {"blue_poems": minors, "red_poems": minors, "poems": minors + len(p.grey_poems),
              "poem_trios": min(minors // 2, len(p.grey_poems)), "balances": len(p.minor_row) - 1}
    return counts.get(name)


def leftovers(p: PlayerState) -> int:
    """Yusuf's only leftovers: 1 PP per Seal (L1478-1480)."""
    return p.seals

