"""Issue 14 for Morocco: a German phone plays a whole round on the dashboard with no English left on screen.

One phone at 360×740 whose browser asks for German (``Accept-Language: de-DE``) joins a 2-player
Morocco game as a shared device and makes every move of round 1 (die rolls, the wild face's choice of a
cube, scouting, placements of assistants, tourists and cousins) by tapping the German steps of each
move's path. On the way it meets one refused move (its request altered to another player's,
as a confused client would send it: the engine's rule error comes back in German beside the options)
and one undo (its confirmation, the button and the notice name the action in German). After every
step the visible text, the log included, is scanned with the German round's scan
(``tests.browser.test_german_round.english_left``); at the end the page is reloaded and scanned again
(the log then comes from the snapshot's history). Screenshots: test-artifacts/screenshots/german-morocco-*.png.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page, Route, expect

from companion.i18n import Msg
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_boards_taps import settled
from tests.browser.test_german_round import english_left, german_phone_joins
from tests.browser.test_morocco_game import QUICK_TAPS
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
#: The companion's draws and the test's choice of moves: a round with the die's wild face (a choice for
#: each player), tourists and cousins (an extra cube, a second assistant).
SEED, MOVES_SEED = 11, 27
#: Moves tapped with Playwright's pointer before the taps are dispatched in the page (quicker).
POINTER_MOVES = 3
#: The screens photographed (each scan costs less than a full-page screenshot, so every screen is scanned).
PHOTOGRAPHED = ("who-are-you", "choose", "place", "refused", "undone", "reloaded")


@pytest.fixture
def german(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for German (``Accept-Language: de-DE``)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context.new_page()
    context.close()


def german_steps(option: dict[str, Any]) -> list[str]:
    """The option's tap path as the German page shows it (the server's messages, rendered in German)."""
    return [Msg.from_json(step).render("de") if isinstance(step, dict) else str(step) for step in option["path_say"]]


class Phone:
    """The German phone: each screen scanned for English (and the first of each kind photographed)."""

    def __init__(self, page: Page, table: HttpTable, game_id: str) -> None:
        self.page, self.table, self.game_id = page, table, game_id
        self.shots: set[str] = set()
        self.moves = 0

    def check(self, what: str | None = None) -> dict[str, Any]:
        """The view once the phone shows it, after scanning the screen (``what``: default, the next move's kind)."""
        view = settled([self.page], self.table, self.game_id)
        what = what or screen_name(view)
        if what in PHOTOGRAPHED and what not in self.shots:
            self.shots.add(what)
            screenshot(self.page, f"german-morocco-{PHOTOGRAPHED.index(what) + 1:02d}-{what}")
        left = english_left(self.page)
        lines = [line for line in self.page.locator("body").inner_text().splitlines() if any(w in line for w in left)]
        assert left == [], (what, left, lines)
        return view

    def tap(self, option: dict[str, Any]) -> None:
        """Tap the option's German steps (a step the page took by itself has no button)."""
        steps = german_steps(option)
        if self.moves < POINTER_MOVES:
            for step in steps:
                button = self.page.locator("#choices").get_by_role("button", name=step, exact=True)
                if button.count():
                    button.click()
        else:
            self.page.evaluate(QUICK_TAPS, steps)
        self.moves += 1


def refused_for_another_player(route: Route) -> None:
    """The phone's move as a confused client sends it: in the name of the player who is not on turn."""
    body = json.loads(route.request.post_data or "{}")
    body["action"]["player"] = 1 - int(body["action"]["player"])
    route.continue_(post_data=json.dumps(body))


def test_a_german_phone_plays_a_round_of_morocco_with_no_english_on_screen(german: Page,
                                                                          live_server: LiveServer) -> None:
    page = german
    table, game_id, errors = german_phone_joins(page, live_server,
                                                {"game": "morocco", "players": PLAYERS, "seed": SEED})
    phone = Phone(page, table, game_id)
    phone.check("who-are-you")
    page.get_by_role("button", name="Gemeinsames Gerät: spielt für alle").click()
    expect(page.locator("#who-line")).to_have_text("Gemeinsames Gerät")

    rng = random.Random(MOVES_SEED)
    refused = undone = False
    kinds: list[str] = []
    for _ in range(80):
        view = phone.check()
        if view["board"]["round"] > 1:
            break
        options = view["choices"]["options"]
        if not refused and options[0]["action"]["type"] == "scout":
            page.route("**/api/games/*/actions", refused_for_another_player)
            phone.tap(options[0])
            message = page.locator("#choices-card #message")
            expect(message).to_contain_text("ist nicht am Zug (die Dachfigur ziehen)")
            page.unroute("**/api/games/*/actions")
            assert phone.check("refused")["version"] == view["version"]  # the game is as it was
            refused = True
            continue
        if not undone and kinds[-1:] == ["place"]:  # the first placement is taken back
            take_back(page)
            phone.check("undone")
            undone = True
            kinds.append("undo")
            continue
        option = rng.choice([o for o in options if o["action"]["type"] != "swap"])
        kinds.append(option["action"]["type"])
        phone.tap(option)
        expect(page.locator("#game")).not_to_have_attribute("data-version", str(view["version"]), timeout=10_000)
    else:
        raise AssertionError("the first round did not end")

    assert refused and undone and {"roll", "choose", "scout", "place"} <= set(kinds), kinds
    expect(page.locator("#turn-when")).to_contain_text("Runde 2")
    page.reload()  # the log now comes from the snapshot's history, not the stream
    expect(page.locator("#log li").first).to_be_visible()
    phone.check("reloaded")
    log = "\n".join(page.locator("#log li").all_inner_texts())
    for line in ("wirft den Marktwürfel: Joker", "wählt", "zieht die Dachfigur", "setzt", "und zahlt zusätzlich",
                 "hat zurückgenommen: "):
        assert line in log, (line, log)
    assert [e for e in errors if "422" not in e] == [], errors  # the refused move's answer is the only one


def take_back(page: Page) -> None:
    """Undo the last move: the button, the confirmation and the notice name it in German."""
    undo = page.locator("#undo")
    expect(undo).to_contain_text("Rückgängig: ")
    what = undo.inner_text().removeprefix("Rückgängig: ")
    assert " setzt " in what, what
    asked: list[str] = []

    def confirm(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", confirm)
    undo.click()
    expect(page.locator("#turn-notice")).to_contain_text("hat zurückgenommen: " + what)
    assert asked == [f"{what} zurücknehmen?"], asked


def screen_name(view: dict[str, Any]) -> str:
    """A short name for the screen the phone shows now (for the screenshot's file name)."""
    options = view["choices"]["options"]
    return str(options[0]["action"]["type"]) if options else "end"
