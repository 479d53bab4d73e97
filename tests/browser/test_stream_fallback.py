"""A phone refused a live stream (the companion is full) says so, keeps current by polling, then goes live.

The companion here takes one stream, and another client holds it: the game page's stream is refused
with ``503``; the page shows the companion's words in its language, follows the game from snapshots
every ``Retry-After`` seconds, and follows it live again once the place is free. The page's clock is
Playwright's (``clock.install``): it runs in real time, and where the page waits out a ``Retry-After`` it is
moved on by one instead of the test waiting; each step still has 30 s of the page's time in all.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import APIRequestContext, Browser, expect

from companion.streaming.broadcaster import RETRY_AFTER_SECONDS
from tests.browser.conftest import PHONE
from tests.conftest import LiveServer, start_server
from tests.web.conftest import PLAYERS
from tests.web.play import first_action

pytestmark = pytest.mark.browser

#: The companion's ``Retry-After`` when it has no live place free.
RETRY_AFTER_MS = RETRY_AFTER_SECONDS * 1000
#: How long (on the page's clock) the page may take to poll once, and to go live once a place is free.
WAIT_MS = 30_000


@pytest.fixture
def one_stream(tmp_path: Path) -> Iterator[LiveServer]:
    server = start_server(tmp_path / "instance", None, "--max-streams", "1")
    yield server
    server.stop()


def _api(request: APIRequestContext, base: str, method: str, path: str, body: Any = None) -> dict[str, Any]:
    csrf = request.get(base + "/api/session").json()["csrf"]
    response = request.fetch(base + path, method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    return dict(response.json())


def _hold_the_only_stream(server: LiveServer) -> socket.socket:
    url = urlparse(server.url)
    sock = socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=10)
    sock.sendall(b"GET /events?tab=tv HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    assert sock.recv(12).startswith(b"HTTP/1.1 200")
    return sock


def _act(request: APIRequestContext, base: str, game_id: str) -> int:
    view = _api(request, base, "GET", f"/api/games/{game_id}")
    moved = _api(request, base, "POST", f"/api/games/{game_id}/actions",
                 {"action": first_action(view), "version": view["version"]})
    return int(moved["event_id"])


def test_a_full_companion_turns_the_page_to_polling_in_its_language_and_back_to_live(
        browser: Browser, one_stream: LiveServer) -> None:
    base = one_stream.url
    context = browser.new_context(viewport=PHONE, locale="de-DE", extra_http_headers={"Accept-Language": "de-DE"})
    context.clock.install()
    holder = _hold_the_only_stream(one_stream)
    try:
        game_id = _api(context.request, base, "POST", "/api/games", {"players": PLAYERS, "seed": 3})["id"]
        _api(context.request, base, "POST", f"/api/games/{game_id}/role", {"seat": "all"})  # it plays for everyone
        _api(context.request, base, "POST", f"/api/games/{game_id}/tower/empty", {"found": {}})
        page = context.new_page()
        page.goto(f"{base}/games/{game_id}")
        game = page.locator("#game")
        expect(game).to_have_attribute("data-connection", "polling", timeout=15000)
        banner = page.locator("#connection")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("so vielen Bildschirmen")  # the companion's words, in German

        polled = _act(context.request, base, game_id)  # the page hears of it from its next snapshot
        page.clock.fast_forward(RETRY_AFTER_MS)
        expect(game).to_have_attribute("data-event-id", str(polled), timeout=WAIT_MS - RETRY_AFTER_MS)
        expect(game).to_have_attribute("data-connection", "polling")

        holder.close()  # the place comes free: the next try gets a stream
        page.clock.fast_forward(RETRY_AFTER_MS)
        expect(game).to_have_attribute("data-connection", "live", timeout=WAIT_MS - RETRY_AFTER_MS)
        expect(banner).to_be_hidden()
        live = _act(context.request, base, game_id)
        expect(game).to_have_attribute("data-event-id", str(live), timeout=10000)
        expect(banner).to_contain_text("Verbindung verloren")  # its own words are back for a real loss
    finally:
        holder.close()
        context.close()
