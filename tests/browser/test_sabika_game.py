"""Sabika in the browser: the board at phone and tablet sizes, and a complete 2-player game at 360×740.

The board test draws a mid-game ``board_view`` with ``static/kind-sabika.js`` alone: your own
Workshop first and open on a phone, every Workshop side by side on a 1280×800 tablet, no sideways
scroll, 48 px targets. The game test plays a whole game on the generic table page with two phones,
each tapping only its own player's choices (a seeded random button per screen) until final scoring;
the scores on both screens must equal the engine's replay of the exported log. The solo test plays one
phone against the automa Yusuf to final scoring. Screenshots go to test-artifacts/screenshots/sabika-*.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from companion.games.sabika.simulate import random_action, random_profile
from companion.table.kinds import sabika as kind
from tests.browser.conftest import PHONE, POLL_MS, SCREENSHOTS, screenshot
from tests.browser.final_table import assert_final_table
from tests.conftest import LiveServer
from tests.games.sabika.helpers import BASE_PROFILE

#: Sabika's score categories in the rulebook's order, in English (the final table's rows)
CATEGORY_WORDS = {key: words.english() for key, words in kind.BREAKDOWN_WORDS.items()}

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"
TABLET: ViewportSize = {"width": 1280, "height": 800}


NAMES = ["Ana", "Ben", "Cai", "Dina"]


def mid_game_view(players: int, actions: int = 80) -> dict[str, Any]:
    """The board view of a game ``actions`` random actions in (a known Rondel and Map)."""
    game = kind.new_game(NAMES[:players], 4, {"profile": random_profile(players, 4, BASE_PROFILE)})
    rng = random.Random(1)
    for _ in range(actions):
        game.apply(random_action(game, rng))
    return kind.board_view(game)


BOARD_COLUMN = 694
"""The table page's board column at 1280 px wide (table_game.css: 1240 px main, 1.5fr of 2 columns, card padding)."""


def draw_board(page: Page, view: dict[str, Any], seat: int) -> list[str]:
    """Draw ``view`` for ``seat`` on a blank dashboard-styled page, at most as wide as the table page's
    board column; returns the page's script errors."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_content("<!doctype html><html><head><meta name='viewport' content='width=device-width'></head>"
                     f"<body><main><div id='board' style='max-width: {BOARD_COLUMN}px'></div></main></body></html>")
    page.add_style_tag(path=str(STATIC / "app.css"))
    page.add_script_tag(path=str(STATIC / "kind-sabika.js"))
    page.evaluate("([view, seat]) => window.KeshiKinds.sabika.render(document.getElementById('board'), view, "
                  "view.players.map(p => p.name), seat)", [view, seat])
    return errors


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def small_targets(page: Page) -> list[str]:
    """Texts of visible tappable elements (summaries, buttons) lower than 48 px."""
    return list(page.evaluate("""() => [...document.querySelectorAll('#board summary, #board button')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 48)
        .map(e => e.textContent.trim())"""))


def test_board_on_a_phone_and_a_tablet(browser: Browser) -> None:
    view = mid_game_view(2)
    phone = browser.new_context(viewport=PHONE).new_page()
    assert draw_board(phone, view, 1) == []
    boards = phone.get_by_test_id("sabika-player")
    assert boards.first.get_attribute("data-seat") == "1"  # your own Workshop first
    assert boards.first.evaluate("e => e.open") and not boards.nth(1).evaluate("e => e.open")
    ben = view["players"][1]
    assert f"Dinars{ben['dinars']}" in boards.first.inner_text().replace("\n", "").replace("\t", "")
    assert fits(phone) and small_targets(phone) == []
    screenshot(phone, "sabika-board-phone")
    boards.nth(1).locator("summary").first.click()  # the other player's Workshop opens on a tap
    assert boards.nth(1).evaluate("e => e.open")
    phone.context.close()

    view = mid_game_view(4)  # the tablet: all four Workshops side by side
    tablet = browser.new_context(viewport=TABLET).new_page()
    assert draw_board(tablet, view, 0) == []
    tops = [box["y"] for box in (b.bounding_box() for b in tablet.get_by_test_id("sabika-player").all()) if box]
    assert len(tops) == 4 and len(set(tops)) == 1
    assert tablet.get_by_test_id("sabika-rondel").evaluate("e => e.open")
    for ring in view["rondel"]:  # every square of every ring is drawn, with its Main Action in words
        for square in ring["squares"]:
            assert square["action"] in tablet.get_by_test_id("sabika-rondel").inner_text()
    assert fits(tablet) and small_targets(tablet) == []
    screenshot(tablet, "sabika-board-tablet")
    tablet.context.close()


MAX_TAPS = 1200
"""A safety net: a 2-player game takes about 130 actions (about 170 taps); this many means it is stuck."""


def version(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-version") or -1)


def reaches(page: Page, at: int) -> None:
    """Wait until ``page`` shows version ``at``, checked every ``POLL_MS`` (a game is ~130 of these: not every
    100 ms, nor every animation frame, which a page that is not in front gets few of)."""
    page.wait_for_function("at => document.getElementById('game').dataset.version === at", arg=str(at),
                           timeout=15000, polling=POLL_MS)  # generous: the cores are shared


def create_game(page: Page, url: str) -> str:
    """Create the game from this phone (it becomes the host) with a complete board profile, so the
    table is asked no printed values and only the players act; returns the game's page URL."""
    page.goto(url + "/")
    csrf = page.request.get(url + "/api/session").json()["csrf"]
    body = {"game": "sabika", "players": [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}],
            "seed": 21, "options": {"profile": random_profile(2, 21, BASE_PROFILE)}}
    response = page.request.post(url + "/api/games", data=body, headers={"X-CSRF-Token": csrf})
    assert response.status == 201, response.text()
    return f"{url}/games/{response.json()['id']}"


