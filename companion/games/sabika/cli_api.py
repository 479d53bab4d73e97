"""The five functions ``keshi game random|replay --game sabika`` calls (wired by ``companion.game_cli``)."""

from __future__ import annotations

from typing import Any

from companion.games.sabika import log, report, simulate
from companion.games.sabika.game import Game

PLAYERS = (1, 4)
"""How many players a random game may have (1: the solo mode against the automa Yusuf)."""


def play_random(players: int, seed: int) -> Game:
    """A whole random legal game (2-4 players, or 1 against the automa Yusuf) named by ``seed``."""
    return simulate.play_random_game(players, seed)


def write_log(game: Game) -> str:
    """The game's JSON-lines log text."""
    return log.write_log(game)


def read_log(text: str, source: str) -> Game:
    """Replay a JSON-lines log; ``LogError`` (a ``KeshiError``) names ``source`` and the damaged line."""
    return log.read_log(text, source)


def result_summary(game: Game) -> dict[str, Any]:
    """JSON-able result: players, scores with breakdown, winner."""
    return report.result_summary(game)


def result_text(summary: dict[str, Any]) -> str:
    """The result for people."""
    return report.result_text(summary)
