"""Questions to the table about printed values the rulebook text does not give (the board profile).

A question is plain data ``{"kind": "question", "player": None, "key", "prompt", "options", "multi",
"count"}``. ``multi`` questions take a list of distinct options (``count`` = exact length, or None
for 1 or more). ``Game`` asks the first unanswered key among the values it needs *now* (what is
face up, what the board side shows) and keeps every answer in ``game.profile``; a saved profile
passed to the next game means nothing is asked again. A game set up to ask "when needed" (``LAZY``,
every new dashboard game) asks instead each value when an effect first reads it (``printed_question``),
and a new one asks the values a table reads in one look on one component as one question (``Group``).
``SHIPPED`` holds the few values the text proves, each with the line it comes from.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any

from companion.games.sabika.components import (
    ARTWORKS,
    BLUE_EFFECTS,
    BUILDING_TYPES,
    CITIES,
    FINAL_TRIBUTE,
    GOODS,
    ICON_OPTIONS,
    MAJOR_TILES,
    METRICS,
    NARRATOR_LAST,
    POEM_LETTERS,
    POEM_NUMBERS,
    POOLS,
    RING_ACTIONS,
    RINGS,
    TWO_PLAYER_REMOVED,
    WISH_ELEMENTS,
)
from companion.games.sabika.say import ELEMENT_SAY, RING_SAY, SIDE_SAY, SPOT_SAY, english, prompt_fields
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.state import GameState

#: Values the rulebook text proves (key -> (value, source line)).
SHIPPED: dict[str, tuple[Any, str]] = {
    f"tribute.{NARRATOR_LAST}": (FINAL_TRIBUTE, "L1019-1020: 6 Parias at the end of the game"),
    "major_poem.A1.metric": ("poems", "L35-38: A1, 14/9/6 PP for the most Poems"),
    "major_poem.A1.mode": ("majority", "L35-38"),
    "major_poem.A2.metric": ("poems", "L333-336: A2, 2 PP for each Poem (max. 14 PP)"),
    "major_poem.A2.mode": ("per", "L333-336"),
    "major_poem.A2.points": (2, "L333-336"),
    "major_poem.A2.max": (14, "L333-336"),
    "minor_poem.2.blue": ("seal_bonus", "L322-325: 2 Dinars and 2 PP each time you get a Seal"),
    "minor_poem.2.red": (["glazed:1", "raw:1"], "L317-320: 1 Glazed Ceramic and 1 Raw Material"),
    "minor_poem.21.blue": ("quarry_extra", "L25-31: 1 Raw Material or a listed Material per Quarry Action"),
    "minor_poem.21.red": (["good:2", "pp:2"], "L19-23: Poet 21, earn 2 Goods and 2 PP"),
    "minor_poem.1.blue": ("income_start", "L1070-1073: 2 Dinars each Income Phase, 2 PP on becoming Starting Player"),
    "minor_poem.4.red": (["pp:2", "major_tile_bonus"], "L1075-1077"),
    "minor_poem.5.blue": ("wood_bonus", "L1079-1081: +1 PP and 1 Paria when using Wood"),
    "minor_poem.10.blue": ("poem_scaffold", "L1083-1085"),
    "minor_poem.14.red": (["free_ship"], "L1087-1092"),
    "minor_poem.17.red": (["red_city_action"], "L1099-1100"),
    "minor_poem.16.blue": ("goods_store", "L1094-1097: a special Storehouse for 2 Goods, +1 PP and 1 Paria each"),
    "minor_poem.20.blue": ("export_double", "L1102-1104"),
}
SHIPPED_PROFILE: dict[str, Any] = {key: value for key, (value, _) in SHIPPED.items()}

YES_NO = ["yes", "no"]
COVERED = 3
"""3 players: the 3 Cancellation Tiles cover the 3 squares marked for 4 players only (L59-61)."""
FAVOUR_LENGTHS = range(2, 11)
"""The answers offered for the Sultan's Favour Track's length (spaces after the Lion Fountain start)."""


def question(key: str, prompt: Msg, options: Sequence[Any], *, multi: bool = False,
             count: int | None = None) -> dict[str, Any]:
    """A question to the table (``player`` None: the table answers); its prompt in English and as ``say``."""
    return {"kind": "question", "player": None, "key": key, **prompt_fields(prompt), "options": list(options),
            "multi": multi, "count": count}


def answer_ok(q: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` answers question ``q`` (a group's answer is checked part by part: ``Game._check_parts``)."""
    if not q["multi"]:
        return value in q["options"]
    if not isinstance(value, list) or not value or len(set(map(repr, value))) != len(value):
        return False
    if q["count"] is not None and len(value) != q["count"]:
        return False
    return all(v in q["options"] for v in value)


