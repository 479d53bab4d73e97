"""A full disk is said in the phone's language and changes nothing half-way; a toss whose result cannot
be stored ends as a failed toss, so Toss and Undo come back (and work again once there is space).

The disk is made full with SQLite's own limit (``PRAGMA max_page_count`` on the app's connection, then
a filler table takes every free page): SQLite then answers SQLITE_FULL exactly as on a full SD card.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import StorageFull, Store
from companion.table.service import GameService
from tests.web.conftest import Table, new_table
from tests.web.play import first_action
from tests.web.test_games_api import advance_to

GERMAN = {"Accept-Language": "de"}


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return new_table(client)
FILLER_SIZES = (4000, 1000, 200, 40, 8, 1)


def fill_the_disk(store: Store) -> None:
    """No page more for this database: every free page taken, then no new one allowed."""
    with store.write() as db:
        db.execute("CREATE TABLE IF NOT EXISTS disk_filler (b BLOB)")
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {int(pages)}")
    for size in FILLER_SIZES:
        try:
            while True:
                with store.write() as db:
                    db.execute("INSERT INTO disk_filler VALUES (?)", (b"x" * size,))
        except StorageFull:
            continue


def free_the_disk(store: Store) -> None:
    with store.write() as db:
        db.execute("PRAGMA max_page_count = 1073741823")


def wait_until(check: Any, seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("not within the time")


def test_a_full_disk_is_said_in_the_phones_language_and_nothing_changes(app: Flask, table: Table) -> None:
    store: Store = app.extensions["keshi.store"]
    view = table.view()
    fill_the_disk(store)
    for _ in range(40):  # new games until one needs a page the disk no longer has
        games_before = table.client.get("/api/games").get_json()
        created = table.client.post("/api/games", json={"players": [{"name": "Ana"}, {"name": "Ben"}]},
                                    headers={"X-CSRF-Token": table.csrf, **GERMAN})
        if created.status_code != 201:
            break
    assert created.status_code == 507
    assert created.get_json()["error"].startswith("Der Speicher des Begleiters ist voll")
    assert table.client.get("/api/games").get_json() == games_before  # no game half made
    refused = []
    for _ in range(40):  # actions until one needs a page the disk no longer has
        answer = table.act(first_action(view), view["version"])
        if answer.status_code == 507:
            refused.append(answer.get_json()["error"])
            break
        assert answer.status_code == 201, answer.get_json()
        view = answer.get_json()["view"]
    assert refused and "storage is full" in refused[0]
    assert table.view()["version"] == view["version"]  # the refused action left no trace
    free_the_disk(store)
    assert table.act(first_action(view), view["version"]).status_code == 201  # space again: the table goes on


def test_a_toss_that_cannot_be_stored_ends_as_a_failed_toss(app: Flask, table: Table) -> None:
    store: Store = app.extensions["keshi.store"]
    games: GameService = app.extensions["keshi.games"]
    view = advance_to(table, "toss")
    live = games.get(table.game_id)
    tossed = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    assert tossed.status_code == 202
    toss_id = tossed.get_json()["toss_id"]
    wait_until(lambda: not app.extensions["keshi.tower"].busy)
    wait_until(lambda: table.view()["tower_result"] is not None)
    assert table.view()["tossing"] is False
    live.tossing = "another-toss"  # a second toss in the air, whose result meets a full disk
    fill_the_disk(store)
    result = {"toss_id": "another-toss", "counts": {"red": 1}, "label": "x" * 20_000}
    try:
        games.record_tower(table.game_id, "toss.result", result)
        raise AssertionError("a result larger than the free space was stored")
    except StorageFull:
        pass
    after = table.view()
    assert after["tossing"] is False  # not "tossing" until a restart: Toss and Undo come back
    free_the_disk(store)
    assert toss_id and table.view()["tower_result"]["toss_id"] == toss_id  # the stored result is untouched


def test_sqlite_reports_a_full_database_as_storage_full(tmp_path: Any) -> None:
    store = Store(tmp_path / "small.sqlite3")
    try:
        fill_the_disk(store)
        try:
            with store.write() as db:
                db.execute("INSERT INTO disk_filler VALUES (?)", (b"y" * 10_000,))
        except StorageFull as full:
            assert isinstance(full.__cause__, sqlite3.OperationalError)
        else:
            raise AssertionError("the write fitted")
    finally:
        store.close()
