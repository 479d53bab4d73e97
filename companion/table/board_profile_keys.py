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
from companion.games.common.decisions import bundle_options
from companion.games.marrakesh.board import GOODS, RESOURCES, SECTOR_COLOUR, SQUARE_BONUSES
from companion.games.marrakesh.effects import LINE_BONUS_KINDS, RIVER_SPACE_KINDS, SEGMENT_PAIRS
from companion.games.marrakesh.expansions import NEW_OFFICE_REWARDS
from companion.games.marrakesh.sectors import GOODS_BUNDLES, LUXURY_REWARDS
from companion.i18n import Msg, colour_name, path_name, square_name

LUXURY_KINDS: list[str] = ["slipper", "tajine", "dagger", "oil_lamp", "necklace"]
STORAGE_ICONS: list[str] = ["keshi", "exchange", "scroll", "none"]
#: How the audience disc's sections are numbered (shown with every disc question and in the docs).
DISC_NUMBERING = Msg("Your table picks one section of the audience discs once as section 0 and counts the others "
                     "1 to 7 clockwise; at setup each player says which ring position section 0 faces.")
#: How the main-square ring positions are numbered.
RING_NUMBERING = Msg("Ring positions are 0 to 7, clockwise, starting with the space at the top of the main square.")


@dataclass(frozen=True)
class KeySpec:
    """One family of profile keys: a regex over the key, and from its match a title, a description
    of where the value is printed (both messages, rendered in the reader's language), and the possible
    values (``multi``: a set of them)."""

    pattern: str
    title: Callable[[re.Match[str]], Msg]
    where: Callable[[re.Match[str]], Msg]
    options: Callable[[re.Match[str]], list[Any]]
    multi: bool = False
    #: for values made of parts (a pair of steps, two goods): what each part is, in player words
    parts: tuple[Msg, ...] = ()


def _n(m: re.Match[str], group: str = "n") -> int:
    return int(m.group(group))


def _palace(m: re.Match[str]) -> bool:
    """Whether the key's building (group ``w``) is the palace rather than the mosque."""
    return m.group("w").startswith("palace")


def _line(text: str) -> Callable[[re.Match[str]], Msg]:
    """A message about the line joining palace segment ``p`` and mosque segment ``m``."""
    return lambda m: Msg(text, palace=m.group("p"), mosque=m.group("m"))


#: The river spaces a profile can name (``river.space.1`` to ``river.space.99``): far past any printed river,
#: and the bound the Board page lists up to when the table never names the jetty.
RIVER_SPACES_AT_MOST = 99

