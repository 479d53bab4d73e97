"""Issue 11 must-show: two complete 3-player games in a row on one server, as a real table plays them.

Three phone contexts (360×740): Ana created the games on her phone, Ben and Cy join with the PIN.
What a real evening brings is played through the UI: "Who are you?" right after joining, a duplicate
seat colour refused, the tower emptied at game start (game 2 starts with a leftover piece inside),
a half-made selection kept while another phone reveals, a toss from a phone whose stream stalled
(refused, with a message beside its button), Undo right after confirming a result (back to
Confirm/Correct), camera counts corrected upward and downward for colours the tower was not believed
to hold, a phone that loses its stream and reconnects, the season scoring that survives a reload.
The rounds that test nothing new are played through the HTTP API by a fourth, non-browser session
(the phones are parked meanwhile and reload afterwards, which is itself checked).

Every 4xx/5xx a phone receives must have been shown on that phone (the page counts what it showed);
no other console error may occur. Screenshots per step: test-artifacts/screenshots/real-table-*.png.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Dialog, Page, Response, expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.conftest import LiveServer, start_server
from tests.web.http_table import HttpTable
from tests.web.play import first_action

pytestmark = pytest.mark.browser

PLAYERS = (("Ana", "blue"), ("Ben", "red"), ("Cy", "green"))
#: a real-time simulated tumble (the other tests run it 20x faster), so "Toss is disabled while it
#: tumbles" is observable on every phone even on a busy machine
TOWER: dict[str, object] = {"SIMULATOR_TIME_SCALE": 1.0, "SIMULATOR_SEED": 11}
#: EventSource wrapper: the test can silence a phone's live stream the way a stalled Wi-Fi does
#: (no error event, just nothing arriving any more)
STALL_HOOK = """
(() => {
  const Native = window.EventSource;
  const opened = [];
  function Wrapped(url, init) { const s = new Native(url, init); opened.push(s); return s; }
  Wrapped.prototype = Native.prototype;
  Wrapped.CONNECTING = 0; Wrapped.OPEN = 1; Wrapped.CLOSED = 2;
  window.EventSource = Wrapped;
  window.__stallStreams = () => opened.forEach((s) => s.close());
})();
"""
#: How long, on the stalled phone's own clock, it may take to notice that its stream went silent (three
#: missed 5 s pings, checked every 2 s). The phone's clock is Playwright's (``clock.install``): it runs in
#: real time and is moved forward over the silence, as when a phone lies asleep, instead of waiting it out.
NOTICED_WITHIN_MS = 25_000
INTERNAL_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z0-9_]+\.[a-z0-9_.]+\b|\b[a-z]+\.[a-z]+_[a-z_]+\b")


@dataclass
class Phone:
    """One phone: its page, and every error response / console error it met."""

    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    shown_before_reload: int = 0
    dialogs: list[str] = field(default_factory=list)

    def watch(self) -> None:
        self.page.on("response", self._response)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.console.append(f"page error: {exc}"))
        self.page.on("dialog", self._dialog)

    def _response(self, response: Response) -> None:
        if response.status >= 400 and "/api/" in response.url:
            self.errors.append(f"{response.status} {response.request.method} {response.url}")

    def _console(self, message: ConsoleMessage) -> None:
        # a refused fetch is also logged by Chromium as "Failed to load resource"; those are the
        # responses counted above (and an aborted stream while it is cut off on purpose)
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.console.append(message.text)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.accept()

    def shown(self) -> int:
        """How many refusals this phone has put on screen since it was opened (banked across reloads)."""
        if not self.page.url.startswith("http") or not self.page.locator("#game").count():
            return self.shown_before_reload
        return self.shown_before_reload + int(self.page.locator("#game").get_attribute("data-shown-errors") or 0)

    def goto(self, url: str) -> None:
        self.shown_before_reload = self.shown()
        self.page.goto(url)

    def every_error_was_shown(self) -> None:
        assert len(self.errors) == self.shown(), f"{self.name}: refusals not shown: {self.errors}"
        assert not self.console, f"{self.name}: console errors: {self.console}"


def shot(phone: Phone, name: str) -> None:
    """A screenshot of what the phone shows now (the viewport, where a person is looking)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SCREENSHOTS / f"real-table-{name}.png"))


