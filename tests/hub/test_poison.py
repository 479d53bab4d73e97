"""No message stops the hub (issue 24): every poison a table's own login could publish is set aside in
the dead letters with its reason, ``/healthz`` says "degraded" with the count, and the other tables'
tosses are stored as before; a body naming another tower is refused, whatever it says."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import psycopg
import pytest

from companion.fairness.simulate import simulate_into_store
from companion.hub.messages import MessageError, add_message
from companion.hub.store import Batch
from companion.publish import outbox
from companion.store import Store
from companion.tower.model import TowerParams
from tests.hub.conftest import needs_servers, start_hub, tower_publisher
from tests.hub.servers import Mosquitto
from tests.hub.test_ingest import publish, wait_until


def toss_message(tmp_path: Path, tower: str, seed: int = 1) -> dict[str, Any]:
    """A real toss message, as a table's publisher sends it."""
    with Store(tmp_path / f"{tower}-{seed}.sqlite3") as store:
        simulate_into_store(store, 1, TowerParams(), seed=seed, tower=tower)
        outbox.install(store)
        payload = outbox.pending(store, tower, 0, 1)[0].payload
    assert payload is not None
    return payload


def changed(message: dict[str, Any], **values: Any) -> bytes:
    return json.dumps({**message, **values}).encode()


def poisons(message: dict[str, Any]) -> dict[str, tuple[str, bytes, str]]:
    """Each poison of the fault run: (topic, payload, the words its refusal names)."""
    event = {"tower": "Table 1", "event_id": 1, "revision": 2, "game_id": "g", "version": 1, "kind": "action",
             "data": {}, "created_at": 1.0}
    nan_text = json.dumps(message).replace(f'"started_at": {json.dumps(message["started_at"])}', '"started_at": NaN')
    return {
        "seq beyond bigint": ("keshi/table_1/toss", changed(message, seq=2**70),
                              "seq is 1180591620717411303424, outside"),
        "season beyond integer": ("keshi/table_1/toss", changed(message, season=2**40), "season is 1099511627776"),
        "NUL in toss_id": ("keshi/table_1/toss", changed(message, toss_id="a\x00b"), "NUL character"),
        "deep nesting": ("keshi/table_1/toss", b"[" * 100000, "nests lists or objects more than 32 deep"),
        "started_at NaN": ("keshi/table_1/toss", nan_text.encode(), "holds NaN"),
        "started_at infinite": ("keshi/table_1/toss",
                                json.dumps(message).replace('"started_at": ', '"started_at": 1e999, "x": ').encode(),
                                "holds inf"),
        "huge message": ("keshi/table_1/toss", changed(message, junk="x" * 300_000), "more than the 262,144"),
        "event id beyond bigint": ("keshi/table_1/event", json.dumps({**event, "event_id": -(2**64)}).encode(),
                                   "event_id is -18446744073709551616"),
        "NUL in a state": ("keshi/table_1/state", json.dumps({"tower": "Table 1", "x": "\x00"}).encode(),
                           "NUL character"),
        "toss as another tower": ("keshi/table_1/toss", changed(message, tower="Table 2", revision=10**12),
                                  "names the tower 'Table 2', not the tower of its topic (table_1)"),
        "event as another tower": ("keshi/table_1/event", json.dumps({**event, "tower": "Table 3"}).encode(),
                                   "names the tower 'Table 3'"),
        "state as a phantom tower": ("keshi/table_1/state", json.dumps({"tower": "Phantom"}).encode(),
                                     "names the tower 'Phantom'"),
    }


@pytest.fixture
def table_1_toss(tmp_path: Path) -> dict[str, Any]:
    return toss_message(tmp_path, "Table 1")


@pytest.mark.parametrize("poison", list(poisons({"started_at": 1.0})))
def test_each_poison_is_refused_naming_the_problem_and_adds_nothing(
    table_1_toss: dict[str, Any], poison: str
) -> None:
    topic, payload, words = poisons(table_1_toss)[poison]
    batch = Batch()
    with pytest.raises(MessageError) as refused:
        add_message(batch, "keshi", topic, payload)
    assert words in str(refused.value)
    assert len(batch) == 0


def test_the_tower_comes_from_the_topic(table_1_toss: dict[str, Any]) -> None:
    batch = Batch()
    add_message(batch, "keshi", "keshi/table_1/toss", json.dumps(table_1_toss).encode())
    assert batch.tosses[0]["tower"] == "Table 1"
    with pytest.raises(MessageError, match="names the tower 'Table 1', not the tower of its topic"):
        add_message(batch, "keshi", "keshi/table_2/toss", json.dumps(table_1_toss).encode())


