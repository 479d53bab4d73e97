"""The calibration wizard in a phone's browser: empty tray, 12 colours, the result and a test count."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion import COLOURS
from tests.browser.test_full_game import fits_the_phone, screenshot
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_the_table_calibrates_the_camera_step_by_step(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Calibrate camera").click()
    title = page.locator("#cal-title")
    expect(title).to_have_text("Step 1 of 13 · Empty tray")
    screenshot(page, "calibrate-01-empty-tray")
    for index, colour in enumerate(["empty", *COLOURS]):
        page.locator("#cal-capture").click()
        expect(page.locator("#cal-image")).to_be_visible()
        if colour == "purple":
            expect(title).to_contain_text("purple")
            expect(page.locator("#cal-step .swatch").first).to_have_text("♛")  # name + symbol + swatch
            screenshot(page, "calibrate-02-colour-step")
            assert fits_the_phone(page)
        if index < len(COLOURS):
            page.locator("#cal-next").click()
            expect(title).to_contain_text(f"Step {index + 2} of 13")
    page.locator("#cal-finish").click()
    expect(page.locator("#cal-result-title")).to_have_text("Calibration saved")
    assert (live_server.instance / "calibration.json").is_file()
    page.locator("#cal-test").click()
    expect(page.locator("#cal-test-verdict")).to_have_text("✔ Every keshi counted right.")
    expect(page.locator("#cal-test-image")).to_be_visible()
    assert page.locator("#cal-test-counts tbody tr").count() >= 1
    screenshot(page, "calibrate-03-result-and-test")
    assert fits_the_phone(page)
