"""Turn the towers' MQTT messages into hub rows, refusing bad ones with a one-line reason.

The tower of a message is the one its topic names: the broker checked that topic against the
sender's login (its ACL lets each table write only ``<prefix>/<its slug>/#``), while the body is
whatever the sender wrote. A body naming a tower whose slug is not the topic's is refused, so one
table's login can never write, correct or create another tower's rows.

Every value is checked against what its column can hold (``companion.hub.validate``) before any
insert; a toss message also goes through ``TossRecord`` (the companion's own checks: the 12
colours, a known layer and mode) and its maps are written back as the JSON text ``save_toss``
would have written, so the hub's rows read exactly like the companion's in the fairness statistics.

Toss and event messages carry their place in the table's stream: ``revision`` (the outbox id) and
``after`` (the revision of the message the table sent before it); ``Sent`` hands them to the
ingestor, which tracks what it holds of each table's stream (``companion.hub.marks``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.errors import KeshiError
from companion.hub import validate
from companion.hub.store import Batch
from companion.publish.outbox import JSON_COLUMNS, TOSS_COLUMNS
from companion.publish.topics import OFFLINE, ONLINE, split_topic, tower_slug
from companion.tower.record import TossRecord


class MessageError(KeshiError, ValueError):
    """A message the hub cannot store (not JSON, a missing field, an impossible toss, another tower)."""


@dataclass(frozen=True)
class Sent:
    """Where a message sits in its table's stream: after ``after`` (None: not said), at ``revision``."""

    slug: str
    revision: int
    after: int | None


@dataclass(frozen=True)
class Published:
    """A state message's word on the table's stream: it has sent everything up to ``revision``."""

    slug: str
    revision: int


def add_message(batch: Batch, prefix: str, topic: str, payload: bytes) -> Sent | Published | None:
    """Add what one message says to ``batch``; ``MessageError`` names what is wrong with it."""
    parsed = split_topic(prefix, topic)
    if parsed is None:
        raise MessageError(f"unexpected topic {topic!r}")
    slug, kind = parsed
    if kind == "availability":
        text = payload.decode("utf-8", "replace")
        if text not in (ONLINE, OFFLINE):
            raise MessageError(f"availability of {slug} must be {ONLINE} or {OFFLINE}, not {text[:40]!r}")
        batch.availability.append({"slug": slug, "online": text == ONLINE})
        return None
    try:
        body = validate.parse_body(payload)
        if not isinstance(body, dict):
            raise ValueError("is not a JSON object")
        tower = _own_tower(body, slug)
        if kind == "toss":
            batch.tosses.append({**toss_row(body), "tower": tower})
        elif kind == "event":
            batch.events.append({**event_row(body), "tower": tower})
        else:
            batch.states.append({"slug": slug, "name": tower, "state": json.dumps(body)})
            published = validate.whole(body, "published", optional=True) if "published" in body else None
            return None if published is None else Published(slug, published)
        after = validate.whole(body, "after", optional=True) if "after" in body else None
        return Sent(slug, validate.whole(body, "revision"), after)
    except KeyError as exc:
        raise MessageError(f"{kind} message of {slug} lacks {exc}") from None
    except (TypeError, ValueError) as exc:
        raise MessageError(f"{kind} message of {slug} {_reason(exc)}") from None


def stream_place(prefix: str, topic: str, payload: bytes) -> Sent | None:
    """The place in its table's stream of a message that was refused, when it can be read at all."""
    parsed = split_topic(prefix, topic)
    if parsed is None or parsed[1] not in ("toss", "event"):
        return None
    try:
        body = validate.parse_body(payload)
        after = validate.whole(body, "after", optional=True) if "after" in body else None
        return Sent(parsed[0], validate.whole(body, "revision"), after)
    except (KeyError, TypeError, ValueError):
        return None


def _own_tower(body: dict[str, Any], slug: str) -> str:
    """The tower name the body gives, which must be one the topic's slug stands for."""
    name = validate.text(body, "tower")
    try:
        named = tower_slug(name)
    except KeshiError:
        named = None
    if named != slug:
        raise ValueError(f"names the tower {name!r}, not the tower of its topic ({slug}): refused")
    return str(name)


def _reason(exc: Exception) -> str:
    """The words after "toss message of table_1": validate's reasons start with a verb; others get "is invalid"."""
    text = str(exc)
    verbs = ("is ", "has ", "holds ", "nests ", "names ")
    return text if text.startswith(verbs) else f"is invalid: {text}"


def toss_row(body: dict[str, Any]) -> dict[str, Any]:
    """A ``hub_tosses`` row from a toss message: every value in its column's range, then a ``TossRecord``."""
    for name in ("toss_id", "layer", "mode", "counts_source"):
        validate.text(body, name)
    for name in ("game_id", "session_id"):
        validate.text(body, name, optional=True)
    for name in ("season", "round", "beam_count", "camera_count"):
        validate.whole(body, name, validate.INT_RANGE, optional=True)
    validate.finite(body, "started_at")
    for name in ("pieces_in", "pieces_out", "contents_before", "contents_after"):
        validate.counts(body, name)
    validate.counts(body, "correction", optional=True)
    validate.drop_times(body, "drop_times_ms")
    if not isinstance(body["flagged"], bool):
        raise ValueError(f"flagged must be true or false, not {body['flagged']!r}")
    record = TossRecord(**{name: body[name] for name in TOSS_COLUMNS}).to_dict()
    row = {name: json.dumps(record[name]) if name in JSON_COLUMNS and record[name] is not None else record[name]
           for name in TOSS_COLUMNS}
    row["seq"] = validate.whole(body, "seq")
    row["revision"] = validate.whole(body, "revision")
    return row


def event_row(body: dict[str, Any]) -> dict[str, Any]:
    """A ``hub_game_events`` row from a game-event message."""
    return {
        "event_id": validate.whole(body, "event_id"),
        "game_id": validate.text(body, "game_id"),
        "version": validate.whole(body, "version", validate.INT_RANGE),
        "kind": validate.text(body, "kind"),
        "data": json.dumps(body["data"]),
        "created_at": validate.finite(body, "created_at"),
    }
