"""The companion's publisher: settings, the durable outbox, the messages, and resending by cursor."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from companion.app import create_app
from companion.errors import ConfigError
from companion.events import EventBus
from companion.fairness.simulate import simulate_into_store
from companion.hub.messages import MessageError, add_message
from companion.hub.store import Batch
from companion.publish import outbox
from companion.publish.broker import parse_broker
from companion.publish.publisher import Publisher, publisher_settings
from companion.store import Store
from companion.tower.model import TowerParams
from companion.tower.record import record_correction
from tests.hub.conftest import needs_servers, tower_publisher
from tests.hub.mqtt_watch import Watcher
from tests.hub.servers import Mosquitto


def test_publishing_is_off_unless_configured() -> None:
    assert publisher_settings(None, "Table 1") is None
    assert publisher_settings({"broker": "mqtt://hub.local", "enabled": False}, "Table 1") is None
    settings = publisher_settings({"broker": "mqtt://hub.local", "username": "t1", "password": "pw"}, "Table 1")
    assert settings is not None
    assert (settings.broker.host, settings.broker.port, settings.broker.tls, settings.slug) == (
        "hub.local", 1883, False, "table_1")


@pytest.mark.parametrize(("config", "message"), [
    ({"brokr": "mqtt://hub.local"}, "unknown setting(s) brokr"),
    ({"broker": "http://hub.local"}, "must start with mqtt:// or mqtts://"),
    ({"broker": "mqtt://"}, "names no host"),
    ({"broker": "mqtt://hub.local:99999"}, "port"),
    ({"broker": "mqtt://hub.local", "tls": "yes"}, "MQTT.tls"),
    ({"broker": "mqtt://hub.local", "topic_prefix": "keshi/#"}, "MQTT.topic_prefix"),
    ({"broker": "mqtts://hub.local", "ca_file": "/nonexistent/ca.crt"}, "/nonexistent/ca.crt"),
    ("mqtt://hub.local", "MQTT must be an object"),
])
def test_bad_mqtt_settings_are_refused_naming_the_setting(config: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        publisher_settings(config, "Table 1")


def test_the_app_refuses_a_bad_mqtt_setting_before_starting(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="MQTT.tls"):
        create_app({"SIMULATE": True, "MQTT": {"broker": "mqtt://hub.local", "tls": 1}}, instance_path=tmp_path)


def test_credentials_never_show() -> None:
    settings = parse_broker("mqtts://anna:pa%21ss@hub.local")
    assert (settings.username, settings.password, settings.port) == ("anna", "pa!ss", 8883)
    assert settings.display == "mqtts://hub.local:8883"
    assert "pa!ss" not in repr(settings) and "anna" not in settings.display


def test_outbox_catches_history_new_tosses_corrections_and_events(tmp_path: Path) -> None:
    with Store(tmp_path / "pi.sqlite3") as store:
        simulate_into_store(store, 3, TowerParams(), seed=1, tower="Table 1")
        assert outbox.install(store) is True
        assert outbox.install(store) is False  # idempotent: the history is not enqueued twice
        simulate_into_store(store, 1, TowerParams(), seed=2, tower="Table 1")
        first = store.query("SELECT toss_id, pieces_in FROM tosses ORDER BY id LIMIT 1")[0]
        with store.write() as conn:
            record_correction(conn, first["toss_id"], json.loads(first["pieces_in"]))
            conn.execute("INSERT INTO games (id, title, created_at, updated_at, edition, setup, seating, pin)"
                         " VALUES ('g1', 'g1', 0, 0, 'classic', '{}', '[]', '1234')")
            conn.execute("INSERT INTO game_events (game_id, version, kind, data, created_at)"
                         " VALUES ('g1', 1, 'action', '{\"x\": 1}', 5.0)")
        entries = outbox.pending(store, "Table 1", 0, 100)
        assert [e.stream for e in entries] == ["toss"] * 5 + ["event"]
        assert [e.payload["seq"] for e in entries[:5] if e.payload] == [1, 2, 3, 4, 1]
        corrected = entries[4].payload
        assert corrected is not None and corrected["revision"] == 5
        assert corrected["correction"] == json.loads(first["pieces_in"])
        assert entries[5].payload == {"tower": "Table 1", "event_id": 1, "revision": 6, "game_id": "g1",
                                      "version": 1, "kind": "action", "data": {"x": 1}, "created_at": 5.0}
        assert [e.id for e in outbox.pending(store, "Table 1", 4, 100)] == [5, 6]
        with store.write() as conn:
            conn.execute("DELETE FROM games WHERE id = 'g1'")
        assert outbox.pending(store, "Table 1", 5, 100)[0].payload is None  # gone: nothing to send


def test_a_toss_message_becomes_the_row_the_table_stored(tmp_path: Path) -> None:
    with Store(tmp_path / "pi.sqlite3") as store:
        simulate_into_store(store, 2, TowerParams(layer="B2"), seed=4, tower="Table 2")
        outbox.install(store)
        entry = outbox.pending(store, "Table 2", 0, 1)[0]
        stored = store.query("SELECT * FROM tosses WHERE id = 1")[0]
    batch = Batch()
    add_message(batch, "keshi", "keshi/table_2/toss", json.dumps(entry.payload).encode())
    row = batch.tosses[0]
    for column in ("toss_id", "tower", "layer", "pieces_in", "pieces_out", "contents_before", "contents_after",
                   "drop_times_ms", "started_at", "beam_count", "counts_source", "session_id", "game_id"):
        assert row[column] == stored[column], column
    assert (row["seq"], row["revision"], row["correction"]) == (1, 1, None)


@pytest.mark.parametrize(("topic", "payload", "message"), [
    ("keshi/t/toss", b"{not json", "not JSON"),
    ("keshi/t/toss", b"[1, 2]", "not a JSON object"),
    ("keshi/t/toss", b'{"toss_id": "x"}', "lacks"),
    ("keshi/t/availability", b"maybe", "must be online or offline"),
    ("other/t/toss", b"{}", "unexpected topic"),
])
def test_malformed_messages_are_refused_with_a_reason(topic: str, payload: bytes, message: str) -> None:
    batch = Batch()
    with pytest.raises(MessageError, match=message):
        add_message(batch, "keshi", topic, payload)
    assert len(batch) == 0


def test_an_impossible_toss_is_refused_naming_the_colour(tmp_path: Path) -> None:
    with Store(tmp_path / "pi.sqlite3") as store:
        simulate_into_store(store, 1, TowerParams(), seed=5, tower="T")
        outbox.install(store)
        payload = outbox.pending(store, "T", 0, 1)[0].payload
    assert payload is not None
    payload["pieces_out"]["violet"] = 1
    with pytest.raises(MessageError, match="violet"):
        add_message(Batch(), "keshi", "keshi/t/toss", json.dumps(payload).encode())


@needs_servers
def test_a_restarted_publisher_sends_only_what_was_not_acknowledged(tmp_path: Path, broker: Mosquitto) -> None:
    watcher = Watcher(broker, "keshi/+/toss")
    store = Store(tmp_path / "pi.sqlite3")
    try:
        simulate_into_store(store, 20, TowerParams(), seed=6, tower="Table 4")
        publisher = tower_publisher(store, "Table 4", broker)
        assert watcher.wait_for(lambda w: len(w.received) == 20)
        deadline = time.monotonic() + 5
        while publisher.backlog() and time.monotonic() < deadline:
            time.sleep(0.05)
        publisher.stop()
        assert outbox.load_cursor(store, broker.url) == 20  # stored durably
        simulate_into_store(store, 5, TowerParams(), seed=7, tower="Table 4")  # while not publishing
        publisher = tower_publisher(store, "Table 4", broker)
        assert watcher.wait_for(lambda w: len(w.received) == 25)
        time.sleep(0.3)
        publisher.stop()
    finally:
        watcher.close()
        store.close()
    ids = [json.loads(payload)["toss_id"] for _, payload in watcher.received]
    assert len(ids) == len(set(ids)) == 25


@needs_servers
def test_a_message_the_broker_refuses_is_kept_and_sent_once_allowed(tmp_path: Path) -> None:
    allowed = ("user keshi-table\ntopic read keshi/#\n"
               "topic write keshi/table_5/state\ntopic write keshi/table_5/availability\n")
    broker = Mosquitto(acl=allowed + "topic write homeassistant/#\n")
    broker.start()
    store = Store(tmp_path / "pi.sqlite3")
    watcher = Watcher(broker, "keshi/+/toss")
    publisher = None
    try:
        simulate_into_store(store, 4, TowerParams(), seed=8, tower="Table 5")
        settings = publisher_settings({"broker": broker.url, "username": broker.username,
                                       "password": broker.password}, "Table 5")
        assert settings is not None
        publisher = Publisher(settings, store, poll_s=0.05, retry_s=0.3)
        publisher.start()
        time.sleep(1.5)  # the broker refuses every toss: none may count as delivered
        assert (publisher.acked, publisher.backlog(), watcher.received) == (0, 4, [])
        broker.reload_acl(allowed + "topic write homeassistant/#\ntopic write keshi/table_5/toss\n")
        assert watcher.wait_for(lambda w: len({p for _, p in w.received}) == 4, timeout=15)  # (resends may repeat)
        deadline = time.monotonic() + 10
        while publisher.backlog() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert publisher.backlog() == 0  # acknowledged now, so the cursor has moved over them
    finally:
        if publisher is not None:
            publisher.stop()
        watcher.close()
        store.close()
        broker.close()


@needs_servers
def test_a_toss_stored_while_the_state_is_being_sent_is_published_at_once(
    tmp_path: Path, broker: Mosquitto, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "pi.sqlite3")
    bus = EventBus()
    watcher = Watcher(broker, "keshi/table_6/state")
    settings = publisher_settings({"broker": broker.url, "username": broker.username,
                                   "password": broker.password, "discovery_prefix": None}, "Table 6")
    assert settings is not None
    publisher = Publisher(settings, store, bus, poll_s=0.05)
    build = publisher.state.message
    landed = threading.Event()

    def built_then_a_toss_lands() -> dict[str, object]:
        """The first state message is built just before a toss is stored and announced."""
        message = build()
        if not landed.is_set():
            landed.set()
            simulate_into_store(store, 1, TowerParams(), seed=4, tower="Table 6")
            bus.publish("toss.result", {"toss_id": "just-stored"})
            time.sleep(1.0)  # the bus thread notes the change before that first message is sent
        return message

    monkeypatch.setattr(publisher.state, "message", built_then_a_toss_lands)
    try:
        publisher.start()
        # far sooner than the 30 s refresh: the change noted meanwhile sends the state again
        assert watcher.wait_for(lambda w: json.loads(w.latest.get("keshi/table_6/state", b"{}")).get("tosses") == 1,
                                timeout=5)
    finally:
        publisher.stop()
        watcher.close()
        store.close()
