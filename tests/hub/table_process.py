"""A table as its own process, for the tests that SIGKILL one: ``python -m tests.hub.table_process
STORE TOWER BROKER_PORT TOSSES`` stores TOSSES tosses one chunk at a time while publishing them (the
broker's password comes from ``KESHI_MQTT_PASSWORD``, its user is the test broker's), then keeps
publishing until killed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.fairness.simulate import simulate_into_store
from companion.publish.broker import parse_broker
from companion.publish.publisher import Publisher, PublisherSettings
from companion.publish.topics import tower_slug
from companion.store import Store
from companion.tower.model import TowerParams

CHUNK = 10


def main(path: str, tower: str, port: str, tosses: str) -> None:
    store = Store(Path(path))
    broker = parse_broker(f"mqtt://keshi-table@127.0.0.1:{port}")
    publisher = Publisher(PublisherSettings(broker=broker, tower=tower, slug=tower_slug(tower)), store, poll_s=0.02)
    publisher.start()
    played = int(store.query("SELECT COUNT(*) FROM tosses")[0][0])
    while played < int(tosses):
        simulate_into_store(store, CHUNK, TowerParams(), seed=played, tower=tower)
        played += CHUNK
        print(played, flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