def side(players: int) -> str:
    """The Main Board side: ``small`` for 1-2 players, ``large`` for 3-4 (L59-61)."""
    return "small" if players <= 2 else "large"


Spec = tuple[str, Msg, Sequence[Any], bool, "int | None"]


def _bonus(key: str, what: Msg) -> Spec:
    return (key, Msg("Which icons does {what} show, left to right (one or more)?", what=what), ICON_OPTIONS, True,
            None)


LAZY = "when needed"
"""``setup["asks"]`` of a game that asks each printed value when play first needs it, except the Rondel's
tokens (games saved on 2026-11-26); a stored setup without ``asks`` (games saved before) asks them all at
setup and after each reveal, as it did."""

LAZY_TOKENS = "when needed, tokens too"
"""``setup["asks"]`` of games saved on 2026-11-27: as ``LAZY``, and the Rondel's tokens too (``latest_asking``)."""

BY_COMPONENT = "when needed, by component"
"""``setup["asks"]`` of every new game: as ``LAZY_TOKENS``, and the values a table reads in one look on one
component asked as one question (``group_of``). A game saved as ``LAZY_TOKENS`` keeps asking them one by one,
so that its log (one answer per value) replays unchanged."""


def lazy(s: GameState) -> bool:
    """Whether the game asks printed values when play first needs them (``LAZY``, ``LAZY_TOKENS``, ``BY_COMPONENT``)."""
    return s.setup.get("asks") in (LAZY, LAZY_TOKENS, BY_COMPONENT)


def by_component(s: GameState) -> bool:
    """Whether the game asks the values of one component read in one look as one question (``BY_COMPONENT``)."""
    return s.setup.get("asks") == BY_COMPONENT


TOKEN_KEYS = ("raw_spots", "marble_spots")
"""Per board side, ``rondel.<side>.<key>``: how many Raw Material and Marble squares the Rondel has."""


def token_keys(s: GameState) -> list[str]:
    """The printed values setting out the Rondel's tokens needs: the Secondary square counts and the bag."""
    return [*(f"rondel.{side(len(s.players))}.{key}" for key in TOKEN_KEYS), "bag.tokens_per_type"]


def latest_asking(s: GameState) -> bool:
    """Whether the game asks as every new game does (``LAZY_TOKENS``), beyond a game saved as ``LAZY``:
    the Rondel's tokens are set out when play reaches one (``tokens_later``); carving a blue Minor Poem
    reads its permanent side; with 3 players the 3 covered squares are one question, and the Sultan's
    Workers' squares one (not how many, then each one's square); Yusuf reads only
    what his choice depends on (no tile types when no type is desired, no Map for a single City, the
    Favour Track's length only where it could stop him). A game saved as ``LAZY`` keeps asking as it
    did, so that its log replays unchanged."""
    return s.setup.get("asks") in (LAZY_TOKENS, BY_COMPONENT)


def tokens_later(s: GameState) -> bool:
    """Whether the companion sets out the Rondel's tokens (a Raw Material drawn from the bag for each Raw
    Material square, a Marble on each Marble square, L64-73) only when play first reaches one, asking
    then how many squares there are and what the bag holds (``LAZY_TOKENS``; at setup if the table gave
    them ahead). Until then every such square still holds its token: nobody has taken one. A table
    entering its draws says what it drew at setup, so its tokens are set out there.
    """
    return latest_asking(s) and not s.setup.get("table_draws")


