"""The hub's subscriber: MQTT messages in, PostgreSQL rows out, acknowledged only once stored.

The hub keeps a persistent MQTT 5 session (a fixed client id, ``clean_start=False`` and a long
session expiry), so the broker queues the towers' messages while the hub is down and redelivers
whatever it had sent but not seen acknowledged. Acknowledgement is manual: paho's network thread
only queues each message; the writer thread stores up to ``BATCH`` of them in one transaction and
then sends their PUBACKs. A hub killed between the two loses nothing (the broker redelivers) and
stores nothing twice (the rows are keyed by the towers' ids).

Packet ids belong to one connection: a PUBACK owed from an earlier connection is not sent (the
broker redelivers that message on the new one), which the ``generation`` counter guards.

No message can stop ingestion: one that is refused (``MessageError``: a bad value, another tower's
name) or that the database still refuses (a batch that fails for anything but a lost connection is
stored again message by message) goes to the dead-letter table with its reason and topic, and is
acknowledged like any stored message. Only a database that cannot be reached is retried. The writer
also follows each table's stream (``companion.hub.marks``) and asks a table to send again what it
never received.
"""

from __future__ import annotations

import json
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
from paho.mqtt.subscribeoptions import SubscribeOptions
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from companion.hub.marks import Marks
from companion.hub.messages import MessageError, Published, Sent, add_message, stream_place
from companion.hub.store import Batch, HubStore, failure_reason
from companion.hub.validate import MAX_PAYLOAD
from companion.publish.broker import BrokerSettings, client_id_for
from companion.publish.topics import DEFAULT_PREFIX, KINDS, STORED, subscription, topic

log = logging.getLogger("keshi.hub")

