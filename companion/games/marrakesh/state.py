"""The mutable game state: one ``PlayerState`` per seat and the shared ``GameState``.

State is plain data (ints, strings, lists, dicts), so ``to_dict`` is a faithful JSON view and two
games are equal exactly when their ``to_dict()`` values are. Only ``Game`` mutates it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

from companion.games.marrakesh.board import MARKER_COLOURS, RESOURCES, START_SCORE, VENDOR_SECTORS, zero_counts


@dataclass
class PlayerState:
    """Everything on (or beside) one player's board."""

    name: str
    score: int = START_SCORE
    breakdown: dict[str, int] = field(default_factory=lambda: {"start": START_SCORE})
    resources: dict[str, int] = field(default_factory=lambda: {r: 1 for r in RESOURCES})
    screen: dict[str, int] = field(default_factory=zero_counts)
    placeholders: list[str] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    has_selected: bool = False
    assistants: list[str] = field(default_factory=list)
    claimed: list[str] = field(default_factory=list)
    markers: dict[str, int] = field(default_factory=lambda: {c: 0 for c in MARKER_COLOURS})
    goods: dict[str, int] = field(default_factory=lambda: {"yellow": 0, "orange": 0, "purple": 0})
    entertainers: list[str] = field(default_factory=list)
    watchtower: int = 0
    gates: list[dict[str, Any]] = field(default_factory=list)
    sahara: dict[str, int] = field(default_factory=lambda: {"left": 0, "right": 0, "start": 0})
    oases: list[int] = field(default_factory=list)
    discovered: list[bool] = field(default_factory=lambda: [False] * 6)
    claimed_oases: list[int] = field(default_factory=list)
    storage_keshis: list[str] = field(default_factory=list)
    water_vendors: list[str] = field(default_factory=list)
    fisherman: int = 0
    fisherman_arrival: int = 0
    jetty_spot: int | None = None
    palace: int = 0
    mosque: int = 0
    thresholds: int = 0
    scrolls: list[int] = field(default_factory=list)
    luxury_goods: list[int] = field(default_factory=list)
    provisions: list[int] = field(default_factory=list)
    revealed_provisions: list[int] = field(default_factory=list)
    disc_orientation: int = 0
    refreshed_round: int = 0
    souk_vendor: int = 0
    """Scroll 57: the round (1-12) its water vendor was placed in the souk; 0 = none."""
    river_steps: int = 0
    """River steps made this season (desert town 07; the crocodile head start is not a step)."""
    desert_towns: list[dict[str, Any]] = field(default_factory=list)
    """Expansion 5: ``{"path": "left"|"right", "number": n, "claimed": bool}`` per desert-town space used."""

    def add_points(self, category: str, points: int) -> None:
        """Move the scoring marker by ``points`` and book them under ``category``."""
        self.score += points
        self.breakdown[category] = self.breakdown.get(category, 0) + points

    def guards(self) -> int:
        """Guards in the medina: uncommitted on the watchtower plus committed at gates."""
        return self.watchtower + len(self.gates)

    def caravans(self) -> int:
        """Brown caravans on all Sahara paths."""
        return sum(self.sahara.values())

    def free_vendor_sectors(self) -> list[str]:
        """Sectors whose water-vendor space is still empty (EN:L616-624)."""
        return [s for s in VENDOR_SECTORS if s not in self.water_vendors]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy."""
        return {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)}


@dataclass
class GameState:
    """The shared state: trackers, tower, displays, effect stack and pending decision."""

    setup: dict[str, Any]
    players: list[PlayerState]
    profile: dict[str, Any]
    season: int = 1
    round: int = 1
    phase: str = "select"
    start_player: int = 0
    season_player: int = 0
    turn: int = 0
    tower_inside: dict[str, int] = field(default_factory=zero_counts)
    tossed_total: dict[str, int] = field(default_factory=zero_counts)
    released_total: dict[str, int] = field(default_factory=zero_counts)
    display: dict[str, int] = field(default_factory=zero_counts)
    supply: dict[str, int] = field(default_factory=zero_counts)
    returned_unclaimed: dict[str, int] = field(default_factory=zero_counts)
    tower_leftovers: dict[str, int] = field(default_factory=zero_counts)
    """Keshis that fell out of the tower without being believed inside (left from an earlier game or
    a miscounted toss): they joined the tower from the supply just before falling out."""
    stack: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None
    scroll_display: dict[str, list[int]] = field(default_factory=dict)
    scroll_stacks: dict[str, list[int]] = field(default_factory=dict)
    luxury_display: list[int] = field(default_factory=list)
    luxury_stack: list[int] = field(default_factory=list)
    exchange_offices: list[int] = field(default_factory=list)
    workshops: list[list[str]] = field(default_factory=list)
    river_tiles: list[int] = field(default_factory=list)
    jetty_taken: int = 0
    arrivals: int = 0
    finished: bool = False
    final: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Expansion 2: ``{"sultan"|"imam": {"holder": seat or None, "step": stair when unescorted}}``."""
    desert_town_display: list[int] = field(default_factory=list)
    """Expansion 5: desert towns still in the display (night side up)."""
    river_oases: list[int] = field(default_factory=list)
    """River tile 02: the leftover oases lying face up beside the board."""
    drawn: dict[str, Any] = field(default_factory=dict)
    """Table draws: the setup draws the table named when play first needed them (``asked_draws``),
    by the key of the ``draw`` decision that asked (``"draw.exchange_office.1"`` -> 4)."""

    def order(self, first: int | None = None) -> list[int]:
        """Seat indices clockwise from ``first`` (default: the start player)."""
        n = len(self.players)
        start = self.start_player if first is None else first
        return [(start + i) % n for i in range(n)]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy of everything (setup included)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = [p.to_dict() for p in value] if f.name == "players" else copy.deepcopy(value)
        return out
