"""What each board-profile key means: where the value is printed, a short title, and its possible values.

The rules engine asks the table for printed values it does not ship (``Game.value``: key, prompt,
options). A table's profile outlives one game, is edited on the board-profile screen and travels
between tables as a file, so every value must be checked without a game at hand: this catalogue
gives, for each key pattern, the values the engine may accept (built from the engine's own option
lists) and a plain description of where on the components the value is printed.

Section numbering of the audience disc (the same words as docs/rules-engine.md): the table picks one
section of its discs once as *section 0* and counts the others 1-7 clockwise; a player's setup value
``disc_orientation`` is the ring position (0-7, clockwise from the top space of the main square) that
section 0 faces when the game starts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion import COLOURS
from companion.rules.board import GOODS, RESOURCES, SECTOR_COLOUR, SQUARE_BONUSES
from companion.rules.decisions import bundle_options
from companion.rules.effects import LINE_BONUS_KINDS, RIVER_SPACE_KINDS, SEGMENT_PAIRS
from companion.rules.expansions import NEW_OFFICE_REWARDS
from companion.rules.sectors import GOODS_BUNDLES, LUXURY_REWARDS

LUXURY_KINDS: list[str] = ["slipper", "tajine", "dagger", "oil_lamp", "necklace"]
STORAGE_ICONS: list[str] = ["keshi", "exchange", "scroll", "none"]
#: How the audience disc's sections are numbered (shown with every disc question and in the docs).
DISC_NUMBERING = ("Your table picks one section of the audience discs once as section 0 and counts the others "
                  "1 to 7 clockwise; at setup each player says which ring position section 0 faces.")
#: How the main-square ring positions are numbered.
RING_NUMBERING = "Ring positions are 0 to 7, clockwise, starting with the space at the top of the main square."


@dataclass(frozen=True)
class KeySpec:
    """One family of profile keys: a regex over the key, and from its match a title, a description
    of where the value is printed, and the possible values (``multi``: a set of them)."""

    pattern: str
    title: Callable[[re.Match[str]], str]
    where: Callable[[re.Match[str]], str]
    options: Callable[[re.Match[str]], list[Any]]
    multi: bool = False
    #: for values made of parts (a pair of steps, two goods): what each part is, in player words
    parts: tuple[str, ...] = ()


def _n(m: re.Match[str], group: str = "n") -> int:
    return int(m.group(group))


def _words(text: str) -> str:
    return text.replace("_", " ")


SPECS: tuple[KeySpec, ...] = (
    KeySpec(r"river\.space\.(?P<n>[1-9]\d?)",
            lambda m: f"River space {_n(m)}",
            lambda m: f"Main board, river track: the print on space {_n(m)}, counting from the fishermen's "
                      "start (plain water, a rapid with its bonus, or the jetty).",
            lambda m: list(RIVER_SPACE_KINDS)),
    KeySpec(r"river\.jetty\.(?P<n>[1-8])",
            lambda m: f"Jetty spot {_n(m)}",
            lambda m: f"Main board, the jetty at the end of the river: the points on spot {_n(m)} from the top.",
            lambda m: list(range(1, 9))),
    KeySpec(r"river\.crocodile",
            lambda m: "Crocodile on the river",
            lambda m: "River tile 09 and the river track: the space showing the crocodile, counting from the start.",
            lambda m: list(range(1, 16))),
    KeySpec(r"(?P<w>palace|mosque)\.segment_starts",
            lambda m: f"{m.group('w').capitalize()} segments 2 and 3",
            lambda m: f"Player board, {m.group('w')} staircase: the steps where the 2nd and 3rd segments begin "
                      "(after a threshold line), counting steps from the start.",
            lambda m: [list(p) for p in SEGMENT_PAIRS],
            parts=("Segment 2 begins at step", "Segment 3 begins at step")),
    KeySpec(r"(?P<w>palace|mosque)\.segment4_start",
            lambda m: f"{m.group('w').capitalize()} segment 4",
            lambda m: f"Player board, {m.group('w')} staircase: the step where the 4th segment begins.",
            lambda m: list(range(3, 16))),
    KeySpec(r"(?P<w>palace|mosque)\.final_step",
            lambda m: f"{m.group('w').capitalize()} final step",
            lambda m: f"Player board, {m.group('w')} staircase: the step number of the final space.",
            lambda m: list(range(4, 21))),
    KeySpec(r"line\.(?P<p>[1-5])\.(?P<m>[1-5])",
            lambda m: f"Line palace {m.group('p')} – mosque {m.group('m')}",
            lambda m: f"Player board, the bonus field between the staircases: every bonus on the line joining palace "
                      f"segment {m.group('p')} and mosque segment {m.group('m')}.",
            lambda m: list(LINE_BONUS_KINDS), multi=True),
    KeySpec(r"line\.(?P<p>[1-5])\.(?P<m>[1-5])\.spaces",
            lambda m: f"Line palace {m.group('p')} – mosque {m.group('m')}: covered spaces",
            lambda m: "Player board with staircase tiles (expansion 1): the coverable spaces (1-12, in the order "
                      f"the tiles are laid from the bottom left) on the line joining palace segment {m.group('p')} "
                      f"and mosque segment {m.group('m')}.",
            lambda m: ["none", *range(1, 13)], multi=True),
    KeySpec(r"line\.(?P<p>[1-5])\.(?P<m>[1-5])\.fixed",
            lambda m: f"Line palace {m.group('p')} – mosque {m.group('m')}: fixed bonuses",
            lambda m: "Player board with staircase tiles (expansion 1): the bonuses that tiles never cover (dinar "
                      "and point spaces beside the staircases, the 2 topmost and the lowest space) on the line "
                      f"joining palace segment {m.group('p')} and mosque segment {m.group('m')}.",
            lambda m: list(LINE_BONUS_KINDS), multi=True),
    KeySpec(r"stair_tile\.(?P<n>[1-9]\d?)\.(?P<side>[AB])",
            lambda m: f"Staircase tile {_n(m)} side {m.group('side')}",
            lambda m: f"Staircase tile {_n(m)} (expansion 1): the bonus printed on side {m.group('side')}.",
            lambda m: list(LINE_BONUS_KINDS)),
    KeySpec(r"(?P<w>palace\.sultan|mosque\.imam)_step",
            lambda m: ("Sultan" if "sultan" in m.group("w") else "Imam") + " start step",
            lambda m: f"Player board, {m.group('w').split('.')[0]} staircase (expansion 2): the step with the small "
                      f"{m.group('w').split('.')[1]} picture, where the figure waits, counting from the start.",
            lambda m: list(range(1, 20))),
    KeySpec(r"square\.position\.(?P<space>" + "|".join(SQUARE_BONUSES) + ")",
            lambda m: f"Main square: {_words(m.group('space'))} space",
            lambda m: f"Player board, main square: the ring position of the {_words(m.group('space'))} space. "
                      + RING_NUMBERING,
            lambda m: list(range(8))),
    KeySpec(r"disc\.section\.(?P<n>[0-7])",
            lambda m: f"Audience disc section {_n(m)} (pink side)",
            lambda m: f"Audience disc, pink side: the spectators printed on section {_n(m)}. " + DISC_NUMBERING,
            lambda m: list(range(0, 5))),
    KeySpec(r"disc\.purple\.section\.(?P<n>[0-7])",
            lambda m: f"Audience disc section {_n(m)} (purple side)",
            lambda m: f"Audience disc, purple side (expansion 4): the spectators printed on section {_n(m)}. "
                      + DISC_NUMBERING,
            lambda m: list(range(0, 5))),
    KeySpec(r"workshop\.(?P<n>[0-3])\.price",
            lambda m: f"Workshop {_n(m) + 1}: price",
            lambda m: f"Main board, city-gate workshop {_n(m) + 1} from the left: the dinar price printed on it.",
            lambda m: list(range(0, 6))),
    KeySpec(r"workshop\.(?P<n>[0-3])\.points",
            lambda m: f"Workshop {_n(m) + 1}: points",
            lambda m: f"Main board, city-gate workshop {_n(m) + 1} from the left: the points it gives "
                      "(negative: points lost).",
            lambda m: list(range(-5, 11))),
    KeySpec(r"gate_space\.(?P<n>[1-9]\d?)",
            lambda m: f"City-gate space {_n(m)}",
            lambda m: f"Player board, the medina's city gates: the colour printed on gate space {_n(m)}.",
            lambda m: [*SECTOR_COLOUR.values(), *GOODS]),
    KeySpec(r"sahara\.cost\.(?P<side>left|right)\.(?P<n>[1-4])",
            lambda m: f"Sahara {m.group('side')} path, space {_n(m)}: cost",
            lambda m: f"Player board, Sahara: the resources printed on the highlighted space beside oasis "
                      f"{_n(m)} of the {m.group('side')} path (the price of claiming it).",
            lambda m: bundle_options()),
    KeySpec(r"storage\.(?P<n>[1-6])",
            lambda m: f"Storage space {_n(m)}",
            lambda m: f"Supply board: the icon printed on oasis storage space {_n(m)} (a keshi space, the exchange "
                      "icon, the scroll icon, or nothing).",
            lambda m: list(STORAGE_ICONS)),
    KeySpec(r"storage\.reverse\.(?P<n>[1-6])",
            lambda m: f"Storage space {_n(m)} (reverse side)",
            lambda m: f"Supply board, reverse side (expansion 5): the icon printed on oasis storage space {_n(m)}.",
            lambda m: list(STORAGE_ICONS)),
    KeySpec(r"office\.(?P<n>[1-9]\d?)\.(?P<c>" + "|".join(GOODS) + ")",
            lambda m: f"Exchange office {_n(m)}: {m.group('c')}",
            lambda m: f"Exchange office tile {_n(m)}: what it gives for 1 {m.group('c')} goods keshi.",
            lambda m: bundle_options()),
    KeySpec(r"office\.(?P<n>[1-9]\d?)\.new\.(?P<c>" + "|".join(GOODS) + ")",
            lambda m: f"Exchange office {_n(m)} new side: {m.group('c')}",
            lambda m: f"Exchange office tile {_n(m)}, dark-green side (expansion 3): the resource and bonus it "
                      f"gives for 1 {m.group('c')} goods keshi.",
            lambda m: [dict(r) for r in NEW_OFFICE_REWARDS]),
    KeySpec(r"luxury\.(?P<n>[1-9]\d?)\.cost",
            lambda m: f"Luxury good {_n(m)}: cost",
            lambda m: f"Luxury-good tile {_n(m)}: the goods keshis printed as its price.",
            lambda m: [dict(b) for b in GOODS_BUNDLES]),
    KeySpec(r"luxury\.(?P<n>[1-9]\d?)\.reward",
            lambda m: f"Luxury good {_n(m)}: reward",
            lambda m: f"Luxury-good tile {_n(m)}: the points and resources it gives.",
            lambda m: [dict(b) for b in LUXURY_REWARDS]),
    KeySpec(r"luxury\.(?P<n>[1-9]\d?)\.type",
            lambda m: f"Luxury good {_n(m)}: kind",
            lambda m: f"Luxury-good tile {_n(m)}: which good it shows.",
            lambda m: list(LUXURY_KINDS)),
    KeySpec(r"provision\.(?P<n>[1-9]\d?)\.demand",
            lambda m: f"Provision tile {_n(m)}: demand",
            lambda m: f"Provision tile {_n(m)}: the resources it demands.",
            lambda m: bundle_options(4)),
    KeySpec(r"provision\.(?P<n>[1-9]\d?)\.points",
            lambda m: f"Provision tile {_n(m)}: points",
            lambda m: f"Provision tile {_n(m)}: the penalty points printed on it.",
            lambda m: list(range(0, 9))),
    KeySpec(r"scroll\.(?P<n>[1-9]\d?)\.colour",
            lambda m: f"Scroll {_n(m)}: keshi",
            lambda m: f"Scroll {_n(m)}: the keshi colour it shows.",
            lambda m: list(COLOURS)),
    KeySpec(r"scroll\.(?P<n>[1-9]\d?)\.goods",
            lambda m: f"Scroll {_n(m)}: goods",
            lambda m: f"Scroll {_n(m)}: the two goods keshis it shows.",
            lambda m: [[a, b] for i, a in enumerate(GOODS) for b in GOODS[i:]],
            parts=("First goods keshi", "Second goods keshi")),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.colours",
            lambda m: f"Oasis {_n(m)}: gate colours",
            lambda m: f"Oasis tile {_n(m)}: the gate colours it scores.",
            lambda m: list(COLOURS), multi=True),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.points",
            lambda m: f"Oasis {_n(m)}: points",
            lambda m: f"Oasis tile {_n(m)}: the points per gate or per luxury good printed on it.",
            lambda m: list(range(1, 5))),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.colour",
            lambda m: f"Oasis {_n(m)}: colour",
            lambda m: f"Oasis tile {_n(m)}: the keshi colour it shows.",
            lambda m: [c for c in COLOURS if c not in GOODS]),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.luxury",
            lambda m: f"Oasis {_n(m)}: luxury good",
            lambda m: f"Oasis tile {_n(m)}: the luxury good it scores.",
            lambda m: list(LUXURY_KINDS)),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.resource",
            lambda m: f"Oasis {_n(m)}: resource",
            lambda m: f"Oasis tile {_n(m)}: the resource it shows.",
            lambda m: list(RESOURCES)),
)

_COMPILED: tuple[tuple[re.Pattern[str], KeySpec], ...] = tuple((re.compile(s.pattern), s) for s in SPECS)


class UnknownKey(ValueError):
    """The key names no printed value the engine asks about."""


@dataclass(frozen=True)
class KeyInfo:
    """One concrete key: its title, where it is printed, its possible values."""

    key: str
    title: str
    where: str
    options: list[Any]
    multi: bool
    parts: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "where": self.where, "options": self.options,
                "multi": self.multi, "parts": list(self.parts)}


def info(key: str) -> KeyInfo:
    """The catalogue entry of ``key``; ``UnknownKey`` when no printed value has that name."""
    if isinstance(key, str):
        for regex, spec in _COMPILED:
            m = regex.fullmatch(key)
            if m is not None:
                return KeyInfo(key, spec.title(m), spec.where(m), spec.options(m), spec.multi, spec.parts)
    raise UnknownKey(f"{key!r} is not a printed value the companion asks about")


def board_keys() -> list[str]:
    """The printed values of the boards themselves (not of tiles drawn per game), which a table can
    enter once before its first game instead of being asked during play: the main square and the
    audience disc, the staircases' segments, the city gates and workshops, the Sahara's costs, the
    supply board's storage spaces. (River spaces are left to play: the river's length is not known.)"""
    return [*(f"square.position.{space}" for space in SQUARE_BONUSES), *(f"disc.section.{n}" for n in range(8)),
            "palace.segment_starts", "mosque.segment_starts", *(f"gate_space.{n}" for n in range(1, 9)),
            *(f"workshop.{n}.{what}" for n in range(4) for what in ("price", "points")),
            *(f"sahara.cost.{side}.{n}" for side in ("left", "right") for n in range(1, 4)),
            *(f"storage.{n}" for n in range(1, 7))]


def reading_order(key: str) -> tuple[Any, ...]:
    """Sort key for showing keys: by component, then by the numbers in the key (oasis 2 before oasis 10),
    then in the catalogue's order (segments 2-3, segment 4, final step)."""
    spec = next((i for i, (regex, _) in enumerate(_COMPILED) if regex.fullmatch(key)), len(_COMPILED))
    return key.split(".")[0], [int(part) for part in key.split(".") if part.isdigit()], spec, key


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``1`` and ``True`` differ; key order of objects does not matter)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check_value(key: str, value: Any) -> str | None:
    """Why ``value`` cannot be the printed value ``key`` (player words), or None when it can."""
    entry = info(key)
    if entry.multi:
        if not isinstance(value, list) or not value:
            return f"{entry.title}: choose at least one value, as a list"
        if len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
            return f"{entry.title}: a value is listed twice"
        bad = [v for v in value if not any(_same(v, o) for o in entry.options)]
        if bad:
            return f"{entry.title}: {bad[0]!r} is not a possible value"
        return None
    if not any(_same(value, o) for o in entry.options):
        return f"{entry.title}: {value!r} is not a possible value"
    return None
