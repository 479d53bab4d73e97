"""The Rondel's geometry from the board profile, and what a Worker's move costs (L454-481, L854-896).

``Layout`` is derived from the profile answers (square actions, squares covered in 3-player games,
Secondary Action links); ``Game`` rebuilds it when an answer changes the profile. Squares are
numbered 1.. clockwise as the table numbered them when answering; covered squares (Cancellation
Tiles, 3 players) are not squares at all: Workers skip them and do not count them as steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.sabika.components import RINGS, SECONDARY_COST
from companion.games.sabika.questions import side


@dataclass(frozen=True)
class Spot:
    """A Secondary Action square: ``kind`` raw or marble, number k, linked squares per ring."""

    kind: str
    k: int
    links: dict[str, int]

    @property
    def label(self) -> str:
        return f"{self.kind} {self.k}"


@dataclass(frozen=True)
class Layout:
    """Usable squares per ring (clockwise), each square's Main Action, the Secondary Action squares."""

    squares: dict[str, list[int]]
    action: dict[str, dict[int, str]]
    raw: list[Spot]
    marble: list[Spot]

    @classmethod
    def from_profile(cls, profile: dict[str, Any], players: int) -> Layout:
        sd = side(players)
        squares: dict[str, list[int]] = {}
        action: dict[str, dict[int, str]] = {}
        for ring in RINGS:
            size = int(profile[f"rondel.{sd}.{ring}.size"])
            usable = [sq for sq in range(1, size + 1)
                      if not (players == 3 and profile.get(f"rondel.{sd}.{ring}.{sq}.four_only") == "yes")]
            squares[ring] = usable
            action[ring] = {sq: str(profile[f"rondel.{sd}.{ring}.{sq}.action"]) for sq in usable}
        spots: dict[str, list[Spot]] = {}
        for kind, rings in (("raw", ("outer", "middle")), ("marble", ("middle", "inner"))):
            spots[kind] = [Spot(kind, k, {r: int(profile[f"rondel.{sd}.{kind}.{k}.{r}"]) for r in rings})
                           for k in range(1, int(profile[f"rondel.{sd}.{kind}_spots"]) + 1)]
        return cls(squares, action, spots["raw"], spots["marble"])

    def steps(self, ring: str, start: int | None, dest: int) -> int:
        """Clockwise steps from ``start`` to ``dest`` (0 from the Workshop: placing is free, L464-466)."""
        if start is None:
            return 0
        usable = self.squares[ring]
        return (usable.index(dest) - usable.index(start)) % len(usable)

    def spots_at(self, ring: str, square: int) -> list[Spot]:
        """The Secondary Action squares connected to ``square`` of ``ring``."""
        return self.links.get((ring, square), [])

    @property
    def links(self) -> dict[tuple[str, int], list[Spot]]:
        """(ring, square) -> its Secondary Action squares (computed once per layout)."""
        cached: dict[tuple[str, int], list[Spot]] | None = self.__dict__.get("_links")
        if cached is None:
            cached = {}
            for spot in self.raw + self.marble:
                for ring, square in spot.links.items():
                    cached.setdefault((ring, square), []).append(spot)
            object.__setattr__(self, "_links", cached)
        return cached

    def next_square(self, ring: str, square: int) -> int:
        """The usable square one step clockwise (the Sultan's Workers' move, L969-970)."""
        usable = self.squares[ring]
        return usable[(usable.index(square) + 1) % len(usable)] if square in usable else square


def move_cost(steps: int, others: int, event: int = 0) -> int:
    """Dinars for a move: each step after the second, and each other Worker on the square (L464-473).

    Events: 11 only the first step is free, 12 two Dinars per other Worker (L1173-1177).
    """
    free = 1 if event == 11 else 2
    return max(0, steps - free) + others * (2 if event == 12 else 1)


def secondary_cost(spot: Spot, ring: str, event: int = 0) -> int:
    """Dinars for a Secondary Action by the Worker of ``ring`` (L878-896); Event 13 adds 1 (L1179)."""
    return SECONDARY_COST[(spot.kind, ring)] + (event == 13)
