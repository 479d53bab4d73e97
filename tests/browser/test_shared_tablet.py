"""A shared tablet at a table whose companion screen is not in reach: the host's phone proves itself
with the owner code and creates the game; the tablet joins, makes itself shared with the table PIN
(a wrong PIN is refused beside the card) and a name that every phone then reads, and plays a round
for everyone; its log lines name it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_full_game import take_first_legal_option, walk_setup_wizard
from tests.conftest import LiveServer, start_server

pytestmark = pytest.mark.browser

TABLET = {"width": 820, "height": 1180}


@pytest.fixture
def remote_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A companion whose own screen nobody uses: loopback is not the host (as behind a proxy)."""
    server = start_server(tmp_path / "instance", {"LOOPBACK_IS_HOST": False})
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def test_a_tablet_made_shared_with_the_pin_plays_for_everyone(browser: Browser, remote_server: LiveServer) -> None:
    host_context = browser.new_context(viewport=PHONE)
    tablet_context = browser.new_context(viewport=TABLET)  # type: ignore[arg-type]
    try:
        host = host_context.new_page()
        host.goto(remote_server.url + "/host")
        host.locator("#code").fill((remote_server.instance / "owner_code").read_text().strip())
        host.get_by_role("button", name="Make this device the host").click()
        expect(host.locator("#host-state")).to_have_text("This device is the host.")
        game_url = walk_setup_wizard(host, remote_server.url)
        pin = host.locator("#pin").inner_text()
        host.get_by_role("button", name="I am Sarah").click()

        tablet = tablet_context.new_page()
        tablet.on("dialog", lambda dialog: dialog.accept())
        tablet.goto(game_url + "/join?pin=" + pin)
        tablet.get_by_role("button", name="Join").click()
        tablet.wait_for_url(game_url)
        tablet.get_by_role("button", name="Shared device: plays for everyone").click()
        tablet.locator("#share-pin").fill("0000" if pin != "0000" else "1111")
        tablet.locator("#share-name").fill("Ana's tablet")
        tablet.get_by_role("button", name="Play for everyone on this device").click()
        expect(tablet.locator("#who-card")).to_contain_text("only with the table PIN")
        tablet.locator("#share-pin").fill(pin)
        tablet.get_by_role("button", name="Play for everyone on this device").click()
        expect(tablet.get_by_role("heading", name="Who are you?")).to_be_hidden()
        expect(host.locator("#shared-devices")).to_have_text("Ana's tablet plays for everyone")
        screenshot(tablet, "shared-tablet-granted")

        game = tablet.locator("#game")
        corrected: list[bool] = []
        for _ in range(80):  # the whole first round, every player's step on the tablet
            if "Round 2" in tablet.locator("#turn-when").inner_text():
                break
            event_id = game.get_attribute("data-event-id") or ""
            take_first_legal_option(tablet, corrected)
            expect(game).not_to_have_attribute("data-event-id", event_id, timeout=10_000)
            expect(game).not_to_have_attribute("data-busy", "yes", timeout=10_000)
        expect(tablet.locator("#turn-when")).to_contain_text("Round 2")
        expect(host.locator("#log")).to_contain_text("(on Ana's tablet)")
        screenshot(host, "shared-tablet-log-on-a-phone")
    finally:
        host_context.close()
        tablet_context.close()
