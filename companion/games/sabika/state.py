"""The mutable state of a Sabika game: the Main Board and each player's Workshop.

Plain dataclasses; ``to_dict`` gives a JSON-ready view (two games are equal iff their views are).
Storehouses are modelled as one pool: Materials and Goods never move between Storehouses (L308) and
any item fits wherever there is a free Store Box, so only the total capacity ever matters; each
Storehouse still records its expansion tiles (at most 2, L527).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from companion.games.sabika.components import GOODS, ITEMS, SHIPS, START_PP, WORKERS


@dataclass
class Worker:
    """A Worker: the square it stands on (None = in the Workshop) and whether it is standing (active)."""

    at: int | None = None
    active: bool = True


@dataclass
class PlayerState:
    """One player's Workshop, tokens and tracks."""

    name: str
    balance_card: int
    start_tiles: list[int]
    start_tile: int | None = None
    score: int = START_PP
    breakdown: dict[str, int] = field(default_factory=lambda: {"start": START_PP})
    dinars: int = 0
    parias: int = 0
    paria_stamp: int = 0
    favour: int = 0
    seals: int = 0
    items: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ITEMS, 0))
    poem_goods: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GOODS, 0))
    """Goods (among ``items``) kept in Minor Poem 16*'s special Storehouse (L1094-1097)."""
    raws: list[str] = field(default_factory=list)
    storehouses: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    workers: dict[str, Worker] = field(default_factory=lambda: {w: Worker() for w in WORKERS})
    ships: dict[int, str] = field(default_factory=dict)
    major_tiles: list[str] = field(default_factory=list)
    minor_row: list[int] = field(default_factory=lambda: [0])
    balances: int = 0
    blue_poems: list[int] = field(default_factory=list)
    red_poems: list[int] = field(default_factory=list)
    grey_poems: list[str] = field(default_factory=list)

    def gain_pp(self, amount: int, category: str) -> None:
        """Add (or with a negative amount, lose) PP under ``category`` of the breakdown."""
        if amount:
            self.score += amount
            self.breakdown[category] = self.breakdown.get(category, 0) + amount

    def held(self) -> int:
        """Materials and Goods in the Workshop's Storehouses (not in Minor Poem 16*'s)."""
        return sum(self.items.values()) - sum(self.poem_goods.values())

    def remove_good(self, good: str) -> None:
        """A Good leaves: from Minor Poem 16*'s Storehouse first (docs/sabika.md), else a Storehouse."""
        self.items[good] -= 1
        if self.poem_goods[good]:
            self.poem_goods[good] -= 1

    def ships_home(self) -> int:
        """Ships still in the Kingdom of Granada."""
        return SHIPS - len(self.ships)

    def poems(self) -> int:
        """Poem Cards of every colour."""
        return len(self.blue_poems) + len(self.red_poems) + len(self.grey_poems)

    def constructions(self) -> int:
        """Major and Minor Constructions (the Architectural Balance Card, 0 in the row, is not one)."""
        return len(self.major_tiles) + len(self.minor_row) - 1

    def active_workers(self) -> list[str]:
        """Standing Workers, in Workshop order."""
        return [w for w in WORKERS if self.workers[w].active]


@dataclass
class GameState:
    """The whole game: board, decks, displays, players, phase and pending decision."""

    setup: dict[str, Any]
    profile: dict[str, Any]
    players: list[PlayerState]
    phase: str = "setup"
    round: int = 1
    narrator: int = 1
    start_player: int = 0
    turn: int = 0
    pending: dict[str, Any] | None = None
    stack: list[dict[str, Any]] = field(default_factory=list)
    draws: int = 0
    stamp: int = 0
    refreshed: bool = False
    raw_spots: list[str | None] = field(default_factory=list)
    marble_spots: list[bool] = field(default_factory=list)
    bag: dict[str, int] = field(default_factory=dict)
    discard: dict[str, int] = field(default_factory=dict)
    minor_deck: list[int] = field(default_factory=list)
    minor_display: list[int | None] = field(default_factory=list)
    minor_discard: list[int] = field(default_factory=list)
    poem_deck: list[int] = field(default_factory=list)
    poem_display: list[int | None] = field(default_factory=list)
    major_poems: list[str | None] = field(default_factory=list)
    store_piles: list[list[int]] = field(default_factory=list)
    store_display: list[list[int | None]] = field(default_factory=list)
    major_tiles: dict[str, list[int]] = field(default_factory=dict)
    city_tiles: list[int] = field(default_factory=list)
    seals: list[bool] = field(default_factory=list)
    trade_card: int = 0
    wish_track: dict[int, str] = field(default_factory=dict)
    wish_tower: list[str] = field(default_factory=list)
    sultan_workers: list[list[Any]] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    event_at: int = 0
    finished: bool = False
    final: dict[str, Any] = field(default_factory=dict)
    yusuf: dict[str, Any] = field(default_factory=dict)
    """Solo mode: the automa's Worker Decks, Discard Piles, Poems carved (``yusuf.new_state``); empty otherwise."""

    def order(self, first: int | None = None) -> list[int]:
        """Seats in clockwise order from ``first`` (default: the Starting Player)."""
        n = len(self.players)
        start = self.start_player if first is None else first
        return [(start + k) % n for k in range(n)]

    def era(self) -> str:
        """``"I"`` on narrator spaces 1-2, ``"II"`` from space 3 on (L414-415, L1002-1006)."""
        return "I" if self.narrator <= 2 else "II"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the whole state."""
        out = dataclasses.asdict(self)
        out["wish_track"] = {str(k): v for k, v in self.wish_track.items()}
        for p in out["players"]:
            p["ships"] = {str(k): v for k, v in p["ships"].items()}
        return out