def message_beside(phone: Phone, near: str, contains: str) -> None:
    """The refusal is on screen: visible, not under the sticky turn bar, right after ``near``."""
    page = phone.page
    box = page.locator("#message")
    expect(box).to_be_visible()
    expect(box).to_contain_text(contains)
    top, bottom = page.evaluate(
        "() => { const r = document.getElementById('message').getBoundingClientRect(); return [r.top, r.bottom]; }")
    bar = page.evaluate("document.getElementById('turnbar').getBoundingClientRect().bottom")
    assert bar <= top and bottom <= PHONE["height"], f"{phone.name}: the message is off-screen or under the turn bar"
    if page.locator(near).count():
        assert page.evaluate(f"document.querySelector({near!r}).nextElementSibling.id") == "message"


def no_internal_keys(phone: Phone) -> None:
    for part in ("#screen", "#turnbar", "#log", "#latest-card", "#season-card"):
        text = phone.page.locator(part).inner_text()
        assert not INTERNAL_KEY.search(text), f"{phone.name}: an internal key in {part}: {INTERNAL_KEY.search(text)}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = start_server(tmp_path / "instance", TOWER)
    yield live
    if live.process.poll() is None:
        live.process.kill()
        live.process.wait()


# -- steps -----------------------------------------------------------------------------------------
def create_game(ana: Phone, url: str, seed: int, tag: str) -> str:
    """Ana walks the wizard; a duplicate seat colour is refused there with a clear message."""
    page = ana.page
    ana.goto(url + "/games/new")
    page.get_by_role("button", name="Add player").click()
    for i, (name, _) in enumerate(PLAYERS):
        page.locator(".player-name").nth(i).fill(name)
    page.locator(".player-colour").nth(2).select_option("red")  # the same colour as Ben
    page.get_by_role("button", name="Next: edition & tower").click()
    expect(page.locator(".step[data-step='1'] .error")).to_have_text(
        "Ben and Cy both chose red: each seat needs its own colour.")
    shot(ana, f"{tag}-01-duplicate-colour-refused")
    for i, (_, colour) in enumerate(PLAYERS):
        page.locator(".player-colour").nth(i).select_option(colour)
    page.get_by_role("button", name="Next: edition & tower").click()
    page.get_by_role("button", name="Next: setup draws").click()
    page.get_by_label("Seed for anything still drawn").fill(str(seed))
    page.get_by_role("button", name="Next: review").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    who_are_you(ana, "Ana")
    return page.url


def who_are_you(phone: Phone, name: str) -> None:
    """Asked first; until answered the phone offers no choices."""
    page = phone.page
    expect(page.get_by_role("heading", name="Who are you?")).to_be_visible()
    expect(page.locator("#role")).to_be_hidden()  # no "plays for everyone" preselected
    assert not page.locator("#screen button").count()
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page.locator("#who-line")).to_contain_text(name)


def join(phone: Phone, game_url: str, pin: str, shot_name: str) -> None:
    phone.goto(game_url + "/join?pin=" + pin)
    phone.page.get_by_role("button", name="Join").click()
    phone.page.wait_for_url(game_url)
    expect(phone.page.locator("#pin")).to_have_text(pin)  # every joined phone shows the PIN
    shot(phone, shot_name)
    who_are_you(phone, phone.name)


def pick(phone: Phone, count: int) -> list[str]:
    """Tap ``count`` allowed colours in this phone's picker; return the colour buttons' order."""
    picker = phone.page.locator(".picker")
    order = picker.locator(".colour-pick").evaluate_all("(bs) => bs.map((b) => b.dataset.colour)")
    for _ in range(count):
        picker.locator(".colour-pick:not([disabled])").first.click()
    return list(order)


def reveal(phone: Phone) -> None:
    picker = phone.page.locator(".picker")
    while not picker.locator(".reveal").count():
        picker.locator(".colour-pick:not([disabled])").first.click()
    picker.locator(".reveal").first.click()
    expect(picker).to_have_count(0)


def same_event(phones: list[Phone]) -> None:
    """Every phone shows the same latest event (pushed: the page has no polling fallback)."""
    latest = phones[0].page.locator("#game").get_attribute("data-event-id") or ""
    for phone in phones[1:]:
        expect(phone.page.locator("#game")).to_have_attribute("data-event-id", latest)


