"""The Rondel's geometry from the board profile, and what a Worker's move costs (L454-481, L854-896).

``Layout`` is derived from the profile answers (square actions, squares covered in 3-player games,
Secondary Action links); ``Game`` rebuilds it when an answer changes the profile. A game that asks
when needed (``questions.lazy``) may not know a square's action, how many Secondary squares there
are or their links yet:
``action_at`` and ``spots_at`` then raise ``KeyError`` naming the profile key, which the engine asks. Squares are
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
    side: str
    unlinked: dict[str, list[str]]
    """Per ring, the profile keys of Secondary Action links not known yet (empty once all are answered)."""

    @classmethod
    def from_profile(cls, profile: dict[str, Any], players: int) -> Layout:
        sd = side(players)
        squares: dict[str, list[int]] = {}
        action: dict[str, dict[int, str]] = {}
        covered = set(profile.get(f"rondel.{sd}.four_only", [])) if players == 3 else set()  # new games
        for ring in RINGS:
            size = int(profile[f"rondel.{sd}.{ring}.size"])
            usable = [sq for sq in range(1, size + 1)
                      if not (players == 3 and (f"{ring} {sq}" in covered  # games saved before: each square's
                                                or profile.get(f"rondel.{sd}.{ring}.{sq}.four_only") == "yes"))]
            squares[ring] = usable
            action[ring] = {sq: str(profile[key]) for sq in usable
                            if (key := f"rondel.{sd}.{ring}.{sq}.action") in profile}
        spots: dict[str, list[Spot]] = {}
        unlinked: dict[str, list[str]] = {ring: [] for ring in RINGS}
        for kind, rings in (("raw", ("outer", "middle")), ("marble", ("middle", "inner"))):
            spots[kind] = []
            count_key = f"rondel.{sd}.{kind}_spots"
            if count_key not in profile:  # a game asking when needed: how many, then the links
                for r in rings:
                    unlinked[r].append(count_key)
                continue
            for k in range(1, int(profile[count_key]) + 1):
                keys = {r: f"rondel.{sd}.{kind}.{k}.{r}" for r in rings}
                missing = [key for key in keys.values() if key not in profile]
                for r in rings:  # a Spot is known once both its links are
                    unlinked[r] += missing
                if not missing:
                    spots[kind].append(Spot(kind, k, {r: int(profile[key]) for r, key in keys.items()}))
        return cls(squares, action, spots["raw"], spots["marble"], sd, unlinked)

    def action_at(self, ring: str, square: int) -> str:
        """The Main Action printed on ``square`` of ``ring`` (``KeyError`` with its profile key: not known yet)."""
        known = self.action[ring].get(square)
        if known is None:
            raise KeyError(f"rondel.{self.side}.{ring}.{square}.action")
        return known

    def steps(self, ring: str, start: int | None, dest: int) -> int:
        """Clockwise steps from ``start`` to ``dest`` (0 from the Workshop: placing is free, L464-466)."""
        if start is None:
            return 0
        usable = self.squares[ring]
        return (usable.index(dest) - usable.index(start)) % len(usable)

    def spots_at(self, ring: str, square: int) -> list[Spot]:
        """The Secondary Action squares connected to ``square`` of ``ring`` (``KeyError`` with the profile key
        of a link of this ring not known yet: any unanswered link might reach this square)."""
        if self.unlinked[ring]:
            raise KeyError(self.unlinked[ring][0])
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
