"""Playwright driving Debian's Chromium (``/usr/bin/chromium``); no browser download needed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
PHONE: ViewportSize = {"width": 360, "height": 740}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
#: How often a wait in the page (``page.wait_for_function(..., polling=POLL_MS)``) checks its condition: a
#: whole game waits hundreds of times, and Playwright's ``expect`` re-checks 20, 50, 100, 100 ms and then
#: 500 ms apart, an animation-frame poll only as often as a page that is not in front gets frames.
POLL_MS = 20


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is not installed: `make test` installs it (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    yield context.new_page()
    context.close()


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot under test-artifacts/screenshots/ and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
