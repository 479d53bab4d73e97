"""A complete 2-player Morocco game through the UI at 360×740: two phones, each tapping its own choices.

Ana creates the game in the setup wizard and answers "Who are you?"; Ben joins with the table PIN.
The moves come from the engine's seeded random player run on a mirror of the game (so the game is
varied and ends by the final round, not by a scripted shortcut); each move is made on the phone of
the player who must make it (a question for the table on Ana's) by tapping the buttons of its path,
one step at a time, as a person would: the first moves with Playwright's pointer, the rest (about
250 taps) by clicking the same buttons from a script in the page, to keep the test short. At the
end the final scores on both screens must equal the mirror's and those of the exported log replayed
by the engine. Last, Ana deletes the game from the games list and Ben's open screen says it was
deleted. Screenshots of each screen (phone and a 1280×800 tablet) go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import random
import re
import time
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from companion.games.morocco import action_to_dict
from companion.games.morocco.log import read_log
from companion.games.morocco.simulate import RandomPlayer
from companion.table.kinds import morocco
from tests.browser.conftest import PHONE, POLL_MS
from tests.browser.final_table import assert_final_table
from tests.browser.test_full_game import answer_who, fits_the_phone, screenshot
from tests.conftest import LiveServer
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 1280, "height": 800}
#: The wizard's seed and the random player's: a game that ends by the final round with stalls scored.
GAME_SEED, PLAYER_SEED = 28, 2


def create_morocco_game(page: Page, url: str) -> str:
    page.goto(url + "/games/new")
    expect(page.locator('input[name="game"]')).to_have_count(3)  # Marrakesh, Morocco, Sabika
    page.get_by_label("Morocco").check()
    expect(page.locator("#players-help")).to_have_text("In seat order, clockwise. 2 to 5 players.")
    names = page.locator(".player-name")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Ben")
    page.locator(".player-colour").nth(1).select_option("red")
    screenshot(page, "morocco-01-setup-game-players")
    assert fits_the_phone(page)
    page.get_by_role("button", name="Next: Morocco options").click()
    expect(page.get_by_label("Start player (the one who most recently travelled to Morocco)")).to_be_visible()
    page.get_by_label("Seed for the companion's draws").fill(str(GAME_SEED))
    screenshot(page, "morocco-02-setup-options")
    page.get_by_role("button", name="Next: review").click()
    expect(page.locator("#review")).to_contain_text("Game: Morocco")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    expect(page.locator("#variant")).to_contain_text("Morocco")
    return page.url


def join(page: Page, game_url: str, pin: str, name: str) -> None:
    page.goto(game_url + "/join")
    page.get_by_label("Table PIN").fill(pin)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(game_url)
    answer_who(page, name)


def tap_path(page: Page, option: dict[str, Any]) -> None:
    """Tap the option's steps with Playwright's pointer; a step the page took by itself (the only way
    on) has no button."""
    choices = page.locator("#choices")
    for step in option["path"]:
        button = choices.get_by_role("button", name=step, exact=True)
        if button.count():
            button.click()


#: The same taps as ``tap_path`` dispatched in the page in one go: the click events of the very buttons
#: a person taps (each step's button exists only after the previous tap), without a round trip per tap; a stall
#: on the drawn market is named by its aria-label, as a screen reader reads it.
QUICK_TAPS = """steps => {
  for (const step of steps) {
    const button = Array.from(document.querySelectorAll('#choices button'))
      .find(b => (b.getAttribute('aria-label') || b.textContent) === step);
    if (button) { button.click(); }
  }
}"""
#: Moves made with the pointer before the quick taps take over (enough for every kind of screen).
POINTER_MOVES = 12
#: The phone shows game version ``version`` and is not busy (its last tap has been answered).
CURRENT = """(version) => { const game = document.getElementById("game");
  return game.dataset.version === version && game.dataset.busy === "no"; }"""


def stall_is_chosen_on_the_market(page: Page, option: dict[str, Any], mirror: Any) -> None:
    """The worker tapped, the stall is chosen on the drawn market: one button per stall the engine allows (no
    list of "Row 2, column 4" buttons), each with its cost (the row's and the column's cube), the acting family's
    own cubes above; then the wanted stall is tapped there."""
    worker = page.locator("#choices").get_by_role("button", name=option["path"][0], exact=True)
    if worker.count():
        worker.click()
    picker = page.locator("#stall-picker")
    expect(picker).to_be_visible()
    at = option["at"]
    choices = morocco.choices(mirror)
    allowed = {(o["at"]["row"], o["at"]["column"]) for o in choices["options"]
               if o["action"]["type"] == "place" and o["path"][0] == option["path"][0]}
    buttons = picker.locator("button.mor-pick-stall")
    expect(buttons).to_have_count(len(allowed))
    assert page.locator("#choices .tg-step", has_text="Row ").count() == 0  # the stalls are not a list of buttons
    stall = picker.locator(f'button[data-row="{at["row"]}"][data-column="{at["column"]}"]')
    expect(stall.locator(".mor-cost i")).to_have_count(2)
    cubes = mirror.players[choices["actor"]].cubes
    for colour, n in cubes.items():
        if n:
            expect(page.locator("#own-cubes")).to_contain_text(f"{n} {colour}")
    assert targets_are_big_enough(page) and fits_the_phone(page)
    screenshot(page, "morocco-04b-phone-choose-a-stall")
    stall.click()


def targets_are_big_enough(page: Page) -> bool:
    """Every enabled button in the choices is at least 48 × 48 px."""
    return bool(page.evaluate(
        "Array.from(document.querySelectorAll('#choices button')).every(function (b) {"
        " const r = b.getBoundingClientRect(); return r.width >= 48 && r.height >= 48; })"))


def test_two_phones_play_a_whole_morocco_game_to_the_final_scores(browser: Browser, live_server: LiveServer) -> None:
    ana_context = browser.new_context(viewport=PHONE)
    ben_context = browser.new_context(viewport=PHONE)
    tablet_context = browser.new_context(viewport=TABLET)
    try:
        ana = ana_context.new_page()
        game_url = create_morocco_game(ana, live_server.url)
        game_id = game_url.rsplit("/", 1)[1]
        pin = ana.locator("#pin").inner_text()
        answer_who(ana, "Ana")
        ben = ben_context.new_page()
        join(ben, game_url, pin, "Ben")
        screenshot(ana, "morocco-03-phone-start")

        log_text = _export(live_server, game_id)
        mirror = read_log(log_text, source="export")
        player = RandomPlayer(random.Random(PLAYER_SEED))
        phones = {0: ana, 1: ben, "table": ana}
        stale_tap_is_refused_beside_the_options(live_server, game_id, pin, phones, mirror, player)
        shots = {"answer": False, "choose": False}
        while not mirror.finished:
            version = len(mirror.log)  # no undo here: the game's version is its number of actions
            choices = morocco.choices(mirror)  # what the page offers (the server runs the same engine)
            action = player.action(mirror)
            wanted = action_to_dict(action)
            option = next(o for o in choices["options"] if o["action"] == wanted)
            page = phones[choices["actor"]]
            # the phone shows this version and its last tap has been answered (about 130 of these waits)
            page.wait_for_function(CURRENT, arg=str(version), timeout=10_000, polling=POLL_MS)
            if choices["actor"] != "table" and version < POINTER_MOVES:  # the other phone only waits
                other = ben if page is ana else ana
                expect(other.locator("#choices")).to_contain_text("Waiting for")
            if wanted["type"] == "place" and "place" not in shots:
                assert targets_are_big_enough(page) and fits_the_phone(page)
                screenshot(page, "morocco-04-phone-place-a-worker")
                stall_is_chosen_on_the_market(page, option, mirror)
                shots["place"] = True
            if wanted["type"] in shots and not shots[wanted["type"]]:
                screenshot(page, f"morocco-05-phone-{wanted['type']}")
                shots[wanted["type"]] = True
            if len(mirror.log) < POINTER_MOVES:
                tap_path(page, option)
            else:
                page.evaluate(QUICK_TAPS, option["path"])
            mirror.apply(action)

        for page in (ana, ben):
            expect(page.locator("#game")).to_have_attribute("data-version", str(len(mirror.log)))
        final = [p.score for p in mirror.players]
        replayed = read_log(_export(live_server, game_id), source="export")
        assert [p.score for p in replayed.players] == final and replayed.finished
        for page in (ana, ben):
            expect(page.locator("#game")).to_have_attribute("data-finished", "yes")
            expect(page.locator("#scores-title")).to_have_text("Final scores")
            shown = [int(t) for t in page.locator("#scores .score").all_inner_texts()]
            assert shown == final
            winner = " and ".join(["Ana", "Ben"][i] for i in replayed.winners())
            expect(page.locator("#winner")).to_contain_text(winner)
            assert_final_table(page, [p.breakdown for p in replayed.players], morocco.CATEGORIES, final,
                               [["Ana", "Ben"][i] for i in replayed.winners()])
            # the final scoring is a log line of its own, after the move that ended the game
            expect(page.locator("#log li").first).to_contain_text("Final scoring")
            assert fits_the_phone(page)
        screenshot(ana, "morocco-06-phone-final-scores")
        tablet = tablet_context.new_page()
        tablet.goto(game_url)
        expect(tablet.locator("#scores-title")).to_have_text("Final scores")
        side = tablet.locator(".tg-side").bounding_box()
        play = tablet.locator(".tg-play").bounding_box()
        assert side and play and side["x"] > play["x"] + play["width"] - 1  # the log beside the board
        screenshot(tablet, "morocco-07-tablet-final")

        # the games list: its date and game, and a delete (confirmed) that Ben's open screen hears of
        ana.goto(live_server.url + "/")
        row = ana.locator(f'li[data-id="{game_id}"]')
        expect(row.locator(".game-name")).to_have_text("Morocco")
        expect(row.locator(".game-when")).to_contain_text(time.strftime("%Y-%m-%d"))
        # its winner, and its moves without the table's answers to printed-value questions
        expect(row.locator(".game-winner")).to_contain_text(winner)
        moves = sum(1 for a in replayed.log if action_to_dict(a)["type"] != "answer")
        assert moves < len(replayed.log)  # this game asked the table something: the count leaves it out
        expect(row.locator(".game-moves")).to_have_text(f"{moves} moves")
        assert fits_the_phone(ana)
        screenshot(ana, "morocco-08-games-list")
        ana.once("dialog", lambda dialog: dialog.accept())
        row.get_by_role("button", name="Delete").click()
        expect(row).to_have_count(0)
        expect(ben.locator("#turn-notice")).to_contain_text("This game was deleted")
        expect(ben.locator("#game")).to_have_attribute("data-deleted", "yes")
        screenshot(ben, "morocco-09-phone-game-deleted")
    finally:
        ana_context.close()
        ben_context.close()
        tablet_context.close()


def stale_tap_is_refused_beside_the_options(live_server: LiveServer, game_id: str, pin: str,
                                            phones: dict[Any, Page], mirror: Any, player: RandomPlayer) -> None:
    """The first move is made from a shared device (it plays for everyone) while this phone's stream is cut;
    the phone's own tap of it is then refused beside its options, and it shows the game as it is."""
    choices = morocco.choices(mirror)
    action = player.action(mirror)
    option = next(o for o in choices["options"] if o["action"] == action_to_dict(action))
    page = phones[choices["actor"]]
    expect(page.locator("#game")).to_have_attribute("data-version", "0")
    page.route("**/events*", lambda route: route.abort())
    page.reload()  # the page comes back without its stream
    expect(page.locator("#game")).to_have_attribute("data-connection", "lost")
    other_device = HttpTable(live_server.url)
    assert other_device.request("POST", f"/api/games/{game_id}/join", {"pin": pin})[0] == 200
    assert other_device.request("POST", f"/api/games/{game_id}/role", {"seat": "all", "pin": pin})[0] == 200
    other_device.act(game_id, option["action"], 0)
    mirror.apply(action)
    tap_path(page, option)
    message = page.locator("#choices-card #message")
    expect(message).to_have_text("Someone else acted first: the screen now shows the game as it is. "
                                 "Please choose again.")
    # right under the options (or, when the fresh view has none for this phone, under the prompt), in sight
    beside = page.evaluate("document.querySelector('#message').previousElementSibling.className")
    assert beside in ("tg-options", "prompt")
    expect(message).to_be_in_viewport()
    expect(page.locator("#game")).to_have_attribute("data-version", "1")
    screenshot(page, "morocco-03b-phone-refused-beside-the-options")
    page.unroute("**/events*")
    expect(page.locator("#game")).to_have_attribute("data-connection", "live", timeout=10_000)


def _export(live_server: LiveServer, game_id: str) -> str:
    """The game's exported JSON-lines log."""
    with urllib.request.urlopen(f"{live_server.url}/api/games/{game_id}/log", timeout=5) as response:
        text: str = response.read().decode()
        return text
