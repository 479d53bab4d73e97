"""A test subscriber: collects the messages (retained ones included) of some topics on a broker."""

from __future__ import annotations

import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from tests.hub.servers import Mosquitto


class Watcher:
    """Subscribes to ``topics`` and keeps the latest payload per topic (and every payload in order)."""

    def __init__(self, broker: Mosquitto, *topics: str) -> None:
        self.latest: dict[str, bytes] = {}
        self.received: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self._client.username_pw_set(broker.username, broker.password)
        self._client.on_message = self._on_message
        subscribed = threading.Event()
        self._client.on_subscribe = lambda *args: subscribed.set()
        self._client.on_connect = lambda client, *args: client.subscribe([(t, 1) for t in topics])
        self._client.connect("127.0.0.1", broker.port)
        self._client.loop_start()
        if not subscribed.wait(10):
            raise RuntimeError("the test subscriber could not subscribe")

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.latest[message.topic] = bytes(message.payload)
            self.received.append((message.topic, bytes(message.payload)))

    def wait_for(self, condition: Any, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if condition(self):
                    return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