def join(page: Page, game_url: str, pin: str, name: str) -> None:
    if pin:
        page.goto(game_url + "/join")
        page.get_by_label("Table PIN").fill(pin)
        page.get_by_role("button", name="Join").click()
        page.wait_for_url(game_url)
    else:
        page.goto(game_url)
    page.get_by_role("button", name=f"I am {name}").click()
    expect(page.locator("#who-ask")).to_be_hidden()


def test_two_phones_play_a_whole_game(browser: Browser, live_server: LiveServer) -> None:
    ana_context, ben_context = browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)
    try:
        ana, ben = ana_context.new_page(), ben_context.new_page()
        errors: list[str] = []
        for phone in (ana, ben):
            phone.on("pageerror", lambda exc: errors.append(str(exc)))
        game_url = create_game(ana, live_server.url)
        join(ana, game_url, "", "Ana")
        join(ben, game_url, ana.locator("#pin").inner_text(), "Ben")
        expect(ana.get_by_test_id("sabika-player").first).to_have_attribute("data-seat", "0")  # own board first
        expect(ben.get_by_test_id("sabika-player").first).to_have_attribute("data-seat", "1")
        screenshot(ana, "sabika-game-start-ana")
        assert fits(ana) and fits(ben)

        rng = random.Random(21)
        shots = {"two-step": False}
        taps = 0
        at = max(version(ana), version(ben))
        while True:
            for phone in (ana, ben):  # both phones are current (the one that did not act hears it by push)
                reaches(phone, at)
            if ana.locator("#game").get_attribute("data-finished") == "yes":
                break
            on_ana, on_ben = (p.locator("#choices button.tg-step").count() for p in (ana, ben))
            assert bool(on_ana) != bool(on_ben), "exactly one phone offers choices: its player's"
            phone = ana if on_ana else ben
            while True:  # tap along one option's path until it is sent
                taps += 1
                assert taps < MAX_TAPS, "the game does not end"
                steps = phone.locator("#choices button.tg-step")
                assert steps.count() <= 20
                pick = steps.nth(rng.randrange(steps.count()))
                leaf = "tg-leaf" in (pick.get_attribute("class") or "")
                pick.click()
                if leaf:
                    break
                if not shots["two-step"]:  # a long list, one step in: the group's options and Back
                    shots["two-step"] = True
                    assert fits(phone)
                    screenshot(phone, "sabika-game-second-step")
            at += 1
            reaches(phone, at)
            if at == 61:
                screenshot(phone, "sabika-game-mid")

        expect(ben.locator("#game")).to_have_attribute("data-finished", "yes")
        replayed = kind.read_log(ana.request.get(game_url.replace("/games/", "/api/games/") + "/log").text(),
                                 "export")
        assert replayed.finished
        expected = [str(score) for score in kind.scores(replayed)]
        for phone in (ana, ben):
            expect(phone.locator("#scores-title")).to_have_text("Final scores")
            assert phone.locator("#scores td.score").all_inner_texts() == expected
            shown = phone.get_by_test_id("sabika-score").all_inner_texts()  # each Workshop's PP, own first
            assert sorted(shown) == sorted(f"{score} PP" for score in expected)
            winners = " and ".join(("Ana", "Ben")[seat] for seat in kind.winners(replayed))
            expect(phone.locator("#winner")).to_contain_text(winners)
            assert_final_table(phone, [p.breakdown for p in replayed.s.players], CATEGORY_WORDS,
                               kind.scores(replayed), [("Ana", "Ben")[seat] for seat in kind.winners(replayed)])
            assert fits(phone)
        screenshot(ana, "sabika-game-final-ana")
        screenshot(ben, "sabika-game-final-ben")
        assert errors == []

        tablet = browser.new_context(viewport=TABLET).new_page()  # a watcher's tablet: the boards side by side
        tablet.goto(game_url)
        expect(tablet.locator("#scores-title")).to_have_text("Final scores")
        tops = {round(box["y"]) for box in (b.bounding_box() for b in tablet.get_by_test_id("sabika-player").all())
                if box}
        assert len(tops) == 1 and fits(tablet)
        screenshot(tablet, "sabika-game-final-tablet")
        tablet.context.close()
    finally:
        ana_context.close()
        ben_context.close()


