"""Fixed facts of the Essential player board and game structure that the rulebook text states.

Sources are cited as ``EN:L<line>`` = ``shared/rules/marrakesh-essential-en.txt`` line numbers, and
``digest §n`` = ``RULES_DIGEST.md`` section. Printed values the text does *not* give live in the
board profile (``profile.py``), never here.
"""

from __future__ import annotations

from companion import COLOURS

SEASONS = 3
ROUNDS = 4  # EN:L525-529 "3 seasons of 4 rounds"
ASSISTANTS = 3  # EN:L300-445 setup step 12
START_SCORE = 10  # setup step 10
LAP = 70  # 70/140 lap tiles (digest §16 D2)
TRACK_MAX = 8  # marker tracks 0-8 (EN:L631-641)
SECTOR_CAPACITY = 8  # "filled with 8 keshis" (EN:L631-636)

#: The 9 sectors of the player board (digest §2).
SECTORS: tuple[str, ...] = (
    "river", "date_orchard", "souk", "main_square", "madrasa", "palace", "mosque", "medina", "sahara",
)

#: Colour -> sector it sends an assistant to / is exchanged into (EN:L597-614, digest §2). Red is wild.
COLOUR_SECTOR: dict[str, str] = {
    "turquoise": "river",
    "green": "date_orchard",
    "gray": "madrasa",
    "white": "palace",
    "black": "mosque",
    "pink": "main_square",
    "beige": "medina",
    "brown": "sahara",
    "yellow": "souk",
    "orange": "souk",
    "purple": "souk",
}

MARKER_COLOURS: tuple[str, ...] = ("turquoise", "green", "gray", "white", "black")  # EN:L660-662
GOODS: tuple[str, ...] = ("yellow", "orange", "purple")  # souk goods, never complete (EN:L634-636)
RESOURCES: tuple[str, ...] = ("water", "dates", "dinars")

#: Sector -> the colour whose keshis fill it (souk: goods, no single colour).
SECTOR_COLOUR: dict[str, str] = {s: c for c, s in COLOUR_SECTOR.items() if c not in GOODS}

#: Sectors with a water-vendor space: every sector except the souk (EN:L616-624).
VENDOR_SECTORS: tuple[str, ...] = tuple(s for s in SECTORS if s != "souk")

#: Assistant spaces per sector: 1, the souk 3 (EN:L597-614, digest §6).
ASSISTANT_SPACES: dict[str, int] = {s: (3 if s == "souk" else 1) for s in SECTORS}

#: The 8 main-square space bonuses (EN:L852-875); a space is named by its bonus.
SQUARE_BONUSES: tuple[str, ...] = (
    "water", "date", "dinar", "2_points", "river_step", "palace_step", "mosque_step", "goods",
)

#: Sahara paths (EN:L1117-1160): two oasis paths of 3 spaces, the start-oasis path of 2.
SAHARA_PATHS: dict[str, int] = {"left": 3, "right": 3, "start": 2}

#: River-space kinds the table may name when asked (rapid bonus kinds EN:L1203-1245).
RAPID_BONUSES: tuple[str, ...] = ("1_point", "3_points", "resource", "goods")

#: Keshis drawn onto the oasis-storage track at setup: 3 with 2 players, else 2 (EN:L410-413).
STORAGE_KESHI_COLOURS: tuple[str, ...] = (
    "green", "gray", "white", "black", "turquoise", "pink", "beige", "red",
)


def storage_keshi_count(players: int) -> int:
    """Keshis each player draws onto the oasis-storage track (EN:L410-413)."""
    return 3 if players == 2 else 2


def wooden_total(colour: str) -> int:
    """Wooden keshis of ``colour`` in the box: 10 for marker colours, 6 otherwise (digest §3.1 [INF])."""
    return 10 if colour in MARKER_COLOURS else 6


def zero_counts() -> dict[str, int]:
    """A count of 0 for each of the 12 colours, in canonical order."""
    return {c: 0 for c in COLOURS}

UNKNOWN = "?"
"""Table draws: a colour or side the table has not named yet (a workshop's city gate, a storage-track
keshi, an exchange office's side); ``asked_draws`` asks it when play first needs it."""