def board_questions(s: GameState, every: bool = False) -> Iterator[Spec]:
    """The board-side layout and the printed track values (asked before setup finishes).

    A lazy game asks at setup only what setup itself uses (ring sizes, Sultan's Workers, and unless the
    tokens come later (``tokens_later``) how many Secondary squares and the bag); the rest is asked
    when play reads it (``printed_question``). ``every``: all of them (to find one by its key).
    """
    prof, n = s.profile, len(s.players)
    sd = side(n)
    later = lazy(s) and not every
    tokens = not (tokens_later(s) and not every)
    at_once = latest_asking(s)  # the 3 covered squares in one question, not each square's
    for ring in RINGS:
        size_key = f"rondel.{sd}.{ring}.size"
        yield ring_size(sd, ring)
        if size_key not in prof:
            return
        for sq in range(1, int(prof[size_key]) + 1):
            if not later:  # a lazy game asks a square's action when a Worker first lands there
                yield square_action(sd, ring, sq)
            if n == 3 and not at_once:
                yield (f"rondel.{sd}.{ring}.{sq}.four_only",
                       Msg("Is square {n} of the {ring} marked for 4 players only (covered by a Cancellation "
                           "Tile in 3-player games)?", n=sq, ring=RING_SAY[ring]), YES_NO, False, None)
    if n == 3 and at_once:
        yield (f"rondel.{sd}.four_only", Msg("Which 3 squares are marked for 4 players only (covered by the 3 "
                                             "Cancellation Tiles in a 3-player game)?"),
               [f"{ring} {sq}" for ring in RINGS for sq in range(1, int(prof[f"rondel.{sd}.{ring}.size"]) + 1)],
               True, COVERED)
    for kind, (inner_ring, outer_ring) in (("raw", ("outer", "middle")), ("marble", ("middle", "inner"))):
        if not tokens:
            break
        count_key = f"rondel.{sd}.{kind}_spots"
        what = SPOT_SAY[kind]
        yield (count_key, Msg("How many {what} Secondary Action squares lie between the {first} and the {second}?",
                              what=what, first=RING_SAY[inner_ring], second=RING_SAY[outer_ring]),
               list(range(0, 9)), False, None)
        if count_key not in prof:
            return
        for k in range(1, 0 if later else int(prof[count_key]) + 1):
            for ring in (inner_ring, outer_ring):
                size = int(prof[f"rondel.{sd}.{ring}.size"])
                yield (f"rondel.{sd}.{kind}.{k}.{ring}",
                       Msg("Which square of the {ring} does {what} Secondary Action {k} connect to?",
                           ring=RING_SAY[ring], what=what, k=k), list(range(1, size + 1)), False, None)
    if n < 4 and at_once:  # no Sultan's Workers with 4 players (L64-65)
        yield (f"sultan.{n}p.squares", Msg("On which squares do the Sultan's Workers start ({n} players: the squares "
                                           "showing their silhouettes)?", n=n),
               [f"{ring} {sq}" for ring in RINGS for sq in range(1, int(prof[f"rondel.{sd}.{ring}.size"]) + 1)],
               True, None)
    elif n < 4:
        count_key = f"sultan.{n}p.count"
        yield (count_key, Msg("How many Sultan's Workers are placed in a {n}-player game?", n=n), list(range(0, 5)),
               False, None)
        if count_key not in prof:
            return
        spots = [f"{ring} {sq}" for ring in RINGS for sq in range(1, int(prof[f"rondel.{sd}.{ring}.size"]) + 1)]
        for k in range(1, int(prof[count_key]) + 1):
            yield (f"sultan.{n}p.{k}", Msg("On which square does Sultan's Worker {k} start ({n} players)?", k=k, n=n),
                   spots, False, None)
    if tokens:
        yield ("bag.tokens_per_type", Msg("How many Raw Material/Goods tokens of each type are in the bag?"),
               list(range(3, 16)), False, None)
    if later:  # starting Dinars: when they are paid (not Yusuf's, L1216-1226); 2-player tiles: at Era II
        return
    for space in range(2, 6):
        yield (f"tribute.{space}", Msg("How many Parias are shown under space {n} of the Round Track?", n=space),
               list(range(0, 9)), False, None)
    for pos in range(1, n + 1):
        yield _dinars(pos)
    yield ("favour.length", Msg("How many spaces does the Sultan's Favour Track have after the Lion Fountain start?"),
           list(FAVOUR_LENGTHS), False, None)
    if "favour.length" not in prof:
        return
    for space in range(1, int(prof["favour.length"])):
        yield _bonus(f"favour.{space}.bonus", Msg("space {n} of the Sultan's Favour Track", n=space))
    if s.events:
        yield ("events.change_spaces", Msg("Above which 2 Round Track spaces is the Event icon (advanced mode)?"),
               list(range(2, 7)), True, 2)
    if n == 2:
        yield _removed()


