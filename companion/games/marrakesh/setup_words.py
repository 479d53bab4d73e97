"""The setup draws in player words: ``draw_name("river_tiles")`` names the draw a table (or an API
client) filled in. English keeps the field's own name, which the setup errors have always shown and
clients send; German gives the rulebook's word for the components drawn (Fluss-Plättchen, ...)."""

from __future__ import annotations

from companion.i18n import Msg, word

#: Every setup draw, base game and expansions (setup.DRAW_KEYS + expansion_setup.EXPANSION_DRAWS); each a
#: literal ``word`` so ``make i18n-extract`` finds it.
DRAW_NAMES: dict[str, Msg] = {
    "river_tiles": word("draw", "river_tiles"),
    "exchange_offices": word("draw", "exchange_offices"),
    "workshops": word("draw", "workshops"),
    "oases": word("draw", "oases"),
    "storage_keshis": word("draw", "storage_keshis"),
    "provisions": word("draw", "provisions"),
    "first_provisions": word("draw", "first_provisions"),
    "disc_orientation": word("draw", "disc_orientation"),
    "scroll_display": word("draw", "scroll_display"),
    "luxury_display": word("draw", "luxury_display"),
    "staircase_tiles": word("draw", "staircase_tiles"),
    "office_sides": word("draw", "office_sides"),
    "desert_towns": word("draw", "desert_towns"),
    "river_oases": word("draw", "river_oases"),
}


def draw_name(key: str) -> Msg | str:
    """The name of setup draw ``key`` in the reader's language (an unknown or dotted key as it is)."""
    return DRAW_NAMES.get(key, key)
