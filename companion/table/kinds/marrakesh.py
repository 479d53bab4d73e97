"""Marrakesh, the tower game, as the setup wizard and the games list see it.

Marrakesh keeps its own service path (tower check, tosses, season scoring in ``companion.table.service``),
its own engine translation (``companion.table.marrakesh_engine``) and its own page (game.html / game.js); this
module only names it beside the table games (``companion.table.kinds``).
"""

from __future__ import annotations

KEY = "marrakesh"
NAME = "Marrakesh"
#: Seats of a Marrakesh table (the rules engine's range).
PLAYERS: tuple[int, int] = (2, 4)
