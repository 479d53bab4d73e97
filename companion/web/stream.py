"""``GET /events``: the event bus as Server-Sent Events.

A browser resumes after a reconnect with the ``Last-Event-ID`` header (EventSource sends it by
itself) or ``?last_event_id=``; the bus replays what it kept after that id, so nothing is missed or
repeated. A comment line every few seconds keeps proxies open and lets the server notice a phone
that went away. Streams end when the app shuts down.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request, stream_with_context

from companion.events import Event, EventBus, Subscription

bp = Blueprint("stream", __name__)

HEARTBEAT_SECONDS = 5.0
POLL_SECONDS = 0.25
HEARTBEAT = ": heartbeat\n\n"


def format_sse(event: Event) -> str:
    """One SSE message: the bus id as ``id:``, topic and data together as JSON ``data:``."""
    payload = json.dumps({"topic": event.topic, "data": event.data, "time": event.time})
    return f"id: {event.id}\ndata: {payload}\n\n"


def events_with_heartbeats(subscription: Subscription, stopping: threading.Event) -> Iterator[Event | None]:
    """Each event of ``subscription`` as it arrives, and ``None`` whenever a heartbeat is due.

    Ends when the app shuts down (``stopping``); the caller closes the subscription.
    """
    idle = 0.0
    while not stopping.is_set():
        event = subscription.get(timeout=POLL_SECONDS)
        if event is not None:
            idle = 0.0
            yield event
            continue
        idle += POLL_SECONDS
        if idle >= HEARTBEAT_SECONDS:
            idle = 0.0
            yield None


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        return None


@bp.get("/events")
def events() -> Response:
    """Stream every bus event from now (or from ``Last-Event-ID``) until the client leaves."""
    bus: EventBus = current_app.extensions["keshi.bus"]
    stopping = current_app.extensions["keshi.stopping"]
    subscription = bus.subscribe(_last_event_id())

    def generate() -> Iterator[str]:
        try:
            yield f"retry: 1000\n: connected, last id {bus.last_id}\n\n"
            for event in events_with_heartbeats(subscription, stopping):
                yield HEARTBEAT if event is None else format_sse(event)
        finally:
            subscription.close()

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