def ring_size(sd: str, ring: str) -> Spec:
    """How many squares ``ring`` has on board side ``sd`` (covered squares included, L59-61)."""
    return (f"rondel.{sd}.{ring}.size", Msg("How many squares does the {ring} have ({side} board side)?",
                                            ring=RING_SAY[ring], side=SIDE_SAY[sd]), list(range(3, 17)), False, None)


def square_action(sd: str, ring: str, sq: int) -> Spec:
    """The Main Action printed on square ``sq`` of ``ring`` (board side ``sd``)."""
    return (f"rondel.{sd}.{ring}.{sq}.action",
            Msg("Which Main Action is on square {n} of the {ring} (clockwise from the Storehouse side, {side} board "
                "side)?", n=sq, ring=RING_SAY[ring], side=SIDE_SAY[sd]), list(RING_ACTIONS[ring]), False, None)


def _dinars(pos: int) -> Spec:
    return (f"start_dinars.{pos}", Msg("How many starting Dinars does the player in turn position {n} get?", n=pos),
            list(range(0, 11)), False, None)


@dataclass(frozen=True)
class Group:
    """Printed values a table reads in one look on one component, asked as one question (``BY_COMPONENT``):
    its key (never a profile key: the answer sets each part's own key, as answering them one by one would),
    its prompt, and each part's own question with the part's name as the grouped question shows it."""

    key: str
    prompt: Msg
    parts: tuple[tuple[Spec, Msg], ...]


def ring_sizes(sd: str) -> Group:
    """The three rings' sizes on board side ``sd``: one Rondel, counted in one look."""
    return Group(f"rondel.{sd}.sizes", Msg("How many squares does each ring of the Rondel have ({side} board side)?",
                                           side=SIDE_SAY[sd]),
                 tuple((ring_size(sd, ring), RING_SAY[ring]) for ring in RINGS))


START_DINARS = "start_dinars.by_position"
"""The key of the question asking every turn position's starting Dinars at once."""


def start_dinars(positions: Sequence[int]) -> Group:
    """The starting Dinars of the turn positions ``positions``, printed together (L151-162: T3 of the setup
    picture)."""
    return Group(START_DINARS, Msg("How many starting Dinars does each turn position get?"),
                 tuple((_dinars(pos), Msg("Turn position {n}", n=pos)) for pos in positions))


def paid_positions(s: GameState) -> range:
    """The turn positions whose starting Dinars are paid: every player's, in the solo mode only the player's
    (Yusuf starts and takes none, L1216-1226)."""
    return range(2, 3) if s.setup.get("solo") else range(1, len(s.players) + 1)


def group_of(key: str, paid: Sequence[int]) -> Group | None:
    """The group printed value ``key`` is asked in (``paid``: the turn positions given starting Dinars), None:
    it is asked alone."""
    parts = key.split(".")
    if len(parts) == 4 and parts[0] == "rondel" and parts[2] in RINGS and parts[3] == "size":
        return ring_sizes(parts[1])
    if len(parts) == 2 and parts[0] == "start_dinars" and parts[1].isdigit() and int(parts[1]) in paid:
        return start_dinars(paid)
    return None