SPECS: tuple[KeySpec, ...] = (
    KeySpec(r"river\.space\.(?P<n>[1-9]\d?)",
            lambda m: Msg("River space {n}", n=_n(m)),
            lambda m: Msg("Main board, river track: the print on space {n}, counting from the fishermen's "
                          "start (plain water, a rapid with its bonus, or the jetty).", n=_n(m)),
            lambda m: list(RIVER_SPACE_KINDS)),
    KeySpec(r"river\.jetty\.(?P<n>[1-8])",
            lambda m: Msg("Jetty spot {n}", n=_n(m)),
            lambda m: Msg("Main board, the jetty at the end of the river: the points on spot {n} from the top.",
                          n=_n(m)),
            lambda m: list(range(1, 9))),
    KeySpec(r"river\.crocodile",
            lambda m: Msg("Crocodile on the river"),
            lambda m: Msg("River tile 09 and the river track: the space showing the crocodile, counting from the "
                          "start."),
            lambda m: list(range(1, 16))),
    KeySpec(r"(?P<w>palace|mosque)\.segment_starts",
            lambda m: Msg("Palace segments 2 and 3") if _palace(m) else Msg("Mosque segments 2 and 3"),
            lambda m: (Msg("Player board, palace staircase: the steps where the 2nd and 3rd segments begin (after a "
                           "threshold line), counting steps from the start.") if _palace(m) else
                       Msg("Player board, mosque staircase: the steps where the 2nd and 3rd segments begin (after a "
                           "threshold line), counting steps from the start.")),
            lambda m: [list(p) for p in SEGMENT_PAIRS],
            parts=(Msg("Segment 2 begins at step"), Msg("Segment 3 begins at step"))),
    KeySpec(r"(?P<w>palace|mosque)\.segment4_start",
            lambda m: Msg("Palace segment 4") if _palace(m) else Msg("Mosque segment 4"),
            lambda m: (Msg("Player board, palace staircase: the step where the 4th segment begins.") if _palace(m)
                       else Msg("Player board, mosque staircase: the step where the 4th segment begins.")),
            lambda m: list(range(3, 16))),
    KeySpec(r"(?P<w>palace|mosque)\.final_step",
            lambda m: Msg("Palace final step") if _palace(m) else Msg("Mosque final step"),
            lambda m: (Msg("Player board, palace staircase: the step number of the final space.") if _palace(m)
                       else Msg("Player board, mosque staircase: the step number of the final space.")),
            lambda m: list(range(4, 21))),
    KeySpec(r"line\.(?P<p>[1-5])\.(?P<m>[1-5])",
            _line("Line palace {palace} – mosque {mosque}"),
            _line("Player board, the bonus field between the staircases: every bonus on the line joining palace "
                  "segment {palace} and mosque segment {mosque}."),
            lambda m: list(LINE_BONUS_KINDS), multi=True),
    KeySpec(r"line\.(?P<p>[1-5])\.(?P<m>[1-5])\.spaces",
            _line("Line palace {palace} – mosque {mosque}: covered spaces"),
            _line("Player board with staircase tiles (expansion 1): the coverable spaces (1-12, in the order the "
                  "tiles are laid from the bottom left) on the line joining palace segment {palace} and mosque "
                  "segment {mosque}."),
            lambda m: ["none", *range(1, 13)], multi=True),
    KeySpec(r"line\.(?P<p>[1-5])\.(?P<m>[1-5])\.fixed",
            _line("Line palace {palace} – mosque {mosque}: fixed bonuses"),
            _line("Player board with staircase tiles (expansion 1): the bonuses that tiles never cover (dinar and "
                  "point spaces beside the staircases, the 2 topmost and the lowest space) on the line joining "
                  "palace segment {palace} and mosque segment {mosque}."),
            lambda m: list(LINE_BONUS_KINDS), multi=True),
    KeySpec(r"stair_tile\.(?P<n>[1-9]\d?)\.(?P<side>[AB])",
            lambda m: Msg("Staircase tile {n} side {side}", n=_n(m), side=m.group("side")),
            lambda m: Msg("Staircase tile {n} (expansion 1): the bonus printed on side {side}.", n=_n(m),
                          side=m.group("side")),
            lambda m: list(LINE_BONUS_KINDS)),
    KeySpec(r"(?P<w>palace\.sultan|mosque\.imam)_step",
            lambda m: Msg("Sultan start step") if _palace(m) else Msg("Imam start step"),
            lambda m: (Msg("Player board, palace staircase (expansion 2): the step with the small sultan picture, "
                           "where the figure waits, counting from the start.") if _palace(m) else
                       Msg("Player board, mosque staircase (expansion 2): the step with the small imam picture, "
                           "where the figure waits, counting from the start.")),
            lambda m: list(range(1, 20))),
    KeySpec(r"square\.position\.(?P<space>" + "|".join(SQUARE_BONUSES) + ")",
            lambda m: Msg("Main square: {space} space", space=square_name(m.group("space"))),
            lambda m: Msg("Player board, main square: the ring position of the {space} space. {numbering}",
                          space=square_name(m.group("space")), numbering=RING_NUMBERING),
            lambda m: list(range(8))),
    KeySpec(r"disc\.section\.(?P<n>[0-7])",
            lambda m: Msg("Audience disc section {n} (pink side)", n=_n(m)),
            lambda m: Msg("Audience disc, pink side: the spectators printed on section {n}. {numbering}", n=_n(m),
                          numbering=DISC_NUMBERING),
            lambda m: list(range(0, 5))),
    KeySpec(r"disc\.purple\.section\.(?P<n>[0-7])",
            lambda m: Msg("Audience disc section {n} (purple side)", n=_n(m)),
            lambda m: Msg("Audience disc, purple side (expansion 4): the spectators printed on section {n}. "
                          "{numbering}", n=_n(m), numbering=DISC_NUMBERING),
            lambda m: list(range(0, 5))),
    KeySpec(r"workshop\.(?P<n>[0-3])\.price",
            lambda m: Msg("Workshop {n}: price", n=_n(m) + 1),
            lambda m: Msg("Main board, city-gate workshop {n} from the left: the dinar price printed on it.",
                          n=_n(m) + 1),
            lambda m: list(range(0, 6))),
    KeySpec(r"workshop\.(?P<n>[0-3])\.points",
            lambda m: Msg("Workshop {n}: points", n=_n(m) + 1),
            lambda m: Msg("Main board, city-gate workshop {n} from the left: the points it gives (negative: points "
                          "lost).", n=_n(m) + 1),
            lambda m: list(range(-5, 11))),
    KeySpec(r"gate_space\.(?P<n>[1-9]\d?)",
            lambda m: Msg("City-gate space {n}", n=_n(m)),
            lambda m: Msg("Player board, the medina's city gates: the colour printed on gate space {n}.", n=_n(m)),
            lambda m: [*SECTOR_COLOUR.values(), *GOODS]),
    KeySpec(r"sahara\.cost\.(?P<side>left|right)\.(?P<n>[1-4])",
            lambda m: Msg("Sahara {side} path, space {n}: cost", side=path_name(m.group("side")), n=_n(m)),
            lambda m: Msg("Player board, Sahara: the resources printed on the highlighted space beside oasis {n} of "
                          "the {side} path (the price of claiming it).", n=_n(m), side=path_name(m.group("side"))),
            lambda m: bundle_options()),
    KeySpec(r"storage\.(?P<n>[1-6])",
            lambda m: Msg("Storage space {n}", n=_n(m)),
            lambda m: Msg("Supply board: the icon printed on oasis storage space {n} (a keshi space, the exchange "
                          "icon, the scroll icon, or nothing).", n=_n(m)),
            lambda m: list(STORAGE_ICONS)),
    KeySpec(r"storage\.reverse\.(?P<n>[1-6])",
            lambda m: Msg("Storage space {n} (reverse side)", n=_n(m)),
            lambda m: Msg("Supply board, reverse side (expansion 5): the icon printed on oasis storage space {n}.",
                          n=_n(m)),
            lambda m: list(STORAGE_ICONS)),
    KeySpec(r"office\.(?P<n>[1-9]\d?)\.(?P<c>" + "|".join(GOODS) + ")",
            lambda m: Msg("Exchange office {n}: {colour}", n=_n(m), colour=colour_name(m.group("c"))),
            lambda m: Msg("Exchange office tile {n}: what it gives for 1 {colour} goods keshi.", n=_n(m),
                          colour=colour_name(m.group("c"))),
            lambda m: bundle_options()),
    KeySpec(r"office\.(?P<n>[1-9]\d?)\.new\.(?P<c>" + "|".join(GOODS) + ")",
            lambda m: Msg("Exchange office {n} new side: {colour}", n=_n(m), colour=colour_name(m.group("c"))),
            lambda m: Msg("Exchange office tile {n}, dark-green side (expansion 3): the resource and bonus it gives "
                          "for 1 {colour} goods keshi.", n=_n(m), colour=colour_name(m.group("c"))),
            lambda m: [dict(r) for r in NEW_OFFICE_REWARDS]),
    KeySpec(r"luxury\.(?P<n>[1-9]\d?)\.cost",
            lambda m: Msg("Luxury good {n}: cost", n=_n(m)),
            lambda m: Msg("Luxury-good tile {n}: the goods keshis printed as its price.", n=_n(m)),
            lambda m: [dict(b) for b in GOODS_BUNDLES]),
    KeySpec(r"luxury\.(?P<n>[1-9]\d?)\.reward",
            lambda m: Msg("Luxury good {n}: reward", n=_n(m)),
            lambda m: Msg("Luxury-good tile {n}: the points and resources it gives.", n=_n(m)),
            lambda m: [dict(b) for b in LUXURY_REWARDS]),
    KeySpec(r"luxury\.(?P<n>[1-9]\d?)\.type",
            lambda m: Msg("Luxury good {n}: kind", n=_n(m)),
            lambda m: Msg("Luxury-good tile {n}: which good it shows.", n=_n(m)),
            lambda m: list(LUXURY_KINDS)),
    KeySpec(r"provision\.(?P<n>[1-9]\d?)\.demand",
            lambda m: Msg("Provision tile {n}: demand", n=_n(m)),
            lambda m: Msg("Provision tile {n}: the resources it demands.", n=_n(m)),
            lambda m: bundle_options(4)),
    KeySpec(r"provision\.(?P<n>[1-9]\d?)\.points",
            lambda m: Msg("Provision tile {n}: points", n=_n(m)),
            lambda m: Msg("Provision tile {n}: the penalty points printed on it.", n=_n(m)),
            lambda m: list(range(0, 9))),
    KeySpec(r"scroll\.(?P<n>[1-9]\d?)\.colour",
            lambda m: Msg("Scroll {n}: keshi", n=_n(m)),
            lambda m: Msg("Scroll {n}: the keshi colour it shows.", n=_n(m)),
            lambda m: list(COLOURS)),
    KeySpec(r"scroll\.(?P<n>[1-9]\d?)\.goods",
            lambda m: Msg("Scroll {n}: goods", n=_n(m)),
            lambda m: Msg("Scroll {n}: the two goods keshis it shows.", n=_n(m)),
            lambda m: [[a, b] for i, a in enumerate(GOODS) for b in GOODS[i:]],
            parts=(Msg("First goods keshi"), Msg("Second goods keshi"))),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.colours",
            lambda m: Msg("Oasis {n}: gate colours", n=_n(m)),
            lambda m: Msg("Oasis tile {n}: the gate colours it scores.", n=_n(m)),
            lambda m: list(COLOURS), multi=True),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.points",
            lambda m: Msg("Oasis {n}: points", n=_n(m)),
            lambda m: Msg("Oasis tile {n}: the points per gate or per luxury good printed on it.", n=_n(m)),
            lambda m: list(range(1, 5))),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.colour",
            lambda m: Msg("Oasis {n}: colour", n=_n(m)),
            lambda m: Msg("Oasis tile {n}: the keshi colour it shows.", n=_n(m)),
            lambda m: [c for c in COLOURS if c not in GOODS]),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.luxury",
            lambda m: Msg("Oasis {n}: luxury good", n=_n(m)),
            lambda m: Msg("Oasis tile {n}: the luxury good it scores.", n=_n(m)),
            lambda m: list(LUXURY_KINDS)),
    KeySpec(r"oasis\.(?P<n>[1-9]\d?)\.resource",
            lambda m: Msg("Oasis {n}: resource", n=_n(m)),
            lambda m: Msg("Oasis tile {n}: the resource it shows.", n=_n(m)),
            lambda m: list(RESOURCES)),
)

