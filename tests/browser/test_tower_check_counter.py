"""The game-start tower check opened after everyone revealed: the counter shows what the tower was
believed to hold, not the keshis still in the players' hands (issue 11 review)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, expect

from tests.browser.conftest import PHONE, screenshot
from tests.conftest import LiveServer
from tests.web.play import first_action

pytestmark = pytest.mark.browser


def post(request: APIRequestContext, url: str, csrf: str, body: dict[str, Any]) -> dict[str, Any]:
    response = request.post(url, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    answer: dict[str, Any] = response.json()
    return answer


def test_the_empty_the_tower_counter_shows_what_the_tower_believed(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        api, base = context.request, live_server.url
        csrf = api.get(f"{base}/api/session").json()["csrf"]
        post(api, f"{base}/api/tower/contents", csrf, {"contents": {"white": 1}})  # left from an earlier game
        players = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
        created = post(api, f"{base}/api/games", csrf, {"players": players, "seed": 6})
        game_id, view = created["id"], created["view"]
        post(api, f"{base}/api/games/{game_id}/role", csrf, {"seat": "all"})  # this (host) device plays for everyone
        while view["phase"] != "toss":  # everyone reveals before anybody empties the tower
            body = {"action": first_action(view), "version": view["version"]}
            view = post(api, f"{base}/api/games/{game_id}/actions", csrf, body)["view"]
        in_hand = next(c for c, n in view["pieces_in"].items() if n and c != "white")
        page.goto(f"{base}/games/{game_id}")
        expect(page.locator("#who-line")).to_have_text("Shared device")  # the server kept the device's role
        page.locator("#tower-found").click()
        expect(page.locator(".count-row[data-colour='white'] .facts")).to_have_text("in tower 1")
        expect(page.locator(f".count-row[data-colour='{in_hand}'] .facts")).to_have_text("")
        screenshot(page, "tower-check-counter-after-reveals")
    finally:
        context.close()