def group_question(group: Group, profile: Mapping[str, Any]) -> dict[str, Any] | None:
    """The question asking the values of ``group`` that ``profile`` lacks, all at once; None when fewer than 2
    are lacking (one is asked by its own question).

    ``parts``: each lacking value's key, name (English and as a message) and options; the answer is an object
    giving each part's key one of its options (``{"rondel.large.outer.size": 12, ...}``), so the answer names
    the values it sets wherever it is read (the log, the table's profile). ``options`` lists one answer per row
    across the parts (each part's first option, then each part's second...), which ``Game.legal_actions``
    offers standing for them all.
    """
    lacking = [(spec, name) for spec, name in group.parts if spec[0] not in profile]
    if len(lacking) < 2:
        return None
    parts = [{"key": spec[0], "name": english(name), "name_say": name.to_json(), "options": list(spec[2])}
             for spec, name in lacking]
    longest = max(len(part["options"]) for part in parts)
    rows = [{part["key"]: part["options"][min(i, len(part["options"]) - 1)] for part in parts} for i in range(longest)]
    return {**question(group.key, group.prompt, rows), "parts": parts}


def _grouped_question(s: GameState, key: str, profile: Mapping[str, Any]) -> dict[str, Any] | None:
    """The question asking printed value ``key`` with the rest of its group that ``profile`` lacks, in a game
    asking by component; None when it is asked alone."""
    group = group_of(key, paid_positions(s)) if by_component(s) else None
    return group_question(group, profile) if group is not None else None


def asked_with(s: GameState, spec: Spec, profile: Mapping[str, Any]) -> dict[str, Any]:
    """The values asked in one question with printed value ``spec`` when ``profile`` lacks it, each with a
    stand-in answer (the middle option): its group's lacking values in a game asking by component, else its own."""
    key, _, options, multi, count = spec
    grouped = _grouped_question(s, key, profile)
    if grouped is None:
        return {key: _stand_in(options, multi, count)}
    return {part["key"]: _stand_in(part["options"], False, None) for part in grouped["parts"]}


def ask(s: GameState, spec: Spec) -> dict[str, Any]:
    """The question for printed value ``spec``: its group's in a game asking by component, if that asks 2 or
    more values, else its own."""
    key, prompt, options, multi, count = spec
    grouped = _grouped_question(s, key, s.profile)
    return grouped if grouped is not None else question(key, prompt, options, multi=multi, count=count)


def answered(pending: dict[str, Any], value: Any) -> dict[str, Any]:
    """The profile values an accepted answer ``value`` to question ``pending`` sets (a group's: each part's)."""
    if pending.get("parts"):
        return {part["key"]: value[part["key"]] for part in pending["parts"]}
    return {pending["key"]: value}


def is_group_key(key: str) -> bool:
    """Whether ``key`` names a question asking a group's values (``Group``), whose answer is an object of them."""
    parts = key.split(".")
    return key == START_DINARS or (len(parts) == 3 and parts[0] == "rondel" and parts[2] == "sizes")


def _removed() -> Spec:
    return ("major.II.two_player_removed", Msg("Which Era II Major Construction Tiles are marked as removed in "
                                               "2-player games?"),
            list(range(1, MAJOR_TILES["II"] + 1)), True, TWO_PLAYER_REMOVED)


def component_groups(s: GameState) -> Iterator[tuple[str, Callable[[], Iterator[Spec]]]]:
    """Every component now face up (tiles, cards, the players' own cards) with its questions.

    Grouped by component so ``Game`` can skip the ones whose values are all known.
    """
    prof = s.profile
    for tile in list(s.wish_track.values()) + s.wish_tower:
        yield f"wish.{tile}", partial(wish_tile, prof, tile)
    yield f"trade.{s.trade_card}", partial(scoring_card, prof, f"trade.{s.trade_card}",
                                           Msg("Trade Card {n}", n=s.trade_card))
    for t in s.city_tiles:
        yield f"city_tile.{t}", partial(city_tile, t)
    yield "map", partial(routes, prof)
    for era, tiles in s.major_tiles.items():
        for t in tiles:
            yield f"major.{era}.{t}", partial(major_tile, era, t)
    for pair in s.store_display:
        for store_tile in pair:
            if store_tile is not None:
                yield f"storehouse.{store_tile}", partial(storehouse_tile, store_tile)
    for c in s.minor_display:
        if c is not None:
            yield f"minor_card.{c}", partial(minor_card, c)
    for poem in s.major_poems:
        if poem is not None:
            yield f"major_poem.{poem}", partial(scoring_card, prof, f"major_poem.{poem}", Msg("Major Poem {n}", n=poem))
    for m in s.poem_display:
        if m is not None:
            yield f"minor_poem.{m}", partial(minor_poem, prof, m)
    for p in s.players:
        if p.balance_card:  # Yusuf has none (solo mode, L1216)
            yield f"balance.{p.balance_card}", partial(balance_card, p.balance_card)
        for t in p.start_tiles:
            yield f"start_tile.{t}", partial(start_tile, t)


