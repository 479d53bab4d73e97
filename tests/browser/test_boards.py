"""Issue 14: the player boards, the score track, the claim display, your-turn cues and the season screen.

One 3-player game (Ana hosts through the API; Ben on a 360×740 phone, Cleo on a 1280×800 tablet,
both seated with the PIN). Rounds are played through the API (``fast_forward``); what each screen
shows is compared with the engine's own ``to_dict()`` (the view's ``state``) and legal actions at that
moment, never with numbers written into the test. Screenshots: test-artifacts/screenshots/boards-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.test_real_table import fast_forward, season_scored
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 1280, "height": 800}
PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}, {"name": "Cleo", "colour": "green"}]
#: navigator.vibrate recorded, so a test can tell which phone buzzed
RECORD_VIBRATE = "window.__buzzes = 0; navigator.vibrate = function () { window.__buzzes += 1; return true; };"
#: the engine's marker colour for each marker sector, and the goods of the souk (rules digest §2)
MARKER_SECTOR = {"turquoise": "river", "green": "date_orchard", "gray": "madrasa", "white": "palace", "black": "mosque"}
GOODS = ("yellow", "orange", "purple")


@dataclass
class Seat:
    """A seated browser: its page and the seat it said it is."""

    name: str
    seat: int
    context: BrowserContext
    page: Page


def shot(page: Page, name: str) -> None:
    """What the device shows now (the viewport)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"boards-{name}.png"))


def sit_down(browser: Browser, url: str, game_id: str, pin: str, seat: int, viewport: ViewportSize) -> Seat:
    name = PLAYERS[seat]["name"]
    context = browser.new_context(viewport=viewport)
    context.add_init_script(RECORD_VIBRATE)
    page = context.new_page()
    page.goto(f"{url}/games/{game_id}/join?pin={pin}")
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{url}/games/{game_id}")
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page.locator("#who-line")).to_contain_text(name)
    return Seat(name, seat, context, page)


def sector_values(player: dict[str, Any]) -> dict[str, int]:
    """Each sector's strength straight from the engine's player dict (markers, or keshis placed)."""
    values = {MARKER_SECTOR[c]: n for c, n in player["markers"].items()}
    values["main_square"] = len(player["entertainers"])
    values["medina"] = player["watchtower"] + len(player["gates"])
    values["sahara"] = sum(player["sahara"].values())
    values["souk"] = sum(player["goods"][g] for g in GOODS)
    return values


def counted(n: int, thing: str) -> str:
    """``n`` things in English: "1 date", "0 dates", "3 dates"."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def boards_match(page: Page, state: dict[str, Any]) -> None:
    """Every board on the page shows the engine's numbers for that player."""
    for seat, player in enumerate(state["players"]):
        board = page.locator(f'.board[data-seat="{seat}"]')
        expect(board.locator(".points")).to_have_text(f"{player['score']} pts")
        for sector, value in sector_values(player).items():
            expect(board.locator(f'.sector[data-sector="{sector}"]')).to_have_attribute("data-value", str(value))
        for good in GOODS:
            expect(board.locator(f'.sector[data-sector="souk"] .chip[data-colour="{good}"]')).to_contain_text(
                f"{player['goods'][good]}×")
        expect(board.locator('[data-fact="Fisherman"]')).to_contain_text(f"river space {player['fisherman']}")
        expect(board.locator('[data-fact="Courtier"]')).to_have_text(f"palace step {player['palace']}")
        expect(board.locator('[data-fact="Student"]')).to_have_text(f"mosque step {player['mosque']}")
        scrolls = board.locator('[data-fact="Scrolls"]')
        expect(scrolls).to_contain_text(str(len(player["scrolls"])) if player["scrolls"] else "none")
        found = sum(1 for d in player["discovered"] if d)
        expect(board.locator('[data-fact="Oases"]')).to_contain_text(
            f"{found} of {len(player['discovered'])} discovered · {len(player['claimed_oases'])} claimed")
        res = player["resources"]
        expect(board.locator('[data-fact="Supply"]')).to_have_text(  # "1 date", "2 dates": the engine's counts
            f"{res['water']} water · {counted(res['dates'], 'date')} · {counted(res['dinars'], 'dinar')}")
    # the score track: one marker per player, highest score first
    rows = page.locator("#score-track .track-row")
    expect(rows).to_have_count(len(state["players"]))
    best = max(range(len(state["players"])), key=lambda s: (state["players"][s]["score"], -s))
    expect(rows.first).to_have_attribute("data-seat", str(best))


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.fixture
def table(live_server: LiveServer) -> Iterator[tuple[HttpTable, str, str]]:
    host = HttpTable(live_server.url)
    created = host.create(PLAYERS, seed=7)
    yield host, str(created["id"]), str(created["pin"])