def test_one_phone_plays_a_solo_game_against_yusuf_to_its_end(browser: Browser, live_server: LiveServer) -> None:
    """The solo mode (1 player, L1187-1489): Yusuf takes seat 1 and plays by himself; the phone answers
    his Cards' printed values for the table and makes Ana's choices in rounds 1 and 5 until final scoring
    (rounds 2-4 are sent through the API while the phone follows: the test stays short)."""
    context = browser.new_context(viewport=PHONE)
    try:
        ana = context.new_page()
        errors: list[str] = []
        ana.on("pageerror", lambda exc: errors.append(str(exc)))
        ana.goto(live_server.url + "/")
        csrf = ana.request.get(live_server.url + "/api/session").json()["csrf"]
        body = {"game": "sabika", "players": [{"name": "Ana", "colour": "blue"}], "seed": 11,
                "options": {"profile": random_profile(2, 11, BASE_PROFILE), "yusuf_pp": 10}}
        response = ana.request.post(live_server.url + "/api/games", data=body, headers={"X-CSRF-Token": csrf})
        assert response.status == 201, response.text()
        game_url = f"{live_server.url}/games/{response.json()['id']}"
        join(ana, game_url, "", "Ana")
        boards = ana.get_by_test_id("sabika-player")
        expect(boards).to_have_count(2)
        assert boards.nth(1).get_attribute("data-seat") == "1" and "Yusuf" in boards.nth(1).inner_text()
        screenshot(ana, "sabika-solo-start")
        rng = random.Random(11)
        api = game_url.replace("/games/", "/api/games/")
        for _ in range(MAX_TAPS):
            if ana.locator("#game").get_attribute("data-finished") == "yes":
                break
            at = version(ana)
            view = ana.request.get(api).json()
            while 1 < view["board"]["round"] < 5:  # rounds 2-4 go through the API (as a second phone would): time
                option = rng.choice(view["choices"]["options"])["action"]
                sent = ana.request.post(api + "/actions", data={"action": option, "version": view["version"]},
                                        headers={"X-CSRF-Token": csrf})
                assert sent.status == 201, sent.text()
                view = sent.json()["view"]
            if view["version"] != at:
                reaches(ana, view["version"])
                continue
            question = view["choices"].get("question")
            if question:  # several options at once (which Cities a Card shows): toggles, then Answer
                toggles = ana.locator("#choices .tg-question .pv-toggle")
                for index in rng.sample(range(toggles.count()), question["count"] or 1):
                    toggles.nth(index).click()
                ana.locator("#choices .pv-submit").click()
                reaches(ana, at + 1)
                continue
            steps = ana.locator("#choices button.tg-step")
            assert steps.count(), "Ana's phone offers every choice and question: Yusuf never waits for a tap"
            pick = steps.nth(rng.randrange(steps.count()))
            leaf = "tg-leaf" in (pick.get_attribute("class") or "")
            pick.click()
            if leaf:
                reaches(ana, at + 1)
        else:
            raise AssertionError("the solo game does not end")
        replayed = kind.read_log(ana.request.get(game_url.replace("/games/", "/api/games/") + "/log").text(),
                                 "export")
        assert replayed.finished and [p.name for p in replayed.players] == ["Ana", "Yusuf"]
        expect(ana.locator("#scores-title")).to_have_text("Final scores")
        assert ana.locator("#scores td.score").all_inner_texts() == [str(s) for s in kind.scores(replayed)]
        winners = " and ".join(("Ana", "Yusuf")[seat] for seat in kind.winners(replayed))
        expect(ana.locator("#winner")).to_contain_text(winners)
        boards.nth(1).evaluate("e => { e.open = true; e.querySelectorAll('details').forEach(d => { d.open = true; }) }")
        assert "Yusuf's Cards" in boards.nth(1).inner_text() and fits(ana) and errors == []  # his score breakdown
        screenshot(ana, "sabika-solo-final")
    finally:
        context.close()