_COMPILED: tuple[tuple[re.Pattern[str], KeySpec], ...] = tuple((re.compile(s.pattern), s) for s in SPECS)


class UnknownKey(ValueError):
    """The key names no printed value the engine asks about."""


@dataclass(frozen=True)
class KeyInfo:
    """One concrete key: its title, where it is printed (both in the language of the moment, see
    ``companion.i18n.LOCALE``: a web request's), its possible values."""

    key: str
    title: str
    where: str
    options: list[Any]
    multi: bool
    parts: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "where": self.where, "options": self.options,
                "multi": self.multi, "parts": list(self.parts)}


def spec_of(key: str) -> tuple[KeySpec, re.Match[str]] | None:
    """The catalogue family of ``key`` and the key's match against it; None for an unknown key."""
    if isinstance(key, str):
        for regex, spec in _COMPILED:
            m = regex.fullmatch(key)
            if m is not None:
                return spec, m
    return None


def info(key: str) -> KeyInfo:
    """The catalogue entry of ``key`` in the current language; ``UnknownKey`` when no printed value has that name."""
    found = spec_of(key)
    if found is None:
        raise UnknownKey(Msg("{key!r} is not a printed value the companion asks about", key=key))
    spec, m = found
    return KeyInfo(key, str(spec.title(m)), str(spec.where(m)), spec.options(m), spec.multi,
                   tuple(str(part) for part in spec.parts))


def reading_order(key: str) -> tuple[Any, ...]:
    """Sort key for showing keys: by component, then by the numbers in the key (oasis 2 before oasis 10),
    then in the catalogue's order (segments 2-3, segment 4, final step)."""
    spec = next((i for i, (regex, _) in enumerate(_COMPILED) if regex.fullmatch(key)), len(_COMPILED))
    return key.split(".")[0], [int(part) for part in key.split(".") if part.isdigit()], spec, key


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``1`` and ``True`` differ; key order of objects does not matter)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check_value(key: str, value: Any) -> str | None:
    """Why ``value`` cannot be the printed value ``key`` (player words, in the current language), or None."""
    entry = info(key)
    if entry.multi:
        if not isinstance(value, list) or not value:
            return str(Msg("{title}: choose at least one value, as a list", title=entry.title))
        if len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
            return str(Msg("{title}: a value is listed twice", title=entry.title))
        bad = [v for v in value if not any(_same(v, o) for o in entry.options)]
        if bad:
            return str(Msg("{title}: {value!r} is not a possible value", title=entry.title, value=bad[0]))
        return None
    if not any(_same(value, o) for o in entry.options):
        return str(Msg("{title}: {value!r} is not a possible value", title=entry.title, value=value))
    return None
