"""Issue 25: a value of several options (a printed bonus's icons, read and earned left to right) is kept in the
order the table taps them, on a game's question and on the Board page alike; Sabika's game offers several options
where the Board page does. One phone; the game is made and brought to its question through the HTTP API."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_i18n_pages import served  # noqa: F401 - the in-process server fixture

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]


def call(page: Page, method: str, path: str, body: Any = None) -> Any:
    """The companion's answer to ``method path`` with this page's session (its data; the status must be 2xx)."""
    status, data = page.evaluate("([m, p, b]) => Keshi.api(m, p, b === null ? undefined : b)"
                                 ".then(r => [r.status, r.data])", [method, path, body])
    assert 200 <= status < 300, data
    return data


def sabika_at_a_question_of_several(page: Page) -> tuple[str, dict[str, Any]]:
    """A new Sabika game played for everyone by this phone, its board's sizes answered, now asking the Sultan's
    Workers' squares (one or more): the game's id and that question."""
    game_id = call(page, "POST", "/api/games", {"game": "sabika", "players": PLAYERS, "seed": 2})["id"]
    call(page, "POST", f"/api/games/{game_id}/role", {"seat": "all"})
    view = call(page, "GET", f"/api/games/{game_id}")
    while "options" not in view["choices"].get("question", {}):  # past the ring sizes (one stepper each)
        options = view["choices"]["options"]
        assert view["choices"]["actor"] == "table"
        view = call(page, "POST", f"/api/games/{game_id}/actions",
                    {"action": options[len(options) // 2]["action"], "version": view["version"]})["view"]
    return game_id, view["choices"]["question"]


def shot_of_the_question(page: Page) -> None:
    """The question and its toggles as the page shows them scrolled to the top (an element's own screenshot
    scrolls it under the game's sticky bar), under test-artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    top = page.locator("#screen-title").bounding_box()
    box = page.locator("#choices").bounding_box()
    assert top and box
    page.screenshot(path=str(SCREENSHOTS / "sabika-question-several-options.png"), full_page=True,
                    clip={"x": 0, "y": top["y"], "width": box["x"] * 2 + box["width"],
                          "height": box["y"] + box["height"] - top["y"]})


def test_several_options_are_kept_in_the_order_tapped_in_a_game_and_on_the_board_page(
    page: Page, served: str  # noqa: F811 - the fixture imported above
) -> None:
    page.goto(served + "/")
    game_id, question = sabika_at_a_question_of_several(page)
    page.goto(f"{served}/games/{game_id}")
    toggles = page.locator("#choices .tg-question .pv-toggle")
    expect(toggles).to_have_count(len(question["options"]))  # every square, not one button per square
    toggles.nth(2).click()
    toggles.nth(0).click()
    assert [toggles.nth(i).get_attribute("data-place") for i in (2, 0)] == ["1", "2"]
    shot_of_the_question(page)
    page.locator("#choices .pv-submit").click()
    expect(page.locator("#choices .tg-question")).to_have_count(0)  # answered: the next question takes one
    key = question["key"]
    tapped = [question["options"][2], question["options"][0]]
    entries = {e["key"]: e for e in call(page, "GET", "/api/board-profile?edition=sabika")["entries"]}
    assert entries[key]["value"] == tapped

    page.goto(served + "/profile?edition=sabika")  # the same value on the Board page: its order, then retapped
    entry = page.locator(f'.pf-entry[data-key="{key}"]')
    entry.evaluate("li => { li.closest('details').open = true; }")
    entry.locator(".pf-open").click()
    buttons = entry.locator(".pv-toggle")
    assert [buttons.nth(i).get_attribute("data-place") for i in (2, 0)] == ["1", "2"]
    buttons.nth(2).click()  # untapped: the other moves up to first
    buttons.nth(1).click()
    assert [buttons.nth(i).get_attribute("data-place") for i in (0, 1)] == ["1", "2"]
    expect(entry.locator('.pv-toggle[aria-pressed="true"]')).to_have_count(2)
    entry.locator(".pv-submit").click()
    expect(entry.locator(".pf-source")).to_have_text("edited here")
    entries = {e["key"]: e for e in call(page, "GET", "/api/board-profile?edition=sabika")["entries"]}
    assert entries[key]["value"] == [question["options"][0], question["options"][1]]
