"""Scenario helpers for rules tests: a 4-player table (Sarah, Jan, Marie, Lukas) and phase drivers.

Worked examples start from a board position the rulebook describes; tests set that position on the
state directly (markers, resources, pawns) and then play the example's actions through ``apply``.
"""

from __future__ import annotations

from typing import Any

from companion import COLOURS
from companion.games.marrakesh import Choose, Game, Release, Select, SetupOptions, UseAssistant
from companion.games.marrakesh.board import COLOUR_SECTOR

SARAH, JAN, MARIE, LUKAS = 0, 1, 2, 3
NAMES = ("Sarah", "Jan", "Marie", "Lukas")


def new_game(players: int = 4, profile: dict[str, Any] | None = None, **draws: Any) -> Game:
    """A game with Sarah as start player and seed 1 for the draws the test does not give."""
    return Game.new(SetupOptions(players=NAMES[:players], seed=1, start_player=0, draws=draws,
                                 profile=profile or {}))


def select_all(game: Game, selections: dict[int, tuple[str, ...]], wild: dict[int, tuple[str, ...]] | None = None
               ) -> None:
    """Phase 1 for every player: the given colours, or 3 harmless defaults (no red)."""
    wild = wild or {}
    for seat in game.s.order():
        colours = selections.get(seat)
        if colours is None:
            used: set[str] = set()
            picked: list[str] = []
            for c in COLOURS:
                sector = COLOUR_SECTOR.get(c)
                if c == "red" or game.players[seat].screen[c] == 0 or sector in used:
                    continue
                picked.append(c)
                used.add(sector or "")
                if len(picked) == 3:
                    break
            colours = tuple(picked)
        game.apply(Select(seat, colours, wild.get(seat, ())))


def to_assistants(game: Game, selections: dict[int, tuple[str, ...]], wild: dict[int, tuple[str, ...]] | None = None
                  ) -> None:
    """Phases 1-2 with nothing released by the tower: straight to phase 3."""
    select_all(game, selections, wild)
    game.apply(Release({}))
    assert game.phase == "assistants", game.phase


def use(game: Game, seat: int, sector: str, mode: str, *choices: Any) -> None:
    """Use an assistant, then answer the decisions that follow with ``choices`` in order."""
    game.apply(UseAssistant(seat, sector, mode))
    for option in choices:
        pending = game.pending
        assert pending is not None and pending["kind"] == "choice", pending
        game.apply(Choose(pending["player"], option))


def finish_turn(game: Game, seat: int) -> None:
    """Spend ``seat``'s remaining assistants on new keshis (or forfeit), taking the first option each time."""
    while game.to_move == seat and game.phase == "assistants" and game.pending is None:
        action = next(a for a in game.legal_actions() if a.mode != "action")  # type: ignore[union-attr]
        game.apply(action)
        while game.pending is not None and game.pending["player"] == seat:
            game.apply(Choose(seat, game.pending["options"][0]))


def run_effects(game: Game, *effects: dict[str, Any]) -> None:
    """Run engine effects (e.g. a season-scoring step) from a prepared position, as the engine would."""
    game.push(*effects)
    game._run()


def choose(game: Game, *options: Any) -> None:
    """Answer the pending choices in order."""
    for option in options:
        pending = game.pending
        assert pending is not None and pending["kind"] == "choice", pending
        game.apply(Choose(pending["player"], option))
