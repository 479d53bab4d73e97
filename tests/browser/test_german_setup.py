"""Issue 14: a German phone reads the games list and walks the setup wizard (all three games and their
options) with no English left on screen, then starts a Marrakesh game from it; and a Morocco game, whose
first screen (the generic table page, the adapter's prompt and die faces, the board) is German too.

Each screen is scanned as ``test_german_round`` scans the game page (catalog phrases, common English
words, internal keys); a screenshot per screen goes to ``test-artifacts/screenshots/german-setup-*.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_german_round import english_left
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser


@pytest.fixture
def german(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for German (``Accept-Language: de-DE``)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context.new_page()
    context.close()


def scan(page: Page, what: str) -> None:
    """Photograph the screen and assert nothing on it is English. The wizard's example of draws typed
    as JSON (its placeholder: the engine's keys, which the table types as they are) is set aside."""
    screenshot(page, f"german-setup-{what}")
    page.evaluate("() => document.querySelectorAll('[placeholder^=\"{\"]')"
                  ".forEach(e => e.removeAttribute('placeholder'))")
    left = english_left(page)
    assert left == [], (what, left)


def test_a_german_phone_reads_the_games_list_and_sets_up_every_game_with_no_english(
        german: Page, live_server: LiveServer) -> None:
    page = german
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    table = HttpTable(live_server.url)
    status, _ = table.request("POST", "/api/games", {"players": [{"name": "Ana"}, {"name": "Ben"}],
                                                     "edition": "classic", "expansions": [2]})
    assert status == 201
    page.goto(live_server.url + "/")
    expect(page.locator("#games")).to_contain_text("Classic (2022) + Erweiterung 2 Imam & Sultan")
    scan(page, "01-games")

    page.get_by_role("link", name="Neues Spiel").click()
    expect(page.locator("h1").first).to_have_text("1 · Spiel & Spieler")
    names = page.locator(".player-name")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Ben")
    page.locator(".player-colour").nth(1).select_option("blue")
    page.get_by_role("button", name="Weiter: Ausgabe & Turm").click()
    expect(page.locator(".step:not([hidden]) [role=alert]")).to_have_text(
        "Ana und Ben haben beide Blau gewählt: jeder Platz braucht seine eigene Farbe.")
    scan(page, "02-players-refused")
    page.locator(".player-colour").nth(1).select_option("red")
    page.get_by_role("button", name="Weiter: Ausgabe & Turm").click()
    page.get_by_label("Classic (2022)").check()
    page.locator('input[name="expansion"]').nth(4).check()
    scan(page, "03-edition")
    page.get_by_role("button", name="Weiter: Aufbau-Ziehungen").click()
    page.get_by_label("Wir haben am Tisch gezogen: eintragen").check()
    scan(page, "04-draws")
    page.get_by_label("Der Companion zieht alles").check()
    page.get_by_role("button", name="Weiter: Überblick").click()
    expect(page.locator("#review")).to_contain_text("Ausgabe: Classic (2022) · Turmebene B1")
    expect(page.locator("#review")).to_contain_text("Erweiterungen: 5 · Wüstenstädte")
    scan(page, "05-review")

    for step, game, shot in ((3, "Morocco", "06-morocco"), (2, "Sabika", "07-sabika")):
        for _ in range(step):
            page.locator(".step:not([hidden]) button.back").click()
        page.get_by_label(re.compile(game)).check()
        page.get_by_role("button", name=f"Weiter: Optionen für {game}").click()
        expect(page.locator("#options-game")).to_have_text(game)
        scan(page, f"{shot}-options")
        page.get_by_role("button", name="Weiter: Überblick").click()
        expect(page.locator("#review")).to_contain_text(f"Spiel: {game}")
        scan(page, f"{shot}-review")

    page.locator(".step:not([hidden]) button.back").click()
    page.locator(".step:not([hidden]) button.back").click()
    page.get_by_label(re.compile("Marrakesh")).check()
    page.get_by_role("button", name="Weiter: Ausgabe & Turm").click()
    page.get_by_role("button", name="Weiter: Aufbau-Ziehungen").click()
    page.get_by_role("button", name="Weiter: Überblick").click()
    page.get_by_role("button", name="Spiel starten").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    expect(page.locator("#variant")).to_contain_text("Classic (2022) + Erweiterung 5 Wüstenstädte")
    assert errors == [], errors


def test_a_german_phone_starts_morocco_from_the_wizard_and_its_first_screen_is_german(
        german: Page, live_server: LiveServer) -> None:
    page = german
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + "/games/new")
    page.get_by_label(re.compile("Morocco")).check()
    names = page.locator(".player-name")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Ben")
    page.get_by_role("button", name="Weiter: Optionen für Morocco").click()
    page.get_by_role("button", name="Weiter: Überblick").click()
    page.get_by_role("button", name="Spiel starten").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    page.get_by_role("button", name="Gemeinsames Gerät: spielt für alle").click()
    expect(page.locator("#prompt")).to_contain_text("den Marktwürfel werfen — was zeigt er?")
    expect(page.locator("#log li").first).to_contain_text("Spiel angelegt: Ana · Ben")
    scan(page, "08-morocco-game")
    assert errors == [], errors
