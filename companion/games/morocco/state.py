"""The mutable Morocco state: one ``PlayerState`` per seat and the shared ``GameState``.

Plain data only (ints, strings, lists, dicts), so ``to_dict`` is a faithful JSON view and two games
are equal exactly when their ``to_dict()`` values are. Only ``Game`` and its effect handlers mutate it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from companion.games.morocco import board


@dataclass
class PlayerState:
    """One family: its supply of pieces, cubes, gold and points."""

    name: str
    score: int = 0
    breakdown: dict[str, int] = field(default_factory=dict)
    cubes: dict[str, int] = field(default_factory=lambda: {c: 0 for c in board.CUBE_COLOURS})
    gold: int = 0
    assistants: int = board.ASSISTANTS
    bodyguards: int = 0
    """Bodyguards in the player's supply; they start in the guards' quarters (MOR:L34)."""
    quarters: int = board.BODYGUARDS
    """This player's bodyguards waiting in the guards' quarters."""
    tourists: int = board.TOURISTS
    tourists_gone: int = 0
    """Tourists discarded from the game after moving (MOR:L151)."""
    cousins: int = board.COUSINS
    market_tiles: int = board.MARKET_TILES
    juice: list[int] = field(default_factory=list)
    """Values of the juice seller tokens taken (face down, scored at the end)."""
    passes: int = 0
    """Turns this player passed (unable to place a worker)."""

    def add_points(self, category: str, points: int) -> None:
        """Score ``points`` under ``category`` (the breakdown always sums to the score)."""
        self.score += points
        self.breakdown[category] = self.breakdown.get(category, 0) + points

    def cube_total(self) -> int:
        """Information cubes held."""
        return sum(self.cubes.values())


@dataclass
class GameState:
    """The whole table."""

    setup: dict[str, Any]
    profile: dict[str, Any]
    players: list[PlayerState]
    start_player: int
    rows: list[str]
    columns: list[str]
    rooftop: list[str]
    juice: list[int]
    """Token value on each of the 36 stall corners; 0 once taken."""
    round: int = 1
    phase: str = "roll"
    """roll (2-3 players), scout, assign or finished."""
    turn: int = 0
    """Scout: index into turn order; assign: turns taken this round (2 per player)."""
    rolls: int = 0
    """Market-die rolls made this round."""
    pawn: int = board.ROOFTOP_CENTRE
    spaces: list[list[Any] | None] = field(default_factory=lambda: [None] * board.SPACES)
    """Per market space: ``[seat, worker]`` or None."""
    tiles: list[int | str | None] = field(default_factory=lambda: [None] * board.STALLS)
    """Per stall: None (open), the seat whose market tile closed it, or ``"empty"``."""
    arrows: list[str | None] = field(default_factory=lambda: [None] * board.STALLS)
    """Per closed stall: the direction its market tile's overflow arrow points."""
    overflow: list[int] = field(default_factory=lambda: [0] * board.STALLS)
    """Per stall: market-tile arrows pointing into it."""
    empty_tiles: int = board.EMPTY_STALL_TILES
    gold_supply: int = board.GOLD_COINS
    to_close: list[int] = field(default_factory=list)
    """Full stalls waiting to be scored, in the order they filled (MOR:L117)."""
    placed: bool = False
    """The player on turn has placed a worker (or passed); only gold swaps or ending the turn remain."""
    placed_this_round: bool = False
    final_round: bool = False
    finished: bool = False
    end_reason: str | None = None
    pending: dict[str, Any] | None = None
    stack: list[dict[str, Any]] = field(default_factory=list)
    """Engine effects still to run (last = next)."""

    def order(self, first: int | None = None) -> list[int]:
        """Seats in clockwise turn order starting at ``first`` (default: the start player)."""
        n = len(self.players)
        start = self.start_player if first is None else first
        return [(start + i) % n for i in range(n)]

    def open_stalls(self) -> int:
        """Stalls without a tile."""
        return self.tiles.count(None)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy of the state."""
        out = {k: copy.deepcopy(v) for k, v in vars(self).items() if k != "players"}
        out["players"] = [copy.deepcopy(vars(p)) for p in self.players]
        return out


def initial_state(setup: dict[str, Any]) -> GameState:
    """The table after setup (MOR:L30-40): score markers on 0, bodyguards in the quarters, cubes placed."""
    players = [PlayerState(name=name) for name in setup["players"]]
    n = len(players)
    return GameState(setup=setup, profile=dict(setup.get("profile", {})), players=players,
                     start_player=setup["start_player"], rows=list(setup["rows"]), columns=list(setup["columns"]),
                     rooftop=list(setup["rooftop"]), juice=[v for row in setup["juice"] for v in row],
                     phase="roll" if n <= 3 else "scout")
