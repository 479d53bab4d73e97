"""Setup by player count (L56-162): options, the resolved setup (every draw made) and the first state.

``resolve_setup`` makes every random draw from the seed (or takes the ones the table entered in
``draws``) and returns a plain dict: the first line of the log, so replay never needs the seed for
setup. Draws made later in play (the Raw Material bag, reshuffled decks) come from the seed and a
counter kept in the state, so replay repeats them exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.games.sabika.components import (
    CITIES,
    EVENTS,
    MAJOR_TILES,
    MINOR_POEM_DISPLAY,
    POEM_LETTERS,
    POEM_NUMBERS,
    POOLS,
    WISH_SPACES,
)
from companion.games.sabika.errors import SetupError
from companion.games.sabika.questions import BY_COMPONENT, SHIPPED_PROFILE
from companion.games.sabika.solo import NAME
from companion.games.sabika.state import GameState, PlayerState
from companion.games.sabika.yusuf import DECK_RING, DECK_SIZE, F1, new_state
from companion.i18n import Msg

DRAW_KEYS = ("wish_tiles", "major_poems", "city_tiles", "trade_card", "store_piles", "minor_deck", "poem_deck",
             "balance_cards", "start_tiles")
TABLE_KEYS = ("wish_tiles", "major_poems", "city_tiles", "trade_card", "balance_cards", "start_tiles",
              "minor_display", "poem_display", "store_display")
"""Table draws: what lies face up after setup must be entered (the decks stay face down)."""


@dataclass(frozen=True)
class SetupOptions:
    """What the table decides before play: players (1-4, seat order clockwise), seed, draws, profile.

    ``solo``: one player against the automa Yusuf (L1187-1489), who takes seat 1.
    """

    players: tuple[str, ...]
    seed: int = 0
    draws: dict[str, Any] = field(default_factory=dict)
    profile: dict[str, Any] = field(default_factory=dict)
    advanced: bool = False
    """Advanced mode: 3 Event Tiles (L1120-1186); ``events`` names them (active, future, last) or they are drawn."""
    events: tuple[int, ...] = ()
    table_draws: bool = False
    solo: bool = False
    """The solo mode: ``players`` names the one human; Yusuf joins as seat 1 (L1187-1489)."""
    yusuf_pp: int = 5
    """Solo mode: Yusuf's PP Token starts on 5, or on 10 for a harder game (L1486-1487)."""
    """A real table: setup draws are entered, and every component turned up later is asked (``draw``)."""
    when_needed: bool = False
    """Ask each printed value when play first needs it, the values read in one look together
    (``questions.BY_COMPONENT``; the dashboard's new games), not all of them at setup."""


def resolve_setup(options: SetupOptions) -> dict[str, Any]:
    """Every setup draw made (``SetupError`` names a bad option)."""
    names = tuple(options.players)
    solo = options.solo
    if solo and len(names) != 1:
        raise SetupError(Msg("the solo mode (L1187-1191) takes 1 player against Yusuf, not {n}", n=len(names)))
    if solo and names[0] == NAME:
        raise SetupError(Msg("solo mode (L1187-1191): the automa is called {name}; give the player another name",
                             name=NAME))
    if solo and options.yusuf_pp not in (5, 10):
        raise SetupError(Msg("solo mode (L1486-1487): Yusuf starts on 5 or 10 PP, not {pp}", pp=options.yusuf_pp))
    if solo:
        names = (names[0], NAME)
    if not 2 <= len(names) <= 4:
        raise SetupError(Msg("Sabika is set up for 2 to 4 players, not {n} (1 player: the solo mode, solo=True)",
                             n=len(names)))
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n.strip() for n in names):
        raise SetupError(Msg("player names must be distinct and not empty"))
    keys = (TABLE_KEYS if options.table_draws else DRAW_KEYS) + (("yusuf_decks",) if solo and not options.table_draws
                                                                  else ())
    unknown = set(options.draws) - set(keys)
    if unknown:
        raise SetupError(Msg("unknown setup draw(s): {draws}", draws=", ".join(sorted(unknown))))
    rng = random.Random(options.seed)
    n = len(names)
    if options.table_draws:
        missing = [key for key in TABLE_KEYS if key not in options.draws]
        if missing:
            raise SetupError(Msg("table draws: enter the setup draw(s) {draws}", draws=", ".join(missing)))
        draws = dict(options.draws)
        _check_table(draws, n, 1 if solo else n)
    else:
        draws = {key: _draw(key, n, rng) for key in DRAW_KEYS}
        if solo:
            while F1 in draws["major_poems"]:  # Card F1 leaves the solo game (L1195-1196)
                draws["major_poems"] = _draw("major_poems", n, rng)
            draws["yusuf_decks"] = {d: rng.sample(range(1, DECK_SIZE + 1), DECK_SIZE) for d in DECK_RING}
            draws["balance_cards"], draws["start_tiles"] = draws["balance_cards"][:1], draws["start_tiles"][:1]
        draws.update(options.draws)
        _check(draws, n, 1 if solo else n)
    if solo:
        _check_solo(draws)
    events = list(options.events)
    if options.advanced and not events:
        events = rng.sample(list(EVENTS), 3)
    if events and (len(events) != 3 or len(set(events)) != 3 or not all(e in EVENTS for e in events)):
        raise SetupError(Msg("advanced mode needs 3 different Event Tiles numbered 1-14"))
    out = {"game": "sabika", "players": list(names), "seed": options.seed, "draws": draws, "events": events,
           "table_draws": options.table_draws, "profile": {**SHIPPED_PROFILE, **options.profile}}
    if solo:
        out["solo"], out["yusuf_pp"] = True, options.yusuf_pp
    if options.when_needed:
        out["asks"] = BY_COMPONENT
    return out


