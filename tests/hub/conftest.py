"""Fixtures for the hub tests: real Mosquitto and PostgreSQL, simulated towers, a ``keshi hub`` process."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.publish.broker import parse_broker
from companion.publish.publisher import Publisher, PublisherSettings
from companion.publish.topics import tower_slug
from companion.store import Store
from tests.hub.servers import Mosquitto, Postgres, free_port, missing_binaries

MISSING = missing_binaries()
needs_servers = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    if MISSING is not None:
        pytest.skip(MISSING)
    server = Postgres()
    server.start()
    yield server
    server.close()


@pytest.fixture
def database(postgres: Postgres) -> str:
    """A fresh, empty database for one test."""
    return postgres.create_database(f"hub_test_{os.getpid()}_{next(_databases)}")


@pytest.fixture
def broker() -> Iterator[Mosquitto]:
    if MISSING is not None:
        pytest.skip(MISSING)
    server = Mosquitto()
    server.start()
    yield server
    server.close()


def tower_publisher(store: Store, name: str, broker: Mosquitto, poll_s: float = 0.05) -> Publisher:
    """A started publisher for a simulated tower's store (logging in as the broker's user)."""
    settings = PublisherSettings(
        broker=parse_broker(broker.url, username=broker.username, password=broker.password),
        tower=name, slug=tower_slug(name),
    )
    publisher = Publisher(settings, store, poll_s=poll_s)
    publisher.start()
    return publisher


@dataclass
class HubProcess:
    """A running ``keshi hub`` whose output goes to ``log``."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)


def start_hub(broker: Mosquitto, database: str, log: Path) -> HubProcess:
    """Start ``keshi hub`` (the broker password in the environment, as documented) and wait for /healthz."""
    port = free_port()
    handle = log.open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "hub", "--broker", f"mqtt://{broker.username}@127.0.0.1:{broker.port}",
         "--database", database, "--host", "127.0.0.1", "--port", str(port)],
        stdout=handle, stderr=subprocess.STDOUT,
        env={**os.environ, "KESHI_MQTT_PASSWORD": broker.password, "PYTHONUNBUFFERED": "1"},
    )
    handle.close()
    hub = HubProcess(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"keshi hub exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(hub.url + "/healthz", timeout=1):
                return hub
        except OSError:
            time.sleep(0.1)
    hub.stop()
    raise RuntimeError("keshi hub did not answer /healthz within 30 s")
