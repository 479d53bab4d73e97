"""The hub's subscriber: MQTT messages in, PostgreSQL rows out, acknowledged only once stored.

The hub keeps a persistent MQTT 5 session (a fixed client id, ``clean_start=False`` and a long
session expiry), so the broker queues the towers' messages while the hub is down and redelivers
whatever it had sent but not seen acknowledged. Acknowledgement is manual: paho's network thread
only queues each message; the writer thread stores up to ``BATCH`` of them in one transaction and
then sends their PUBACKs. A hub killed between the two loses nothing (the broker redelivers) and
stores nothing twice (the rows are keyed by the towers' ids).

Packet ids belong to one connection: a PUBACK owed from an earlier connection is not sent (the
broker redelivers that message on the new one), which the ``generation`` counter guards.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from sqlalchemy.exc import SQLAlchemyError

from companion.hub.messages import MessageError, add_message
from companion.hub.store import Batch, HubStore, failure_reason
from companion.publish.broker import BrokerSettings, client_id_for
from companion.publish.topics import DEFAULT_PREFIX, KINDS, subscription

log = logging.getLogger("keshi.hub")

BATCH = 500
LINGER_S = 0.02
RECEIVE_MAXIMUM = 1000
SESSION_EXPIRY_S = 7 * 24 * 3600  # the broker keeps the hub's queue for a week of downtime
RETRY_S = 1.0


@dataclass(frozen=True)
class Received:
    """One message waiting to be stored, with what its PUBACK needs."""

    topic: str
    payload: bytes
    mid: int
    qos: int
    generation: int


class Ingestor:
    """Subscribes to every tower's topics and stores what arrives (``start``/``stop``)."""

    def __init__(self, broker: BrokerSettings, store: HubStore, prefix: str = DEFAULT_PREFIX,
                 client_id: str = "keshi-hub") -> None:
        self.broker = broker
        self.store = store
        self.prefix = prefix
        self.connected = False
        self.stored = 0
        self.rejected = 0
        self._queue: queue.SimpleQueue[Received] = queue.SimpleQueue()
        self._generation = 0
        self._ack_lock = threading.Lock()
        self._stopping = threading.Event()
        self._writer = threading.Thread(target=self._write_loop, name="hub-writer", daemon=True)
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id_for(client_id),
                                   protocol=mqtt.MQTTv5, manual_ack=True)
        broker.configure(self._client)
        self._client.reconnect_delay_set(min_delay=1, max_delay=5)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    def start(self) -> None:
        """Connect (in the background, reconnecting for ever) and start storing."""
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        properties.ReceiveMaximum = RECEIVE_MAXIMUM
        log.info("hub subscribing to %s, storing in %s", self.broker.display, self.store.display)
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=30, clean_start=False,
                                   properties=properties)
        self._client.loop_start()
        self._writer.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Store what has arrived, then disconnect (the broker keeps the session for the next start)."""
        self._stopping.set()
        self._writer.join(timeout=timeout)
        self._client.disconnect()
        self._client.loop_stop()

    def status(self) -> dict[str, Any]:
        """For the dashboard: the broker (without credentials), connected or not, counts."""
        return {"broker": self.broker.display, "connected": self.connected, "stored": self.stored,
                "rejected": self.rejected}

    # -- paho callbacks (network thread) -------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any) -> None:
        if reason.is_failure:
            log.error("the broker %s refused the hub: %s", self.broker.display, reason)
            return
        with self._ack_lock:
            self._generation += 1
        self.connected = True
        log.info("hub connected to %s (session %s)", self.broker.display,
                 "resumed" if flags.session_present else "new")
        client.subscribe([(subscription(self.prefix, kind), 1) for kind in KINDS])

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any) -> None:
        with self._ack_lock:
            self._generation += 1
        if self.connected:
            log.warning("hub lost the broker %s (%s); reconnecting", self.broker.display, reason)
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._queue.put(Received(message.topic, bytes(message.payload), message.mid, message.qos, self._generation))

    # -- the writer ------------------------------------------------------------------------------
    def _write_loop(self) -> None:
        while not (self._stopping.is_set() and self._queue.empty()):
            received = self._take()
            if not received:
                continue
            batch = Batch()
            for item in received:
                try:
                    add_message(batch, self.prefix, item.topic, item.payload)
                except MessageError as exc:
                    self.rejected += 1
                    log.warning("hub ignored a message: %s", exc)
            if not self._store(batch):
                return
            self.stored += len(batch.tosses) + len(batch.events)
            self._acknowledge(received)

    def _take(self) -> list[Received]:
        """Up to ``BATCH`` messages: wait for the first, then linger briefly for more."""
        try:
            first = self._queue.get(timeout=0.2)
        except queue.Empty:
            return []
        taken = [first]
        deadline = time.monotonic() + LINGER_S
        while len(taken) < BATCH:
            try:
                taken.append(self._queue.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                break
        return taken

    def _store(self, batch: Batch) -> bool:
        """Write the batch, retrying while the database is unreachable; False if stopped first (then
        nothing is acknowledged and the broker redelivers it all to the next hub)."""
        while True:
            try:
                self.store.write_batch(batch)
                return True
            except SQLAlchemyError as exc:
                log.error("hub cannot store %d messages (%s); retrying", len(batch), failure_reason(exc))
                if self._stopping.wait(RETRY_S):
                    return False

    def _acknowledge(self, received: list[Received]) -> None:
        with self._ack_lock:
            for item in received:
                if item.qos > 0 and item.generation == self._generation:
                    self._client.ack(item.mid, item.qos)
