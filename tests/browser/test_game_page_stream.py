"""The Marrakesh page when its own request and the live stream cross, and when its game is deleted.

A phone's request can be answered after the stream has already brought a newer view (another phone
acted in between): the page must still come back to life (its buttons were disabled while the request
was on its way). A game deleted from the games list ends every phone's stream with ``event: deleted``:
the page says so where people look, offers the way back and sends nothing more.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Page, Route, expect

from tests.browser.conftest import PHONE
from tests.browser.test_full_game import answer_who, walk_setup_wizard
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser


def _api(request: APIRequestContext, base: str, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A call with the page's own cookies (the host's session) and its CSRF token."""
    csrf = request.get(base + "/api/session").json()["csrf"]
    response = request.fetch(base + path, method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    return dict(response.json())


def _event_id(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-event-id") or 0)


def test_an_answer_older_than_the_stream_still_brings_the_buttons_back_and_a_deleted_game_says_so(
        browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        host = context.new_page()
        host.on("dialog", lambda dialog: dialog.accept())
        game_url = walk_setup_wizard(host, live_server.url)
        game_id = game_url.rsplit("/", 1)[1]
        answer_who(host, "Sarah")
        picker = host.locator(".picker")
        while not picker.locator(".reveal").count():
            picker.locator(".colour-pick:not([disabled])").first.click()

        held: list[Route] = []

        def hold(route: Route) -> None:
            held.append(route)

        host.route("**/api/games/*/actions", hold)  # Sarah's reveal waits here
        picker.locator(".reveal").first.click()
        while not held:
            host.wait_for_timeout(20)
        expect(host.locator("#game")).to_have_attribute("data-busy", "yes")
        answer = held[0].fetch()  # the server takes Sarah's choice; its answer is not delivered yet
        assert answer.ok, answer.text()

        # meanwhile Jan chooses on his own phone: the stream brings that newer view first
        jan_phone = HttpTable(live_server.url)
        pin = host.locator("#pin").inner_text()
        assert jan_phone.request("POST", f"/api/games/{game_id}/join", {"pin": pin})[0] == 200
        assert jan_phone.request("POST", f"/api/games/{game_id}/role", {"seat": 1})[0] == 200
        view = jan_phone.view(game_id)
        triple = next(option for option in view["selections"]["1"] if "red" not in option["colours"])
        jan = {"type": "select", "player": 1, "colours": triple["colours"]}
        after_jan = jan_phone.act(game_id, jan, view["version"])
        host.wait_for_function("id => Number(document.getElementById('game').dataset.eventId) >= id",
                               arg=after_jan["event_id"])
        expect(host.locator("#screen-title")).to_have_text("Toss the tower")

        held[0].fulfill(response=answer)  # Sarah's answer, older than what the page shows
        expect(host.locator("#game")).to_have_attribute("data-busy", "no")
        assert _event_id(host) == after_jan["event_id"]  # the older view did not replace the newer one
        expect(host.locator("#screen button").first).to_be_enabled()
        expect(host.locator("#undo")).to_be_enabled()
        host.unroute("**/api/games/*/actions", hold)

        # someone deletes the game from the games list: this phone says so and stops
        _api(context.request, live_server.url, "DELETE", f"/api/games/{game_id}", {})
        expect(host.locator("#game")).to_have_attribute("data-deleted", "yes")
        notice = host.locator("#turn-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("This game was deleted")
        expect(notice.get_by_role("link", name="Back to the games list")).to_have_attribute("href", "/")
        expect(host.locator("#undo")).to_be_disabled()
        expect(host.locator("#connection")).to_be_hidden()  # not mistaken for a lost connection
        host.wait_for_timeout(2500)  # no reconnect attempt brings "Connection lost" back
        expect(host.locator("#connection")).to_be_hidden()
    finally:
        context.close()
