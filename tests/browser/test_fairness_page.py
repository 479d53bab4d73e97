"""The dashboard's Fairness page looks like the rest: dark, top navigation, 360 px wide, 48 px targets.

Chromium (the browser tests' shared session) renders the page the blueprint serves, with the
dashboard's own stylesheet put in place of its link (the test app has no static files).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page

from companion.cli import main
from companion.fairness.blueprint import bp
from companion.fairness.simulate import simulate_into_store
from companion.store import open_instance_store
from companion.tower.model import TowerParams
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_i18n_pages import no_english_on_screen

pytestmark = pytest.mark.browser

APP_CSS = Path(__file__).resolve().parents[2] / "companion" / "web" / "static" / "app.css"
#: Boxes in the report that scroll sideways on their own (a table wider than the phone hidden in a window).
INNER_SCROLLS = """[...document.querySelectorAll('main *')]
  .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth)
  .map(e => e.tagName)"""
#: Table cells that are shown but reach past either edge of the screen.
CELLS_OFF_SCREEN = """[...document.querySelectorAll('td')].filter(e => {
  const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > innerWidth + 1); }).length"""
#: The brightness (r + g + b) of each plot's top-left corner, read from the picture itself.
PLOT_CORNERS = """[...document.querySelectorAll('.plots img')].map(img => {
  const canvas = document.createElement('canvas'); canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d'); context.drawImage(img, 0, 0);
  const [r, g, b] = context.getImageData(2, 2, 1, 1).data; return r + g + b; })"""


def test_fairness_page_is_dark_fits_a_phone_and_has_big_targets(tmp_path: Path, page: Page) -> None:
    main(["tower", "simulate", "--tosses", "300", "--seed", "2", "--instance", str(tmp_path)])
    with open_instance_store(tmp_path) as store:
        app = Flask("fairness-look")
        app.extensions["keshi.store"] = store
        app.register_blueprint(bp)
        html = app.test_client().get("/fairness/").get_data(as_text=True)
    assert 'class="topbar"' in html and 'href="/static/app.css"' in html
    html = html.replace('<link rel="stylesheet" href="/static/app.css">', f"<style>{APP_CSS.read_text()}</style>")
    page.set_content(html)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 22, 26)"
    assert page.locator(".topbar nav a").all_inner_texts() == ["Games", "Tower", "Fairness", "Board"]
    small = page.evaluate(
        """[...document.querySelectorAll('a, button, input, select')]
             .map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect()])
             .filter(([, r]) => r.width > 0 && (r.height < 48 || r.width < 48))
             .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []
    assert page.evaluate(INNER_SCROLLS) == []  # no table hides columns in a window of its own
    assert page.evaluate(CELLS_OFF_SCREEN) == 0
    corners = page.evaluate(PLOT_CORNERS)
    assert len(corners) == 3 and max(corners) < 3 * 64  # the plots are drawn dark, as the page is
    screenshot(page, "fairness-page-360")


def test_the_fairness_page_in_german_fits_a_phone_with_no_english_on_screen(app: Flask, page: Page) -> None:
    """A German phone (Accept-Language) gets the whole report in German, 360 px wide, the switch to English
    in the menu; the scan of tests/browser/test_i18n_pages.py finds no English catalog phrase on screen."""
    store = app.extensions["keshi.store"]
    simulate_into_store(store, 600, TowerParams(layer="B1", bias={"red": 0.3}), seed=5)
    simulate_into_store(store, 240, TowerParams(layer="B2"), seed=6)
    html = app.test_client().get("/fairness/", headers={"Accept-Language": "de-DE,de;q=0.9"}).get_data(as_text=True)
    html = html.replace('<link rel="stylesheet" href="/static/app.css">', f"<style>{APP_CSS.read_text()}</style>")
    page.set_content(html)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator(".topbar nav a").all_inner_texts() == ["Spiele", "Turm", "Fairness", "Material", "English"]
    assert "Ergebnis: Farbverzerrung erkannt" in page.locator(".verdict").inner_text()
    no_english_on_screen(page)
    screenshot(page, "fairness-page-360-de")
