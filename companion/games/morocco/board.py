"""The Morocco board: market geometry, rooftop, cube colours, market die and component counts.

Sources: MOR:Lnnn = shared/rules/morocco-en.txt. What the text proves:

* 5 market rows and 5 market columns, one information cube of each colour per axis (MOR:L38), so
  5 x 5 = 25 stalls; every stall has four spaces (MOR:L79). The cousins example (MOR:L108: "either
  of the spaces shown by the white arrows") has two spaces of other stalls next to one space, so a
  stall is a 2 x 2 block and spaces touch orthogonally: the market is 10 x 10 spaces.
* 36 juice seller tokens, one on each corresponding space (MOR:L11, L36): the 6 x 6 stall corners.
  Each worker space touches exactly one of them (the stall corner at that space), which is the token
  "adjacent to" a worker (MOR:L135).
* The rooftop: a centre space (the pawn's start, MOR:L40) and 5 outer spaces holding one cube each
  (MOR:L38). A pawn on an outer space yields "two cubes: one for each cube on the spaces adjacent"
  (MOR:L59), so each outer space touches exactly two cube spaces: the only such layout of 5 spaces
  is a ring (outer space k touches k-1 and k+1).
* Per player: 2 cousins tokens, 2 tourists, 2 bodyguards, 12 assistants, 12 market tiles (MOR:L32);
  15 gold coins, at most 3 per player (MOR:L15, L165); 12 empty stall tiles (MOR:L16).

Coordinates: a stall is ``(row, column)`` 0-4 (index ``row * 5 + column``), a space ``(y, x)`` 0-9
(index ``y * 10 + x``; its stall is ``(y // 2, x // 2)``), a juice corner ``(cy, cx)`` 0-5.
People see rows and columns counted from 1.
"""

from __future__ import annotations

from functools import cache

SIZE = 5
"""Stalls per market row and per market column (MOR:L38)."""
SPACES_PER_SIDE = 2 * SIZE
CORNERS_PER_SIDE = SIZE + 1
STALLS = SIZE * SIZE
SPACES = SPACES_PER_SIDE * SPACES_PER_SIDE
CORNERS = CORNERS_PER_SIDE * CORNERS_PER_SIDE
STALL_SPACES = 4
"""All stalls have four spaces (MOR:L79); a stall is full at a count of four (MOR:L117)."""
FULL_AT = 4

CUBE_COLOURS: tuple[str, ...] = ("green", "orange", "brown", "blue", "white")
"""The five information-cube colours. The text names green, orange and brown (MOR:L65, L112); the
other two are called blue and white here (names only, see docs/morocco.md)."""
WILD = "wild"
DIE_FACES: tuple[str, ...] = (*CUBE_COLOURS, WILD)
"""What the market die can show: a cube colour or the wild face (MOR:L69)."""

ROOFTOP_CENTRE = 0
ROOFTOP_OUTER: tuple[int, ...] = (1, 2, 3, 4, 5)

WORKERS: tuple[str, ...] = ("assistant", "bodyguard", "tourist", "cousins")
"""What a player may play (MOR:L88-100); ``cousins`` plays two assistants."""
WEIGHT = {"assistant": 1, "tourist": 1, "bodyguard": 2}
"""Worker count per worker (MOR:L119)."""

ASSISTANTS = 12
TOURISTS = 2
BODYGUARDS = 2
COUSINS = 2
MARKET_TILES = 12
EMPTY_STALL_TILES = 12
GOLD_COINS = 15
GOLD_MAX = 3
JUICE_VALUES: tuple[int, ...] = (2, 3, 4)
"""A juice seller token shows 2, 3 or 4 VP (MOR:L185)."""
FINAL_TRIGGER = 5
"""Closing a stall that leaves this many open stalls or fewer triggers the final round (MOR:L179)."""
DISTRICT_VP = 3
"""VP per market tile in the largest contiguous group (MOR:L186)."""

DIRECTIONS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def stall_of(space: int) -> int:
    """The stall index holding ``space``."""
    y, x = divmod(space, SPACES_PER_SIDE)
    return (y // 2) * SIZE + x // 2


def stall_row_col(stall: int) -> tuple[int, int]:
    """``(row, column)`` 0-4 of ``stall``."""
    return divmod(stall, SIZE)


@cache
def stall_spaces(stall: int) -> tuple[int, ...]:
    """The four space indices of ``stall`` (top-left, top-right, bottom-left, bottom-right)."""
    r, c = stall_row_col(stall)
    return tuple((2 * r + dy) * SPACES_PER_SIDE + 2 * c + dx for dy in (0, 1) for dx in (0, 1))


@cache
def corner_of(space: int) -> int:
    """The juice-seller corner touching ``space``: the corner of its stall on that space's side."""
    y, x = divmod(space, SPACES_PER_SIDE)
    return (y // 2 + y % 2) * CORNERS_PER_SIDE + x // 2 + x % 2


@cache
def space_neighbours(space: int) -> tuple[int, ...]:
    """Spaces orthogonally next to ``space``."""
    y, x = divmod(space, SPACES_PER_SIDE)
    out = []
    for dy, dx in DIRECTIONS.values():
        ny, nx = y + dy, x + dx
        if 0 <= ny < SPACES_PER_SIDE and 0 <= nx < SPACES_PER_SIDE:
            out.append(ny * SPACES_PER_SIDE + nx)
    return tuple(out)


@cache
def cousin_spaces(space: int) -> tuple[int, ...]:
    """Spaces where a cousin's second assistant may go: next to ``space``, in a different stall (MOR:L100)."""
    return tuple(n for n in space_neighbours(space) if stall_of(n) != stall_of(space))


@cache
def stall_neighbours(stall: int) -> dict[str, int]:
    """Direction -> the stall next to ``stall`` in that direction (only those on the board)."""
    r, c = stall_row_col(stall)
    out = {}
    for name, (dr, dc) in DIRECTIONS.items():
        nr, nc = r + dr, c + dc
        if 0 <= nr < SIZE and 0 <= nc < SIZE:
            out[name] = nr * SIZE + nc
    return out


def rooftop_neighbours(space: int) -> tuple[int, int]:
    """The two outer rooftop spaces next to outer space ``space`` (a ring of five, MOR:L59)."""
    return (space - 2) % 5 + 1, space % 5 + 1


def stall_text(stall: int) -> str:
    """``"the stall in row 2, column 3"`` (counted from 1, as people count)."""
    r, c = stall_row_col(stall)
    return f"the stall in row {r + 1}, column {c + 1}"


def a_worker(worker: str) -> str:
    """``"an assistant"``, ``"a bodyguard"``, ``"a cousins token"`` for messages."""
    if worker == "cousins":
        return "a cousins token"
    return f"an {worker}" if worker[:1] in "aeiou" else f"a {worker}"

