"""The dashboard's Fairness page looks like the rest: dark, top navigation, 360 px wide, 48 px targets.

Chromium (Debian's, as in tests/browser) renders the page the blueprint serves, with the
dashboard's own stylesheet put in place of its link (the test app has no static files).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, sync_playwright

from companion.cli import main
from companion.fairness.blueprint import bp
from companion.store import open_instance_store
from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, PHONE, screenshot

APP_CSS = Path(__file__).resolve().parents[2] / "companion" / "web" / "static" / "app.css"


@pytest.fixture
def phone() -> Iterator[Page]:
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is not installed: `make test` installs it (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield browser.new_context(viewport=PHONE).new_page()
        browser.close()


def test_fairness_page_is_dark_fits_a_phone_and_has_big_targets(tmp_path: Path, phone: Page) -> None:
    main(["tower", "simulate", "--tosses", "300", "--seed", "2", "--instance", str(tmp_path)])
    with open_instance_store(tmp_path) as store:
        app = Flask("fairness-look")
        app.extensions["keshi.store"] = store
        app.register_blueprint(bp)
        html = app.test_client().get("/fairness/").get_data(as_text=True)
    assert 'class="topbar"' in html and 'href="/static/app.css"' in html
    html = html.replace('<link rel="stylesheet" href="/static/app.css">', f"<style>{APP_CSS.read_text()}</style>")
    phone.set_content(html)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 22, 26)"
    assert phone.locator(".topbar nav a").all_inner_texts() == ["Games", "Tower", "Fairness"]
    small = phone.evaluate(
        """[...document.querySelectorAll('a, button, input, select')]
             .map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect()])
             .filter(([, r]) => r.width > 0 && (r.height < 48 || r.width < 48))
             .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []
    screenshot(phone, "fairness-page-360")
