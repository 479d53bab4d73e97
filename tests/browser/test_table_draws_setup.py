"""A table that drew the setup itself starts a Marrakesh game from the wizard without typing any JSON:
start player and river tiles are tapped, everything else is asked as a question when the game first
needs it (issue 25). The selections go through the HTTP API; the phone answers the first draw question.

Screenshots (360x740 phone): setup-table-draws-phone, draw-question-phone, draw-question-phone-de.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_full_game import answer_who, fits_the_phone, screenshot
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def select_through_the_api(page: Page, url: str, game_id: str) -> None:
    """Both players reveal their first legal selection, as their own phones would."""
    api = f"{url}/api/games/{game_id}"
    csrf = page.request.get(url + "/api/session").json()["csrf"]
    view = page.request.get(api).json()
    for seat in (0, 1):
        option = view["selections"][str(seat)][0]
        action = {"type": "select", "player": seat, "colours": option["colours"],
                  "wild_sectors": option["wild"][0] if option["wild"] else []}
        sent = page.request.post(api + "/actions", data={"action": action, "version": view["version"]},
                                 headers={"X-CSRF-Token": csrf})
        assert sent.status == 201, sent.text()
        view = sent.json()["view"]
    assert view["pending"]["kind"] == "draw"


def test_a_table_draws_game_starts_from_the_wizard_without_json_and_asks_the_first_draw(
        browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/games/new")
        names = page.locator(".player-name")
        names.nth(0).fill("Sarah")
        names.nth(1).fill("Jan")
        page.get_by_role("button", name="Next: edition & tower").click()
        page.get_by_role("button", name="Next: setup draws").click()
        page.get_by_label("We drew at the table: enter them").check()
        expect(page.locator("textarea")).to_have_count(0)  # no JSON anywhere in the step
        page.get_by_label("Start player").select_option(label="Jan")
        for season, tile in ((1, "7"), (2, "3"), (3, "17")):
            page.get_by_label(f"Season {season}").select_option(tile)
        screenshot(page, "setup-table-draws-phone")
        assert fits_the_phone(page)
        page.get_by_label("Season 3").select_option("")
        page.get_by_role("button", name="Next: review").click()
        expect(page.locator('[data-name="draws"] .error')).to_have_text(
            "Choose the river tile of each season, as it lies beside the river.")
        page.get_by_label("Season 3").select_option("17")
        page.get_by_role("button", name="Next: review").click()
        expect(page.locator("#review")).to_contain_text(
            "drawn at the table; the companion asks for each as play needs it")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
        answer_who(page, "everyone")
        expect(page.locator("#screen-title")).to_have_text("Select 3 keshis")  # nothing asked before the first move
        game_id = page.url.rsplit("/", 1)[1]

        select_through_the_api(page, live_server.url, game_id)
        expect(page.locator("#screen-title")).to_have_text("Question for the table")
        expect(page.locator("#screen .prompt")).to_have_text("Which gray scroll was revealed?")
        expect(page.locator("#turn-who")).to_contain_text("The table: answer a question")
        expect(page.locator("#tower-check")).to_have_count(0)  # one thing at a time: the question first
        buttons = page.locator("#screen button.option")
        expect(buttons).to_have_count(21)  # the gray scrolls 1-21, none known yet
        screenshot(page, "draw-question-phone")
        assert fits_the_phone(page)
        event = page.locator("#game").get_attribute("data-event-id") or ""
        buttons.nth(3).click()
        expect(page.locator("#game")).not_to_have_attribute("data-event-id", event)
        expect(buttons).to_have_count(20)  # the second gray scroll: the one named is no longer offered
        expect(page.locator("#screen button.option", has_text=re.compile(r"^4$"))).to_have_count(0)

        page.goto(f"{live_server.url}/language/de?next=/games/{game_id}")
        expect(page.locator("#screen .prompt")).to_have_text("Welche Schriftrolle in Grau wurde aufgedeckt?")
        expect(page.locator("#screen-title")).to_have_text("Frage an den Tisch")
        screenshot(page, "draw-question-phone-de")
    finally:
        context.close()
