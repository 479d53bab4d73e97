"""The in-process event bus: every arrow of the toss flow is an event here.

Hardware threads and request handlers only ``publish``; each subscriber (an SSE stream, a test, a
recorder) has its own queue, so a slow phone never slows the beam. Events carry a bus-wide,
strictly increasing ``id``; the bus keeps the most recent ones so a reconnecting browser can resume
from its ``Last-Event-ID`` without missing or repeating an event (as long as it was gone for fewer
than ``history`` events; older gaps are reported with ``Subscription.gap``).
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened: ``topic`` (e.g. ``toss.drop``), JSON-ready ``data``, bus ``id``."""

    id: int
    topic: str
    data: dict[str, Any]
    time: float = field(default_factory=time.time)


class Subscription:
    """A subscriber's queue of events; iterate with ``get()``; ``close()`` when done."""

    def __init__(self, bus: EventBus, backlog: list[Event], gap: bool,
                 notify: Callable[[], None] | None = None) -> None:
        self._bus = bus
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._notify = notify
        for event in backlog:
            self._queue.put(event)
        #: True when the events since the requested id were no longer all in the history.
        self.gap = gap
        self.closed = False

    def put(self, event: Event) -> None:
        self._queue.put(event)
        if self._notify is not None:
            self._notify()

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or ``None`` if none arrived within ``timeout`` seconds."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._bus.unsubscribe(self)
        self.closed = True

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EventBus:
    """Thread-safe publish/subscribe with a bounded history for resuming."""

    def __init__(self, history: int = 2000, first_id: int = 1) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(first_id)
        self._history: deque[Event] = deque(maxlen=history)
        self._subscribers: list[Subscription] = []

    def publish(self, topic: str, data: dict[str, Any] | None = None) -> Event:
        """Publish an event to every subscriber; returns it with its id."""
        with self._lock:
            event = Event(next(self._ids), topic, dict(data or {}))
            self._history.append(event)
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            subscriber.put(event)
        return event

    def subscribe(self, last_event_id: int | None = None,
                  notify: Callable[[], None] | None = None) -> Subscription:
        """Subscribe; with ``last_event_id``, first receive every kept event after it.

        ``notify`` (if given) is called by the publishing thread after each event is queued: the
        stream broadcaster uses it to wake its selector instead of polling the queue.
        """
        with self._lock:
            backlog: list[Event] = []
            gap = False
            if last_event_id is not None:
                backlog, gap = self._kept_after(last_event_id)
            subscription = Subscription(self, backlog, gap, notify)
            self._subscribers.append(subscription)
        return subscription

    def history_after(self, last_event_id: int) -> tuple[list[Event], bool]:
        """The kept events after ``last_event_id`` and whether some between were no longer kept."""
        with self._lock:
            return self._kept_after(last_event_id)

    def _kept_after(self, last_event_id: int) -> tuple[list[Event], bool]:
        backlog = [e for e in self._history if e.id > last_event_id]
        oldest = self._history[0].id if self._history else None
        return backlog, oldest is not None and oldest > last_event_id + 1

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    @property
    def last_id(self) -> int:
        """The id of the newest event (0 before any)."""
        with self._lock:
            return self._history[-1].id if self._history else 0

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subscribers)