def healthz(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/healthz", timeout=5) as response:
        body: dict[str, Any] = json.loads(response.read())
    return body


@needs_servers
def test_poison_from_one_table_is_set_aside_and_the_others_are_stored(
    tmp_path: Path, broker: Mosquitto, database: str, table_1_toss: dict[str, Any]
) -> None:
    table_2_toss = toss_message(tmp_path, "Table 2", seed=7)
    hub = start_hub(broker, database, tmp_path / "hub.log")
    stores = {name: Store(tmp_path / f"{name}.sqlite3") for name in ("Table 2", "Table 3")}
    publishers = []
    try:
        publish(broker, [("keshi/table_2/toss", json.dumps(table_2_toss).encode())])  # a real Table 2 toss first
        assert wait_until(lambda: healthz(hub.url)["status"] == "ok" and count(database, "hub_tosses") == 1)
        bad = poisons(table_1_toss)
        publish(broker, [(topic, payload) for topic, payload, _ in bad.values()])  # all with table-1's login
        for seed, (name, store) in enumerate(stores.items()):
            simulate_into_store(store, 50, TowerParams(), seed=20 + seed, tower=name)
        publishers = [tower_publisher(store, name, broker) for name, store in stores.items()]
        assert wait_until(lambda: count(database, "hub_tosses") == 101, 20), hub.log.read_text()[-3000:]
        assert wait_until(lambda: count(database, "hub_dead_letters") == len(bad))
        health = healthz(hub.url)
        assert health["status"] == "degraded" and health["dead_letters"] == len(bad)
        assert f"{len(bad)} message(s) could not be stored" in health["problems"]
        with psycopg.connect(database) as conn:
            reasons = [row[0] for row in conn.execute("SELECT reason FROM hub_dead_letters ORDER BY id")]
            topics = {row[0] for row in conn.execute("SELECT topic FROM hub_dead_letters")}
            # the spoofed toss did not touch Table 2's real one, nor create a phantom tower
            assert conn.execute("SELECT toss_id, revision FROM hub_tosses WHERE tower = 'Table 2' AND toss_id = %s",
                                (table_2_toss["toss_id"],)).fetchall() == [(table_2_toss["toss_id"], 1)]
            assert conn.execute("SELECT COUNT(*) FROM hub_towers WHERE name = 'Phantom'").fetchone() == (0,)
            assert conn.execute("SELECT COUNT(*) FROM hub_tosses WHERE tower = 'Table 1'").fetchone() == (0,)
        assert topics == {"keshi/table_1/toss", "keshi/table_1/event", "keshi/table_1/state"}
        for (_, _, words), reason in zip(bad.values(), reasons, strict=True):
            assert words in reason

        # a restart does not bring the poison back: it was set aside and acknowledged
        hub.stop()
        hub = start_hub(broker, database, tmp_path / "hub.log")
        simulate_into_store(stores["Table 3"], 5, TowerParams(), seed=99, tower="Table 3")
        assert wait_until(lambda: count(database, "hub_tosses") == 106, 20)
        assert count(database, "hub_dead_letters") == len(bad)

        # someone looks at them, then clears them: the hub is "ok" again
        listed = keshi_hub(database, "--dead-letters")
        assert "keshi/table_1/toss" in listed and "names the tower 'Table 2'" in listed
        keshi_hub(database, "--clear-dead-letters")
        assert healthz(hub.url)["status"] == "ok"
    finally:
        hub.stop()
        for publisher in publishers:
            publisher.stop()
        for store in stores.values():
            store.close()


@needs_servers
def test_a_message_the_database_itself_refuses_is_set_aside_and_its_batch_stored(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    hub = start_hub(broker, database, tmp_path / "hub.log")
    try:
        with psycopg.connect(database, autocommit=True) as conn:  # a rule the hub's checks do not know
            conn.execute("ALTER TABLE hub_tosses ADD CONSTRAINT no_seven CHECK (seq <> 7)")
        with Store(tmp_path / "t.sqlite3") as store:
            simulate_into_store(store, 12, TowerParams(), seed=3, tower="Table 4")
            outbox.install(store)
            messages = [("keshi/table_4/toss", json.dumps(entry.payload).encode())
                        for entry in outbox.pending(store, "Table 4", 0, 100)]
        publish(broker, messages)
        assert wait_until(lambda: count(database, "hub_tosses") == 11 and count(database, "hub_dead_letters") == 1)
        with psycopg.connect(database) as conn:
            row = conn.execute("SELECT topic, reason FROM hub_dead_letters").fetchone()
        assert row == ("keshi/table_4/toss", "the database refused it (CheckViolation)")
    finally:
        hub.stop()


def keshi_hub(database: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "hub", "--database", database, *args],
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


def count(database: str, table: str) -> int:
    with psycopg.connect(database) as conn:
        row = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()  # noqa: S608 - the tests' own names
    assert row is not None
    return int(row[0])
