"""Issue 14 for Sabika: a German phone plays the first round of Sabika with no English left on screen.

One phone at 360×740 whose browser asks for German (``Accept-Language: de-DE``) joins a 2-player Sabika
game (its board profile complete, so only the players act), says it is a shared device and taps seeded
random buttons — each step of a long list too — until the second round begins. Every kind of screen
(each prompt, a long list's second step) is scanned once, at the start and in round 2 with every board
section open: the visible text (the log, the Undo button and the labels a screen reader meets included)
through ``tests.browser.test_german_round.english_left`` (no phrase of the English catalog, no common
English word, no internal key) and Sabika's own single English words. The last step reloads, so the log
comes from the snapshot's history. Screenshots go to test-artifacts/screenshots/german-sabika-*.png.

The Undo button is scanned too: table_game.js words its label from the log line's message.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.sabika.simulate import random_profile
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_boards_taps import settled
from tests.browser.test_german_round import english_left, german_phone_joins
from tests.browser.test_sabika_game import fits
from tests.conftest import LiveServer
from tests.games.sabika.helpers import BASE_PROFILE

pytestmark = pytest.mark.browser

#: Sabika's own single English words (the catalog scan looks for phrases of 2 words or more, or game words).
SABIKA_WORDS = re.compile(r"\b(Rondel|Dinars|Seals|Workers?|Ships?|City|Cities|Tiles?|Materials|Goods|Poems?|Era|Total|"
                          r"Starting|Storehouses?|Balances|Wishes|Sultan's|Tribute|Market|Quarry|free|square)\b")
PLAYERS = [{"name": "Anna", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
SEED = 21
MAX_TAPS = 150
"""A round of 2 players is 8 turns with their follow-up choices: about 40 taps; this many means it is stuck."""


@pytest.fixture
def german(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for German."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context.new_page()
    context.close()


def no_english(page: Page, what: str, *, everything: bool = False) -> None:
    """Nothing English on screen (the Undo button aside, see above); ``everything``: with every board
    section opened first (and closed again after: the scan's time grows with the text it reads)."""
    if everything:
        page.evaluate("() => document.querySelectorAll('#board details').forEach(d => { d.open = true; })")
    left = [found for found in english_left(page) if re.search("[A-Za-z]", found)]  # "+ 1" is no English
    left += SABIKA_WORDS.findall(page.locator("body").inner_text())
    lines = [line for line in page.locator("body").inner_text().splitlines() if any(w in line for w in left)]
    if everything:
        page.evaluate("() => document.querySelectorAll('#board details').forEach(d => { d.open = false; })")
    assert left == [], (what, left, lines)
    assert fits(page), f"{what}: the German words push the page sideways"


def test_a_german_phone_plays_a_round_of_sabika_with_no_english_on_screen(german: Page,
                                                                          live_server: LiveServer) -> None:
    page = german
    table, game_id, errors = german_phone_joins(page, live_server, {
        "game": "sabika", "players": PLAYERS, "seed": SEED,
        "options": {"profile": random_profile(2, SEED, BASE_PROFILE)}})
    page.get_by_role("button", name="Gemeinsames Gerät: spielt für alle").click()
    expect(page.locator("#who-line")).to_have_text("Gemeinsames Gerät")
    expect(page.get_by_test_id("sabika-status")).to_contain_text("Runde 1 von 5 · Epoche I")
    screenshot(page, "german-sabika-01-start")
    no_english(page, "start", everything=True)

    rng = random.Random(SEED)
    shots = {"two-step": False, "market": False}
    scanned: set[str] = set()  # each kind of screen (its prompt's message) is scanned once: a scan takes ~1 s
    view: dict[str, Any] = settled([page], table, game_id)
    for _ in range(MAX_TAPS):
        if view["board"]["round"] > 1:
            break
        steps = page.locator("#choices button.tg-step")
        pick = steps.nth(rng.randrange(steps.count()))
        leaf = "tg-leaf" in (pick.get_attribute("class") or "")
        pick.click()
        if leaf:
            expect(page.locator("#game")).not_to_have_attribute("data-version", str(view["version"]))
            view = settled([page], table, game_id)
            prompt = view["choices"]["prompt"]
            expect(page.locator("#prompt")).not_to_have_text(prompt)  # the prompt's message, in German
            if view["choices"]["prompt_say"]["text"] not in scanned:
                scanned.add(view["choices"]["prompt_say"]["text"])
                no_english(page, prompt)
            if not shots["market"] and "transaction" in prompt:
                shots["market"] = True
                screenshot(page, "german-sabika-03-market")
        elif not shots["two-step"]:  # a long list, one step in: the group's options and Back
            shots["two-step"] = True
            no_english(page, "second step")
            screenshot(page, "german-sabika-02-second-step")
    else:
        raise AssertionError("the first round did not end")
    assert len(scanned) >= 8, scanned  # the round met its Actions, choices and the end of the round

    expect(page.locator("#turn-when")).to_contain_text("Runde 2")
    screenshot(page, "german-sabika-04-round-2")
    no_english(page, "round 2", everything=True)
    page.reload()  # the log now comes from the snapshot's history, not the stream
    expect(page.locator("#log li").first).to_be_visible()
    no_english(page, "reloaded")
    log = "\n".join(page.locator("#log li").all_inner_texts())
    assert "setzt" in log and "Startplättchen" in log, log
    assert errors == [], errors
