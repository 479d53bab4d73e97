"""The five functions ``keshi game random|replay --game morocco`` calls (see ``companion.game_cli``)."""

from __future__ import annotations

from typing import Any

from companion.games.morocco import log, report, simulate
from companion.games.morocco.game import Game

PLAYERS = (2, 5)
"""How many players a random game may have."""


def play_random(players: int, seed: int) -> Game:
    """A complete random legal game with ``players`` seats from ``seed``."""
    return simulate.play_random_game(players, seed)


def write_log(game: Game) -> str:
    """The game's JSON-lines log."""
    return log.write_log(game)


def read_log(text: str, source: str) -> Game:
    """Replay a JSON-lines log; raises ``LogError`` (a ``KeshiError``) naming ``source`` and the line."""
    return log.read_log(text, source=source)


def result_summary(game: Game) -> dict[str, Any]:
    """JSON-able result: players, scores with breakdown, winner."""
    return report.result_summary(game)


def result_text(summary: dict[str, Any]) -> str:
    """The result as a few lines of text."""
    return report.result_text(summary)
