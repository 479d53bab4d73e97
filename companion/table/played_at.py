"""When a game was played, carried in its exported log so an imported game keeps its own date (issue 25).

The games list dates each game by the time it was started at its table. An export adds that time to the
log's header line as ``"played_at"`` (ISO 8601 in UTC, e.g. ``"2026-11-26T19:30:00Z"``); an import reads it
back, so a game played last week and imported today still shows last week. The engines read the header
for its setup only, so the extra key changes nothing else; a log without it (an older export, a log the
CLI wrote) is dated by its import, the only time known.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from companion.errors import KeshiError
from companion.i18n import Msg

KEY = "played_at"


class PlayedAtError(KeshiError, ValueError):
    """The header's ``played_at`` is not a time; the message quotes what it holds."""


def stamp(log: str, played: float) -> str:
    """``log`` (JSON lines, header first) with ``played`` (seconds since the epoch) in its header."""
    first, _, rest = log.partition("\n")
    head: dict[str, Any] = json.loads(first)
    head[KEY] = datetime.fromtimestamp(played, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return json.dumps(head, sort_keys=True) + "\n" + rest


def read(log: str) -> float | None:
    """The ``played_at`` of ``log``'s header in seconds since the epoch; None when the header has none (or
    is not one: the engine's reader names that damage). A value that is not a time with its zone raises
    ``PlayedAtError``."""
    first = next((line for line in log.splitlines() if line.strip()), "")
    try:
        head = json.loads(first)
    except ValueError:
        return None
    if not isinstance(head, dict) or KEY not in head:
        return None
    value = head[KEY]
    when = _time(value) if isinstance(value, str) else None
    if when is None:
        raise PlayedAtError(Msg("the log's date of play is not a time like 2026-11-26T19:30:00Z: {value}",
                                value=json.dumps(value)))
    return when


def _time(text: str) -> float | None:
    """``text`` as ISO 8601 with a time zone, in seconds since the epoch (None: not such a time)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when.timestamp() if when.tzinfo is not None else None