def wait_result(phone: Phone) -> None:
    expect(phone.page.locator("#accept")).to_be_visible(timeout=20_000)


def claims_on_their_own_phones(phones: list[Phone], table: HttpTable, game_id: str, turns: int = 3) -> int:
    """A few claims, each tapped on the phone of the player to move; the others only wait.

    Returns how many were played (it stops at a decision or question, or when the claims end).
    """
    for played in range(turns):
        view = table.view(game_id)
        if view["phase"] != "claim" or view["pending"] is not None or not isinstance(view["to_move"], int):
            return played
        mover = phones[view["to_move"]]
        for phone in phones:
            expect(phone.page.locator("#game")).to_have_attribute("data-version", str(view["version"]))
            if phone is not mover:
                expect(phone.page.locator("#screen")).to_contain_text(f"Waiting for {mover.name} to claim")
                assert not phone.page.locator("#screen button.option").count()
        mover.page.locator("#screen button.option").first.click()
        expect(mover.page.locator("#game")).not_to_have_attribute("data-version", str(view["version"]))
        same_event([mover, *[p for p in phones if p is not mover]])
    return turns


def fast_forward(table: HttpTable, game_id: str, until: Any, max_actions: int = 2000) -> dict[str, Any]:
    """Play the first legal choice through the API until ``until(view)``; the tower by hand."""
    view = table.view(game_id)
    for _ in range(max_actions):
        if until(view):
            return view
        if view["season_scoring"] and not view["season_scoring"]["acknowledged"] and until is not season_scored:
            status, body = table.request("POST", f"/api/games/{game_id}/season-scoring/ack",
                                         {"season": view["season_scoring"]["season"]})
            assert status == 200, body
            view = body["view"]
            continue
        if view["tower_check"]["needed"]:
            status, body = table.request("POST", f"/api/games/{game_id}/tower/empty", {"found": {}})
            assert status == 201, body
            view = body["view"]
            continue
        view = table.act(game_id, first_action(view), view["version"])
    raise AssertionError("the game did not get there")


def season_scored(view: dict[str, Any]) -> bool:
    return bool(view["season_scoring"] and not view["season_scoring"]["acknowledged"])


def finished(view: dict[str, Any]) -> bool:
    return bool(view["finished"])


