"""The JSON-lines game log (version 1): a header line with the resolved setup, then one action a line.

Readable by a person (sorted keys, one action per line) and by ``read_log``, which names the line
of any damage. The format itself is shared with the other engines (``companion.engine_kit``); a
Marrakesh header names its ``edition`` and carries no ``"game"`` key.
"""

from __future__ import annotations

from typing import Any

from companion import engine_kit
from companion.i18n import Msg
from companion.rules.actions import action_from_dict, action_to_dict
from companion.rules.errors import ActionFormatError, LogError, RuleError
from companion.rules.game import Game
from companion.rules.variants import game_class


def header(game: Game) -> dict[str, Any]:
    """The first line: format, version, edition and the resolved setup."""
    return engine_kit.log_header(game.setup, edition=game.edition)


def write_log(game: Game) -> str:
    """The whole log as JSON lines (ends with a newline)."""
    return engine_kit.log_text(header(game), game.log, action_to_dict)


def read_log(text: str, *, source: str = "log") -> Game:
    """Replay a JSON-lines log into a game; ``LogError`` names the damaged line."""
    head, first_no, lines = engine_kit.read_header(text, source, LogError)
    if "edition" not in head or "setup" not in head:
        raise LogError(Msg("{source}:{line}: header lacks 'edition' or 'setup'", source=source, line=first_no))
    game = engine_kit.game_from_header(lambda: game_class(str(head["edition"]))(head["setup"]),
                                       source, first_no, LogError, plain_keshi_errors=True)
    return engine_kit.replay(game, lines, source, action_from_dict, (ActionFormatError, RuleError, TypeError),
                             LogError)