def wish_tile(prof: dict[str, Any], tile: str) -> Iterator[Spec]:
    """A Sultan's Wishes tile: its elements and the PP each earns (L914-919, L945-963)."""
    key = f"wish.{tile}.elements"
    yield (key, Msg("Which elements does Sultan's Wishes tile {tile} show?", tile=tile), WISH_ELEMENTS, True, None)
    for element in prof.get(key, []):
        yield (f"wish.{tile}.{element}.points", Msg("How many PP does Sultan's Wishes tile {tile} give per {element}?",
                                                    tile=tile, element=ELEMENT_SAY[element]), range(1, 7), False, None)


def city_tile(t: int) -> Iterator[Spec]:
    """A City Tile: colour, Good in demand, City Bonus, consolidation Bonus (L699-710)."""
    yield (f"city_tile.{t}.colour", Msg("Is City Tile {n} blue or red?", n=t), ("blue", "red"), False, None)
    yield (f"city_tile.{t}.demand", Msg("Which Good is in demand on City Tile {n}?", n=t), GOODS, False, None)
    yield _bonus(f"city_tile.{t}.bonus", Msg("the City Bonus of City Tile {n}", n=t))
    yield _bonus(f"city_tile.{t}.consolidate", Msg("the consolidation Bonus (income or action) of City Tile {n}", n=t))


ROUTE_PAIRS = tuple(f"{a}-{b}" for a in range(CITIES + 1) for b in range(a + 1, CITIES + 1))


def routes(prof: dict[str, Any]) -> Iterator[Spec]:
    """The Map's trade routes and their Dinar costs (L719-721)."""
    yield ("map.routes", Msg("Which pairs of places are joined by a trade route (0 = Kingdom of Granada, 1-9 = the "
                             "Cities)?"), ROUTE_PAIRS, True, None)
    for route in prof.get("map.routes", []):
        yield (f"map.route.{route}.cost", Msg("How many Dinars does the route {route} cost?", route=route), range(0, 6),
               False, None)


def major_tile(era: str, t: int) -> Iterator[Spec]:
    """A Major Construction Tile: its building and its Construction Bonus (L630-642)."""
    yield (f"major.{era}.{t}.type",
           Msg("Which building does Era {era} Major Construction Tile {n} show?", era=era, n=t),
           BUILDING_TYPES["major"], False, None)
    yield _bonus(f"major.{era}.{t}.bonus", Msg("the Construction Bonus of Era {era} Major Construction Tile {n}",
                                               era=era, n=t))


def balance_card(b: int) -> Iterator[Spec]:
    """An Architectural Balance Card: the Ceramic Artwork half on its left (the right is wild, L689-691)."""
    yield (f"balance.{b}.left", Msg("Which Ceramic Artwork half is on the left of Architectural Balance Card {n} "
                                    "(named by its bonus)?", n=b), ARTWORKS, False, None)


def start_tile(t: int) -> Iterator[Spec]:
    """A Starting Tile's Resources and Bonuses (L154-158)."""
    yield _bonus(f"start_tile.{t}.bonus", Msg("Starting Tile {n} (Resources and Bonuses)", n=t))


def storehouse_tile(t: int) -> Iterator[Spec]:
    """A Storehouse Tile: its Store Boxes and its Bonus."""
    yield (f"storehouse.{t}.boxes", Msg("How many Store Boxes does Storehouse Tile {n} show?", n=t), [1, 2, 3], False,
           None)
    yield _bonus(f"storehouse.{t}.bonus", Msg("the top of Storehouse Tile {n}", n=t))


