"""Turn the towers' MQTT messages into hub rows, refusing malformed ones with a one-line reason.

A toss message goes through ``TossRecord`` (the companion's own checks: the 12 colours, no negative
counts, a known layer and mode) and its maps are written back as the JSON text ``save_toss`` would
have written, so the hub's rows read exactly like the companion's in the fairness statistics.
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import KeshiError
from companion.hub.store import Batch
from companion.publish.outbox import JSON_COLUMNS, TOSS_COLUMNS
from companion.publish.topics import OFFLINE, ONLINE, split_topic
from companion.tower.record import TossRecord


class MessageError(KeshiError, ValueError):
    """A message the hub cannot store (not JSON, a missing field, an impossible toss)."""


def add_message(batch: Batch, prefix: str, topic: str, payload: bytes) -> None:
    """Add what one message says to ``batch``; ``MessageError`` names what is wrong with it."""
    parsed = split_topic(prefix, topic)
    if parsed is None:
        raise MessageError(f"unexpected topic {topic}")
    slug, kind = parsed
    if kind == "availability":
        text = payload.decode("utf-8", "replace")
        if text not in (ONLINE, OFFLINE):
            raise MessageError(f"availability of {slug} must be {ONLINE} or {OFFLINE}, not {text[:40]!r}")
        batch.availability.append({"slug": slug, "online": text == ONLINE})
        return
    try:
        body = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(f"{kind} message of {slug} is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise MessageError(f"{kind} message of {slug} is not a JSON object")
    try:
        if kind == "toss":
            batch.tosses.append(toss_row(body))
        elif kind == "event":
            batch.events.append(event_row(body))
        else:
            batch.states.append({"slug": slug, "name": str(body.get("tower") or slug), "state": json.dumps(body)})
    except KeyError as exc:
        raise MessageError(f"{kind} message of {slug} lacks {exc}") from None
    except (TypeError, ValueError) as exc:
        raise MessageError(f"{kind} message of {slug} is invalid: {exc}") from None


def toss_row(body: dict[str, Any]) -> dict[str, Any]:
    """A ``hub_tosses`` row from a toss message (validated as a ``TossRecord``)."""
    record = TossRecord(**{name: body[name] for name in TOSS_COLUMNS}).to_dict()
    row = {name: json.dumps(record[name]) if name in JSON_COLUMNS and record[name] is not None else record[name]
           for name in TOSS_COLUMNS}
    row["flagged"] = bool(row["flagged"])
    row["seq"] = _whole(body["seq"], "seq")
    row["revision"] = _whole(body["revision"], "revision")
    return row


def event_row(body: dict[str, Any]) -> dict[str, Any]:
    """A ``hub_game_events`` row from a game-event message."""
    return {
        "tower": str(body["tower"]),
        "event_id": _whole(body["event_id"], "event_id"),
        "game_id": str(body["game_id"]),
        "version": _whole(body["version"], "version"),
        "kind": str(body["kind"]),
        "data": json.dumps(body["data"]),
        "created_at": float(body["created_at"]),
    }


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value
