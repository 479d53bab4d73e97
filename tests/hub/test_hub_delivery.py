"""Must show (issue 16): three towers publish 3,000 tosses while the broker is stopped and restarted
twice and the hub is SIGKILLed once; the hub ends with exactly 3,000 tosses, none duplicated, every
game event once, the table's corrections applied, and its fairness reports equal the tables' own."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

from companion.fairness.load import load_tosses
from companion.fairness.report import build_report
from companion.fairness.simulate import simulate_into_store
from companion.hub.fairness import hub_report
from companion.hub.store import TOSS_COLUMNS, HubStore
from companion.store import Store
from companion.tower.model import TowerParams
from companion.tower.record import record_correction
from tests.hub.conftest import needs_servers, start_hub, tower_publisher
from tests.hub.servers import Mosquitto

TOWERS = {"Table 1": "B1", "Table 2": "B2", "Table 3": "B1"}
TOSSES_PER_TOWER = 1000
CHUNK = 25
#: The columns compared between each table's store and the hub.
ROW = "tower, toss_id, pieces_out, correction, contents_before, drop_times_ms, started_at"


def play(store: Store, name: str, layer: str, seed: int, stop_early: threading.Event) -> None:
    """A table's evening, sped up: tosses in small chunks, game events, and a few corrected tosses."""
    games = 0
    for chunk in range(TOSSES_PER_TOWER // CHUNK):
        if stop_early.is_set():
            return
        simulate_into_store(store, CHUNK, TowerParams(layer=layer), seed=seed * 1000 + chunk, tower=name)
        if chunk % 5 == 0:
            games += 1
            with store.write() as conn:
                game = f"{name}-game-{games}"
                conn.execute("INSERT INTO games (id, title, created_at, updated_at, edition, setup, seating, pin)"
                             " VALUES (?, ?, ?, ?, 'classic', '{}', '[]', '1234')",
                             (game, game, time.time(), time.time()))
                for version in range(5):
                    conn.execute("INSERT INTO game_events (game_id, version, kind, data, created_at)"
                                 " VALUES (?, ?, 'action', ?, ?)", (game, version, json.dumps({"n": version}),
                                                                   time.time()))
        if chunk % 10 == 3:  # the table corrects what the camera counted, after it was published
            row = store.query("SELECT toss_id, pieces_in FROM tosses ORDER BY id DESC LIMIT 1")[0]
            with store.write() as conn:
                record_correction(conn, row["toss_id"], json.loads(row["pieces_in"]))
        time.sleep(0.03)


def one(row: Any) -> int:
    """The single number a ``SELECT COUNT(*)`` row holds."""
    assert row is not None
    return int(row[0])


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ("generated_at", "scope")}


def union_store(paths: list[Path], target: Path) -> Store:
    """Every table's tosses in one companion store, in the order they were played."""
    rows: list[Any] = []
    for path in paths:
        with sqlite3.connect(path) as conn:
            rows += conn.execute(f"SELECT id, {', '.join(TOSS_COLUMNS)} FROM tosses").fetchall()
    tower_at = 1 + TOSS_COLUMNS.index("tower")
    started_at = 1 + TOSS_COLUMNS.index("started_at")
    rows.sort(key=lambda r: (r[started_at], r[tower_at], r[0]))
    union = Store(target)
    with union.write() as conn:
        conn.executemany(f"INSERT INTO tosses (id, {', '.join(TOSS_COLUMNS)}) VALUES (?{', ?' * len(TOSS_COLUMNS)})",
                         [(i, *row[1:]) for i, row in enumerate(rows, start=1)])
    return union


def wait_until(condition: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@needs_servers
def test_three_towers_3000_tosses_through_broker_restarts_and_hub_kill(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    stores = {name: Store(tmp_path / f"{i}.sqlite3") for i, name in enumerate(TOWERS)}
    publishers = [tower_publisher(store, name, broker) for name, store in stores.items()]
    hub = start_hub(broker, database, tmp_path / "hub.log")
    stop_early = threading.Event()
    tables = [threading.Thread(target=play, args=(stores[name], name, layer, seed, stop_early))
              for seed, (name, layer) in enumerate(TOWERS.items(), start=1)]
    try:
        for table in tables:
            table.start()
        time.sleep(0.8)
        broker.stop()  # 1st outage: the towers keep storing, nothing is acknowledged
        time.sleep(0.8)
        broker.start()
        time.sleep(1.0)
        hub.kill()  # SIGKILL mid-stream: whatever it had not acknowledged, the broker redelivers
        time.sleep(0.5)
        hub = start_hub(broker, database, tmp_path / "hub.log")
        time.sleep(0.5)
        broker.stop()  # 2nd outage
        time.sleep(0.8)
        broker.start()
        for table in tables:
            table.join(timeout=60)
        expected = 3 * TOSSES_PER_TOWER
        table_rows = {}
        table_events = 0
        for store in stores.values():
            for row in store.query(f"SELECT {ROW} FROM tosses"):
                table_rows[(row[0], row[1])] = tuple(row[2:])
            table_events += one(store.query("SELECT COUNT(*) FROM game_events")[0])
        with psycopg.connect(database) as conn:
            def hub_rows() -> dict[tuple[str, str], tuple[Any, ...]]:
                return {(r[0], r[1]): r[2:] for r in conn.execute(f"SELECT {ROW} FROM hub_tosses")}

            def hub_events() -> int:
                return one(conn.execute("SELECT COUNT(*) FROM hub_game_events").fetchone())

            assert wait_until(lambda: hub_rows() == table_rows and hub_events() == table_events, 45)
            time.sleep(0.5)  # anything still arriving would be a duplicate: give it the chance to show
            assert all(p.backlog() == 0 for p in publishers)
            assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT (tower, toss_id)) FROM hub_tosses").fetchone() == (
                expected, expected)
            assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT (tower, event_id)) FROM hub_game_events"
                                ).fetchone() == (table_events, table_events)
            assert hub_rows() == table_rows  # every toss, with the table's later corrections
    finally:
        stop_early.set()
        hub.stop()
        for publisher in publishers:
            publisher.stop()

    assert len(table_rows) == expected
    assert sum(1 for r in table_rows.values() if r[1] is not None) == 3 * 4  # corrected after publishing
    assert table_events == 3 * 8 * 5
    assert broker.password not in (tmp_path / "hub.log").read_text()

    hub_store = HubStore(database)
    try:
        per_tower = {}
        for name, store in stores.items():
            own = build_report(load_tosses(store, tower=name)).to_dict()
            per_tower[name] = own
            assert comparable(hub_report(hub_store, {"tower": name}).to_dict()) == comparable(own)
        across = hub_report(hub_store).to_dict()
    finally:
        hub_store.close()
    union = union_store([store.path for store in stores.values()], tmp_path / "union.sqlite3")
    assert comparable(across) == comparable(build_report(load_tosses(union)).to_dict())
    assert across["tosses"] == sum(r["tosses"] for r in per_tower.values()) == expected
    for colour, summary in across["colours"].items():
        assert summary["exposures"] == sum(r["colours"][colour]["exposures"] for r in per_tower.values())
        assert summary["releases"] == sum(r["colours"][colour]["releases"] for r in per_tower.values())
    union.close()
    for store in stores.values():
        store.close()
