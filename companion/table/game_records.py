"""The games' tables, and every query on them: games, their action logs and their durable events.

This module is the one place that knows these tables: the migrations below and the functions after
them are all the SQL the table service runs on its games. A write takes the open transaction
(``db`` from ``Store.write()``), so the service keeps "one change, one transaction"; a read takes the
``Store``.

* ``games`` — one row per game: the engine's resolved setup (so replay never needs the seed), the
  seating (colours chosen at the table), the table PIN, a ``version`` that grows by one with every
  accepted change (action or undo), the latest tower result waiting to be confirmed, the game-start
  tower check (``tower_check``) and the last season scoring until acknowledged (``season_scoring``);
  ``kind`` names the game (``marrakesh``, ``morocco``, ``sabika``: ``companion.table.kinds``); what the games
  list shows is kept here too, so the list reads rows only (``companion.table.game_summary``): ``moves``
  (the actions that are not the table's answers), ``winners`` (JSON names, NULL until finished) and
  ``imported`` (how many actions came with an import: the history Undo leaves alone).
* ``game_log`` — every accepted change in order: ``kind`` is ``action`` (with the action's JSON) or
  ``undo``; the game is the replay of the actions left after folding the undos. An idempotency key
  is unique per game, so a retried request is recognised and applied once.
* ``game_events`` — what every phone is told, with an ``id`` that is durable (AUTOINCREMENT never
  reuses an id, even after a restart), so an SSE client resumes from ``Last-Event-ID`` exactly.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.table import game_summary

if TYPE_CHECKING:  # the store imports this module (its migrations): only a type here
    from companion.store import Migration, Store

COMPONENT = "games"

MIGRATIONS: tuple[Migration, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        edition TEXT NOT NULL,
        setup TEXT NOT NULL,
        seating TEXT NOT NULL,
        pin TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        actions INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        tower_result TEXT
    );
    CREATE TABLE game_log (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
        action TEXT,
        meta TEXT,
        idempotency_key TEXT,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE UNIQUE INDEX game_log_idempotency ON game_log (game_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    CREATE TABLE game_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX game_events_game ON game_events (game_id, id)
    """,
    # issue 11: the game-start tower check (emptied / confirmed empty) and the season-scoring result
    # kept on screen until the table acknowledges it (both JSON; NULL for games made before)
    """
    ALTER TABLE games ADD COLUMN tower_check TEXT;
    ALTER TABLE games ADD COLUMN season_scoring TEXT
    """,
    # issue 15: which game a row is (``companion.table.kinds``); every game stored before is Marrakesh
    """
    ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'marrakesh'
    """,
    # issue 25: what the games list shows, kept in the row when a change commits (listing replayed every
    # finished game and read every log); games stored before get theirs from the backfill next
    """
    ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN winners TEXT;
    ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0
    """,
    game_summary.backfill,
)

#: The game columns that hold one JSON value the service replaces whole (None stores NULL).
JSON_STATE_COLUMNS = frozenset({"tower_result", "tower_check", "season_scoring"})


# -- games --------------------------------------------------------------------------------------
def insert_game(db: sqlite3.Connection, *, game_id: str, title: str, now: float, created_at: float, edition: str,
                setup: dict[str, Any], seating: list[dict[str, Any]], pin: str, version: int, actions: int,
                finished: bool, tower_check: dict[str, Any] | None, kind: str, moves: int, winners: str | None,
                imported: int) -> None:
    """A new game's row, changed ``now``; ``created_at`` is when it was played (an imported game's own date);
    ``winners`` is the column's JSON (``game_summary.winners_column``)."""
    db.execute(
        "INSERT INTO games (id, title, created_at, updated_at, edition, setup, seating, pin, version,"
        " actions, finished, tower_check, kind, moves, winners, imported)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, title, created_at, now, edition, json.dumps(setup), json.dumps(seating), pin, version, actions,
         int(finished), json.dumps(tower_check) if tower_check else None, kind, moves, winners, imported),
    )