def minor_card(c: int) -> Iterator[Spec]:
    """A Minor Construction Card: base Material, building type and its two Ceramic Artwork halves."""
    yield (f"minor_card.{c}.base", Msg("Which base Material does Minor Construction Card {n} need?", n=c),
           ["gypsum", "wood", "marble"], False, None)
    yield (f"minor_card.{c}.type", Msg("Which building does Minor Construction Card {n} show?", n=c),
           list(BUILDING_TYPES["minor"]), False, None)
    for half in ("left", "right"):  # the answers name each half by its bonus (``words.OTHER_WORDS``)
        text = (Msg("Which Ceramic Artwork half is on the left of Minor Construction Card {n}?", n=c)
                if half == "left" else Msg("Which Ceramic Artwork half is on the right of Minor Construction Card {n}?",
                                           n=c))
        yield (f"minor_card.{c}.{half}", text, list(ARTWORKS), False, None)


def minor_poem(prof: dict[str, Any], m: int) -> Iterator[Spec]:
    """A Minor Poem: its blue (permanent) and red (immediate) sides."""
    yield (f"minor_poem.{m}.blue", Msg("What does the blue side of Minor Poem {n} do?", n=m), list(BLUE_EFFECTS),
           False, None)
    if prof.get(f"minor_poem.{m}.blue") == "quarry_extra":
        yield (f"minor_poem.{m}.quarry_materials", Msg("Which Materials does Minor Poem {n} list?", n=m),
               ["gypsum", "wood", "marble", "glazed"], True, None)
    yield _bonus(f"minor_poem.{m}.red", Msg("the red side of Minor Poem {n}", n=m))


def scoring_card(prof: dict[str, Any], prefix: str, what: Msg) -> Iterator[Spec]:
    """A Major Poem or Trade Card: what it counts and how it scores."""
    yield (f"{prefix}.metric", Msg("What does {what} count?", what=what), list(METRICS), False, None)
    yield (f"{prefix}.mode", Msg("Does {what} score a majority (14/9/6 PP) or PP per item counted?", what=what),
           ["majority", "per"], False, None)
    if prof.get(f"{prefix}.mode") == "per":
        yield (f"{prefix}.points", Msg("How many PP does {what} give per item counted?", what=what), list(range(1, 6)),
               False, None)
        yield (f"{prefix}.max", Msg("What is the most PP {what} can give (0 = no maximum)?", what=what),
               [0, *range(4, 31)], False, None)


def _component_of(prof: dict[str, Any], key: str) -> Iterator[Spec]:
    """The questions of the component that printed value ``key`` belongs to (none: not a component's)."""
    parts = key.split(".")
    head, name = parts[0], parts[1] if len(parts) > 1 else ""
    number = int(name) if name.isdigit() else 0
    makers: dict[str, Callable[[], Iterator[Spec]]] = {
        "wish": partial(wish_tile, prof, name),
        "trade": partial(scoring_card, prof, f"trade.{name}", Msg("Trade Card {n}", n=name)),
        "city_tile": partial(city_tile, number), "map": partial(routes, prof),
        "major": partial(major_tile, name, int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0),
        "storehouse": partial(storehouse_tile, number), "minor_card": partial(minor_card, number),
        "major_poem": partial(scoring_card, prof, f"major_poem.{name}", Msg("Major Poem {n}", n=name)),
        "minor_poem": partial(minor_poem, prof, number), "balance": partial(balance_card, number),
        "start_tile": partial(start_tile, number),
    }
    return makers[head]() if head in makers else iter(())


