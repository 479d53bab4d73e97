"""Phones with a role: a player joins with the PIN and acts only for themself; undo from the host.

Also the tablet layout (a shared tablet at the table) gets its screenshot.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.browser.conftest import PHONE
from tests.browser.test_full_game import answer_who, screenshot, walk_setup_wizard
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 820, "height": 1180}


def test_each_phone_plays_only_for_its_player_and_the_host_can_undo(browser: Browser, live_server: LiveServer) -> None:
    host_context = browser.new_context(viewport=PHONE)
    jan_context = browser.new_context(viewport=PHONE)
    tablet_context = browser.new_context(viewport=TABLET)
    try:
        host = host_context.new_page()
        host.on("dialog", lambda dialog: dialog.accept())
        game_url = walk_setup_wizard(host, live_server.url)
        pin = host.locator("#pin").inner_text()
        answer_who(host, "Sarah")

        jan = jan_context.new_page()
        jan.goto(game_url + "/join")
        jan.get_by_label("Table PIN").fill("0000" if pin != "0000" else "1111")
        jan.get_by_role("button", name="Join").click()
        expect(jan.locator("#join-state")).to_contain_text("wrong table PIN")
        jan.get_by_label("Table PIN").fill(pin)
        jan.get_by_role("button", name="Join").click()
        jan.wait_for_url(game_url)
        expect(jan.get_by_role("heading", name="Who are you?")).to_be_visible()  # asked right after joining
        expect(jan.locator("#pin")).to_have_text(pin)  # every joined phone shows the PIN
        assert not jan.locator(".picker").count()  # nothing to act on until the phone says who it is
        answer_who(jan, "Jan")

        # each phone offers only its own player's picker and shows the other as waited for
        expect(host.locator(".picker")).to_have_count(1)
        expect(host.locator(".picker h3")).to_have_text("Sarah")
        expect(host.locator("#screen")).to_contain_text("Waiting for Jan to select")
        expect(jan.locator(".picker h3")).to_have_text("Jan")
        for page in (host, jan):
            picker = page.locator(".picker")
            while not picker.locator(".reveal").count():
                picker.locator(".colour-pick:not([disabled])").first.click()
            picker.locator(".reveal").first.click()
            if page is host:
                expect(jan.locator("#screen")).to_contain_text("Chosen, hidden until everyone has: Sarah")
        expect(jan.locator("#screen-title")).to_have_text("Toss the tower")
        expect(jan.locator("#log li").first).to_contain_text("Everyone reveals")
        screenshot(jan, "roles-jan-phone-toss")

        tablet = tablet_context.new_page()
        tablet.goto(game_url)
        expect(tablet.locator("#screen-title")).to_have_text("Toss the tower")
        screenshot(tablet, "roles-tablet-watching")

        version = host.locator("#game").get_attribute("data-version") or ""
        expect(host.locator("#undo")).to_contain_text("Jan")  # the undo names what it takes back
        host.locator("#undo").click()
        expect(jan.locator("#game")).not_to_have_attribute("data-version", version)
        expect(jan.locator("#turn-notice")).to_contain_text("Sarah took back")
        expect(jan.locator(".picker h3")).to_have_text("Jan")  # Jan chooses again
        expect(host.locator("#screen")).to_contain_text("Waiting for Jan to select")
    finally:
        host_context.close()
        jan_context.close()
        tablet_context.close()
