"""The publisher: sends the durable outbox to the broker with QoS 1 and moves the cursor on PUBACK.

Store before publish: the tower and game code store each row first (the outbox triggers record it
in the same transaction); this thread then reads the outbox after the acknowledged cursor and
publishes up to ``WINDOW`` messages ahead. The broker's PUBACK of a message marks it acknowledged;
the cursor moves to the highest outbox id acknowledged together with every id before it, and is
stored at most twice a second (losing the last half second on a crash means resending it, which the
hub ignores by the messages' ids). When the connection drops, whatever was in flight is forgotten
and, on reconnect, everything after the cursor is sent again.

A broker that acknowledged a message may still lose it (restarted without its store, or from an
old snapshot). So each toss or event message carries ``after``, the revision of the message sent
before it, and the state message ``published``, the last revision sent: the hub sees a gap in what
it holds and asks, retained on ``<prefix>/<slug>/stored``, for everything after its mark again. The
publisher acts on each request once (a new ``request`` token): it moves its cursor back to the
hub's mark and resends from there (``companion.hub.marks``).

MQTT 5 is used so the broker can refuse a message (an ACL that does not let this tower write its
topics): a refused message is not acknowledged, the problem is logged once, and the outbox is
retried from the cursor after ``RETRY_S`` seconds, so nothing is skipped.

paho-mqtt calls ``on_publish`` with its own locks held, so its callbacks only queue what happened
for this thread; all bookkeeping happens here, in one thread, without locks.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from companion.errors import ConfigError
from companion.events import EventBus, Subscription
from companion.publish import outbox
from companion.publish.broker import BrokerSettings, client_id_for, parse_broker
from companion.publish.discovery import discovery_messages, legacy_topics
from companion.publish.state import TowerState
from companion.publish.topics import (
    DEFAULT_DISCOVERY_PREFIX,
    DEFAULT_PREFIX,
    OFFLINE,
    ONLINE,
    STORED,
    check_prefix,
    topic,
    tower_slug,
)
from companion.store import Store

log = logging.getLogger("keshi.publish")

WINDOW = 500
POLL_S = 0.1
CURSOR_SAVE_S = 0.5
STATE_INTERVAL_S = 30.0
RETRY_S = 10.0
#: The keys config.json's ``MQTT`` object may hold.
SETTING_KEYS = frozenset({"enabled", "broker", "username", "password", "tls", "ca_file", "topic_prefix",
                          "discovery_prefix"})


@dataclass(frozen=True)
class PublisherSettings:
    """What the publisher needs: the broker, the tower's name and slug, the topic prefixes."""

    broker: BrokerSettings
    tower: str
    slug: str
    prefix: str = DEFAULT_PREFIX
    discovery_prefix: str | None = DEFAULT_DISCOVERY_PREFIX


def publisher_settings(mqtt_config: Any, tower: str) -> PublisherSettings | None:
    """Read config.json's ``MQTT`` object; None when publishing is off (absent, null or enabled false)."""
    if mqtt_config is None:
        return None
    if not isinstance(mqtt_config, dict):
        raise ConfigError(f"MQTT must be an object with at least a \"broker\" URL, or null, not {mqtt_config!r}")
    unknown = sorted(set(mqtt_config) - SETTING_KEYS)
    if unknown:
        raise ConfigError(f"MQTT has unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(SETTING_KEYS))}")
    enabled = mqtt_config.get("enabled", True)
    if not isinstance(enabled, bool):
        raise ConfigError(f"MQTT.enabled must be true or false, not {enabled!r}")
    if not enabled:
        return None
    for key in ("username", "password", "ca_file"):
        if mqtt_config.get(key) is not None and not isinstance(mqtt_config[key], str):
            raise ConfigError(f"MQTT.{key} must be a text or null")
    tls = mqtt_config.get("tls")
    if tls is not None and not isinstance(tls, bool):
        raise ConfigError(f"MQTT.tls must be true, false or null, not {tls!r}")
    broker = parse_broker(mqtt_config.get("broker", ""), username=mqtt_config.get("username"),
                          password=mqtt_config.get("password"), tls=tls, ca_file=mqtt_config.get("ca_file"))
    discovery = mqtt_config.get("discovery_prefix", DEFAULT_DISCOVERY_PREFIX)
    return PublisherSettings(
        broker=broker,
        tower=tower,
        slug=tower_slug(tower),
        prefix=check_prefix(mqtt_config.get("topic_prefix", DEFAULT_PREFIX), "MQTT.topic_prefix"),
        discovery_prefix=None if discovery is None else check_prefix(discovery, "MQTT.discovery_prefix"),
    )


