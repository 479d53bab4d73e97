"""The German pages in a German browser: what JavaScript writes on screen is German too (no English left)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import make_server

from companion import COLOURS
from companion.i18n import Msg, claim_name
from tests.browser.conftest import PHONE, screenshot
from tests.web.test_i18n import untranslated

pytestmark = pytest.mark.browser
FIRST_COLOUR = {"yellow": "Gelb"}[COLOURS[0]]  # as the German rulebook spells it


@pytest.fixture
def german_page(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for German (``Accept-Language: de-DE``)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context.new_page()
    context.close()


@pytest.fixture
def served(app: Flask) -> Iterator[str]:
    """The test app served over HTTP in this process (quicker to start than a ``keshi serve``)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    app.extensions["keshi.stopping"].set()  # ends the pages' event streams
    server.shutdown()


def no_english_on_screen(page: Page) -> None:
    text = page.locator("body").inner_text()
    assert untranslated(text) == [], text


def test_the_tower_page_and_the_calibration_wizard_speak_german(german_page: Page, served: str) -> None:
    page = german_page
    page.goto(served + "/tower")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("button", name="Werfen").click()
    expect(page.locator("#toss-state")).to_have_text("Fertig.", timeout=15_000)
    expect(page.locator("#counts-source")).to_contain_text("Die Lichtschranke hat")
    page.get_by_role("button", name="Ich habe den Turm von Hand geleert").click()
    expect(page.locator("#empty-state")).to_contain_text("Der Turm gilt jetzt als leer")
    no_english_on_screen(page)
    screenshot(page, "tower-de")
    claim = Msg("{player} cannot claim {colours}; legal: {options}", player="Ben", colours=claim_name(("red",)),
                options=[claim_name(("yellow", "orange")), claim_name(("green",))])
    assert page.evaluate("m => Keshi.say(m)", claim.to_json()) == claim.render("de")  # as the server says it
    assert page.evaluate("() => t('Step {n} of {total}', {n: 2, total: 13})") == "Schritt 2 von 13"

    page.goto(served + "/setup/calibrate")  # the wizard's first two steps (the English test goes on)
    title = page.locator("#cal-title")
    expect(title).to_have_text("Schritt 1 von 13 · Leere Schale")
    no_english_on_screen(page)
    page.locator("#cal-capture").click()
    expect(page.locator("#cal-image")).to_be_visible()
    page.locator("#cal-next").click()
    expect(title).to_contain_text("Schritt 2 von 13 · ")
    expect(title).to_contain_text(FIRST_COLOUR)
    expect(page.locator("#cal-step")).to_contain_text("Keshis dieser Farbe")
    no_english_on_screen(page)
    screenshot(page, "calibrate-de-colour-step")
