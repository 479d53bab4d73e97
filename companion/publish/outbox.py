"""Read the durable outbox: what is still to be published, as ready-to-send payloads, and the cursor.

``install`` switches the outbox on (idempotent); ``pending`` reads the entries after an outbox id
joined to their toss or game event; ``load_cursor``/``save_cursor`` keep the acknowledged position
per broker, and ``rewind`` moves it back when the hub asks for what it never received. An entry
whose row is gone (a deleted game's events) comes back with ``payload=None`` so the publisher can
count it as done.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from companion.store import Store

TRIGGERS = {
    "publish_toss_insert": "CREATE TRIGGER publish_toss_insert AFTER INSERT ON tosses BEGIN"
                           " INSERT INTO publish_outbox (stream, row_id) VALUES ('toss', NEW.id); END",
    "publish_toss_update": "CREATE TRIGGER publish_toss_update AFTER UPDATE ON tosses BEGIN"
                           " INSERT INTO publish_outbox (stream, row_id) VALUES ('toss', NEW.id); END",
    "publish_event_insert": "CREATE TRIGGER publish_event_insert AFTER INSERT ON game_events BEGIN"
                            " INSERT INTO publish_outbox (stream, row_id) VALUES ('event', NEW.id); END",
}

#: The ``tosses`` columns a toss message carries and the hub stores; the JSON text ones travel as JSON values.
TOSS_COLUMNS = (
    "toss_id", "tower", "layer", "mode", "game_id", "season", "round", "session_id", "started_at",
    "pieces_in", "pieces_out", "contents_before", "contents_after", "drop_times_ms", "beam_count",
    "camera_count", "counts_source", "flagged", "correction",
)
JSON_COLUMNS = frozenset({"pieces_in", "pieces_out", "contents_before", "contents_after", "drop_times_ms",
                          "correction"})


@dataclass(frozen=True)
class OutboxEntry:
    """One outbox entry: its id (the message's revision), stream (``toss``/``event``) and payload."""

    id: int
    stream: str
    payload: dict[str, Any] | None


def install(store: Store) -> bool:
    """Create the outbox triggers if missing, enqueueing what was stored before; True if created now."""
    with store.write() as conn:
        present = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'publish_%'")}
        if present == set(TRIGGERS):
            return False
        if not present:  # first switch-on: enqueue the history, oldest first
            conn.execute("INSERT INTO publish_outbox (stream, row_id) SELECT 'toss', id FROM tosses ORDER BY id")
            conn.execute("INSERT INTO publish_outbox (stream, row_id) SELECT 'event', id FROM game_events ORDER BY id")
        for name, sql in TRIGGERS.items():
            if name not in present:
                conn.execute(sql)
    return True


def pending(store: Store, tower: str, after: int, limit: int) -> list[OutboxEntry]:
    """Up to ``limit`` outbox entries after id ``after``, oldest first, with their payloads."""
    toss_columns = ", ".join(f"t.{c} AS t_{c}" for c in ("id", *TOSS_COLUMNS))
    rows = store.query(
        f"SELECT o.id AS outbox_id, o.stream, {toss_columns},"
        " e.id AS e_id, e.game_id AS e_game_id, e.version AS e_version, e.kind AS e_kind, e.data AS e_data,"
        " e.created_at AS e_created_at"
        " FROM publish_outbox o"
        " LEFT JOIN tosses t ON o.stream = 'toss' AND t.id = o.row_id"
        " LEFT JOIN game_events e ON o.stream = 'event' AND e.id = o.row_id"
        " WHERE o.id > ? ORDER BY o.id LIMIT ?",
        (after, limit),
    )
    entries = []
    for row in rows:
        payload: dict[str, Any] | None = None
        if row["stream"] == "toss" and row["t_id"] is not None:
            payload = toss_payload(row, revision=row["outbox_id"])
        elif row["stream"] == "event" and row["e_id"] is not None:
            payload = event_payload(row, tower, revision=row["outbox_id"])
        entries.append(OutboxEntry(row["outbox_id"], row["stream"], payload))
    return entries


def toss_payload(row: Any, revision: int) -> dict[str, Any]:
    """A toss message: the stored row (maps as JSON objects), its local order ``seq`` and ``revision``."""
    body: dict[str, Any] = {"seq": row["t_id"], "revision": revision}
    for column in TOSS_COLUMNS:
        value = row[f"t_{column}"]
        body[column] = json.loads(value) if column in JSON_COLUMNS and value is not None else value
    body["flagged"] = bool(body["flagged"])
    return body


def event_payload(row: Any, tower: str, revision: int) -> dict[str, Any]:
    """A game-event message: the stored event with the publishing tower's name."""
    return {
        "tower": tower, "event_id": row["e_id"], "revision": revision, "game_id": row["e_game_id"],
        "version": row["e_version"], "kind": row["e_kind"], "data": json.loads(row["e_data"]),
        "created_at": row["e_created_at"],
    }


def load_cursor(store: Store, broker: str) -> int:
    """The acknowledged outbox id for ``broker`` (0: nothing acknowledged yet)."""
    rows = store.query("SELECT acked FROM publish_cursor WHERE broker = ?", (broker,))
    return int(rows[0]["acked"]) if rows else 0


def save_cursor(store: Store, broker: str, acked: int) -> None:
    """Store the acknowledged outbox id for ``broker`` (it only ever moves forward)."""
    with store.write() as conn:
        conn.execute(
            "INSERT INTO publish_cursor (broker, acked, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (broker) DO UPDATE SET acked = MAX(acked, excluded.acked), updated_at = excluded.updated_at",
            (broker, acked, time.time()),
        )


def load_request(store: Store, broker: str) -> str | None:
    """The hub's last request to send again acted on for ``broker`` (None: none yet)."""
    rows = store.query("SELECT request FROM publish_hub_request WHERE broker = ?", (broker,))
    return str(rows[0]["request"]) if rows else None


def rewind(store: Store, broker: str, acked: int, request: str) -> None:
    """Move ``broker``'s cursor back to ``acked`` (never forward) and record ``request`` as acted on,
    in one transaction."""
    now = time.time()
    with store.write() as conn:
        conn.execute(
            "INSERT INTO publish_cursor (broker, acked, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (broker) DO UPDATE SET acked = MIN(acked, excluded.acked), updated_at = excluded.updated_at",
            (broker, acked, now),
        )
        conn.execute(
            "INSERT INTO publish_hub_request (broker, request, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (broker) DO UPDATE SET request = excluded.request, updated_at = excluded.updated_at",
            (broker, request, now),
        )