def _check_solo(draws: dict[str, Any]) -> None:
    """Solo draws: no Major Poem F1 (L1195-1196); Yusuf's 3 Worker Decks (seeded games)."""
    if F1 in draws["major_poems"]:
        raise SetupError(Msg("solo mode (L1195-1196): Major Poem F1 is removed from the game"))
    decks = draws.get("yusuf_decks")
    if decks is None:
        return
    if not isinstance(decks, dict) or sorted(decks) != sorted(DECK_RING):
        raise SetupError(Msg("setup draw yusuf_decks must name Yusuf's 3 Worker Decks: {decks}",
                             decks=", ".join(DECK_RING)))
    for deck, cards in decks.items():
        numbers(cards, len(cards) if isinstance(cards, list) and cards else -1, f"yusuf_decks.{deck}")


def _draw(key: str, n: int, rng: random.Random) -> Any:
    """One seeded setup draw (pool sizes: ``components.POOLS``)."""
    if key == "wish_tiles":  # one tile of each letter, placed randomly on the 3 spaces (L81-84)
        wishes = [f"{letter}{rng.randint(1, POOLS['wish_per_letter'])}" for letter in "ABC"]
        rng.shuffle(wishes)
        return wishes
    if key == "major_poems":  # 2 per player, all letters different (L112-119)
        letters = rng.sample(POEM_LETTERS, 2 * n)
        return [f"{letter}{rng.randint(1, POEM_NUMBERS)}" for letter in letters]
    if key == "city_tiles":
        return rng.sample(range(1, POOLS["city_tile"] + 1), CITIES)
    if key == "trade_card":
        return rng.randint(1, POOLS["trade_card"])
    if key == "store_piles":  # 24 tiles in 2 piles of 12 (L94-97)
        store = list(range(1, POOLS["storehouse"] + 1))
        rng.shuffle(store)
        return [store[:12], store[12:]]
    if key in ("minor_deck", "poem_deck"):
        deck = list(range(1, POOLS["minor_card" if key == "minor_deck" else "minor_poem"] + 1))
        rng.shuffle(deck)
        return deck
    if key == "balance_cards":
        return rng.sample(range(1, POOLS["balance"] + 1), n)
    starts = rng.sample(range(1, POOLS["start_tile"] + 1), 2 * n)  # start_tiles: 2 each (L151)
    return [starts[2 * i: 2 * i + 2] for i in range(n)]


def numbers(value: Any, count: int, what: str) -> None:
    """``value`` must be ``count`` distinct positive numbers (the printed ones)."""
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
            or len(set(value)) != count):
        raise SetupError(Msg("setup draw {what} must be {count} distinct positive numbers", what=what, count=count))


def _check_table(draws: dict[str, Any], n: int, humans: int) -> None:
    """Table draws: the face-up displays, then the draws common to both modes."""
    numbers(draws["minor_display"], 4, "minor_display")
    numbers(draws["poem_display"], MINOR_POEM_DISPLAY[n], "poem_display")
    pairs = draws["store_display"]
    if not isinstance(pairs, list) or len(pairs) != 2 or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise SetupError(Msg("setup draw store_display must be 2 pairs of Storehouse Tiles (left and right)"))
    numbers(pairs[0] + pairs[1], 4, "store_display")
    _check({**draws, "store_piles": [[1], [2]], "minor_deck": [1, 2, 3, 4],
            "poem_deck": list(range(1, MINOR_POEM_DISPLAY[n] + 1))}, n, humans)


