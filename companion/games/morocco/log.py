"""The Morocco JSON-lines game log (version 1): a header with the resolved setup, then one action a line.

Same shape as the Marrakesh log (``companion.games.marrakesh.log``; the format lives in
``companion.games.common.log_and_actions``)
with ``"game": "morocco"`` in the header; ``read_log`` names the source and line of any damage.
"""

from __future__ import annotations

from typing import Any

from companion.games.common import log_and_actions
from companion.games.common.errors import ActionFormatError, RuleError
from companion.games.morocco.actions import action_from_dict, action_to_dict
from companion.games.morocco.errors import LogError
from companion.games.morocco.game import Game
from companion.i18n import Msg

GAME = "morocco"


def header(game: Game) -> dict[str, Any]:
    """The first line: format, version, game and the resolved setup."""
    return log_and_actions.log_header(game.setup, game=GAME)


def write_log(game: Game) -> str:
    """The whole log as JSON lines (sorted keys; ends with a newline)."""
    return log_and_actions.log_text(header(game), game.log, action_to_dict)


def read_log(text: str, *, source: str = "log") -> Game:
    """Replay a JSON-lines log into a game; ``LogError`` names the source and the damaged line."""
    head, first_no, lines = log_and_actions.read_header(text, source, LogError)
    if head.get("game") != GAME:
        raise LogError(Msg("{source}:{line}: this is not a Morocco log (game {game!r})", source=source, line=first_no,
                           game=head.get("game", "marrakesh")))
    game = log_and_actions.game_from_header(lambda: Game(head["setup"]), source, first_no, LogError,
                                       plain_keshi_errors=False)
    return log_and_actions.replay(game, lines, source, action_from_dict, (ActionFormatError, RuleError, TypeError),
                             LogError)
