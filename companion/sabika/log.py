"""The Sabika JSON-lines game log (version 1): a header with the resolved setup, then one action a line.

Same shape as the Marrakesh log (``companion.rules.log``) with ``"game": "sabika"`` in the header;
``read_log`` names the source and the line of any damage.
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import KeshiError
from companion.sabika.actions import action_from_dict, action_to_dict
from companion.sabika.errors import ActionFormatError, LogError, RuleError
from companion.sabika.game import Game

LOG_FORMAT = "keshi-game-log"
LOG_VERSION = 1


def header(game: Game) -> dict[str, Any]:
    """The first line: format, version, game and the resolved setup."""
    return {"format": LOG_FORMAT, "version": LOG_VERSION, "game": "sabika", "setup": game.setup}


def write_log(game: Game) -> str:
    """The whole log as JSON lines (ends with a newline)."""
    lines = [json.dumps(header(game), sort_keys=True)]
    lines += [json.dumps(action_to_dict(a), sort_keys=True) for a in game.log]
    return "\n".join(lines) + "\n"


def read_log(text: str, source: str = "log") -> Game:
    """Replay a JSON-lines log into a game; ``LogError`` names the damaged line."""
    lines = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise LogError(f"{source}: empty game log (expected a {LOG_FORMAT} header line)")
    first_no, first = lines[0]
    head = _json(first, source, first_no)
    if not isinstance(head, dict) or head.get("format") != LOG_FORMAT:
        raise LogError(f"{source}:{first_no}: not a {LOG_FORMAT} header")
    if head.get("version") != LOG_VERSION:
        raise LogError(f"{source}:{first_no}: unsupported log version {head.get('version')!r} "
                       f"(this engine reads version {LOG_VERSION})")
    if head.get("game") != "sabika" or "setup" not in head:
        raise LogError(f"{source}:{first_no}: not a Sabika log header (game {head.get('game')!r})")
    try:
        game = Game(head["setup"])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        why = str(exc) if isinstance(exc, KeshiError) else f"{type(exc).__name__}: {exc}"
        raise LogError(f"{source}:{first_no}: bad setup in header: {why}") from exc
    for no, line in lines[1:]:
        try:
            game.apply(action_from_dict(_json(line, source, no)))
        except (ActionFormatError, RuleError, TypeError) as exc:
            raise LogError(f"{source}:{no}: {exc}") from exc
    return game


def _json(line: str, source: str, no: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise LogError(f"{source}:{no}: not valid JSON ({exc.msg})") from exc
