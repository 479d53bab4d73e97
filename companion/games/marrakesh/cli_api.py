"""Marrakesh's side of ``keshi game``: the same five functions every game engine offers the CLI.

``companion.game_cli`` runs any registered game through ``play_random``, ``write_log``, ``read_log``,
``result_summary`` and ``result_text``; Morocco and Sabika offer the same names in their own
``cli_api`` modules. Marrakesh alone also takes an edition and expansions.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.marrakesh.game import Game
from companion.games.marrakesh.log import read_log as _read_log
from companion.games.marrakesh.log import write_log
from companion.games.marrakesh.report import result_summary, result_text
from companion.games.marrakesh.simulate import play_random_game

__all__ = ["PLAYERS", "play_random", "read_log", "result_summary", "result_text", "write_log"]

PLAYERS = (2, 4)
"""How many players a random game may have."""


def play_random(players: int, seed: int, *, edition: str = "essential", expansions: Sequence[int] = ()) -> Game:
    """A whole random legal game of ``edition`` with ``expansions``."""
    return play_random_game(players, seed, edition=edition, expansions=expansions)


def read_log(text: str, source: str) -> Game:
    """Replay a JSON-lines log; a damaged line is named with ``source``."""
    return _read_log(text, source=source)
