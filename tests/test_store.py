"""The SQLite store: migrations run once, data survives reopening, WAL mode."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.errors import StoreError
from companion.store import MIGRATION_MODULES, Store


def test_migrations_run_once_and_reopen_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with Store(path) as store:
        assert ("core", 1) in store.applied
        with store.write() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES ('table', 'cafe-3')")
    with Store(path) as reopened:
        assert reopened.applied == []  # nothing new to run
        assert reopened.schema_version("core") >= 1
        assert reopened.query("SELECT value FROM settings WHERE key = 'table'")[0]["value"] == "cafe-3"
        rows = reopened.query("SELECT component, COUNT(*) AS n FROM schema_migrations GROUP BY component")
        assert {row["component"] for row in rows} == {
            __import__(m, fromlist=["COMPONENT"]).COMPONENT for m in MIGRATION_MODULES
        }


def test_store_uses_write_ahead_logging(tmp_path: Path) -> None:
    with Store(tmp_path / "db.sqlite3") as store:
        assert store.query("PRAGMA journal_mode")[0][0] == "wal"


def test_failed_write_is_rolled_back(tmp_path: Path) -> None:
    with Store(tmp_path / "db.sqlite3") as store:
        with pytest.raises(sqlite3.IntegrityError), store.write() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES ('a', '1')")
            conn.execute("INSERT INTO settings (key, value) VALUES ('a', '2')")
        assert store.query("SELECT COUNT(*) FROM settings")[0][0] == 0


def test_closed_store_refuses_work_and_close_is_idempotent(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.query("SELECT 1")
    assert not (tmp_path / "db.sqlite3-wal").exists()  # checkpointed and closed


def test_unopenable_database_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "db.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the database"):
        Store(tmp_path / "db.sqlite3")
