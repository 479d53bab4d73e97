"""The tower-result screen with the camera's snapshot and each colour's confidence, in a phone's browser.

This test runs the app in-process (waitress on a loopback port) and announces a toss result carrying
``snapshot`` and ``pieces`` on the app's bus, as the tower does after saving its frame, so the
screen can be checked with a chosen, unsure detection; tests/web/test_snapshots.py covers a real
simulated toss.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from waitress.server import create_server

from companion.app import create_app, shutdown_app
from tests.browser.test_full_game import answer_who, screenshot, take_first_legal_option
from tests.conftest import FAST_TOWER
from vision.synthetic import render_scene

pytestmark = pytest.mark.browser


@pytest.fixture
def served_app(tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    app = create_app({"SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "instance")
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        shutdown_app(app)


def to_the_toss_screen(page: Page, url: str) -> str:
    """A new two-player game, set up on the page and played until the tower is to be tossed; its id."""
    page.goto(url + "/games/new")
    page.locator(".player-name").nth(0).fill("Sarah")
    page.locator(".player-name").nth(1).fill("Jan")
    page.get_by_role("button", name="Next: edition & tower").click()
    page.get_by_role("button", name="Next: setup draws").click()
    page.get_by_role("button", name="Next: review").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    answer_who(page, "everyone")
    game_id = page.url.rsplit("/", 1)[1]
    while not page.locator("#screen #toss").count():
        event_id = page.locator("#game").get_attribute("data-event-id") or ""
        take_first_legal_option(page, [True])
        expect(page.locator("#game")).not_to_have_attribute("data-event-id", event_id)
    return game_id


def test_the_tower_result_shows_the_snapshot_and_the_confidence_per_colour(
        page: Page, served_app: tuple[Flask, str]) -> None:
    app, url = served_app
    game_id = to_the_toss_screen(page, url)

    frame, truth = render_scene({"green": 2, "black": 1, "pink": 1}, 3)
    folder = Path(app.instance_path) / "snapshots"
    folder.mkdir()
    cv2.imwrite(str(folder / "t0001.jpg"), frame)
    pieces = [{"colour": p["colour"], "confidence": 0.45 if p["colour"] == "pink" else 0.93, "x": p["x"], "y": p["y"]}
              for p in truth["pieces"]]
    bus = app.extensions["keshi.bus"]
    bus.publish("toss.started", {"toss_id": "t0001", "source": f"game:{game_id}", "pieces_in": {}})
    bus.publish("toss.result", {"toss_id": "t0001", "counts": {"green": 2, "black": 1, "pink": 1}, "unknown": 0,
                                "source": "camera", "beam_count": 4, "camera_count": 4, "flagged": False,
                                "snapshot": "snapshots/t0001.jpg", "pieces": pieces})
    image = page.locator("#snapshot")
    expect(image).to_be_visible(timeout=5000)
    assert page.evaluate("document.getElementById('snapshot').naturalWidth") == 640  # the image loaded
    rows = page.locator("#confidence tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator("#confidence tr.unsure")).to_contain_text("pink")  # the unsure colour stands out
    expect(page.locator("#confidence tr.unsure")).to_contain_text("45%")
    screenshot(page, "game-09b-tower-result-snapshot")


def test_a_camera_over_count_is_asked_about_and_confirm_books_no_phantom(
        page: Page, served_app: tuple[Flask, str]) -> None:
    """Issue 25: a piece the game does not expect in the tower is shown as an over-count to look for in
    the tray; the big button confirms without it, and only "it is really there" books a leftover."""
    app, url = served_app
    game_id = to_the_toss_screen(page, url)
    inside = page.request.get(f"{url}/api/games/{game_id}").json()["state"]["tower"]["inside"]
    stranger = next(c for c, n in inside.items() if n == 0)
    counts = {**{c: n for c, n in inside.items() if n}, stranger: 1}
    bus = app.extensions["keshi.bus"]
    bus.publish("toss.started", {"toss_id": "t0002", "source": f"game:{game_id}", "pieces_in": {}})
    bus.publish("toss.result", {"toss_id": "t0002", "counts": counts, "unknown": 0, "source": "camera",
                                "beam_count": sum(counts.values()), "camera_count": sum(counts.values()),
                                "flagged": True, "pieces": []})
    expect(page.locator("#over-count")).to_contain_text("The camera saw more than the game expects", timeout=5000)
    expect(page.locator("#over-count .chip")).to_have_count(1)
    expect(page.locator("#accept")).to_have_text("Not there: confirm without it")
    expect(page.locator("#keep-leftover")).to_have_text("It is really there: keep it as a leftover")
    screenshot(page, "game-09c-tower-over-count")
    page.locator("#accept").click()
    expect(page.locator("#accept")).to_have_count(0)
    tower = page.request.get(f"{url}/api/games/{game_id}").json()["state"]["tower"]
    assert tower["leftovers"][stranger] == 0  # nothing booked that was not there