# -- the evening -------------------------------------------------------------------------------------
def test_two_games_in_a_row_survive_a_real_table(browser: Browser, server: LiveServer) -> None:
    started = time.monotonic()
    phones: list[Phone] = []
    for name, _ in PLAYERS:
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(STALL_HOOK)
        if name == "Cy":  # the phone whose stream stalls: its timers can be moved forward over the silence
            context.clock.install()
        phone = Phone(name, context, context.new_page())
        phone.watch()
        phones.append(phone)
    ana, ben, cy = phones
    table = HttpTable(server.url)
    try:
        # ---- game 1 ----------------------------------------------------------------------------
        game_url = create_game(ana, server.url, seed=5, tag="g1")
        game_id = game_url.rsplit("/", 1)[1]
        pin = ana.page.locator("#pin").inner_text()
        join(ben, game_url, pin, "g1-02-ben-joined-who-are-you")
        join(cy, game_url, pin, "g1-03-cy-joined-who-are-you")
        assert table.request("POST", f"/api/games/{game_id}/join", {"pin": pin})[0] == 200
        assert table.request("POST", f"/api/games/{game_id}/role", {"seat": "all", "pin": pin})[0] == 200

        expect(ana.page.locator("#tower-check")).to_be_visible()
        shot(ana, "g1-04-empty-the-tower")
        ana.page.locator("#tower-empty").click()
        expect(ben.page.locator("#tower-check")).to_have_count(0)
        expect(ben.page.locator("#log li").first).to_contain_text("empty")

        # a half-made selection survives another phone's reveal, and its buttons keep their order
        order = pick(ben, 2)
        chosen = ben.page.locator(".picker p").first.inner_text()
        reveal(ana)
        expect(ben.page.locator("#screen")).to_contain_text("Chosen, hidden until everyone has: Ana")
        assert ben.page.locator(".picker p").first.inner_text() == chosen
        assert ben.page.locator(".picker .colour-pick").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.colour)") == order
        shot(ben, "g1-05-ben-selection-kept")
        reveal(ben)
        reveal(cy)
        expect(ana.page.locator("#toss")).to_be_enabled()
        same_event(phones)

        # Cy's stream stalls; Ana tosses; Toss stays disabled while it tumbles, on every live phone
        cy.page.route(re.compile(r"/events\?"), lambda route: route.abort())
        cy.page.evaluate("window.__stallStreams()")
        stalled_at = float(cy.page.evaluate("Date.now()"))  # on the phone's own clock
        lines = ana.page.locator("#log li").count()
        ana.page.locator("#toss").click()
        expect(ana.page.locator("#toss")).to_be_disabled()
        expect(ana.page.locator("#toss")).to_have_text("Tossing… wait for the result")
        expect(ben.page.locator("#toss")).to_be_disabled()
        shot(ana, "g1-06-tumbling-toss-disabled")
        # the stalled phone still offers Toss: its tap is refused, with the reason beside the button
        expect(cy.page.locator("#toss")).to_be_enabled()
        cy.page.locator("#toss").click()
        message_beside(cy, "#toss", "tower")
        shot(cy, "g1-07-stalled-phone-second-toss-refused")
        wait_result(ana)

        # confirm, then undo at once: back to Confirm/Correct, and the dialog names the release
        shot(ana, "g1-08-tower-result")
        ana.page.locator("#accept").click()
        expect(ana.page.locator("#accept")).to_have_count(0)
        expect(ana.page.locator("#log li")).to_have_count(lines + 1)  # one toss, one line in the log
        expect(ana.page.locator("#undo")).to_contain_text("tower")
        ana.page.locator("#undo").click()
        wait_result(ana)
        assert "tower" in ana.dialogs[-1].lower() and "select" not in ana.dialogs[-1].lower()
        expect(ana.page.locator("#correct")).to_be_visible()
        expect(ben.page.locator("#turn-notice")).to_contain_text("Ana took back")
        shot(ben, "g1-09-undo-notice-on-ben")

        # correct upward: one more of a colour the tower was not believed to hold (a leftover)
        ana.page.locator("#correct").click()
        rows = ana.page.locator("#counter .count-row")
        expect(rows).to_have_count(12)  # every colour
        expect(ana.page.locator("#counter-totals")).to_contain_text("beam")
        inside = table.view(game_id)["state"]["tower"]["inside"]
        counts = table.view(game_id)["tower_result"]["counts"]
        spare = next(c for c in inside if not inside[c] and not counts.get(c))
        ana.page.locator(f".count-row[data-colour='{spare}'] button[data-d='1']").click()
        expect(ana.page.locator(f".count-row[data-colour='{spare}'] output")).to_have_text("1")
        shot(ana, "g1-10-correction-every-colour-upward")
        ana.page.locator("#apply-counts").click()
        expect(ana.page.locator("#accept")).to_have_count(0)
        expect(ana.page.locator("#log li").first).to_contain_text(spare)
        shot(ana, "g1-11-corrected-upward-accepted")

        # the stalled phone notices the silence, says so, and catches up once the stream is back
        silent_for = float(cy.page.evaluate("Date.now()")) - stalled_at
        cy.page.clock.fast_forward(max(0, int(NOTICED_WITHIN_MS - 1_000 - silent_for)))
        expect(cy.page.locator("#connection")).to_be_visible(timeout=1_000)
        assert float(cy.page.evaluate("Date.now()")) - stalled_at < NOTICED_WITHIN_MS
        shot(cy, "g1-12-connection-lost")
        cy.page.unroute(re.compile(r"/events\?"))
        expect(cy.page.locator("#connection")).to_be_hidden(timeout=10_000)
        same_event(phones)
        expect(cy.page.locator("#log li").first).to_contain_text(spare)
        shot(cy, "g1-13-reconnected")
        assert claims_on_their_own_phones(phones, table, game_id) >= 1
        shot(ana, "g1-14-claims-on-own-phones")
        for phone in phones:
            no_internal_keys(phone)
            phone.every_error_was_shown()

        # the rest of game 1 through the API; the season scoring is waiting when the phones come back
        for phone in phones:
            phone.goto("about:blank")
        fast_forward(table, game_id, season_scored)
        for phone in phones:
            phone.goto(game_url)
        for phone in phones:
            expect(phone.page.locator("#season-card")).to_be_visible()
            expect(phone.page.locator("#season-title")).to_contain_text("Season 1")
        shot(ben, "g1-15-season-scoring-after-reload")
        no_internal_keys(ben)
        ben.goto(game_url)
        expect(ben.page.locator("#season-card")).to_be_visible()  # stays across a reload
        ana.page.locator("#season-close").click()
        for phone in phones:
            expect(phone.page.locator("#season-card")).to_be_hidden()
            phone.goto("about:blank")
        fast_forward(table, game_id, finished)
        for phone in phones:
            phone.goto(game_url)
            expect(phone.page.locator("#screen-title")).to_have_text("Final scoring")
        shot(cy, "g1-16-final-scoring")

        # ---- game 2: a piece from game 1 is still stuck in the tower ----------------------------
        status, body = table.request("POST", "/api/tower/contents", {"contents": {"white": 1}})
        assert status == 200, body
        game_url = create_game(ana, server.url, seed=6, tag="g2")
        game_id = game_url.rsplit("/", 1)[1]
        pin = ana.page.locator("#pin").inner_text()
        join(ben, game_url, pin, "g2-02-ben-joined")
        join(cy, game_url, pin, "g2-03-cy-joined")
        assert table.request("POST", f"/api/games/{game_id}/join", {"pin": pin})[0] == 200
        assert table.request("POST", f"/api/games/{game_id}/role", {"seat": "all", "pin": pin})[0] == 200
        expect(ana.page.locator("#tower-check")).to_contain_text("white")
        ana.page.locator("#tower-found").click()
        expect(ana.page.locator("#counter .count-row")).to_have_count(12)
        expect(ana.page.locator(".count-row[data-colour='white'] output")).to_have_text("1")
        shot(ana, "g2-04-leftover-found-at-start")
        ana.page.locator("#apply-counts").click()
        expect(ben.page.locator("#log li").first).to_contain_text("white")
        expect(ben.page.locator("#log li").first).to_contain_text("left from before")
        for phone in (ana, ben, cy):
            reveal(phone)

        # the camera misreads one piece of a colour nobody tossed: the table corrects it down to 0
        pieces_in = table.view(game_id)["pieces_in"]
        ghost = next(c for c in ("white", "black", "turquoise", "gray", "green") if not pieces_in.get(c))
        status, body = table.request("POST", "/api/tower/misread", {"counts": {ghost: 1}})
        assert status == 200, body
        ana.page.locator("#toss").click()
        wait_result(ana)
        expect(ana.page.locator(".result-counts")).to_contain_text(ghost)
        ana.page.locator("#correct").click()
        row = ana.page.locator(f".count-row[data-colour='{ghost}']")
        expect(row.locator("output")).to_have_text("1")
        expect(row).to_contain_text("in tower 0")
        expect(row).to_contain_text("camera 1")
        row.locator("button[data-d='-1']").click()
        expect(row.locator("output")).to_have_text("0")
        shot(ana, "g2-05-correction-downward")
        ana.page.locator("#apply-counts").click()
        expect(ana.page.locator("#accept")).to_have_count(0)
        expect(cy.page.locator("#log li").first).to_contain_text("corrected")
        same_event(phones)
        for phone in phones:
            no_internal_keys(phone)
            phone.every_error_was_shown()

        for phone in phones:
            phone.goto("about:blank")
        fast_forward(table, game_id, finished)
        for phone in phones:
            phone.goto(game_url)
            expect(phone.page.locator("#screen-title")).to_have_text("Final scoring")
            no_internal_keys(phone)
        shot(ana, "g2-06-final-scoring")
        ana.goto(server.url + "/")
        expect(ana.page.locator(".game-pin").first).to_contain_text(pin)  # the PIN, again, on the host
        # the host's browser closed for good: a fresh browser on the companion's own screen shows it
        host_screen = browser.new_context(viewport=PHONE)
        try:
            fresh = host_screen.new_page()
            fresh.goto(game_url)
            fresh.get_by_role("button", name="Show the table PIN").click()
            expect(fresh.locator("#pin-answer")).to_have_text(f"Table PIN: {pin}")
        finally:
            host_screen.close()
        for phone in phones:
            phone.every_error_was_shown()
        assert len(table.request("GET", "/api/games")[1]["games"]) == 2
        print(f"two games in {time.monotonic() - started:.0f} s")
    finally:
        for phone in phones:
            phone.context.close()
