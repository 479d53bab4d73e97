"""The wizard sets up a Classic game with every expansion; the table plays it into the claim phase.

A 360 px phone and a tablet both walk it; screenshots of the wizard, the game header and the
claim screen go to test-artifacts/screenshots/classic-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import PHONE
from tests.browser.test_full_game import answer_who, fits_the_phone, screenshot, take_first_legal_option
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 800, "height": 1280}
VARIANT = "Classic (2022) + expansions 1 staircase tiles, 2 Imam & Sultan, 3 additional exchange offices, " \
          "4 spectators (purple audience discs), 5 desert towns"


def set_up_classic(page: Page, url: str, shot: str) -> None:
    page.goto(url + "/games/new")
    names = page.locator(".player-name")
    names.nth(0).fill("Amira")
    names.nth(1).fill("Tarik")
    page.get_by_role("button", name="Next: edition & tower").click()
    page.get_by_label("Classic (2022)").check()
    for box in page.locator('input[name="expansion"]').all():
        box.check()
    expect(page.locator("#expansions .help").first).to_be_visible()
    screenshot(page, f"{shot}-01-edition-expansions")
    assert fits_the_phone(page)
    page.get_by_role("button", name="Next: setup draws").click()
    page.get_by_label("Seed for anything still drawn").fill("4")
    page.get_by_role("button", name="Next: review").click()
    expect(page.locator("#review")).to_contain_text("Edition: Classic (2022)")
    expect(page.locator("#review")).to_contain_text("5 · desert towns")
    screenshot(page, f"{shot}-02-review")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    answer_who(page, "everyone")
    expect(page.locator("#variant")).to_contain_text(VARIANT)
    expect(page.locator("#variant-board")).to_contain_text("Desert towns on display")
    expect(page.locator("#variant-board")).to_contain_text("Sultan")


@pytest.mark.parametrize("viewport,shot", [(PHONE, "classic-phone"), (TABLET, "classic-tablet")])
def test_a_classic_game_with_every_expansion_set_up_in_the_wizard_reaches_the_claims(
        browser: Browser, live_server: LiveServer, viewport: ViewportSize, shot: str) -> None:
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        set_up_classic(page, live_server.url, shot)
        screenshot(page, f"{shot}-03-game-select")
        game = page.locator("#game")
        for _ in range(40):
            if game.get_attribute("data-phase") == "claim":
                break
            event_id = game.get_attribute("data-event-id") or ""
            take_first_legal_option(page, [True])
            expect(game).not_to_have_attribute("data-event-id", event_id, timeout=10_000)
        expect(game).to_have_attribute("data-phase", "claim")
        expect(page.locator("#screen-title")).to_have_text("Claim keshis")
        assert page.locator("#screen button.option").count() > 0  # the legal claims are offered
        page.locator("#scores details").first.click()
        expect(page.locator(".extras").first).to_contain_text("Keshis on the sector boards")
        screenshot(page, f"{shot}-04-claim")
        assert fits_the_phone(page)
        page.goto(live_server.url + "/")
        expect(page.locator(".games .variant").first).to_have_text(VARIANT)
        screenshot(page, f"{shot}-05-games-list")
    finally:
        context.close()