def game_row(store: Store, game_id: str) -> sqlite3.Row | None:
    """The stored row of ``game_id`` (None: no such game)."""
    rows = store.query("SELECT * FROM games WHERE id = ?", (game_id,))
    return rows[0] if rows else None


def json_column(row: sqlite3.Row, column: str) -> Any:
    """A JSON column of a game row as its value (None for NULL)."""
    return json.loads(row[column]) if row[column] else None


def save_json(db: sqlite3.Connection, game_id: str, column: str, value: Any) -> None:
    """Replace one of the game's ``JSON_STATE_COLUMNS`` (None clears it)."""
    if column not in JSON_STATE_COLUMNS:
        raise ValueError(f"{column!r} is not a JSON state column of games")
    db.execute(f"UPDATE games SET {column} = ? WHERE id = ?",
               (json.dumps(value) if value is not None else None, game_id))


def latest_open_game(store: Store, kind: str) -> str | None:
    """The unfinished game of ``kind`` that changed last, if any."""
    rows = store.query("SELECT id FROM games WHERE finished = 0 AND kind = ? ORDER BY updated_at DESC LIMIT 1",
                       (kind,))
    return str(rows[0]["id"]) if rows else None


def unanswered_tosses(store: Store) -> list[tuple[str, dict[str, Any]]]:
    """``(game_id, toss.started data)`` of each unfinished game whose last move is a toss that never
    got its result or failure filed."""
    rows = store.query(
        "SELECT e.game_id, e.data FROM game_events e JOIN games g ON g.id = e.game_id"
        " WHERE g.finished = 0 AND e.kind = 'toss.started' AND e.id = (SELECT MAX(id) FROM game_events"
        " WHERE game_id = e.game_id AND kind IN ('action', 'undo', 'toss.started', 'toss.result', 'toss.failed'))"
    )
    return [(str(row["game_id"]), json.loads(row["data"])) for row in rows]


def summary_rows(store: Store) -> list[sqlite3.Row]:
    """Every stored game, newest change first, with what the games list shows (its row only: no log read,
    no replay)."""
    return store.query(
        "SELECT id, title, created_at, updated_at, edition, json_extract(setup, '$.expansions') AS expansions,"
        " seating, actions, finished, kind, moves, winners FROM games ORDER BY updated_at DESC"
    )


def pins(store: Store, game_ids: Sequence[str]) -> dict[str, str]:
    """game id -> table PIN, for those of ``game_ids`` that exist."""
    if not game_ids:
        return {}
    marks = ", ".join("?" * len(game_ids))
    rows = store.query(f"SELECT id, pin FROM games WHERE id IN ({marks})", tuple(game_ids))
    return {str(r["id"]): str(r["pin"]) for r in rows}


def delete_game(db: sqlite3.Connection, game_id: str) -> None:
    """A game, its log and its events, gone."""
    db.execute("DELETE FROM game_events WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM game_log WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM games WHERE id = ?", (game_id,))


# -- the log ------------------------------------------------------------------------------------
def insert_actions(db: sqlite3.Connection, game_id: str, actions: list[dict[str, Any]],
                   metas: list[dict[str, Any] | None], now: float) -> None:
    """A new (imported) game's actions as its first log rows, ``metas[i]`` beside ``actions[i]``."""
    db.executemany(
        "INSERT INTO game_log (game_id, seq, kind, action, meta, created_at) VALUES (?, ?, 'action', ?, ?, ?)",
        [(game_id, seq, json.dumps(action), json.dumps(meta) if meta is not None else None, now)
         for seq, (action, meta) in enumerate(zip(actions, metas, strict=True), start=1)],
    )


