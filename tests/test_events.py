"""The event bus and its SSE stream."""

from __future__ import annotations

import http.cookiejar
import json
import threading
import urllib.request

from companion.events import EventBus
from tests.conftest import LiveServer


def test_subscriber_receives_published_events_in_order() -> None:
    bus = EventBus()
    with bus.subscribe() as sub:
        bus.publish("toss.drop", {"index": 0})
        bus.publish("toss.drop", {"index": 1})
        first, second = sub.get(timeout=1), sub.get(timeout=1)
    assert first is not None and second is not None
    assert (first.topic, first.data, second.data) == ("toss.drop", {"index": 0}, {"index": 1})
    assert second.id == first.id + 1
    assert bus.subscriber_count == 0


def test_resume_from_last_event_id_misses_and_repeats_nothing() -> None:
    bus = EventBus()
    ids = [bus.publish("n", {"i": i}).id for i in range(5)]
    with bus.subscribe(last_event_id=ids[1]) as sub:
        bus.publish("n", {"i": 5})
        got = [sub.get(timeout=1) for _ in range(4)]
        assert sub.get(timeout=0.05) is None
    assert [e.data["i"] for e in got if e] == [2, 3, 4, 5]
    assert not sub.gap


def test_resume_after_history_was_dropped_reports_a_gap() -> None:
    bus = EventBus(history=3)
    for i in range(10):
        bus.publish("n", {"i": i})
    with bus.subscribe(last_event_id=2) as sub:
        assert sub.gap


def test_sse_subscriber_receives_a_toss_over_http(live_server: LiveServer) -> None:
    """A real HTTP client on /events sees the toss it starts, as SSE messages with increasing ids."""
    topics: list[str] = []
    ids: list[int] = []
    opened, done = threading.Event(), threading.Event()

    def listen() -> None:
        with urllib.request.urlopen(live_server.url + "/events", timeout=10) as stream:
            for raw in stream:
                line = raw.decode().rstrip("\n")
                opened.set()
                if line.startswith("id: "):
                    ids.append(int(line[4:]))
                elif line.startswith("data: "):
                    topics.append(json.loads(line[6:])["topic"])
                    if topics[-1] == "toss.result":
                        done.set()
                        return

    threading.Thread(target=listen, daemon=True).start()
    assert opened.wait(5), "the event stream did not open"
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(live_server.url + "/api/session", timeout=5) as response:
        csrf = json.loads(response.read())["csrf"]
    request = urllib.request.Request(live_server.url + "/api/tower/toss", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
    with browser.open(request, timeout=5) as response:
        assert response.status == 202
    assert done.wait(10), f"no toss.result within 10 s; saw {topics}"
    assert topics[0] == "toss.started" and "toss.settled" in topics
    assert ids == sorted(ids) and len(ids) == len(set(ids))