def test_boards_turn_cues_and_season_screen_on_a_phone_and_a_tablet(
        browser: Browser, live_server: LiveServer, table: tuple[HttpTable, str, str]) -> None:
    host, game_id, pin = table
    # one scripted round through the API, up to the next round's selection
    fast_forward(host, game_id, lambda v: v["round"] == 2 and v["phase"] == "select")
    ben = sit_down(browser, live_server.url, game_id, pin, 1, PHONE)
    cleo = sit_down(browser, live_server.url, game_id, pin, 2, TABLET)
    try:
        state = host.view(game_id)["state"]
        page, tab = ben.page, cleo.page
        # -- your turn: selection is everyone's turn; each phone greets its own player, buzzes once,
        # shows its picker and keeps the screen awake where the browser allows it
        expect(page.locator("#your-turn")).to_have_text("Your turn, Ben · Select 3 keshis")
        expect(tab.locator("#your-turn")).to_contain_text("Your turn, Cleo")
        assert page.title().startswith("● Your turn — ")
        assert page.evaluate("window.__buzzes") == 1
        expect(page.locator(".picker")).to_be_in_viewport()
        picker, bar = page.locator(".picker").bounding_box(), page.locator("#turnbar").bounding_box()
        assert picker and bar and picker["y"] >= bar["y"] + bar["height"] - 1, "the turn bar hides the picker's top"
        expect(page.locator("#game")).to_have_attribute("data-wake-lock", re.compile("held|refused|unsupported"))
        shot(page, "phone-your-turn-select")

        # -- the phone: own board first, the others a swipe away, nothing wider than the phone
        expect(page.locator(".board").first).to_have_attribute("data-seat", "1")
        expect(page.locator(".board.mine")).to_have_attribute("data-seat", "1")
        boards_match(page, state)
        assert fits(page), "the phone page scrolls sideways at 360 px"
        first, second = (page.locator(".board").nth(i).bounding_box() for i in (0, 1))
        assert first and second and second["x"] >= first["x"] + first["width"], "other boards are a swipe away"
        page.locator(".board-dot", has_text="Cleo").click()
        page.wait_for_function("""() => {  // Cleo's board slid fully into the carousel's window
            const b = document.querySelector('.board[data-seat="2"]').getBoundingClientRect();
            const c = document.getElementById('boards').getBoundingClientRect();
            return Math.abs(b.left - c.left) < 2 && b.right <= c.right + 1; }""", timeout=5000)
        for dot in page.locator(".board-dot").all():
            assert (dot.bounding_box() or {"height": 0})["height"] >= 48
        page.locator("#boards-card").scroll_into_view_if_needed()
        shot(page, "phone-own-board-first")

        # -- the tablet: every board side by side, with the play column and the log beside them
        boards_match(tab, state)
        boxes = [b.bounding_box() for b in tab.locator(".board").all()]
        assert all(b and b["y"] == boxes[0]["y"] for b in boxes), "the boards are not side by side"  # type: ignore[index]
        screen, log = tab.locator("#screen").bounding_box(), tab.locator("#log-card").bounding_box()
        assert screen and log and log["x"] > screen["x"] + screen["width"], "the log is not beside the play column"
        assert fits(tab)
        tab.evaluate("window.scrollTo(0, 0)")
        shot(tab, "tablet-table")

        # -- claims: the cue only on the mover's device, and the display says what they may take
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        view = fast_forward(host, game_id, lambda v: v["phase"] == "claim" and v["to_move"] == 1 and not v["pending"])
        for seat in (ben, cleo):
            expect(seat.page.locator("#game")).to_have_attribute("data-version", str(view["version"]))
        expect(page.locator("#your-turn")).to_contain_text("Your turn, Ben")
        expect(page.locator("#screen .options")).to_be_in_viewport()  # scrolled to the choices
        shot(page, "phone-your-turn-claim")
        expect(tab.locator("#your-turn")).to_be_hidden()
        assert not tab.title().startswith("●")
        buzzes = tab.evaluate("window.__buzzes")
        most: dict[str, int] = {}
        for entry in view["legal"]:
            colours = entry["action"].get("colours", [])
            for colour in colours:
                most[colour] = max(most.get(colour, 0), colours.count(colour))
        display = view["state"]["tower"]["display"]
        shown = [c for c, n in display.items() if n]
        for where in ("#screen", "#display"):  # beside the claim buttons, and in the display's own card
            expect(page.locator(f"{where} .claim-row")).to_have_count(len(shown))
            for colour in shown:
                row = page.locator(f'{where} .claim-row[data-colour="{colour}"]')
                expect(row).to_contain_text(f"{display[colour]}× {colour}")
                expect(row).to_contain_text(f"Ben takes {most[colour]} →" if most.get(colour) else "not for Ben")
        boards_match(page, view["state"])
        page.locator("#display").scroll_into_view_if_needed()
        shot(page, "phone-claim-display")
        page.evaluate("window.scrollTo(0, 0)")
        page.locator("#screen button.option").first.click()
        expect(page.locator("#your-turn")).to_be_hidden()
        assert not page.title().startswith("●")
        # the next mover's device, and only theirs, is told (and buzzes once)
        after = host.view(game_id)
        expect(tab.locator("#game")).to_have_attribute("data-version", str(after["version"]))
        cleo_moves = after["phase"] == "claim" and after["to_move"] == 2 and not after["pending"]
        if cleo_moves:
            expect(tab.locator("#your-turn")).to_contain_text("Your turn, Cleo")
        else:
            expect(tab.locator("#your-turn")).to_be_hidden()
        assert tab.evaluate("window.__buzzes") == buzzes + (1 if cleo_moves else 0)

        # -- the season scoring: a screen of its own on every device until someone puts it away
        view = fast_forward(host, game_id, season_scored)
        for seat in (ben, cleo):
            seat.page.reload()
            card = seat.page.locator("#season-card")
            expect(card).to_be_visible()
            box = card.bounding_box()
            size = seat.page.viewport_size
            assert box and size and box["width"] == size["width"] and box["height"] == size["height"]
        shot(page, "phone-season-scoring")
        shot(tab, "tablet-season-scoring")
        # a watching phone (not seated) cannot put it away for the table, only for itself
        watcher = browser.new_context(viewport=PHONE)
        try:
            watching = watcher.new_page()
            watching.goto(f"{live_server.url}/games/{game_id}")
            expect(watching.locator("#season-close")).to_be_hidden()
            watching.get_by_role("button", name="Back to the table (only on this phone)").click()
            expect(watching.locator("#season-card")).to_be_hidden()
            expect(page.locator("#season-card")).to_be_visible()
        finally:
            watcher.close()
        page.locator("#season-close").click()
        expect(tab.locator("#season-card")).to_be_hidden()
        expect(page.locator("#season-card")).to_be_hidden()
        boards_match(tab, host.view(game_id)["state"])
    finally:
        ben.context.close()
        cleo.context.close()
