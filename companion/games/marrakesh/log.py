"""The JSON-lines game log (version 1): a header line with the resolved setup, then one action a line.

Readable by a person (sorted keys, one action per line) and by ``read_log``, which names the line
of any damage. The format itself is shared with the other engines (``companion.games.common.log_and_actions``); a
Marrakesh header names its ``edition`` and carries no ``"game"`` key.
"""

from __future__ import annotations

from typing import Any

from companion.games.common import log_and_actions
from companion.games.marrakesh.actions import action_from_dict, action_to_dict
from companion.games.marrakesh.errors import ActionFormatError, LogError, RuleError
from companion.games.marrakesh.game import Game
from companion.games.marrakesh.variants import game_class
from companion.i18n import Msg


def header(game: Game) -> dict[str, Any]:
    """The first line: format, version, edition and the resolved setup."""
    return log_and_actions.log_header(game.setup, edition=game.edition)


def write_log(game: Game) -> str:
    """The whole log as JSON lines (ends with a newline)."""
    return log_and_actions.log_text(header(game), game.log, action_to_dict)


def read_log(text: str, *, source: str = "log") -> Game:
    """Replay a JSON-lines log into a game; ``LogError`` names the damaged line."""
    head, first_no, lines = log_and_actions.read_header(text, source, LogError)
    if "edition" not in head or "setup" not in head:
        raise LogError(Msg("{source}:{line}: header lacks 'edition' or 'setup'", source=source, line=first_no))
    game = log_and_actions.game_from_header(lambda: game_class(str(head["edition"]))(head["setup"]),
                                       source, first_no, LogError, plain_keshi_errors=True)
    return log_and_actions.replay(game, lines, source, action_from_dict, (ActionFormatError, RuleError, TypeError),
                             LogError)
