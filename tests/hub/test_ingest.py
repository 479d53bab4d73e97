"""The hub's ingestor acknowledges a message only once it is stored: a hub that dies before
storing gets the message again from the broker; malformed messages are set aside, not retried."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import psycopg
from sqlalchemy.exc import SQLAlchemyError

from companion.fairness.simulate import simulate_into_store
from companion.hub.ingest import Ingestor
from companion.hub.store import Batch, HubStore
from companion.publish import outbox
from companion.publish.broker import parse_broker
from companion.store import Store
from companion.tower.model import TowerParams
from tests.hub.conftest import needs_servers
from tests.hub.servers import Mosquitto

pytestmark = needs_servers


class StuckStore:
    """A database that never manages to store anything (until the test gives up on it)."""

    display = "stuck"

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.give_up = threading.Event()

    def marks(self) -> dict[str, int]:
        return {}

    def write_batch(self, batch: Batch) -> None:
        self.asked.set()
        self.give_up.wait(10)
        raise SQLAlchemyError("the stuck database")


def publish(broker: Mosquitto, messages: list[tuple[str, bytes]]) -> None:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.username_pw_set(broker.username, broker.password)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    for topic, payload in messages:
        client.publish(topic, payload, qos=1).wait_for_publish(5)
    client.disconnect()
    client.loop_stop()


def wait_until(condition: Callable[[], bool], timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_hub_that_dies_before_storing_gets_the_message_again(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    with Store(tmp_path / "pi.sqlite3") as pi:
        simulate_into_store(pi, 1, TowerParams(), seed=2, tower="Table 1")
        outbox.install(pi)
        payload = outbox.pending(pi, "Table 1", 0, 1)[0].payload
    assert payload is not None
    settings = parse_broker(broker.url, username=broker.username, password=broker.password)
    stuck = StuckStore()
    first = Ingestor(settings, stuck, client_id="hub-under-test")  # type: ignore[arg-type]
    first.start()
    assert wait_until(lambda: first.connected)
    publish(broker, [("keshi/table_1/toss", json.dumps(payload).encode()), ("keshi/table_1/toss", b"{broken")])
    assert stuck.asked.wait(10)
    # the first hub dies: no DISCONNECT, nothing acknowledged (its database never said "stored")
    first._client.loop_stop()
    first._client.socket().close()  # type: ignore[union-attr]
    first._stopping.set()
    stuck.give_up.set()

    hub_store = HubStore(database)
    hub_store.migrate()
    second = Ingestor(settings, hub_store, client_id="hub-under-test")
    second.start()
    try:
        assert wait_until(lambda: second.stored == 1 and second.rejected == 1)
    finally:
        second.stop()
        hub_store.close()
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT tower, toss_id FROM hub_tosses").fetchall() == [("Table 1", payload["toss_id"])]

    # the broken message was acknowledged (set aside with a logged reason): a third start gets nothing
    hub_store = HubStore(database)
    third = Ingestor(settings, hub_store, client_id="hub-under-test")
    third.start()
    try:
        assert wait_until(lambda: third.connected)
        time.sleep(0.5)
        assert (third.stored, third.rejected) == (0, 0)
    finally:
        third.stop()
        hub_store.close()
