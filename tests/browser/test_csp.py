"""The pages still work under the Content-Security-Policy (no inline script allowed).

Each test opens pages of a real ``keshi serve`` in Chromium, uses what their scripts draw, and fails on
any console message about the Content Security Policy or any script error: an inline ``<script>``,
an ``on...=`` handler or a data global the page's script no longer receives would show here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.cli import main
from tests.browser.conftest import PHONE
from tests.conftest import LiveServer, start_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One ``keshi serve`` for the module, with simulated tosses so the fairness page draws its plots."""
    instance: Path = tmp_path_factory.mktemp("csp") / "instance"
    main(["tower", "simulate", "--tosses", "200", "--seed", "2", "--instance", str(instance)])
    live = start_server(instance)
    yield live
    live.process.kill()
    live.process.wait()


class Watched:
    """A page whose console CSP messages and uncaught script errors are collected."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))

    def _console(self, message: object) -> None:
        text = str(getattr(message, "text", ""))
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.problems.append(text)

    def open(self, url: str) -> None:
        """Go to ``url``; the page must come with the policy (else no violation could show)."""
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, f"{url} came without the policy: {policy!r}"


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport=PHONE)
    yield Watched(context.new_page())
    context.close()


def test_the_setup_wizard_starts_a_game_whose_page_draws_and_a_stranger_can_try_to_join(
        watched: Watched, browser: Browser, server: LiveServer) -> None:
    page = watched.page
    watched.open(server.url + "/games/new")
    expect(page.locator(".player-colour").nth(1)).to_be_visible()  # setup.js drew the seats (PLAYER_COLOURS, GAMES)
    names = page.locator(".player-name")
    names.nth(0).fill("Sarah")
    names.nth(1).fill("Jan")
    names.nth(1).press("Enter")  # the form must not submit itself (the inline onsubmit is gone)
    page.get_by_role("button", name="Next: edition & tower").click()
    page.get_by_role("button", name="Next: setup draws").click()
    page.get_by_role("button", name="Next: review").click()
    expect(page.locator("#review")).to_contain_text("Sarah (blue), Jan (red)")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    expect(page.locator("#game")).to_have_attribute("data-version", "0")  # game.js ran with the PALETTE
    game_url = page.url

    stranger = browser.new_context(viewport=PHONE)
    try:
        joiner = Watched(stranger.new_page())
        joiner.open(game_url + "/join")
        joiner.page.locator("#pin").fill("0000")
        joiner.page.get_by_role("button", name="Join").click()
        expect(joiner.page.locator("#join-state")).not_to_be_empty()  # join.js asked and showed the answer
        assert joiner.problems == []
    finally:
        stranger.close()

    watched.open(server.url + "/")
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-state")).to_have_text("Choose a log file first.")  # index.js is there
    assert watched.problems == []


def test_the_calibration_wizard_captures_and_shows_its_frame(watched: Watched, server: LiveServer) -> None:
    page = watched.page
    watched.open(server.url + "/setup/calibrate")
    expect(page.locator("#cal-title")).to_have_text("Step 1 of 13 · Empty tray")
    page.locator("#cal-capture").click()
    expect(page.locator("#cal-image")).to_be_visible()
    page.locator("#cal-next").click()
    expect(page.locator("#cal-step .swatch").first).to_be_visible()  # a colour step: the PALETTE arrived
    assert watched.problems == []


def test_the_fairness_page_shows_its_plots(watched: Watched, server: LiveServer) -> None:
    page = watched.page
    watched.open(server.url + "/fairness/")
    plots = page.locator("img[src^='data:image/png']")
    expect(plots.first).to_be_visible()
    loaded = page.evaluate("[...document.images].filter(i => i.src.startsWith('data:')).map(i => i.naturalWidth > 0)")
    assert loaded and all(loaded)  # img-src allows the plots' data: URIs
    assert watched.problems == []


def test_the_tower_page_tosses_and_the_board_page_loads_its_values(watched: Watched, server: LiveServer) -> None:
    page = watched.page
    watched.open(server.url + "/tower")
    page.get_by_role("button", name="Toss").click()
    expect(page.locator("#toss-state")).to_have_text("Done.", timeout=15_000)  # fetch and the event stream
    watched.open(server.url + "/profile")
    expect(page.locator("#pf-summary")).not_to_have_text("Loading…")
    assert watched.problems == []