def test_a_first_game_from_an_empty_instance_counts_its_questions_before_the_first_move(
        browser: Browser, live_server: LiveServer) -> None:
    """No board profile yet: the game asks only what the first move needs (the Rondel's squares and tokens,
    the cards: when play reaches them), the table sees "Question n of about N" while it answers, and N is
    what it really answers before the first Worker moves (the count is in the report). The first question,
    the Rondel's three ring sizes, is one question with one stepper each, answered on the phone (a ring out of
    range is named before anything is sent); the turn bar leaves it in sight when the page scrolls to it, and
    the Board page shows the same question, answered."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        csrf = page.request.get(live_server.url + "/api/session").json()["csrf"]
        body = {"game": "sabika", "players": [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}],
                "seed": 21}
        created = page.request.post(live_server.url + "/api/games", data=body, headers={"X-CSRF-Token": csrf})
        assert created.status == 201, created.text()
        game_id = created.json()["id"]
        role = page.request.post(f"{live_server.url}/api/games/{game_id}/role", data={"seat": "all"},
                                 headers={"X-CSRF-Token": csrf})  # the host's phone plays for everyone
        assert role.ok, role.text()
        page.goto(f"{live_server.url}/games/{game_id}")
        progress = page.locator("#tg-progress")
        expect(progress).to_contain_text("Question 1 of about ")
        estimate = int(progress.inner_text().split("about ")[1].split()[0])
        grouped = page.locator("#choices .tg-question")  # the Rondel's three ring sizes: one question, 3 steppers
        expect(grouped.locator(".pv-label")).to_have_text(["Outer Rondel", "Middle Rondel", "Inner Rondel"])
        grouped.locator(".pv-num").nth(0).fill("12")  # typed
        for _ in range(2):
            grouped.locator(".pv-more").nth(1).click()  # tapped: 3, 4, 5
        grouped.locator(".pv-num").nth(2).fill("40")
        expect(grouped.locator(".pv-msg")).to_have_text("Inner Rondel: 40 is not possible here: 3 to 16")
        expect(page.locator("#choices .pv-submit")).to_be_disabled()
        grouped.locator(".pv-num").nth(2).fill("4")
        grouped.evaluate("e => e.scrollIntoView({block: 'start'})")  # the sticky turn bar leaves it in sight
        assert page.evaluate("""() => {
            const bar = document.getElementById('turnbar').getBoundingClientRect();
            const question = document.querySelector('#choices .tg-question').getBoundingClientRect();
            return window.scrollY > 0 && bar.top === 0 && question.top >= bar.bottom;
        }""")
        page.locator("#screen-title").evaluate("e => e.scrollIntoView({block: 'start'})")  # the question whole
        page.screenshot(path=str(SCREENSHOTS / "sabika-grouped-question.png"))  # as the phone shows it
        page.locator("#choices .pv-submit").click()
        expect(progress).to_contain_text("Question 2 of about ")
        entries = page.request.get(f"{live_server.url}/api/board-profile?edition=sabika").json()["entries"]
        assert next(e for e in entries if e["key"] == "rondel.small.sizes")["value"] == {  # as the Board page has it
            "rondel.small.outer.size": 12, "rondel.small.middle.size": 5, "rondel.small.inner.size": 4}
        screenshot(page, "sabika-first-game-question-progress")

        asked = 1  # the one tapped above; the rest through the API: the middle answer, as the estimate assumes
        view = page.request.get(f"{live_server.url}/api/games/{game_id}").json()
        while view["choices"]["actor"] == "table" or view["choices"]["options"][0]["action"]["type"] == "choose":
            options = view["choices"]["options"]
            option = options[len(options) // 2 if view["choices"]["actor"] == "table" else 0]["action"]
            asked += option["type"] == "answer"
            sent = page.request.post(f"{live_server.url}/api/games/{game_id}/actions", headers={"X-CSRF-Token": csrf},
                                     data={"action": option, "version": view["version"]})
            assert sent.status == 201, sent.text()
            view = sent.json()["view"]
        assert view["choices"]["options"][0]["action"]["type"] in ("work", "rest")  # the first move
        print(f"questions before the first move: {asked} (first shown estimate {estimate})")
        assert abs(asked - estimate) <= estimate // 10  # the count the table was shown is about right
        assert estimate <= 5 and asked <= 5  # was 203 when every printed value was asked at setup, then 13, then 8
        page.goto(f"{live_server.url}/profile?edition=sabika")  # the Board page: the same question, answered
        sizes = page.locator('.pf-entry[data-key="rondel.small.sizes"]')
        expect(sizes.locator(".pf-value")).to_have_text("Outer Rondel: 12, Middle Rondel: 5, Inner Rondel: 4")
        sizes.locator(".pf-open").click()
        expect(sizes.locator(".pv-label")).to_have_text(["Outer Rondel", "Middle Rondel", "Inner Rondel"])
        expect(sizes.locator(".pv-num").nth(1)).to_have_value("5")
    finally:
        context.close()
