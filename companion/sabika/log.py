"""The Sabika JSON-lines game log (version 1): a header with the resolved setup, then one action a line.

Same shape as the Marrakesh log (``companion.rules.log``; the format lives in ``companion.engine_kit``)
with ``"game": "sabika"`` in the header; ``read_log`` names the source and the line of any damage.
"""

from __future__ import annotations

from typing import Any

from companion import engine_kit
from companion.i18n import Msg
from companion.sabika.actions import action_from_dict, action_to_dict
from companion.sabika.errors import ActionFormatError, LogError, RuleError
from companion.sabika.game import Game


def header(game: Game) -> dict[str, Any]:
    """The first line: format, version, game and the resolved setup."""
    return engine_kit.log_header(game.setup, game="sabika")


def write_log(game: Game) -> str:
    """The whole log as JSON lines (ends with a newline)."""
    return engine_kit.log_text(header(game), game.log, action_to_dict)


def read_log(text: str, source: str = "log") -> Game:
    """Replay a JSON-lines log into a game; ``LogError`` names the damaged line."""
    head, first_no, lines = engine_kit.read_header(text, source, LogError)
    if head.get("game") != "sabika" or "setup" not in head:
        raise LogError(Msg("{source}:{line}: not a Sabika log header (game {game})", source=source, line=first_no,
                           game=repr(head.get("game"))))
    game = engine_kit.game_from_header(lambda: Game(head["setup"]), source, first_no, LogError,
                                       plain_keshi_errors=True)
    return engine_kit.replay(game, lines, source, action_from_dict, (ActionFormatError, RuleError, TypeError),
                             LogError)