BATCH = 500
LINGER_S = 0.02
RECEIVE_MAXIMUM = 1000
SESSION_EXPIRY_S = 7 * 24 * 3600  # the broker keeps the hub's queue for a week of downtime
RETRY_S = 1.0
#: What became of a batch the writer tried to store.
WRITTEN, REFUSED, STOPPED = "written", "refused", "stopped"
#: Database failures worth waiting out (the server is away); anything else is the batch's fault.
TRANSIENT = (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError)


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
        self._marks = Marks()
        self._refusal = ""
        self._marks_lock = threading.Lock()
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
        self._load_marks()
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
                "rejected": self.rejected, "writing": self._writer.is_alive() or not self._started}

    @property
    def _started(self) -> bool:
        return self._writer.ident is not None

    def _load_marks(self) -> None:
        """The marks stored by an earlier run. Without them (the database is away at the start) the
        marks begin at 0: a gap then asks a table for more than needed, which costs resending, never a toss."""
        try:
            held = self.store.marks()
        except SQLAlchemyError as exc:
            log.warning("hub cannot read the towers' marks yet (%s)", failure_reason(exc))
            return
        with self._marks_lock:
            self._marks.held = held

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
        # retained messages only for a new subscription: a resumed session's queue comes first
        options = SubscribeOptions(qos=1, retainHandling=SubscribeOptions.RETAIN_SEND_IF_NEW_SUB)
        client.subscribe([(subscription(self.prefix, kind), options) for kind in KINDS])
        if not flags.session_present:  # what the towers sent meanwhile went to nobody: ask them all
            with self._marks_lock:
                slugs = list(self._marks.held)
            self._request_resend(slugs)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any) -> None:
        with self._ack_lock:
            self._generation += 1
        if self.connected:
            log.warning("hub lost the broker %s (%s); reconnecting", self.broker.display, reason)
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._queue.put(Received(message.topic, bytes(message.payload), message.mid, message.qos, self._generation))

    def _request_resend(self, slugs: list[str]) -> None:
        """Ask each tower in ``slugs`` to send again after the hub's mark (retained, QoS 1)."""
        for slug in slugs:
            with self._marks_lock:
                request = self._marks.request(slug)
            if request is not None:
                log.info("hub asks %s to send again after revision %s", slug, request["revision"])
                self._client.publish(topic(self.prefix, slug, STORED), json.dumps(request), qos=1, retain=True)

    # -- the writer ------------------------------------------------------------------------------
    def _write_loop(self) -> None:
        while not (self._stopping.is_set() and self._queue.empty()):
            received = self._take()
            if not received:
                continue
            parts = [self._parse(item) for item in received]
            with self._marks_lock:
                marks = self._marks.copy()
            batch, gaps = Batch(), set()
            for _, part, said in parts:
                gaps |= self._follow(marks, said, part)
                batch.extend(part)
            outcome = self._store(batch)
            if outcome == REFUSED:  # one message at a time: the one the database refuses is set aside
                with self._marks_lock:
                    marks = self._marks.copy()
                batch, gaps = Batch(), set()
                for item, part, said in parts:
                    gaps |= self._follow(marks, said, part)
                    outcome = self._store(part)
                    if outcome == REFUSED:
                        part = self._set_aside(item, part)
                        outcome = self._store(part)
                    if outcome != WRITTEN:
                        return
                    batch.extend(part)
            if outcome != WRITTEN:
                return
            with self._marks_lock:
                self._marks.adopt(marks)
            self.stored += len(batch.tosses) + len(batch.events)
            self.rejected += len(batch.dead)
            self._acknowledge(received)
            self._request_resend(sorted(gaps))

    def _parse(self, item: Received) -> tuple[Received, Batch, Sent | Published | None]:
        """One message as a batch of its own (a dead letter if it is refused), and its place in its stream."""
        part = Batch()
        try:
            return item, part, add_message(part, self.prefix, item.topic, item.payload)
        except MessageError as exc:
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - whatever a message does, the writer goes on
            reason = f"could not be read ({type(exc).__name__})"
        log.warning("hub set a message on %s aside: %s", item.topic, reason)
        part.dead.append(dead_letter(item.topic, reason, item.payload))
        # set aside is dealt with: the stream goes on past it (else the table would be asked for it for ever)
        return item, part, stream_place(self.prefix, item.topic, item.payload)

    @staticmethod
    def _follow(marks: Marks, said: Sent | Published | None, part: Batch) -> set[str]:
        """Advance ``marks`` over one message about to be stored (its batch records the moved mark);
        the slugs whose stream shows a gap."""
        if isinstance(said, Sent):
            if marks.sent(said.slug, said.revision, said.after):
                if said.slug in marks.held:
                    part.marks[said.slug] = marks.held[said.slug]
                return set()
            return {said.slug}
        if isinstance(said, Published) and not marks.published(said.slug, said.revision):
            return {said.slug}
        return set()

    def _store(self, batch: Batch) -> str:
        """Write the batch, retrying while the database is unreachable: ``WRITTEN``; ``REFUSED`` when the
        database refuses the batch itself (anything but a lost connection); ``STOPPED`` if stopped first
        (nothing is acknowledged, the broker redelivers it all to the next hub)."""
        while True:
            try:
                self.store.write_batch(batch)
                return WRITTEN
            except TRANSIENT as exc:
                log.error("hub cannot store %d messages (%s); retrying", len(batch), failure_reason(exc))
            except SQLAlchemyError as exc:
                log.warning("the database refused %d messages (%s)", len(batch), failure_reason(exc))
                self._refusal = failure_reason(exc)
                return REFUSED
            if self._stopping.wait(RETRY_S):
                return STOPPED

    def _set_aside(self, item: Received, part: Batch) -> Batch:
        """The dead letter of a message the database refused, with the mark it moved."""
        refused = Batch(marks=part.marks)
        refused.dead.append(dead_letter(item.topic, f"the database refused it ({self._refusal})", item.payload))
        return refused

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

    def _acknowledge(self, received: list[Received]) -> None:
        """PUBACK what was stored (or set aside), on the connection it came by."""
        with self._ack_lock:
            for item in received:
                if item.qos > 0 and item.generation == self._generation:
                    self._client.ack(item.mid, item.qos)


def dead_letter(topic_: str, reason: str, payload: bytes) -> dict[str, object]:
    """A ``hub_dead_letters`` row: the topic and reason as text PostgreSQL can hold, the payload's
    first ``MAX_PAYLOAD`` bytes."""
    return {"topic": topic_.replace("\x00", "\\0")[:500], "reason": reason.replace("\x00", "\\0")[:1000],
            "payload": payload[:MAX_PAYLOAD]}
