"""The board-profile screen on a phone and a laptop: review, edit with steppers, import, export;
a game's question answered with steppers, kept in the profile, edited there and used by the next game;
and the installable app: manifest, icons and favicon load with no console errors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, screenshot
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable
from tests.web.play import first_action

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def api(page: Page, method: str, path: str, body: Any = None, *, base: str) -> Any:
    """Call the companion at ``base`` with this page's session (and the CSRF token of its page)."""
    token = page.evaluate("document.querySelector('meta[name=csrf-token]').content")
    response = page.request.fetch(base + path, method=method,
                                  headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
                                  data=json.dumps(body) if body is not None else None)
    assert response.ok, response.text()
    return response.json()


def table_values(page: Page, base: str) -> dict[str, Any]:
    entries = api(page, "GET", "/api/board-profile?edition=essential", base=base)["entries"]
    return {e["key"]: e["value"] for e in entries if e["source"] not in ("rulebook", "missing")}


def progress(page: Page, base: str, edition: str = "essential", component: str | None = None) -> tuple[int, int]:
    """(values known, values listed) on the Board page (of one ``component``), as the API counts them."""
    entries = [e for e in api(page, "GET", f"/api/board-profile?edition={edition}", base=base)["entries"]
               if component in (None, e["component"])]
    return sum(e["source"] != "missing" for e in entries), len(entries)


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def watch_console(page: Page) -> list[str]:
    """Collects console errors and failed responses (e.g. a 404 favicon) of ``page``."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return problems


@contextmanager
def board_page(browser: Browser, viewport: ViewportSize, base: str) -> Iterator[tuple[Page, list[str]]]:
    """A new browser context at ``viewport`` showing the Board page of ``base``, with the problems its console
    and responses report (``watch_console``); closed when the block ends."""
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        problems = watch_console(page)
        page.goto(base + "/profile")
        yield page, problems
    finally:
        context.close()


def installable(page: Page, base: str) -> None:
    """Every page links the favicon, the home-screen icon and the manifest, and they all load."""
    for path in ("/", "/tower"):
        page.goto(base + path)
        assert fits(page), path
    links = page.evaluate("[...document.querySelectorAll('link[rel=icon], link[rel=manifest], "
                          "link[rel=apple-touch-icon]')].map(l => [l.rel, l.href])")
    assert sorted(rel for rel, _ in links) == ["apple-touch-icon", "icon", "manifest"]
    for _, href in links:
        assert page.request.get(href).ok, href
    manifest = page.request.get(dict(links)["manifest"]).json()
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert page.request.get(base + icon["src"]).ok
    page.goto(base + "/favicon.ico")  # what a browser asks for on its own


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_review_edit_and_import_the_board_profile(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                                  viewport: ViewportSize) -> None:
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    name = f"profile-{viewport['width']}"
    try:
        page = context.new_page()
        problems = watch_console(page)
        installable(page, live_server.url)
        page.goto(live_server.url + "/profile")
        known, listed = progress(page, live_server.url)
        expect(page.locator("#pf-summary")).to_contain_text(f"{known} of {listed} values known")
        boards = page.locator('.pf-component[data-component="board"]')
        expect(boards).to_have_attribute("open", "")  # before the first game: the boards first
        expect(page.locator('.pf-component[data-component="tiles"]')).not_to_have_attribute("open", "")
        # answers given in a game (the game's hook stores them the same way)
        api(page, "PUT", "/api/board-profile/essential/values/oasis.17.points", {"value": 2}, base=live_server.url)
        api(page, "PUT", "/api/board-profile/essential/values/palace.segment_starts", {"value": [3, 7]},
            base=live_server.url)
        page.reload()
        expect(page.locator("#pf-summary")).to_contain_text(f"{known + 2} of {listed} values known")
        page.locator('.pf-component[data-component="tiles"] summary').click()

        # a number: one stepper, no list of buttons
        entry = page.locator('.pf-entry[data-key="oasis.17.points"]')
        entry.locator(".pf-open").click()
        expect(entry.locator(".pf-where")).to_contain_text("Oasis tile 17")
        assert entry.locator(".pv-word").count() == 0
        entry.get_by_role("button", name="Oasis 17: points: more").click()
        entry.get_by_role("button", name="Oasis 17: points: more").click()
        expect(entry.locator(".pv-submit")).to_contain_text("· 4")
        entry.get_by_role("button", name="Oasis 17: points: more").click()  # 4 is the highest: stays 4
        entry.locator(".pv-submit").click()
        expect(entry.locator(".pf-value")).to_have_text("4")
        assert table_values(page, live_server.url)["oasis.17.points"] == 4
        # a typed impossible value is refused next to the button
        entry.locator(".pv-num").fill("9")
        expect(entry.locator(".pv-msg")).to_contain_text("9 is not possible here: 1 to 4")
        expect(entry.locator(".pv-submit")).to_be_disabled()

        # a pair: one stepper per part, and only pairs the board can have are accepted
        pair = page.locator('.pf-entry[data-key="palace.segment_starts"]')
        pair.locator(".pf-open").click()
        pair.get_by_role("button", name="Segment 3 begins at step: less").click()
        pair.get_by_role("button", name="Segment 3 begins at step: less").click()
        pair.get_by_role("button", name="Segment 3 begins at step: less").click()
        pair.get_by_role("button", name="Segment 3 begins at step: less").click()
        expect(pair.locator(".pv-msg")).to_contain_text("3 + 3 is not possible here")
        pair.get_by_role("button", name="Segment 3 begins at step: more").click()
        pair.locator(".pv-submit").click()
        expect(pair.locator(".pf-value")).to_have_text("3 + 4")
        assert fits(page)
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-edit")

        # a board value not known yet, entered before the first game
        disc = page.locator('.pf-entry[data-key="disc.section.0"]')
        expect(disc.locator(".pf-value")).to_have_text("—")
        disc.locator(".pf-open").click()
        expect(disc.locator(".pf-where")).to_contain_text("section 0")
        disc.get_by_role("button", name="Audience disc section 0 (pink side): more").click()
        disc.locator(".pv-submit").click()
        expect(page.locator('.pf-entry[data-key="disc.section.0"] .pf-source')).to_have_text("edited here")
        assert table_values(page, live_server.url)["disc.section.0"] == 1

        # import: a bad file changes nothing and says why; a good one adds its values
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"format": "keshi-board-profile", "version": 1, "edition": "essential",
                                   "values": {"river.jetty.1": 4, "oasis.18.points": 12}}))
        page.set_input_files("#pf-file", str(bad))
        page.get_by_role("button", name="Import", exact=True).click()
        refused = "Not imported: Oasis 18: points: 12 is not a possible value"
        expect(page.locator("#pf-import-state")).to_contain_text(refused)
        assert "river.jetty.1" not in table_values(page, live_server.url)
        assert [p for p in problems if "400" not in p] == []
        problems.clear()  # the refused import's 400 was expected
        good = tmp_path / "good.json"
        good.write_text(json.dumps({"format": "keshi-board-profile", "version": 1, "edition": "essential",
                                    "values": {"river.jetty.1": 4, "oasis.17.points": 3}}))
        page.set_input_files("#pf-file", str(good))
        page.get_by_role("button", name="Import", exact=True).click()
        expect(page.locator("#pf-import-state")).to_contain_text("Imported: 1 new, 1 changed, 0 already the same")
        expect(page.locator('.pf-entry[data-key="river.jetty.1"] .pf-value')).to_have_text("4")

        # export: the file another table imports
        with page.expect_download() as download:
            page.get_by_role("link", name="Export this profile").click()
        exported = json.loads(Path(download.value.path()).read_text())
        assert exported["values"] == {"disc.section.0": 1, "oasis.17.points": 3, "palace.segment_starts": [3, 4],
                                      "river.jetty.1": 4}

        # forget: asked again in the next game that needs it
        jetty = page.locator('.pf-entry[data-key="river.jetty.1"]')
        jetty.locator(".pf-open").click()
        jetty.get_by_role("button", name="Forget (ask again next game)").click()
        expect(jetty.locator(".pf-value")).to_have_text("—")
        expect(jetty.locator(".pf-source")).to_have_text("not known yet: set it now, or it is asked in play")
        assert fits(page)
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-after-import")

        # Sabika's tab: its board, tiles and cards with progress; a value set by tapping, said in player words
        page.get_by_role("link", name="Sabika").click()
        known, listed = progress(page, live_server.url, "sabika")
        expect(page.locator("#pf-summary")).to_contain_text(f"{known} of {listed} values known")
        for component, heading in (("board", "Game board"), ("tiles", "Tiles"), ("cards", "Cards")):
            have, of = progress(page, live_server.url, "sabika", component)
            expect(page.locator(f'.pf-component[data-component="{component}"] > summary')).to_have_text(
                f"{heading} {have} of {of} known")
        expect(page.locator('.pf-component[data-component="board"]')).to_have_attribute("open", "")
        page.locator('.pf-component[data-component="board"] summary').click()  # folded: the three components
        page.locator("#pf-values").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{name}-sabika-components.png"))
        page.locator('.pf-component[data-component="tiles"] summary').click()
        bonus = page.locator('.pf-entry[data-key="city_tile.1.bonus"]')
        bonus.locator(".pf-open").click()
        expect(bonus.locator(".pf-where")).to_have_text("City Tiles")
        hint = bonus.locator(".pv-msg")  # nothing chosen yet: a step to take, not a mistake in red
        expect(hint).to_have_text("Choose at least one.")
        expect(hint).not_to_have_class(re.compile(r"\berror\b"))
        bonus.get_by_role("button", name="2 Dinars", exact=True).click()
        expect(bonus.locator(".pv-submit")).to_contain_text("· 2 Dinars")
        bonus.locator(".pv-submit").click()
        expect(bonus.locator(".pf-value")).to_have_text("2 Dinars")
        expect(page.locator("#pf-summary")).to_contain_text(f"{known + 1} of {listed} values known")
        assert "dinars:" not in bonus.inner_text()
        assert fits(page)
        bonus.locator(".pf-open").scroll_into_view_if_needed()  # the page is long: the screen with the edited value
        page.screenshot(path=str(SCREENSHOTS / f"{name}-sabika.png"))
        bonus.get_by_role("button", name="Forget (ask again next game)").click()
        expect(bonus.locator(".pf-value")).to_have_text("—")
        expect(page.locator("#pf-summary")).to_contain_text(f"{known} of {listed} values known")
        assert problems == []
    finally:
        context.close()


def play_api(page: Page, base: str, game_id: str, until: Any, limit: int = 400) -> dict[str, Any]:
    """Play the first legal choices through the API (this page's session) until ``until(view)`` holds."""
    view: dict[str, Any] = api(page, "GET", f"/api/games/{game_id}", base=base)
    for _ in range(limit):
        if until(view):
            return view
        view = api(page, "POST", f"/api/games/{game_id}/actions", {"action": first_action(view),
                                                                   "version": view["version"]}, base=base)["view"]
    raise AssertionError("the game never reached the awaited point")


def new_game(page: Page, base: str) -> str:
    body = {"players": [{"name": "Sarah", "colour": "blue"}, {"name": "Jan", "colour": "red"}], "seed": 3}
    game_id: str = api(page, "POST", "/api/games", body, base=base)["id"]
    api(page, "POST", f"/api/games/{game_id}/role", {"seat": "all"}, base=base)  # the host plays for everyone
    api(page, "POST", f"/api/games/{game_id}/tower/empty", {"found": {}}, base=base)
    return game_id


def asks(key: str) -> Any:
    return lambda view: view["finished"] or bool(view["pending"] and view["pending"].get("key") == key)


def test_a_question_is_answered_with_steppers_and_the_profile_screen_feeds_the_next_game(
        browser: Browser, live_server: LiveServer) -> None:
    base = live_server.url
    with board_page(browser, PHONE, base) as (page, problems):
        game_id = new_game(page, base)
        page.goto(f"{base}/games/{game_id}")
        expect(page.locator("#who-line")).to_have_text("Shared device")  # chosen through the API: the server keeps it
        play_api(page, base, game_id, asks("provision.9.demand"))

        # a bundle: one stepper per resource instead of 34 buttons; 3 taps
        question = page.locator("#screen .pv-question")
        expect(question.locator(".pv-where")).to_contain_text("Provision tile 9: the resources it demands")
        assert question.locator(".pv-word").count() == 0
        question.get_by_role("button", name="water: more").click()
        question.get_by_role("button", name="dates: more").click()
        expect(question.locator(".pv-submit")).to_contain_text("1 water + 1 date")
        assert fits(page)
        screenshot(page, "profile-question-steppers-360")
        question.locator(".pv-submit").click()
        # a number: the stepper starts at the lowest possible value
        expect(question.locator(".pv-where")).to_contain_text("Provision tile 9: the penalty points")
        question.get_by_role("button", name="Provision tile 9: points: more").click()
        question.get_by_role("button", name="Provision tile 9: points: more").click()
        question.locator(".pv-submit").click()
        expect(page.locator("#screen .pv-where")).not_to_contain_text("Provision tile 9")
        assert {k: v for k, v in table_values(page, base).items() if k.startswith("provision.9")} == {
            "provision.9.demand": {"water": 1, "dates": 1}, "provision.9.points": 2}

        # the board-profile screen changes the answer; the next game uses it and asks neither again
        page.goto(base + "/profile")
        page.locator('.pf-component[data-component="tiles"] summary').click()  # the boards come first
        entry = page.locator('.pf-entry[data-key="provision.9.points"]')
        expect(entry.locator(".pf-source")).to_have_text("answered in a game")
        entry.locator(".pf-open").click()
        entry.get_by_role("button", name="Provision tile 9: points: more").click()
        entry.locator(".pv-submit").click()
        expect(entry.locator(".pf-value")).to_have_text("3")
        second = new_game(page, base)
        view = play_api(page, base, second, lambda v: v["finished"] or (v["pending"] or {}).get("kind") == "question")
        assert view["pending"]["key"] == "provision.11.demand"  # the first question the first game left open
        assert view["state"]["profile"]["provision.9.points"] == 3
        assert view["state"]["profile"]["provision.9.demand"] == {"water": 1, "dates": 1}
        assert problems == []


def fill_through_the_api(page: Page, base: str) -> int:
    """Give every value the Board page still lists as not known (the first possible one; the main square's
    spaces each their own ring position); how many were given."""
    entries = api(page, "GET", "/api/board-profile?edition=essential", base=base)["entries"]
    missing = [e for e in entries if e["source"] == "missing"]
    ring = iter(range(8))
    for e in missing:
        value = [e["options"][0]] if e["multi"] else e["options"][0]
        if e["key"].endswith("final_step"):
            value = e["options"][-1]  # a staircase's final step after its segments
        elif e["key"].startswith("square.position."):
            value = next(ring)
        api(page, "PUT", f"/api/board-profile/essential/values/{e['key']}", {"value": value}, base=base)
    return len(missing)


def test_a_table_that_filled_the_board_page_is_asked_nothing_during_its_game(
        browser: Browser, live_server: LiveServer) -> None:
    base = live_server.url
    with board_page(browser, LAPTOP, base) as (page, problems):
        known, listed = progress(page, base)
        assert listed > 200  # every tile and board space a game can ask, not only the boards' own
        # the river on the page: one tap per space, the next space is listed once one is set, up to the jetty
        for n, word in enumerate(("plain water", "plain water", "rapid: 1 point", "jetty"), start=1):
            space = page.locator(f'.pf-entry[data-key="river.space.{n}"]')
            space.locator(".pf-open").click()
            space.get_by_role("button", name=word, exact=True).click()
            expect(page.locator(f'.pf-entry[data-key="river.space.{n}"] .pf-source')).to_have_text("edited here")
        expect(page.locator('.pf-entry[data-key="river.space.5"]')).to_have_count(0)  # the jetty ends the river
        expect(page.locator("#pf-summary")).to_contain_text(f"{known + 4} of {listed + 3} values known")
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, "board-page-river")
        # the rest through the API (the same PUT the page's Save sends)
        fill_through_the_api(page, base)
        page.reload()
        expect(page.locator("#pf-summary")).to_contain_text(f"All {listed + 3} values known")
        expect(page.locator(".pf-component[open]")).to_have_count(0)  # nothing left to enter
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, "board-page-complete")

        # a whole game: no question about a printed value from the first move to the final scoring
        table = HttpTable(base)
        game_id = table.create([{"name": "Sarah", "colour": "blue"}, {"name": "Jan", "colour": "red"}], seed=5)["id"]
        view, asked = table.view(game_id), []
        for _ in range(3000):
            if view["finished"]:
                break
            if (view["pending"] or {}).get("kind") == "question":
                asked.append(view["pending"]["key"])
            if view["season_scoring"] and not view["season_scoring"]["acknowledged"]:
                view = table.request("POST", f"/api/games/{game_id}/season-scoring/ack",
                                     {"season": view["season_scoring"]["season"]})[1]["view"]
            elif view["tower_check"]["needed"]:
                view = table.request("POST", f"/api/games/{game_id}/tower/empty", {"found": {}})[1]["view"]
            else:
                view = table.act(game_id, first_action(view), view["version"])
        assert view["finished"] and asked == []
        assert problems == []
