"""The SQLite store in the instance folder: versioned migrations, WAL, one connection per store.

Each concern owns its tables and ships them as a *component* with an ordered tuple of migrations
(``COMPONENT`` and ``MIGRATIONS`` in its schema module, listed in ``MIGRATION_MODULES``): each an SQL
script, or a Python step given the connection (a backfill SQL alone cannot work out, such as a replay).
``schema_migrations`` records which scripts of which component have run, so each runs exactly once,
in order, inside a transaction; a reopened store keeps its data and runs only what is new.

The connection is shared by the server's threads behind a lock: writes are short and SQLite
serialises them anyway, and one connection keeps "store before you acknowledge" simple: a write
has committed when ``write()`` returns.
"""

from __future__ import annotations

import importlib
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.errors import StoreError
from companion.i18n import Msg
from companion.instance_files import private_database

#: One migration: an SQL script, or a Python step that changes the database through the connection it is given.
Migration = str | Callable[[sqlite3.Connection], None]
#: Schema modules, each defining ``COMPONENT: str`` and ``MIGRATIONS: tuple[Migration, ...]``.
MIGRATION_MODULES: tuple[str, ...] = ("companion.store_schema", "companion.table.game_records",
                                     "companion.publish.schema", "companion.table.board_profile_records",
                                     "companion.table.seat_records")

DATABASE_FILENAME = "keshi.sqlite3"
#: What a phone reads when a change cannot be stored because the disk (or the database's size limit) is full.
STORAGE_FULL = ("The companion's storage is full: nothing was changed. Free some space on it (or ask whoever "
                "looks after it) and try again")


class StorageFull(StoreError):
    """A write found the disk full (SQLite's SQLITE_FULL); the transaction was rolled back whole."""


class Store:
    """A migrated SQLite database; thread-safe; use as a context manager or call ``close()``."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
            self._conn.row_factory = sqlite3.Row
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self.applied = self._migrate()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from exc
        self.closed = False

    # -- migrations -------------------------------------------------------------------------
    def _migrate(self) -> list[tuple[str, int]]:
        """Run every migration not yet recorded; return the (component, version) pairs run now."""
        ran: list[tuple[str, int]] = []
        with self._lock:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " component TEXT NOT NULL, version INTEGER NOT NULL,"
                " applied_at TEXT NOT NULL DEFAULT (datetime('now')),"
                " PRIMARY KEY (component, version))"
            )
            for module_name in MIGRATION_MODULES:
                module = importlib.import_module(module_name)
                component: str = module.COMPONENT
                scripts: Sequence[Migration] = module.MIGRATIONS
                done = self.schema_version(component)
                for version, script in enumerate(scripts, start=1):
                    if version <= done:
                        continue
                    self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        if callable(script):
                            script(self._conn)
                        else:
                            for statement in _statements(script):
                                self._conn.execute(statement)
                        self._conn.execute(
                            "INSERT INTO schema_migrations (component, version) VALUES (?, ?)",
                            (component, version),
                        )
                        self._conn.execute("COMMIT")
                    except BaseException:  # a Python step may fail otherwise than SQLite: nothing of it stays
                        self._conn.execute("ROLLBACK")
                        raise
                    ran.append((component, version))
        return ran

    def schema_version(self, component: str) -> int:
        """The highest migration version applied for ``component`` (0 if none)."""
        row = self._conn.execute(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations WHERE component = ?", (component,)
        ).fetchone()
        return int(row[0])

    # -- access -------------------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed (durably, WAL + synchronous=FULL) when the block ends."""
        with self._lock:
            self._check_open()
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error) and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
                    raise StorageFull(Msg(STORAGE_FULL)) from exc
                raise

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        """Run a read-only query and return all rows."""
        with self._lock:
            self._check_open()
            return self._conn.execute(sql, params).fetchall()

    def health(self) -> str:
        """``"ok"`` when the database answers, else a short reason."""
        try:
            self.query("SELECT 1")
        except (sqlite3.Error, StoreError) as exc:
            return f"error: {exc}"
        return "ok"

    def _check_open(self) -> None:
        if self.closed:
            raise StoreError(f"the database {self.path} is closed")

    def close(self) -> None:
        """Checkpoint the WAL and close the connection; safe to call twice."""
        with self._lock:
            if self.closed:
                return
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()
            self.closed = True

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (they contain no semicolons in literals)."""
    return [part.strip() for part in script.split(";") if part.strip()]


def open_instance_store(instance_dir: Path) -> Store:
    """Open (creating and migrating if needed) the store of an instance folder; the database and its
    ``-wal`` and ``-shm`` files are this user's only (0600, ``companion.instance_files``)."""
    path = instance_dir / DATABASE_FILENAME
    try:
        private_database(path)
    except OSError as exc:
        raise StoreError(f"cannot open the database {path}: {exc.strerror or exc}") from exc
    return Store(path)
