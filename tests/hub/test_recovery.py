"""Nothing is lost when the broker forgets, or when a table dies mid-publish (issue 24).

A broker restarted without its store has lost what it had acknowledged to the tables but not yet
delivered, the hub's session and every retained message. The hub notices the gaps in each table's
stream (and, on a new session, asks every tower it knows) and the tables send again what it lacks:
the hub ends with exactly the tables' tosses, none twice.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

from companion.fairness.simulate import simulate_into_store
from companion.publish.publisher import Publisher
from companion.store import Store
from companion.tower.model import TowerParams
from tests.hub.conftest import HubProcess, needs_servers, start_hub, tower_publisher
from tests.hub.servers import Mosquitto
from tests.hub.test_hub_delivery import wait_until

pytestmark = needs_servers
TOWERS = ("Table 1", "Table 2")


def table_tosses(stores: dict[str, Store]) -> set[tuple[str, str]]:
    return {(row[0], row[1]) for store in stores.values() for row in store.query("SELECT tower, toss_id FROM tosses")}


def hub_tosses(database: str) -> list[tuple[str, str]]:
    with psycopg.connect(database) as conn:
        return [(row[0], row[1]) for row in conn.execute("SELECT tower, toss_id FROM hub_tosses")]


def all_arrived(database: str, expected: set[tuple[str, str]]) -> bool:
    stored = hub_tosses(database)
    return set(stored) == expected


def play(store: Store, name: str, chunks: int, seed: int, pause: float = 0.02) -> None:
    for chunk in range(chunks):
        simulate_into_store(store, 10, TowerParams(), seed=seed * 1000 + chunk, tower=name)
        time.sleep(pause)


def check_exactly(database: str, expected: set[tuple[str, str]]) -> None:
    """Every table toss in the hub, once (and, given a moment for stragglers, nothing more)."""
    assert wait_until(lambda: all_arrived(database, expected), 60), (
        f"{len(expected - set(hub_tosses(database)))} tosses missing")
    time.sleep(1.0)  # anything still arriving would be a duplicate: give it the chance to show
    stored = hub_tosses(database)
    assert len(stored) == len(set(stored)) == len(expected) and set(stored) == expected


def three_tables_and_a_hub(tmp_path: Path, broker: Mosquitto, database: str
                           ) -> tuple[dict[str, Store], HubProcess, list[Publisher]]:
    """The three tables' stores, a running hub, and each table's publisher to the broker."""
    stores = {name: Store(tmp_path / f"{i}.sqlite3") for i, name in enumerate(TOWERS)}
    hub = start_hub(broker, database, tmp_path / "hub.log")
    return stores, hub, [tower_publisher(store, name, broker) for name, store in stores.items()]


def test_a_broker_restarted_without_its_store_while_the_hub_runs_loses_nothing(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    stores, hub, publishers = three_tables_and_a_hub(tmp_path, broker, database)
    tables = [threading.Thread(target=play, args=(store, name, 60, seed))
              for seed, (name, store) in enumerate(stores.items(), start=1)]
    try:
        for table in tables:
            table.start()
        assert wait_until(lambda: len(hub_tosses(database)) >= 200, 30)
        hub.process.send_signal(signal.SIGSTOP)  # the hub falls behind: the broker queues for it ...
        assert wait_until(lambda: all(p.backlog() == 0 for p in publishers) and len(table_tosses(stores)) >= 500, 30)
        broker.restart_forgetting()  # ... and forgets the queue, the sessions and the retained messages
        hub.process.send_signal(signal.SIGCONT)
        assert wait_until(lambda: len(hub_tosses(database)) >= 700, 30)
        broker.restart_forgetting()  # and once more, mid-stream
        for table in tables:
            table.join(timeout=60)
        check_exactly(database, table_tosses(stores))
        assert all(publisher.backlog() == 0 for publisher in publishers)
    finally:
        stop(hub, publishers, stores)


def test_a_broker_restarted_without_its_store_while_the_hub_is_down_loses_nothing(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    stores, hub, publishers = three_tables_and_a_hub(tmp_path, broker, database)
    try:
        for seed, (name, store) in enumerate(stores.items(), start=1):
            play(store, name, 5, seed, pause=0)
        check_exactly(database, table_tosses(stores))
        hub.stop()
        for seed, (name, store) in enumerate(stores.items(), start=1):  # queued by the broker for the hub ...
            play(store, name, 60, seed + 10, pause=0)
        assert wait_until(lambda: all(p.backlog() == 0 for p in publishers), 30)  # ... and acknowledged
        broker.restart_forgetting()  # ... and forgotten
        for seed, (name, store) in enumerate(stores.items(), start=1):
            play(store, name, 3, seed + 20, pause=0)  # sent while no hub session exists: to nobody
        hub = start_hub(broker, database, tmp_path / "hub.log")
        check_exactly(database, table_tosses(stores))
    finally:
        stop(hub, publishers, stores)


def test_a_table_killed_mid_publish_loses_nothing_and_doubles_nothing(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    hub = start_hub(broker, database, tmp_path / "hub.log")
    path = tmp_path / "table.sqlite3"
    env = {**os.environ, "KESHI_MQTT_PASSWORD": broker.password}
    command = [sys.executable, "-m", "tests.hub.table_process", str(path), "Table 9", str(broker.port), "1500"]
    table = subprocess.Popen(command, stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert table.stdout is not None
        for line in table.stdout:  # mid-game and mid-publish: tosses stored, some published
            if int(line) >= 600:
                break
        assert wait_until(lambda: len(hub_tosses(database)) > 0, 30)
        table.send_signal(signal.SIGKILL)
        table.wait(timeout=10)
        with Store(path) as store:
            played = int(store.query("SELECT COUNT(*) FROM tosses")[0][0])
        assert len(hub_tosses(database)) < 1500
        table = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env, text=True)  # the table restarts
        with Store(path) as store:
            assert wait_until(lambda: int(store.query("SELECT COUNT(*) FROM tosses")[0][0]) == 1500, 60)
            expected = table_tosses({"t": store})
        assert played < 1500
        check_exactly(database, expected)
    finally:
        table.send_signal(signal.SIGKILL)
        table.wait(timeout=10)
        hub.stop()


def stop(hub: Any, publishers: list[Publisher], stores: dict[str, Store]) -> None:
    hub.stop()
    for publisher in publishers:
        publisher.stop()
    for store in stores.values():
        store.close()