def log_entries(store: Store, game_id: str) -> list[tuple[str, Any, dict[str, Any]]]:
    """The game's log in order: ``(kind, action, meta)`` with ``kind`` ``action`` (and its action's JSON)
    or ``undo`` (and None)."""
    rows = store.query("SELECT kind, action, meta FROM game_log WHERE game_id = ? ORDER BY seq", (game_id,))
    return [(str(r["kind"]), json.loads(r["action"]) if r["kind"] == "action" else None,
             json.loads(r["meta"] or "{}")) for r in rows]


def append_change(db: sqlite3.Connection, game_id: str, *, version: int, kind: str,
                  action: dict[str, Any] | None, meta: dict[str, Any] | None, key: str | None, now: float,
                  actions: int, finished: bool, moved: int, winners: str | None,
                  json_state: dict[str, Any]) -> None:
    """One accepted change (``kind`` action or undo) as log row ``version``, and the game's counters
    (plus any ``JSON_STATE_COLUMNS`` in ``json_state``) brought up to it: ``moved`` is what the change adds
    to the moves (1, 0 for an answer, -1 for the undo of a move), ``winners`` the column's new JSON."""
    db.execute(
        "INSERT INTO game_log (game_id, seq, kind, action, meta, idempotency_key, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, version, kind, json.dumps(action) if action else None, json.dumps(meta) if meta else None,
         key or None, now),
    )
    db.execute("UPDATE games SET version = ?, actions = ?, finished = ?, updated_at = ?, moves = moves + ?,"
               " winners = ? WHERE id = ?", (version, actions, int(finished), now, moved, winners, game_id))
    for column, value in json_state.items():
        save_json(db, game_id, column, value)


def change_by_key(store: Store, game_id: str, key: str) -> tuple[int, int] | None:
    """``(version, event id)`` of the change the idempotency ``key`` made (None: none made yet)."""
    rows = store.query("SELECT seq FROM game_log WHERE game_id = ? AND idempotency_key = ?", (game_id, key))
    if not rows:
        return None
    version = int(rows[0]["seq"])
    event = store.query(
        "SELECT id FROM game_events WHERE game_id = ? AND version = ? AND kind IN ('action', 'undo')",
        (game_id, version),
    )
    return version, int(event[0]["id"]) if event else 0


# -- events -------------------------------------------------------------------------------------
def insert_event(db: sqlite3.Connection, game_id: str, version: int, kind: str, body: dict[str, Any],
                 now: float) -> int:
    """One durable event; its id (what a stream resumes from)."""
    cursor = db.execute(
        "INSERT INTO game_events (game_id, version, kind, data, created_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, version, kind, json.dumps(body), now),
    )
    return int(cursor.lastrowid or 0)


def events_after(store: Store, game_id: str, last_id: int, limit: int) -> list[dict[str, Any]]:
    """The stored events of ``game_id`` after ``last_id``, oldest first."""
    rows = store.query(
        "SELECT id, version, kind, data, created_at FROM game_events WHERE game_id = ? AND id > ?"
        " ORDER BY id LIMIT ?", (game_id, last_id, limit),
    )
    return [{"id": r["id"], "version": r["version"], "kind": r["kind"], "data": json.loads(r["data"]),
             "time": r["created_at"]} for r in rows]


def last_event_id(store: Store, game_id: str) -> int:
    """The id of the game's newest event (0 before any)."""
    rows = store.query("SELECT COALESCE(MAX(id), 0) AS id FROM game_events WHERE game_id = ?", (game_id,))
    return int(rows[0]["id"])


def latest_events(store: Store, game_id: str, limit: int) -> list[tuple[int, str, dict[str, Any]]]:
    """The game's newest ``limit`` events, newest first: ``(id, kind, data)``."""
    rows = store.query("SELECT id, kind, data FROM game_events WHERE game_id = ? ORDER BY id DESC LIMIT ?",
                       (game_id, limit))
    return [(int(r["id"]), str(r["kind"]), json.loads(r["data"])) for r in rows]