class Publisher:
    """Publishes one companion's outbox, its state and its Home Assistant discovery to a broker."""

    def __init__(
        self,
        settings: PublisherSettings,
        store: Store,
        bus: EventBus | None = None,
        status: Callable[[], dict[str, Any]] | None = None,
        poll_s: float = POLL_S,
        retry_s: float = RETRY_S,
    ) -> None:
        self.settings = settings
        self.store = store
        self.bus = bus
        self.poll_s = poll_s
        self.retry_s = retry_s
        self.state = TowerState(store, settings.tower, status, changed=self._state_changed)
        self.cursor_key = settings.broker.display  # a new broker gets the whole history
        self.acked = 0
        self.connected = False
        self._chain = 0  # the revision of the last message sent (or the cursor a sending run started from)
        self._request: str | None = None  # the hub's last request to send again, acted on
        self._events: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._sent: deque[int] = deque()
        self._done: set[int] = set()
        self._mids: dict[int, int] = {}
        self._sent_upto = 0
        self._saved = 0
        self._saved_at = 0.0
        self._state_due = 0.0
        self._retry_at = 0.0
        self._refused_logged = False
        self._client = self._make_client()
        self._threads: list[threading.Thread] = []
        self._subscription: Subscription | None = None

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Switch the outbox on, connect in the background and start publishing."""
        outbox.install(self.store)
        self.acked = self._saved = outbox.load_cursor(self.store, self.cursor_key)
        self._request = outbox.load_request(self.store, self.cursor_key)
        self._sent_upto = self._chain = self.acked
        log.info("publishing tower %r to %s", self.settings.tower, self.settings.broker.display)
        self._client.connect_async(self.settings.broker.host, self.settings.broker.port, keepalive=30)
        self._client.loop_start()
        if self.bus is not None:
            self._subscription = self.bus.subscribe()
            self._threads.append(threading.Thread(target=self._watch_bus, name="publish-bus", daemon=True))
        self._threads.append(threading.Thread(target=self._run, name="publish", daemon=True))
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say ``offline``, store the cursor and disconnect (within about ``timeout`` seconds); idempotent."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._wake.set()
        if self._subscription is not None:
            self._subscription.close()
        for thread in self._threads:
            thread.join(timeout=timeout)
        if self.connected:
            info = self._client.publish(self._topic("availability"), OFFLINE, qos=1, retain=True)
            with contextlib.suppress(RuntimeError):  # gone meanwhile: the broker sends the will instead
                info.wait_for_publish(timeout=timeout / 2)
        self._client.disconnect()
        self._client.loop_stop()
        self._save_cursor(force=True)

    def backlog(self) -> int:
        """How many outbox entries the broker has not acknowledged yet (stored, still to deliver)."""
        rows = self.store.query("SELECT COUNT(*) FROM publish_outbox WHERE id > ?", (self.acked,))
        return int(rows[0][0])

    # -- paho callbacks (network thread): only queue what happened -----------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any) -> None:
        if not reason.is_failure:
            client.subscribe(self._topic(STORED), qos=1)
        self._events.put(("connect", reason))
        self._wake.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._events.put(("stored", bytes(message.payload)))
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any) -> None:
        self._events.put(("disconnect", reason))
        self._wake.set()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: ReasonCode, props: Any) -> None:
        self._events.put(("ack", (mid, reason)))
        self._wake.set()

    # -- the publishing thread -------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            try:
                self._handle_events()
                if self.connected and time.monotonic() >= self._retry_at:
                    self._fill()
                    if time.monotonic() >= self._state_due:
                        self._publish_state()
                self._save_cursor()
            except Exception:  # never let one bad moment stop publishing for good
                log.exception("publishing failed; retrying in %.0f s", self.retry_s)
                self._retry_at = time.monotonic() + self.retry_s

    def _handle_events(self) -> None:
        while True:
            try:
                kind, value = self._events.get_nowait()
            except queue.Empty:
                return
            if kind == "ack":
                self._acknowledge(*value)
            elif kind == "connect":
                self._connected(value)
            elif kind == "stored":
                self._hub_says(value)
            else:
                if self.connected:
                    log.warning("lost the broker %s (%s); will resend from the outbox",
                                self.settings.broker.display, value)
                self.connected = False
                self._forget_in_flight()

    def _connected(self, reason: ReasonCode) -> None:
        if reason.is_failure:
            log.error("the broker %s refused the connection: %s", self.settings.broker.display, reason)
            return
        self.connected = True
        self._forget_in_flight()
        log.info("connected to %s; resending after outbox entry %d", self.settings.broker.display, self.acked)
        self._client.publish(self._topic("availability"), ONLINE, qos=1, retain=True)
        if self.settings.discovery_prefix is not None:
            for name in legacy_topics(self.settings.slug, self.settings.discovery_prefix):
                self._client.publish(name, b"", qos=1, retain=True)  # an empty config removes the old entity
            for name, config in discovery_messages(self.settings.tower, self.settings.slug, self.settings.prefix,
                                                   self.settings.discovery_prefix):
                self._client.publish(name, json.dumps(config), qos=1, retain=True)
        self._state_due = 0.0

    def _forget_in_flight(self) -> None:
        self._sent.clear()
        self._done.clear()
        self._mids.clear()
        self._sent_upto = self._chain = self.acked

    def _hub_says(self, payload: bytes) -> None:
        """The hub's mark: on a request not yet acted on, move the cursor back to it and resend."""
        try:
            mark = json.loads(payload)
            revision, request = mark["revision"], mark["request"]
        except (ValueError, TypeError, KeyError):
            return  # an empty retained message (cleared), or not the hub's
        if not isinstance(revision, int) or not isinstance(request, str) or request == self._request:
            return
        target = max(0, min(self.acked, revision))
        outbox.rewind(self.store, self.cursor_key, target, request)
        log.warning("the hub %s lacks what was sent after outbox entry %d: sending it again",
                    self.settings.broker.display, target)
        self.acked = self._saved = target
        self._request = request
        self._forget_in_flight()

    def _fill(self) -> None:
        """Publish outbox entries after the last one sent, keeping at most ``WINDOW`` in flight."""
        room = WINDOW - len(self._sent)
        if room <= 0:
            return
        for entry in outbox.pending(self.store, self.settings.tower, self._sent_upto, room):
            self._sent.append(entry.id)
            self._sent_upto = entry.id
            if entry.payload is None:  # its row was deleted: nothing to send
                self._done.add(entry.id)
                continue
            kind = "toss" if entry.stream == "toss" else "event"
            body = {**entry.payload, "after": self._chain}
            info = self._client.publish(self._topic(kind), json.dumps(body), qos=1)
            self._mids[info.mid] = entry.id
            self._chain = entry.id
        self._advance()

    def _acknowledge(self, mid: int, reason: ReasonCode) -> None:
        entry = self._mids.pop(mid, None)
        if entry is None:
            return  # a message of an earlier connection, or availability/state/discovery
        if reason.is_failure:
            if not self._refused_logged:
                log.error("the broker %s refused a message on %s: %s (check its ACL); retrying in %.0f s",
                          self.settings.broker.display, self._topic("toss"), reason, self.retry_s)
                self._refused_logged = True
            self._forget_in_flight()
            self._retry_at = time.monotonic() + self.retry_s
            return
        self._done.add(entry)
        self._advance()

    def _advance(self) -> None:
        """Move the cursor over every acknowledged entry at the head of the in-flight queue."""
        while self._sent and self._sent[0] in self._done:
            self.acked = self._sent.popleft()
            self._done.discard(self.acked)

    def _save_cursor(self, force: bool = False) -> None:
        if self.acked == self._saved or not (force or time.monotonic() - self._saved_at >= CURSOR_SAVE_S):
            return
        outbox.save_cursor(self.store, self.cursor_key, self.acked)
        self._saved, self._saved_at = self.acked, time.monotonic()

    def _publish_state(self) -> None:
        """Send the state message; the next one is due first, so a change noted while this one is
        being built (a toss stored meanwhile) makes it due at once again instead of being lost."""
        self._state_due = time.monotonic() + STATE_INTERVAL_S
        message = {**self.state.message(), "published": self._chain}
        self._client.publish(self._topic("state"), json.dumps(message), qos=1, retain=True)

    def _state_changed(self) -> None:
        self._state_due = 0.0
        self._wake.set()

    def _watch_bus(self) -> None:
        """Follow the bus: faults and results change the state message (sent at once); any event
        may mean a new outbox row, so it wakes the publishing thread."""
        assert self._subscription is not None
        while not self._stopping.is_set():
            event = self._subscription.get(timeout=0.5)
            if event is None:
                continue
            if self.state.note_event(event.topic, event.data):
                self._state_changed()
            else:
                self._wake.set()

    # -- helpers ---------------------------------------------------------------------------------
    def _topic(self, kind: str) -> str:
        return topic(self.settings.prefix, self.settings.slug, kind)

    def _make_client(self) -> mqtt.Client:
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id_for(f"keshi-{self.settings.slug}"),
            protocol=mqtt.MQTTv5,
        )
        self.settings.broker.configure(client)
        client.will_set(self._topic("availability"), OFFLINE, qos=1, retain=True)
        client.max_inflight_messages_set(WINDOW + 20)
        client.max_queued_messages_set(0)
        client.reconnect_delay_set(min_delay=1, max_delay=5)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client


def start_publisher(
    settings: PublisherSettings | None, store: Store, bus: EventBus, status: Callable[[], dict[str, Any]]
) -> Publisher | None:
    """Start publishing when config.json enables it (``settings`` not None); the app stops it."""
    if settings is None:
        return None
    publisher = Publisher(settings, store, bus, status)
    publisher.start()
    return publisher
