"""Every printed value a Marrakesh game without expansions can ask, by the component it is printed on.

The rules engine asks a printed value the first time play needs it (``Game.value``). A table that
wants no questions during play enters them all on the Board page first, so the page must list every
value a game can ask, not only the ones asked so far: the boards (river, staircases and the bonus
lines between them, main square, audience disc, city gates and workshops, Sahara, supply board) and
the tiles (luxury goods, provisions, exchange offices, scrolls, oases). The numbers come from the
engine itself (``catalogue.count``, the scroll effects, the oasis scoring ranges), so this list
cannot drift from what the engine asks.

The river is the one component whose size is not known: its spaces are asked one by one until one
is the jetty, so the page lists the river up to the jetty once the table has said where it is, and
one space past the last known one before that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.marrakesh.board import GOODS, SQUARE_BONUSES
from companion.games.marrakesh.catalogue import count
from companion.games.marrakesh.tiles import SCROLL_EFFECTS
from companion.table.board_profile_keys import RIVER_SPACES_AT_MOST

#: The physical component of each key family (the key's first part), in the order the page shows them.
COMPONENT_OF: dict[str, str] = {
    "river": "board", "palace": "board", "mosque": "board", "line": "board", "square": "board", "disc": "board",
    "workshop": "board", "gate_space": "board", "sahara": "board", "storage": "board",
    "luxury": "tiles", "provision": "tiles", "office": "tiles", "scroll": "tiles", "oasis": "tiles",
    "stair_tile": "tiles",
}
#: How many fishermen can reach the jetty (one spot each, the most players at a table).
JETTY_SPOTS = 4
#: Staircase segments 1-5 (4 thresholds); both pawns start in segment 1, so line 1-1 is never scored.
SEGMENTS = range(1, 6)
#: Oasis numbers per printed value (``scoring.oasis_value``: 1-4 gates, 5-13 a colour, 14-18 a luxury good,
#: 19-21 a resource; the others print no value the engine asks).
OASIS_VALUES: tuple[tuple[range, tuple[str, ...]], ...] = (
    (range(1, 5), ("colours", "points")), (range(5, 14), ("colour",)), (range(14, 19), ("luxury", "points")),
    (range(19, 22), ("resource",)))


def component_of(key: str) -> str:
    """The component ``key`` is printed on: ``board`` or ``tiles``."""
    return COMPONENT_OF.get(key.split(".")[0], "tiles")


def _scrolls(effect: str) -> list[int]:
    """The scroll numbers whose instant effect is ``effect`` (the ones printing a keshi or goods)."""
    return [n for n, tile in sorted(SCROLL_EFFECTS.items())
            if tile.timing == "instant" and any(e["k"] == effect for e in tile.run(0))]


def river_length(known: Mapping[str, Any]) -> int:
    """How many river spaces to list: up to the jetty once known, else one past the last known space (never
    past the last space a profile can name: a table that calls every space plain water meets that bound)."""
    spaces = [int(k.rsplit(".", 1)[1]) for k in known if k.startswith("river.space.")]
    jetty = [int(k.rsplit(".", 1)[1]) for k, v in known.items() if k.startswith("river.space.") and v == "jetty"]
    return min(jetty) if jetty else min(max(spaces, default=0) + 1, RIVER_SPACES_AT_MOST)


def game_keys(known: Mapping[str, Any]) -> list[str]:
    """Every key a game without expansions may ask (``known``: the values the table and rulebook give)."""
    river = [*(f"river.space.{n}" for n in range(1, river_length(known) + 1)),
             *(f"river.jetty.{n}" for n in range(1, JETTY_SPOTS + 1)), "river.crocodile"]
    stairs = [f"{which}.{what}" for which in ("palace", "mosque") for what in ("segment_starts", "segment4_start",
                                                                             "final_step")]
    lines = [f"line.{p}.{m}" for p in SEGMENTS for m in SEGMENTS if (p, m) != (1, 1)]
    board = [*river, *stairs, *lines, *(f"square.position.{space}" for space in SQUARE_BONUSES),
             *(f"disc.section.{n}" for n in range(8)), *(f"gate_space.{n}" for n in range(1, 9)),
             *(f"workshop.{n}.{what}" for n in range(4) for what in ("price", "points")),
             *(f"sahara.cost.{side}.{n}" for side in ("left", "right") for n in range(1, 4)),
             *(f"storage.{n}" for n in range(1, 7))]
    tiles = [*(f"luxury.{n}.{what}" for n in range(1, count("luxury_goods") + 1)
               for what in ("type", "cost", "reward")),
             *(f"provision.{n}.{what}" for n in range(1, count("provision_tiles") + 1)
               for what in ("demand", "points")),
             *(f"office.{n}.{colour}" for n in range(1, count("exchange_offices") + 1) for colour in GOODS),
             *(f"scroll.{n}.colour" for n in _scrolls("scroll_keshi")),
             *(f"scroll.{n}.goods" for n in _scrolls("scroll_goods")),
             *(f"oasis.{n}.{what}" for numbers, whats in OASIS_VALUES for n in numbers for what in whats)]
    return board + tiles
