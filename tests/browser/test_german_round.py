"""Issue 14: a German phone plays a whole round of Marrakesh with no English left on screen.

One phone at 360×740 whose browser asks for German (``Accept-Language: de-DE``) joins the table, says
it is a shared device, empties the tower, selects for both players, tosses the simulated tower,
confirms the result and makes every claim and choice until the second round begins. After every step
the visible text (and the labels a screen reader meets) is scanned: no phrase of the English catalog
(``tests.web.test_i18n.untranslated``), no common English word, no internal key (``date_orchard``,
``{player}``). A screenshot per step goes to ``test-artifacts/screenshots/german-*.png``.

The log is scanned too: the lines ``companion/table/service.py`` writes (game created, selections, the
tower's release, the tower check) come with their message (``say``), which the page renders in German,
both from the live stream and from the snapshot's history after a reload (the last step reloads).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_boards_taps import settled
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable
from tests.web.test_i18n import untranslated

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Anna", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
SEED = 3
#: The companion's name in the menu, the same in every language.
BRAND = "Keshi Tower"
#: English words a German screen never needs (whole words, case as written).
ENGLISH_WORDS = re.compile(r"\b(the|and|of|to|your|you|is|for|with|from|choose|chooses|claims|takes|waiting|Waiting|"
                           r"Undo|Season|Round|tower|Tower|keshis are|nothing|none|turn|pts)\b")
#: An engine key or an unfilled placeholder shown to people.
INTERNAL_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b|\{\w+(?:!r)?\}")


@pytest.fixture
def german(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for German (``Accept-Language: de-DE``)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context.new_page()
    context.close()


def english_left(page: Page) -> list[str]:
    """What on the screen (the log included) is still English or an internal key."""
    text = page.evaluate("""() => {
        const body = document.body.cloneNode(true);
        body.querySelectorAll('script, style, [hidden]').forEach(e => e.remove());
        const labels = [...body.querySelectorAll('[aria-label], [alt], [title], [placeholder]')]
            .map(e => ['aria-label', 'alt', 'title', 'placeholder'].map(a => e.getAttribute(a) || '').join(' '));
        return body.innerText + '\\n' + labels.join('\\n');
    }""")
    text = text.replace(BRAND, "")
    found = untranslated(text)
    found += [m.group(0) for m in ENGLISH_WORDS.finditer(text)]
    found += [m.group(0) for m in INTERNAL_KEY.finditer(text)]
    return found


class Round:
    """The German phone's steps, each scanned and photographed."""

    def __init__(self, page: Page, table: HttpTable, game_id: str) -> None:
        self.page, self.table, self.game_id = page, table, game_id
        self.step = 0
        self.scanned: list[str] = []

    def check(self, what: str) -> dict[str, Any]:
        view = settled([self.page], self.table, self.game_id)
        self.step += 1
        screenshot(self.page, f"german-{self.step:02d}-{what}")
        left = english_left(self.page)
        lines = [line for line in self.page.locator("body").inner_text().splitlines() if any(w in line for w in left)]
        assert left == [], (what, left, lines)
        self.scanned.append(what)
        return view

    def tap(self, selector: str, view: dict[str, Any]) -> None:
        self.page.locator(selector).first.click()
        expect(self.page.locator("#game")).not_to_have_attribute("data-event-id", str(view["event_id"]),
                                                                 timeout=10_000)


def german_phone_joins(page: Page, live_server: LiveServer, body: dict[str, Any]) -> tuple[HttpTable, str, list[str]]:
    """Create a game (``body`` as ``POST /api/games`` takes it) and join it on the German ``page`` with its
    PIN: the table's API client, the game's id and the page's console errors (collected from now on)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    table = HttpTable(live_server.url)
    status, game = table.request("POST", "/api/games", body)
    assert status == 201, game
    game_id = str(game["id"])
    page.goto(f"{live_server.url}/games/{game_id}/join?pin={game['pin']}")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("button", name="Beitreten").click()
    page.wait_for_url(f"{live_server.url}/games/{game_id}")
    return table, game_id, errors


def test_a_german_phone_plays_a_whole_round_with_no_english_on_screen(german: Page,
                                                                      live_server: LiveServer) -> None:
    page = german
    table, game_id, errors = german_phone_joins(page, live_server, {"players": PLAYERS, "seed": SEED})
    expect(page.get_by_role("heading", name="Wer bist du?")).to_be_visible()
    play = Round(page, table, game_id)
    play.check("who-are-you")
    page.get_by_role("button", name="Gemeinsames Gerät: spielt für alle").click()
    expect(page.locator("#who-line")).to_have_text("Gemeinsames Gerät")

    for _ in range(60):
        view = play.check(next_step(settled([page], table, game_id)))
        if view["round"] > 1 or view["season"] > 1:
            break
        pending = view["pending"] or {}
        if view["tower_check"]["needed"] and page.locator("#tower-empty").count():
            play.tap("#tower-empty", view)
        elif pending:
            assert pending.get("kind") == "choice", f"round 1 asked the table {pending}: answer it here too"
            expect(page.locator("#screen .prompt")).not_to_have_text(str(pending["prompt"]))  # Keshi.say, German
            play.tap("#screen button.option", view)
        elif view["phase"] == "select":
            while not page.locator(".picker .reveal").count():
                page.locator(".picker .colour-pick:not([disabled])").first.click()
            play.tap(".picker .reveal", view)
        elif view["phase"] == "toss" and view["tower_result"]:
            expect(page.locator("#accept")).to_have_text("Bestätigen: Das ist herausgefallen")
            play.tap("#accept", view)
        elif view["phase"] == "toss":
            page.locator("#toss").click()
            expect(page.locator("#accept")).to_be_visible(timeout=15_000)
        else:
            expect(page.locator("#turn-who")).to_contain_text("ist am Zug")
            play.tap("#screen button.option", view)
    else:
        raise AssertionError("the first round did not end")

    assert {"select", "toss", "result", "claim"} <= {s.split("-")[-1] for s in play.scanned}, play.scanned
    expect(page.locator("#turn-when")).to_contain_text("Durchgang 1 · Runde 2")
    page.reload()  # the log now comes from the snapshot's history, not the stream
    expect(page.locator("#log li").first).to_be_visible()
    play.check("reloaded")
    log = "\n".join(page.locator("#log li").all_inner_texts())
    assert "Alle decken auf — " in log and "Turm: " in log and "Spiel angelegt: " in log, log
    assert errors == [], errors


def next_step(view: dict[str, Any]) -> str:
    """A short name for the screen the phone shows now (for the screenshot's file name)."""
    if view["tower_check"]["needed"]:
        return "empty-tower"
    if view["pending"]:
        return "choice"
    if view["phase"] == "toss":
        return "result" if view["tower_result"] else "toss"
    return str(view["phase"])
