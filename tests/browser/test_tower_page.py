"""The Tower page in a real browser: press Toss, see the drops arrive and the counts appear."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion import COLOURS
from tests.browser.conftest import screenshot
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_toss_shows_drops_then_counts(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/tower")
    expect(page.get_by_role("heading", name="Tower")).to_be_visible()
    page.get_by_role("button", name="Toss").click()
    expect(page.locator("#toss-state")).to_have_text("Done.", timeout=15_000)
    drops = page.locator("#drops li")
    counted = [int(page.locator(f'#counts tr[data-colour="{c}"] .n').inner_text()) for c in COLOURS]
    assert drops.count() == sum(counted)  # one drop line per piece that fell out
    expect(page.locator("#counts-source")).to_contain_text("Beam counted")
    screenshot(page, "tower-after-toss")
    page.get_by_role("button", name="I emptied the tower by hand").click()  # pieces may have stayed inside
    expect(page.locator("#empty-state")).to_contain_text("The tower now counts as empty")
