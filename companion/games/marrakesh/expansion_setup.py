"""Setup of the five expansion modules and of river tile 02 (EN:L1420-1570, digest §13).

``resolve_expansions`` validates the chosen modules and the draws they need (entered by the table or
drawn from the seed, after every base-game draw so a base game's draws never change), and records
them in the resolved setup; ``init_expansions`` puts them into the initial state.

Draws: ``staircase_tiles`` (expansion 1: 12 ``[tile 1-20, "A"|"B"]`` in the order the coverable
spaces are filled from the bottom left; drawn or chosen), ``office_sides`` (expansion 3: ``"base"`` or
``"new"`` for each of the 3 offices), ``desert_towns`` (expansion 5: the 3/5/7-town display),
``river_oases`` (river tile 02: 3 leftover oases face up beside the board).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.marrakesh.board import UNKNOWN
from companion.games.marrakesh.catalogue import count
from companion.games.marrakesh.errors import SetupError
from companion.games.marrakesh.setup_words import draw_name
from companion.games.marrakesh.state import GameState
from companion.i18n import Msg, word

EXPANSIONS: dict[int, str] = {
    1: "staircase tiles",
    2: "Imam & Sultan",
    3: "additional exchange offices",
    4: "spectators (purple audience discs)",
    5: "desert towns",
}
#: The modules' names as messages (the same English as ``EXPANSIONS``, in the reader's language).
EXPANSION_NAMES: dict[int, Msg] = {1: word("expansion", "staircase tiles"), 2: word("expansion", "Imam & Sultan"),
                                   3: word("expansion", "additional exchange offices"),
                                   4: word("expansion", "spectators (purple audience discs)"),
                                   5: word("expansion", "desert towns")}
EXPANSION_DRAWS: tuple[str, ...] = ("staircase_tiles", "office_sides", "desert_towns", "river_oases")
STAIRCASE_TILES = 20  # EN:L1424 "20 staircase tiles (double-sided)"
COVERED_SPACES = 12  # EN:L1460-1466 "this leaves 12 spaces to be covered"
DESERT_TOWNS = 12
DESERT_TOWN_DISPLAY: dict[int, int] = {2: 3, 3: 5, 4: 7}  # EN:L1521-1523


def _check(condition: bool, message: Msg) -> None:
    if not condition:
        raise SetupError(message)


def parse_expansions(value: Sequence[Any]) -> list[int]:
    """The chosen modules as a sorted list; ``SetupError`` names an unknown one."""
    chosen: list[int] = []
    for item in value:
        _check(isinstance(item, int) and not isinstance(item, bool) and item in EXPANSIONS,
               Msg("unknown expansion {item}; the expansions are {known}", item=repr(item),
                   known=[Msg("{n} ({name})", n=k, name=v) for k, v in EXPANSION_NAMES.items()]))
        chosen.append(item)
    _check(len(set(chosen)) == len(chosen), Msg("expansions listed twice: {chosen}", chosen=str(list(value))))
    return sorted(chosen)


def resolve_expansions(expansions: Sequence[Any], draws: Mapping[str, Any], setup: dict[str, Any],
                       rng: random.Random, table_draws: bool, asked: list[str]) -> None:
    """Add ``expansions`` and their draws (and river tile 02's oases) to the resolved ``setup``.

    With ``table_draws`` a draw left out is added to ``asked`` with a placeholder (``asked_draws``).
    """
    chosen = parse_expansions(expansions)
    setup["expansions"] = chosen
    for key, module in (("staircase_tiles", 1), ("office_sides", 3), ("desert_towns", 5)):
        _check(key not in draws or module in chosen, Msg("draw {draw} belongs to expansion {module}, which is not "
                                                         "chosen", draw=repr(key), module=module))
        if table_draws and module in chosen and key not in draws:
            asked.append(key)
    if 1 in chosen:
        setup["staircase_tiles"] = ([[0, UNKNOWN]] * COVERED_SPACES if "staircase_tiles" in asked
                                    else _staircase_tiles(draws.get("staircase_tiles"), rng))
    if 3 in chosen:
        setup["office_sides"] = [UNKNOWN] * 3 if "office_sides" in asked else _office_sides(draws.get("office_sides"),
                                                                                             rng)
    if 5 in chosen:
        size = DESERT_TOWN_DISPLAY[len(setup["players"])]
        given = draws.get("desert_towns")
        if "desert_towns" in asked:
            given = [0] * size
        elif given is None:
            given = rng.sample(range(1, DESERT_TOWNS + 1), size)
        _check("desert_towns" in asked or isinstance(given, list) and len(given) == size and len(set(given)) == size
               and all(isinstance(t, int) and 1 <= t <= DESERT_TOWNS for t in given),
               Msg("{draw} must list {size} distinct towns 1-{last} for {players} players: {given}",
                   draw=draw_name("desert_towns"), size=size, last=DESERT_TOWNS, players=len(setup["players"]),
                   given=repr(given)))
        setup["desert_towns"] = list(given)
    if 2 in setup["river_tiles"]:
        if table_draws and "river_oases" not in draws:
            asked.append("river_oases")
            setup["river_oases"] = [0] * 3
        else:
            setup["river_oases"] = _river_oases(draws.get("river_oases"), setup, rng)
    else:
        _check("river_oases" not in draws, Msg("draw {draw} needs river tile 02 in season 1", draw=repr("river_oases")))


def _staircase_tiles(given: Any, rng: random.Random) -> list[list[Any]]:
    if given is None:
        tiles = rng.sample(range(1, STAIRCASE_TILES + 1), COVERED_SPACES)
        return [[t, rng.choice("AB")] for t in tiles]
    _check(isinstance(given, list) and len(given) == COVERED_SPACES
           and all(isinstance(e, list) and len(e) == 2 and isinstance(e[0], int) and 1 <= e[0] <= STAIRCASE_TILES
                   and e[1] in ("A", "B") for e in given)
           and len({e[0] for e in given}) == COVERED_SPACES,
           Msg("{draw} must list {size} distinct [tile 1-{last}, 'A'|'B'] pairs, bottom left first: {given}",
               draw=draw_name("staircase_tiles"), size=COVERED_SPACES, last=STAIRCASE_TILES, given=repr(given)))
    return [list(e) for e in given]


def _office_sides(given: Any, rng: random.Random) -> list[str]:
    if given is None:
        return [rng.choice(("base", "new")) for _ in range(3)]
    _check(isinstance(given, list) and len(given) == 3 and all(s in ("base", "new") for s in given),
           Msg("{draw} must give 'base' or 'new' for each of the 3 exchange offices: {given}",
               draw=draw_name("office_sides"), given=repr(given)))
    return list(given)


def _river_oases(given: Any, setup: dict[str, Any], rng: random.Random) -> list[int]:
    dealt = {n for tiles in setup["oases"] for n in tiles if n}
    if given is None:
        return rng.sample([n for n in range(1, count("oases") + 1) if n not in dealt], 3)
    _check(isinstance(given, list) and len(given) == 3 and len(set(given)) == 3
           and all(isinstance(n, int) and 1 <= n <= count("oases") and n not in dealt for n in given),
           Msg("{draw} must list 3 distinct leftover oases (not dealt to a player): {given}",
               draw=draw_name("river_oases"), given=repr(given)))
    return list(given)


def init_expansions(state: GameState, setup: dict[str, Any]) -> None:
    """Expansion state at the start: the figures on their start stairs, the displays beside the board."""
    if 2 in setup.get("expansions", ()):
        state.figures = {"sultan": {"holder": None, "step": None}, "imam": {"holder": None, "step": None}}
    state.desert_town_display = [t for t in setup.get("desert_towns", ()) if t]  # 0: asked before the first toss
    state.river_oases = [n for n in setup.get("river_oases", ()) if n]