def printed_question(s: GameState, key: object) -> dict[str, Any] | None:
    """A lazy game's question for printed value ``key`` that play has just read and the profile lacks
    (None: ``key`` is no printed value this game asks, so the read is a real bug and must not be hidden)."""
    if not lazy(s) or not isinstance(key, str) or key in s.profile:
        return None
    parts = key.split(".")  # the commonest, a square's action, without walking the board's questions
    if (len(parts) == 5 and parts[0] == "rondel" and parts[1] == side(len(s.players)) and parts[2] in RING_ACTIONS
            and parts[4] == "action" and parts[3].isdigit()
            and 1 <= int(parts[3]) <= int(s.profile.get(f"rondel.{parts[1]}.{parts[2]}.size", 0))):
        _, prompt, options, multi, count = square_action(parts[1], parts[2], int(parts[3]))
        return question(key, prompt, options, multi=multi, count=count)
    trial = copy.copy(s)
    trial.profile = dict(s.profile)
    for spec_key, prompt, options, multi, count in chain(_component_of(s.profile, key),
                                                         board_questions(trial, every=True)):
        if spec_key == key:
            return ask(s, (key, prompt, options, multi, count))
        if spec_key not in trial.profile:  # a stand-in, to reach the questions that follow from it
            trial.profile[spec_key] = _stand_in(options, multi, count)
    return None


def _stand_in(options: Sequence[Any], multi: bool, count: int | None) -> Any:
    """An answer standing in for an unknown value (the middle option) while counting or finding questions."""
    return list(options)[:count or 1] if multi else list(options)[len(options) // 2]


def component_specs(s: GameState, known: set[str]) -> Iterator[Spec]:
    """The questions of every face-up component not yet in ``known``; complete ones are added to it.

    A generator reads the profile as it goes, so one paused at a question may be resumed after the
    answer (``Game`` does so: each answer costs one step, not a new scan).
    """
    for component, specs in component_groups(s):
        if component not in known:
            yield from specs()
            known.add(component)


def questions_before_play(s: GameState) -> int | None:
    """About how many printed values are still to be asked before the first move, this one included
    (None once play has started), so the table sees how far it is: every question the setup scan asks
    from here, each unknown value given a stand-in answer (the middle option) to reach the questions that
    follow from it (a ring's squares after its size). "About": the real answers may ask a few more or less.
    """
    if s.phase not in ("setup", "start_tiles"):
        return None
    trial = copy.copy(s)
    trial.profile = dict(s.profile)
    specs = iter(()) if lazy(s) else component_specs(trial, set())  # a lazy game asks components in play
    left = 0
    for spec in chain(board_questions(trial), specs) if s.phase == "setup" else specs:
        if spec[0] not in trial.profile:
            left += 1
            trial.profile.update(asked_with(s, spec, trial.profile))  # a group's values: one question
    if lazy(s):  # paid when the Starting Tiles are chosen: each player's starting Dinars and chosen tile
        humans = [p for p in s.players if p.balance_card]  # Yusuf has none, and starts (L1224-1226)
        lacking = [pos for pos in paid_positions(s) if f"start_dinars.{pos}" not in s.profile]
        left += min(len(lacking), 1) if by_component(s) else len(lacking)  # by component: all in one question
        left += sum(not any(f"start_tile.{t}.bonus" in s.profile for t in p.start_tiles) for p in humans)
    return left


def pool_components(profile: dict[str, Any]) -> Iterator[Iterator[Spec]]:
    """The questions of every numbered component in the seeded pools (``components.POOLS``): every tile and
    card a game the companion deals can turn up."""
    yield from (wish_tile(profile, f"{letter}{n}") for letter in "ABC" for n in range(1, POOLS["wish_per_letter"] + 1))
    yield from (scoring_card(profile, f"trade.{n}", Msg("Trade Card {n}", n=n))
                for n in range(1, POOLS["trade_card"] + 1))
    yield from (scoring_card(profile, f"major_poem.{letter}{n}", Msg("Major Poem {n}", n=f"{letter}{n}"))
                for letter in POEM_LETTERS for n in range(1, POEM_NUMBERS + 1))
    yield from (city_tile(n) for n in range(1, POOLS["city_tile"] + 1))
    yield routes(profile)
    yield from (major_tile(era, n) for era, count in MAJOR_TILES.items() for n in range(1, count + 1))
    yield from (storehouse_tile(n) for n in range(1, POOLS["storehouse"] + 1))
    yield from (minor_card(n) for n in range(1, POOLS["minor_card"] + 1))
    yield from (minor_poem(profile, n) for n in range(1, POOLS["minor_poem"] + 1))
    yield from (balance_card(n) for n in range(1, POOLS["balance"] + 1))
    yield from (start_tile(n) for n in range(1, POOLS["start_tile"] + 1))
