"""Issue 25: four players' boards side by side on a tablet, none below the screen.

A 4-player Marrakesh game is made through the HTTP API; one page opens it at 1280×800 (then 1024×768) and
measures every board's bounding box against the viewport: at both sizes the four are side by side, each whole
on the screen, none overlapping another or spilling out of its box; at 1024×768 they take the whole width above
the play column (a scroll below them). Screenshots: docs/screenshots/boards-tablet-four.png and
boards-tablet-four-1024.png.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.conftest import LiveServer
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser

FOUR = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}, {"name": "Cleo", "colour": "green"},
        {"name": "Dara", "colour": "yellow"}]
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def boxes_in_view(page: Page) -> None:
    """Each board's bounding box, with the boards scrolled up to the sticky turn bar: every one inside the
    viewport's width, in one row, its bottom on the screen too, below the turn bar."""
    page.evaluate("window.scrollTo(0, 0); window.scrollTo(0, document.getElementById('boards').getBoundingClientRect()"
                  ".top - document.getElementById('turnbar').getBoundingClientRect().bottom - 4)")
    bar = page.locator("#turnbar").bounding_box()
    assert bar is not None
    boards = page.locator("#boards .board")
    expect(boards).to_have_count(len(FOUR))
    size = page.viewport_size
    assert size is not None
    boxes = [b for b in (board.bounding_box() for board in boards.all()) if b is not None]
    assert len(boxes) == len(FOUR)
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        assert box["y"] >= bar["y"] + bar["height"], box  # not under the turn bar
        assert box["y"] + box["height"] <= size["height"], box
    assert len({round(b["y"]) for b in boxes}) == 1  # side by side, none wrapped below
    for left, right in pairwise(boxes):  # none overlaps the next
        assert left["x"] + left["width"] <= right["x"], (left, right)
    spilled = page.evaluate("Array.from(document.querySelectorAll('#boards .board'))"
                            ".filter(b => b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight).length")
    assert spilled == 0  # no board's words run out of its box


def test_four_boards_side_by_side_at_1280_and_1024(browser: Browser, live_server: LiveServer) -> None:
    created = HttpTable(live_server.url).create(FOUR, seed=3)
    tablet: ViewportSize = {"width": 1280, "height": 800}
    context = browser.new_context(viewport=tablet)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{created['id']}")
        expect(page.locator("#boards .board")).to_have_count(len(FOUR))
        boxes_in_view(page)
        page.screenshot(path=str(DOCS_SHOTS / "boards-tablet-four.png"))
        page.set_viewport_size({"width": 1024, "height": 768})
        boxes_in_view(page)  # a smaller tablet: the boards take the width, the play column below them
        page.screenshot(path=str(DOCS_SHOTS / "boards-tablet-four-1024.png"))
        boards = page.locator("#boards-card").bounding_box()
        play = page.locator("#screen").bounding_box()
        assert boards is not None and play is not None and play["y"] >= boards["y"] + boards["height"]
    finally:
        context.close()
