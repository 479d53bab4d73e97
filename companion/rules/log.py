"""The JSON-lines game log (version 1): a header line with the resolved setup, then one action a line.

Readable by a person (sorted keys, one action per line) and by ``read_log``, which names the line
of any damage.
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import KeshiError
from companion.rules.actions import action_from_dict, action_to_dict
from companion.rules.errors import ActionFormatError, LogError, RuleError
from companion.rules.game import Game
from companion.rules.variants import game_class

LOG_FORMAT = "keshi-game-log"
LOG_VERSION = 1


def header(game: Game) -> dict[str, Any]:
    """The first line: format, version, edition and the resolved setup."""
    return {"format": LOG_FORMAT, "version": LOG_VERSION, "edition": game.edition, "setup": game.setup}


def write_log(game: Game) -> str:
    """The whole log as JSON lines (ends with a newline)."""
    lines = [json.dumps(header(game), sort_keys=True)]
    lines += [json.dumps(action_to_dict(a), sort_keys=True) for a in game.log]
    return "\n".join(lines) + "\n"


def read_log(text: str, *, source: str = "log") -> Game:
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
    if "edition" not in head or "setup" not in head:
        raise LogError(f"{source}:{first_no}: header lacks 'edition' or 'setup'")
    try:
        game = game_class(str(head["edition"]))(head["setup"])
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
