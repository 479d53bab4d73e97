"""Game setup: options, random or table-entered draws, and the initial state (EN:L292-445).

``resolve_setup`` turns ``SetupOptions`` into a complete, JSON-ready setup dict: every draw the
table entered is validated, every draw it left out is made by a ``random.Random(seed)``. The
resolved dict is the first line of the game log, so a replay never needs the seed again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import COLOURS
from companion.games.marrakesh.board import (
    MARKER_COLOURS,
    STORAGE_KESHI_COLOURS,
    UNKNOWN,
    storage_keshi_count,
    wooden_total,
)
from companion.games.marrakesh.catalogue import city_gates, count, river_tiles_by_season, scroll_tiers, shipped_values
from companion.games.marrakesh.errors import SetupError
from companion.games.marrakesh.expansion_setup import EXPANSION_DRAWS, init_expansions, resolve_expansions
from companion.games.marrakesh.setup_words import draw_name
from companion.games.marrakesh.state import GameState, PlayerState
from companion.i18n import Msg, colour_name

DRAW_KEYS: tuple[str, ...] = (
    "river_tiles", "exchange_offices", "workshops", "oases", "storage_keshis", "provisions",
    "first_provisions", "disc_orientation", "scroll_display", "luxury_display",
)


@dataclass(frozen=True)
class SetupOptions:
    """How to set up a game: player names in seat order (clockwise), and where the draws come from."""

    players: Sequence[str]
    seed: int = 0
    start_player: int | None = None
    tower_layer: str = "B1"
    draws: Mapping[str, Any] = field(default_factory=dict)
    profile: Mapping[str, Any] = field(default_factory=dict)
    edition: str = "essential"
    expansions: Sequence[int] = ()
    """Expansion modules 1-5 in play (``expansion_setup.EXPANSIONS``); recorded in the setup line."""
    table_draws: bool = False
    """True at a real table: the river tiles must be entered; every other draw left out, the oases and
    each tile turned up later (display refills, scroll refreshes) are asked of the table when play
    needs them (``asked_draws``)."""


#: Draws a real table must enter when ``table_draws`` is set: the river tiles lie face up beside the
#: river from the start and decide the setup itself (river tile 02's leftover oases).
TABLE_DRAWS: tuple[str, ...] = ("river_tiles",)
#: Draws a real table may leave out: each is asked when play first needs it (``asked_draws``; oases are
#: face down and asked when discovered, as always).
ASKED_DRAWS: tuple[str, ...] = tuple(k for k in DRAW_KEYS if k not in (*TABLE_DRAWS, "oases"))


def _check(condition: bool, message: Msg) -> None:
    if not condition:
        raise SetupError(message)


def resolve_setup(options: SetupOptions) -> dict[str, Any]:
    """Validate ``options`` and make every missing draw from the seed."""
    names = [str(n).strip() for n in options.players]
    n = len(names)
    _check(2 <= n <= 4, Msg("Marrakesh Essential is for 2-4 players, not {n}", n=n))
    _check(all(names) and len(set(names)) == n,
           Msg("player names must be distinct and non-empty: {names}", names=str(names)))
    _check(options.tower_layer in ("B1", "B2"),
           Msg("tower layer must be B1 or B2, not {layer!r}", layer=options.tower_layer))
    unknown = set(options.draws) - set(DRAW_KEYS) - set(EXPANSION_DRAWS)
    _check(not unknown, Msg("unknown setup draws {unknown}; expected some of {known}", unknown=str(sorted(unknown)),
                            known=[draw_name(k) for k in DRAW_KEYS + EXPANSION_DRAWS]))
    if options.table_draws:
        missing = [k for k in TABLE_DRAWS if k not in options.draws]
        _check(not missing, Msg("with table draws the table must enter: {missing}",
                                missing=[draw_name(k) for k in missing]))
    rng = random.Random(options.seed)
    draws = options.draws
    start = options.start_player if options.start_player is not None else rng.randrange(n)
    _check(isinstance(start, int) and 0 <= start < n,
           Msg("start player must be a seat 0-{last}, not {start!r}", last=n - 1, start=start))
    setup: dict[str, Any] = {
        "edition": options.edition, "players": names, "start_player": start,
        "tower_layer": options.tower_layer, "seed": options.seed, "profile": dict(options.profile),
        "table_draws": options.table_draws,
    }
    setup["river_tiles"] = _river_tiles(draws.get("river_tiles"), rng)
    # table draws: whatever the table left out is named during play (asked_draws), a placeholder until then
    asked = [k for k in ASKED_DRAWS if k not in draws] if options.table_draws else []
    k = storage_keshi_count(n)
    if "exchange_offices" in asked:
        setup["exchange_offices"] = [0] * 3
    else:
        setup["exchange_offices"] = _distinct(draws.get("exchange_offices"),
                                              range(1, count("exchange_offices") + 1), 3, "exchange_offices", rng)
    setup["workshops"] = [[UNKNOWN] * 8 for _ in range(4)] if "workshops" in asked else _workshops(
        draws.get("workshops"), rng)
    if options.table_draws and draws.get("oases") is None:
        setup["oases"] = [[0] * 6 for _ in range(n)]  # face down: asked when discovered
    else:
        setup["oases"] = _per_player(draws.get("oases"), range(1, count("oases") + 1), [6] * n, "oases", rng)
    if "storage_keshis" in asked:
        setup["storage_keshis"] = [[UNKNOWN] * k for _ in range(n)]
    else:
        setup["storage_keshis"] = _per_player(draws.get("storage_keshis"), STORAGE_KESHI_COLOURS, [k] * n,
                                              "storage_keshis", rng)
    if "provisions" in asked:
        provisions = [[0] * 3 for _ in range(n)]
    else:
        provisions = _per_player(draws.get("provisions"), range(1, count("provision_tiles") + 1), [3] * n,
                                 "provisions", rng)
    setup["provisions"] = provisions
    first = draws.get("first_provisions")
    if "first_provisions" in asked:
        first = [0] * n
    elif first is None:
        first = [rng.choice(tiles) for tiles in provisions]
    _check("first_provisions" in asked or _first_provisions_fit(first, provisions),
           Msg("{draw} must name one of each player's own provision tiles: {first}",
               draw=draw_name("first_provisions"), first=str(first)))
    if "provisions" in asked:  # the revealed tile is one of the player's 3; the other 2 are named later
        for tiles, tile in zip(provisions, first, strict=True):
            tiles[0] = tile
    setup["first_provisions"] = list(first)
    discs = draws.get("disc_orientation")
    if "disc_orientation" in asked:
        discs = [-1] * n
    elif discs is None:
        discs = [rng.randrange(8) for _ in range(n)]
    else:
        _check(isinstance(discs, list) and len(discs) == n and all(isinstance(d, int) and 0 <= d < 8 for d in discs),
               Msg("{draw} must give each player a section 0-7: {discs}", draw=draw_name("disc_orientation"),
                   discs=str(discs)))
    setup["disc_orientation"] = list(discs)
    setup["scroll_stacks"] = _scroll_stacks(draws.get("scroll_display"), rng, options.table_draws)
    setup["luxury_stack"] = _stack(draws.get("luxury_display"), list(range(1, count("luxury_goods") + 1)), 5,
                                   "luxury_display", rng, options.table_draws)
    resolve_expansions(options.expansions, draws, setup, rng, options.table_draws, asked)
    if asked:
        setup["asked"] = asked
    return setup


def _first_provisions_fit(first: Any, provisions: list[list[int]]) -> bool:
    """Each player's revealed tile is one of their own (any tile 1-12 nobody else revealed when the
    table left the provision tiles out)."""
    if not isinstance(first, list) or len(first) != len(provisions):
        return False
    if any(0 in tiles for tiles in provisions):
        return (all(isinstance(t, int) and 1 <= t <= count("provision_tiles") for t in first)
                and len(set(first)) == len(first))
    return all(t in tiles for t, tiles in zip(first, provisions, strict=True))


def _river_tiles(given: Any, rng: random.Random) -> list[int]:
    by_season = river_tiles_by_season()
    if given is None:
        return [rng.choice(by_season[s]) for s in (1, 2, 3)]
    _check(isinstance(given, list) and len(given) == 3,
           Msg("{draw} must list 3 tiles (seasons 1-3): {given}", draw=draw_name("river_tiles"), given=repr(given)))
    for season, tile in enumerate(given, start=1):
        _check(tile in by_season[season], Msg("river tile {tile} does not belong to season {season} (expected one "
                                              "of {expected})", tile=tile, season=season,
                                              expected=str(by_season[season])))
    return list(given)


def _distinct(given: Any, pool: Sequence[Any], size: int, name: str, rng: random.Random) -> list[Any]:
    if given is None:
        return rng.sample(list(pool), size)
    _check(isinstance(given, list) and len(given) == size and len(set(given)) == size
           and all(x in pool for x in given), Msg("{draw} must list {size} distinct values from {pool}: {given}",
                                                  draw=draw_name(name), size=size, pool=str(list(pool)),
                                                  given=repr(given)))
    return list(given)


def _per_player(given: Any, pool: Sequence[Any], sizes: list[int], name: str, rng: random.Random) -> list[list[Any]]:
    if given is None:
        drawn = rng.sample(list(pool), sum(sizes))
        out, at = [], 0
        for size in sizes:
            out.append(drawn[at: at + size])
            at += size
        return out
    _check(isinstance(given, list) and len(given) == len(sizes)
           and all(isinstance(g, list) and len(g) == s for g, s in zip(given, sizes, strict=False)),
           Msg("{draw} must give each of the {players} players {size} values: {given}", draw=draw_name(name),
               players=len(sizes), size=sizes[0], given=repr(given)))
    flat = [x for g in given for x in g]
    _check(all(x in pool for x in flat) and len(set(flat)) == len(flat),
           Msg("{draw} must be distinct values from {pool} (one bag for everyone): {given}", draw=draw_name(name),
               pool=str(list(pool)), given=repr(given)))
    return [list(g) for g in given]


def _workshops(given: Any, rng: random.Random) -> list[list[str]]:
    bag = [c for c, k in city_gates().items() for _ in range(k)]
    if given is None:
        rng.shuffle(bag)
        return [sorted(bag[i * 8: i * 8 + 8], key=COLOURS.index) for i in range(4)]
    _check(isinstance(given, list) and len(given) == 4 and all(isinstance(w, list) and len(w) == 8 for w in given),
           Msg("{draw} must list 4 workshops of 8 city gates: {given}", draw=draw_name("workshops"),
               given=repr(given)))
    for colour in COLOURS:
        used = sum(w.count(colour) for w in given)
        bag_size = city_gates()[colour]
        _check(used <= bag_size, Msg("workshops hold {used} {colour} gates; the bag has {bag_size}", used=used,
                                     colour=colour_name(colour), bag_size=bag_size))
    return [list(w) for w in given]


def _stack(display: Any, pool: list[int], size: int, name: str, rng: random.Random, unknown: bool = False
           ) -> list[int]:
    """Display first, then the face-down rest: shuffled from the seed, or (table draws) in number
    order, standing for a stack whose order nobody knows."""
    rest = list(pool)
    if not unknown:
        rng.shuffle(rest)
    if display is None:
        return rest
    _check(isinstance(display, list) and len(display) == size and len(set(display)) == size
           and all(x in pool for x in display), Msg("{draw} must list {size} distinct tiles from {first}-{last}",
                                                    draw=draw_name(name), size=size, first=pool[0], last=pool[-1]))
    return list(display) + [x for x in rest if x not in display]


def _scroll_stacks(display: Any, rng: random.Random, unknown: bool) -> dict[str, list[int]]:
    out = {}
    display = display or {}
    for colour, (first, last, _, _) in scroll_tiers().items():
        out[colour] = _stack(display.get(colour), list(range(first, last + 1)), 3, f"scroll_display.{colour}", rng,
                             unknown)
    return out


def initial_state(setup: dict[str, Any]) -> GameState:
    """The state after setup: boards, screens, supply, displays (EN:L292-445)."""
    n = len(setup["players"])
    players = []
    for i, name in enumerate(setup["players"]):
        p = PlayerState(name=name)
        p.screen = {c: 1 for c in COLOURS}  # 1 wooden keshi of each colour (setup step 18)
        p.oases = list(setup["oases"][i])
        p.storage_keshis = list(setup["storage_keshis"][i])
        p.provisions = list(setup["provisions"][i])
        p.revealed_provisions = [setup["first_provisions"][i]]
        p.disc_orientation = setup["disc_orientation"][i]
        players.append(p)
    state = GameState(setup=setup, players=players, profile={**shipped_values(), **setup["profile"]})
    state.start_player = state.season_player = setup["start_player"]
    for c in COLOURS:
        on_boards = n * (2 if c in MARKER_COLOURS else 1)  # markers + screens
        state.supply[c] = wooden_total(c) - on_boards
    asked = setup.get("asked", ())
    shown = 0 if "scroll_display" in asked else 3  # table draws: turned up before the first toss
    state.scroll_display = {c: s[:shown] for c, s in setup["scroll_stacks"].items()}
    state.scroll_stacks = {c: s[shown:] for c, s in setup["scroll_stacks"].items()}
    shown = 0 if "luxury_display" in asked else 5
    state.luxury_display = setup["luxury_stack"][:shown]
    state.luxury_stack = setup["luxury_stack"][shown:]
    state.exchange_offices = list(setup["exchange_offices"])
    state.workshops = [list(w) for w in setup["workshops"]]
    state.river_tiles = list(setup["river_tiles"])
    init_expansions(state, setup)
    return state