def _check(draws: dict[str, Any], n: int, humans: int) -> None:
    """Table-entered draws must have the right shape (numbers are the printed ones, any positive);
    Balance Cards and Starting Tiles go to the ``humans`` only (Yusuf takes none, L1216-1226)."""

    wishes = draws["wish_tiles"]
    if not isinstance(wishes, list) or sorted(str(w)[:1] for w in wishes) != ["A", "B", "C"]:
        raise SetupError(Msg("setup draw wish_tiles must be 3 Sultan's Wishes tiles, one each of A, B and C "
                             "(e.g. 'B2')"))
    poems = draws["major_poems"]
    if (not isinstance(poems, list) or len(poems) != 2 * n or len({str(p)[:1] for p in poems}) != 2 * n
            or not all(isinstance(p, str) and p[:1] in POEM_LETTERS and p[1:].isdigit() for p in poems)):
        raise SetupError(Msg("setup draw major_poems must be {n} Major Poems with different letters (e.g. 'C3')",
                             n=2 * n))
    numbers(draws["city_tiles"], CITIES, "city_tiles")
    if not isinstance(draws["trade_card"], int) or draws["trade_card"] < 1:
        raise SetupError(Msg("setup draw trade_card must be a positive number"))
    piles = draws["store_piles"]
    if not isinstance(piles, list) or len(piles) != 2:
        raise SetupError(Msg("setup draw store_piles must be 2 piles of Storehouse Tiles"))
    numbers(piles[0] + piles[1], len(piles[0]) + len(piles[1]), "store_piles")
    numbers(draws["minor_deck"], len(draws["minor_deck"]), "minor_deck")
    if len(draws["minor_deck"]) < 4:
        raise SetupError(Msg("setup draw minor_deck needs at least 4 Minor Construction Cards"))
    numbers(draws["poem_deck"], len(draws["poem_deck"]), "poem_deck")
    if len(draws["poem_deck"]) < MINOR_POEM_DISPLAY[n]:
        raise SetupError(Msg("setup draw poem_deck needs at least {n} Minor Poems", n=MINOR_POEM_DISPLAY[n]))
    numbers(draws["balance_cards"], humans, "balance_cards")
    starts = draws["start_tiles"]
    if (not isinstance(starts, list) or len(starts) != humans
            or not all(isinstance(t, list) and len(t) == 2 for t in starts)):
        raise SetupError(Msg("setup draw start_tiles must be 2 Starting Tiles per player"))
    numbers([t for pair in starts for t in pair], 2 * humans, "start_tiles")


def initial_state(setup: dict[str, Any]) -> GameState:
    """The board as setup leaves it before the table's answers are in (the rondel is filled later)."""
    draws, names = setup["draws"], setup["players"]
    n = len(names)
    players = [PlayerState(name=name, balance_card=draws["balance_cards"][i], start_tiles=list(draws["start_tiles"][i]))
               if i < len(draws["balance_cards"])
               else PlayerState(name=name, balance_card=0, start_tiles=[])  # Yusuf: none (L1216-1222)
               for i, name in enumerate(names)]
    if setup.get("solo"):
        players[1].score = players[1].breakdown["start"] = int(setup["yusuf_pp"])
    shown = MINOR_POEM_DISPLAY[n]
    if setup.get("table_draws"):  # the decks stay face down: only what the table turns up is known
        minor = list(draws["minor_display"])
        poems = list(draws["poem_display"])
        piles: list[list[int]] = [[0] * 10, [0] * 10]  # 12 per pile, 2 face up (L94-97)
        display: list[list[int | None]] = [list(pair) for pair in draws["store_display"]]
    else:
        minor = list(draws["minor_deck"])
        poems = list(draws["poem_deck"])
        piles = [list(draws["store_piles"][0]), list(draws["store_piles"][1])]
        display = [[pile.pop(0) if pile else None for _ in range(2)] for pile in piles]
    return GameState(
        setup=setup, profile=dict(setup["profile"]), players=players,
        minor_deck=minor[4:], minor_display=list(minor[:4]),
        poem_deck=poems[shown:], poem_display=list(poems[:shown]),
        major_poems=list(draws["major_poems"]),
        store_piles=piles, store_display=display,
        major_tiles={era: list(range(1, count + 1)) for era, count in MAJOR_TILES.items()},
        city_tiles=list(draws["city_tiles"]), seals=[True] * CITIES, trade_card=int(draws["trade_card"]),
        wish_track=dict(zip(WISH_SPACES, draws["wish_tiles"], strict=True)),
        events=list(setup.get("events", [])),
        yusuf=new_state(draws) if setup.get("solo") else {},
    )
