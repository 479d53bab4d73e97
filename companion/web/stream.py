"""``GET /events``: the event bus as Server-Sent Events, and what every stream route shares.

A browser resumes after a reconnect with the ``Last-Event-ID`` header (EventSource sends it by
itself) or ``?last_event_id=``; the bus replays what it kept after that id, so nothing is missed or
repeated. A comment line every few seconds keeps proxies open and lets the server notice a phone
that went away. Streams end when the app shuts down.

Under ``keshi serve`` a stream leaves the request thread once its head is written
(``companion.streaming``): ``?tab=`` (a page's own random id) makes a reconnect replace its tab's
old stream, and past the machine's cap the route answers ``503`` with ``Retry-After`` and a message
in the phone's language. Elsewhere (Flask's test client) ``stream_response`` streams from a
generator on the request thread with the same ``Feed``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from companion.events import Event, EventBus, Subscription
from companion.i18n import Msg
from companion.streaming.broadcaster import StreamsFull
from companion.streaming.feed import Feed, Shared
from companion.streaming.handoff import HANDOFF_KEY, Handoff

bp = Blueprint("stream", __name__)

HEARTBEAT_SECONDS = 5.0
POLL_SECONDS = 0.25
HEARTBEAT = ": heartbeat\n\n"
#: What a phone refused a stream reads (the page then polls every ``seconds`` until a stream is free).
BUSY = ("The companion is already sending live updates to as many screens as it can. "
        "This page updates itself every {seconds} seconds until a live connection is free.")


def format_sse(event: Event) -> str:
    """One SSE message: the bus id as ``id:``, topic and data together as JSON ``data:``."""
    payload = json.dumps({"topic": event.topic, "data": event.data, "time": event.time})
    return f"id: {event.id}\ndata: {payload}\n\n"


class BusFeed:
    """Every bus event after ``sent`` (the resume id, or the newest event when the stream opened)."""

    def __init__(self, bus: EventBus, last_event_id: int | None) -> None:
        self.bus = bus
        self.sent = bus.last_id if last_event_id is None else last_event_id

    def opening(self, shared: Shared) -> str:
        backlog, _gap = self.bus.history_after(self.sent)
        text = f"retry: 1000\n: connected, last id {self.bus.last_id}\n\n"
        for event in backlog:
            text += format_sse(event)
            self.sent = event.id
        return text

    def on_event(self, event: Event, shared: Shared) -> tuple[str, bool]:
        if event.id <= self.sent:  # already sent with the opening
            return "", False
        self.sent = event.id
        key = ("sse", event.id)
        if key not in shared:
            shared[key] = format_sse(event)
        return shared[key], False

    def heartbeat(self) -> str:
        return HEARTBEAT


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


def feed_on_this_thread(feed: Feed, bus: EventBus, stopping: threading.Event) -> Iterator[str]:
    """``feed`` as a WSGI body, on the request's thread (when no broadcaster serves the stream).

    The subscription starts before the opening reads what was missed; the feed skips the events
    it already sent, so nothing falls between the two or comes twice.
    """
    subscription = bus.subscribe()
    try:
        yield feed.opening({})
        for event in events_with_heartbeats(subscription, stopping):
            if event is None:
                yield feed.heartbeat()
                continue
            text, ended = feed.on_event(event, {})
            if text:
                yield text
            if ended:
                return
    finally:
        subscription.close()


def stream_response(feed: Feed, route: str) -> Response:
    """The response of a stream route: handed to the broadcaster if the server offers one."""
    handoff = request.environ.get(HANDOFF_KEY)
    if isinstance(handoff, Handoff):
        tab = request.args.get("tab", "")[:64]
        try:
            handoff.stream = handoff.broadcaster.open(feed, (route, tab) if tab else None)
        except StreamsFull as full:
            return busy(full.retry_after)
        response = Response(iter(()), mimetype="text/event-stream")  # the broadcaster writes the body
    else:
        bus: EventBus = current_app.extensions["keshi.bus"]
        body = feed_on_this_thread(feed, bus, current_app.extensions["keshi.stopping"])
        response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def busy(retry_after: int) -> Response:
    """``503`` with ``Retry-After``: every stream is taken; the page polls until one is free."""
    message = Msg(BUSY, seconds=retry_after)
    response = jsonify(error=str(message), say=message.to_json(), retry_after=retry_after)
    response.status_code = 503
    response.headers["Retry-After"] = str(retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


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
    return stream_response(BusFeed(bus, _last_event_id()), "bus")
