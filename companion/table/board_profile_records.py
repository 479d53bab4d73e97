"""The table's board profile in the companion's SQLite store (component ``board_profile``).

``board_profile`` keeps, per edition, every printed value the table has told the companion (``value``
is its JSON), whether it came from an answer in a game, an edit on the board-profile screen or an
imported file (``source``), the game that answered it, and when. A new game starts with these values,
so a table is asked each printed value once, not once per game. Table games (Morocco) keep their
printed values here too, under their game key as the "edition" (``kinds.profile``).

This module is the one place that knows the table: its migrations and every query on it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store imports this module (its migrations): only a type here
    from companion.store import Store

COMPONENT = "board_profile"

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE board_profile (
        edition TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('answer', 'edit', 'import')),
        game_id TEXT,
        updated_at REAL NOT NULL,
        PRIMARY KEY (edition, key)
    )
    """,
)


def values(store: Store, edition: str) -> dict[str, Any]:
    """key -> value stored for ``edition``, in key order."""
    rows = store.query("SELECT key, value FROM board_profile WHERE edition = ? ORDER BY key", (edition,))
    return {str(r["key"]): json.loads(r["value"]) for r in rows}


def value(store: Store, edition: str, key: str) -> Any:
    """The stored value of ``key`` (None when there is none)."""
    rows = store.query("SELECT value FROM board_profile WHERE edition = ? AND key = ?", (edition, key))
    return json.loads(rows[0]["value"]) if rows else None


def entries(store: Store, edition: str) -> list[dict[str, Any]]:
    """Every stored value of ``edition`` with its ``key``, ``value``, ``source`` and ``updated_at``."""
    rows = store.query("SELECT key, value, source, updated_at FROM board_profile WHERE edition = ?", (edition,))
    return [{"key": str(r["key"]), "value": json.loads(r["value"]), "source": str(r["source"]),
             "updated_at": float(r["updated_at"])} for r in rows]


def upsert(db: sqlite3.Connection, edition: str, key: str, value: Any, source: str, game_id: str | None) -> None:
    """Store ``value`` for ``key``, replacing what was there (``source``: answer, edit or import)."""
    db.execute(
        "INSERT INTO board_profile (edition, key, value, source, game_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (edition, key) DO UPDATE SET value = excluded.value, source = excluded.source,"
        " game_id = excluded.game_id, updated_at = excluded.updated_at",
        (edition, key, json.dumps(value, sort_keys=True), source, game_id, time.time()))


def delete(db: sqlite3.Connection, edition: str, key: str) -> bool:
    """Drop the value of ``key``; False if there was none."""
    return bool(db.execute("DELETE FROM board_profile WHERE edition = ? AND key = ?", (edition, key)).rowcount)


#: ``delete_answer``'s default: whatever value the answer gave.
ANY_VALUE = object()


def delete_answer(db: sqlite3.Connection, edition: str, key: str, game_id: str, value: Any = ANY_VALUE) -> bool:
    """Drop the value of ``key`` if it is still the answer ``game_id`` gave (and still ``value``, when
    given); False if nothing matched."""
    sql = "DELETE FROM board_profile WHERE edition = ? AND key = ? AND source = 'answer' AND game_id = ?"
    params: list[Any] = [edition, key, game_id]
    if value is not ANY_VALUE:
        sql += " AND value = ?"
        params.append(json.dumps(value, sort_keys=True))
    return bool(db.execute(sql, params).rowcount)
