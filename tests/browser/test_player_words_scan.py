"""Issue 25: no developer text on a player's screen, in English or German.

One 360×740 phone per language walks every screen a table sees: the games list (with finished and imported
games, their winners), the tower, fairness, host and Board pages (a value's editor open, Morocco's tab with its
value set by a tap and forgotten, Sabika's tab with every value shown), the calibration wizard's steps (and
its refusal to calibrate early), the setup wizard's steps for each game (Morocco's layout
entered by tapping), a Marrakesh, a Morocco and a Sabika game at their start, a Marrakesh game in progress
with a question about a printed value open, and each game's final table (Marrakesh's rows in the view's one
order of categories). Each screen's text is scanned for rulebook references ("L1120", "digest", "rule 4.2"),
JSON or placeholders ("{", "}"), the engine's phase keys ("phase roll"), internal snake_case names, and, on
the German phone, English phrases of the catalogue; the top menu must be one line, the page as wide as the phone,
no word broken across lines without a hyphen ("Handwerksarbe|it" in a narrow button). A
refusal the page shows (a bad import, the calibration's) is scanned as the API words it. The games are made
and imported through the HTTP API; one page is reused (no new browser per screen).
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.games.marrakesh import Game as MarrakeshGame
from companion.games.marrakesh.log import write_log as marrakesh_log
from companion.games.marrakesh.setup import SetupOptions
from companion.games.marrakesh.simulate import RandomPlayer, SimulatedTower, TowerParams
from companion.games.marrakesh.simulate import play_random_game as marrakesh_game
from companion.games.morocco.log import write_log as morocco_log
from companion.games.morocco.simulate import play_random_game as morocco_game
from companion.games.sabika.log import write_log as sabika_log
from companion.games.sabika.simulate import play_random_game as sabika_game
from tests.browser.conftest import PHONE, SCREENSHOTS, screenshot
from tests.browser.test_i18n_pages import served  # noqa: F401 - the in-process server fixture
from tests.web.http_table import HttpTable
from tests.web.test_i18n import untranslated

pytestmark = pytest.mark.browser

#: What a player must never read: a rulebook line reference, JSON or an unfilled placeholder, an engine phase
#: key after "phase", and an internal key (two or more lower-case words joined by "_").
DEVELOPER_TEXT = {
    "rulebook line": re.compile(r"\bL\d{2,4}\b"),
    "rulebook reference": re.compile(r"\b(?:RULES_DIGEST|[Dd]igest|[Rr]ule \d+\.\d+)|§"),
    "JSON or placeholder": re.compile(r"[{}]"),
    "phase key": re.compile(r"\bphase (?:roll|scout|assign|select|toss|claim|finished)\b", re.IGNORECASE),
    "internal name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
}
PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
#: The words drawn across two lines without a hyphen ("Handwerksarbe|it" in a narrow button): each word (a run of
#: letters) of each text, measured with a Range; one whose boxes sit on more than one line is split. A break at a
#: hyphen, a soft hyphen, a slash or a digit is between words; a link (the join address) may break anywhere; where
#: the browser hyphenates (``hyphens: auto`` and a browser that can: a long word then fits a narrow box) it shows
#: a hyphen, so that is allowed too. Debian's Chromium has no hyphenation dictionaries: it never hyphenates.
SPLIT_WORDS = r"""() => {
  const probe = document.createElement("div");
  probe.lang = "de";
  probe.style.cssText = "position:absolute;visibility:hidden;width:4em;hyphens:auto;-webkit-hyphens:auto";
  probe.textContent = "Donaudampfschifffahrtsgesellschaft";
  document.body.appendChild(probe);
  const hyphenates = probe.scrollWidth <= probe.clientWidth;
  probe.remove();
  const split = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (hyphenates && getComputedStyle(node.parentElement).hyphens === "auto") { continue; }
    for (const chunk of node.data.matchAll(/\S+/g)) {
      if (/:\/\/|[?=]/.test(chunk[0])) { continue; }  // a link (the join address) breaks anywhere
      for (const word of chunk[0].matchAll(/[\p{L}\p{M}]{2,}/gu)) {
        range.setStart(node, chunk.index + word.index);
        range.setEnd(node, chunk.index + word.index + word[0].length);
        const boxes = Array.from(range.getClientRects()).filter(box => box.width > 0);
        if (boxes.some(box => Math.abs(box.top - boxes[0].top) > 2)) { split.push(word[0]); }
      }
    }
  }
  return split;
}"""
#: One line of 48 px touch targets (two lines were about 150 px)
MENU_HEIGHT = 60


def developer_text(text: str) -> list[str]:
    """Each kind of developer text found in ``text``, with what matched."""
    return [f"{kind}: {m.group(0)!r}" for kind, pattern in DEVELOPER_TEXT.items() for m in pattern.finditer(text)]


def scan(page: Page, screen: str, german: bool) -> list[str]:
    """The problems of what ``page`` shows now (its visible text), named with the screen. The line naming the
    shared devices is left out: a device's name is the words its owner gave it (here the host's English)."""
    page.evaluate("() => document.querySelectorAll('#shared-devices').forEach(e => { e.hidden = true; })")
    text = page.locator("body").inner_text()
    english = [p for p in untranslated(text) if re.search("[A-Za-z]", p)] if german else []  # "+ 1" is no English
    found = developer_text(text) + [f"English: {p!r}" for p in english]
    menu = page.locator(".topbar").bounding_box()  # the top menu is one line of 48 px targets, not two
    if menu is None or menu["height"] > MENU_HEIGHT:
        found.append(f"the top menu is {menu and round(menu['height'])} px high")
    if page.evaluate("(() => { const bar = document.querySelector('.topbar'); "
                     "return bar.scrollWidth > bar.clientWidth; })()"):
        found.append("the top menu runs off the screen")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:  # nothing runs off the side of the phone
        found.append(f"the screen is {width} px wide")
    found += [f"a word broken across lines without a hyphen: {word!r}" for word in page.evaluate(SPLIT_WORDS)]
    return [f"{screen}: {f}" for f in found]


def shot(part: Locator, name: str) -> None:
    """A screenshot of one part of the screen under test-artifacts/screenshots/ (docs/screenshots takes some)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    part.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def refusal(page: Page, screen: str, german: bool, method: str, path: str, body: str | None = None) -> list[str]:
    """The problems of the error the API answers ``method path`` (what the page shows a player as it is)."""
    said = page.evaluate("([m, p, b]) => Keshi.api(m, p, b === null ? undefined : b,"
                         " {'Content-Type': 'application/x-ndjson'}).then(r => r.data.error || '')",
                         [method, path, body])
    assert said, f"{screen}: no refusal"
    found = developer_text(said) + ([f"English: {p!r}" for p in untranslated(said)] if german else [])
    return [f"{screen}: {f} in {said!r}" for f in found]


def imported(host: HttpTable, log: str) -> dict[str, Any]:
    """A game imported by the host from ``log`` (the import's answer: id, PIN, view)."""
    request = urllib.request.Request(host.base + "/api/games/import", data=log.encode(), method="POST",
                                     headers={"X-CSRF-Token": host.csrf, "Content-Type": "application/x-ndjson"})
    with host.opener.open(request, timeout=10) as response:
        assert response.status == 201
        return dict(json.loads(response.read()))


def asking_marrakesh_log() -> str:
    """The log of a 2-player Marrakesh game played at random until the table is asked a printed value."""
    rng = random.Random(5)
    game = MarrakeshGame.new(SetupOptions(players=("Ana", "Ben"), seed=11, tower_layer="B1"))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(layer="B1"), rng))
    while not (game.pending and game.pending.get("kind") == "question"):
        game.apply(player.action(game))
    return marrakesh_log(game)


@pytest.fixture
def games(served: str) -> Iterator[dict[str, dict[str, str]]]:  # noqa: F811 - the fixture imported above
    """A Marrakesh, a Morocco and a Sabika game at their start (id and PIN), made by the host through the HTTP
    API; a Marrakesh game asking a printed value and a finished game of each kind, imported."""
    host = HttpTable(served)
    made = {"marrakesh": host.create(PLAYERS, seed=5)}
    for kind in ("morocco", "sabika"):
        status, body = host.request("POST", "/api/games", {"game": kind, "players": PLAYERS, "seed": 5})
        assert status == 201, body
        made[kind] = body
    made["marrakesh asking"] = imported(host, asking_marrakesh_log())
    made["marrakesh final"] = imported(host, marrakesh_log(marrakesh_game(3, 7)))
    made["morocco final"] = imported(host, morocco_log(morocco_game(2, 5)))
    made["sabika final"] = imported(host, sabika_log(sabika_game(2, 5)))
    yield {kind: {"id": str(g["id"]), "pin": str(g["pin"])} for kind, g in made.items()}


def walk(page: Page, url: str, games: dict[str, dict[str, str]], german: bool) -> list[str]:
    """Every screen, scanned; the problems found."""
    problems: list[str] = []
    for path in ("/", "/tower", "/fairness/", "/host", "/profile"):
        page.goto(url + path)
        expect(page.locator("main")).to_be_visible()
        problems += scan(page, path, german)
    page.locator(".pf-open").first.click()  # the Board page: a value's editor, where it is printed
    expect(page.locator(".pf-edit:not([hidden])")).to_be_visible()
    problems += scan(page, "/profile, a value open", german)
    shot(page.locator(".pf-entry:has(.pf-edit:not([hidden]))"), f"scan-{'de' if german else 'en'}-board-value-open")
    page.goto(url + "/profile?edition=morocco")  # Morocco's tab: its printed value, entered ahead of play by a tap
    morocco = page.locator("#tp-morocco .tp-set")
    expect(morocco).to_have_count(2)
    morocco.last.click()
    expect(morocco.last).to_have_attribute("aria-pressed", "true")
    problems += scan(page, "/profile?edition=morocco, Morocco's value set", german)
    page.locator("#tp-morocco .tp-forget").click()
    expect(page.locator("#tp-morocco .tp-set[aria-pressed=true]")).to_have_count(0)
    page.goto(url + "/profile?edition=sabika")  # Sabika's tab: every value unfolded, a bonus's icons open
    for component in ("tiles", "cards"):
        page.locator(f'.pf-component[data-component="{component}"] summary').click()
    page.locator('.pf-entry[data-key="city_tile.1.bonus"] .pf-open').click()
    expect(page.locator('.pf-entry[data-key="city_tile.1.bonus"] .pv-toggle').first).to_be_visible()
    problems += scan(page, "/profile?edition=sabika, every value shown", german)
    shot(page.locator('.pf-entry[data-key="city_tile.1.bonus"]'), f"scan-{'de' if german else 'en'}-sabika-value-open")
    problems += refusal(page, "a bad game log", german, "POST", "/api/games/import", '{"format": "keshi"}')
    problems += calibration_scanned(page, url, german)
    for kind in ("marrakesh", "morocco", "sabika"):  # the wizard's steps of each game
        page.goto(url + "/games/new")
        page.locator(f'input[name="game"][value="{kind}"]').check()
        problems += scan(page, f"wizard {kind} players", german)
        names = page.locator(".player-name")
        names.nth(0).fill("Ana")
        names.nth(1).fill("Ben")
        page.locator(".player-colour").nth(1).select_option("red")
        page.locator("#next-players").click()
        step = page.locator("section.step:not([hidden])")
        while step.get_attribute("data-name") != "review":  # options (or edition, draws), then review
            problems += scan(page, f"wizard {kind} {step.get_attribute('data-name')}", german)
            if kind == "morocco" and not german:
                layout_is_entered_by_tapping(page, url)
                break
            step.locator(".next").click()
        else:
            problems += scan(page, f"wizard {kind} review", german)
    problems += games_scanned(page, url, games, german)
    page.goto(url + "/")  # the games list: winners, dates and moves of finished and imported games
    expect(page.locator(".game-winner")).to_have_count(3)
    screenshot(page, f"scan-{'de' if german else 'en'}-games-list")
    return problems + scan(page, "/ after games", german)


def calibration_scanned(page: Page, url: str, german: bool) -> list[str]:
    """The calibration wizard's first step, a photo taken, and its refusal to calibrate before every photo."""
    page.goto(url + "/setup/calibrate")
    expect(page.locator("#cal-title")).to_be_visible()
    problems = scan(page, "calibration step 1", german)
    page.locator("#cal-capture").click()
    expect(page.locator("#cal-image")).to_be_visible()
    page.locator("#cal-next").click()
    expect(page.locator("#cal-title")).to_contain_text("2")
    problems += scan(page, "calibration step 2", german)
    return problems + refusal(page, "calibrating early", german, "POST", "/api/calibration/finish")


#: The cubes beside market rows 1 to 5 as the test's table laid them out (one of each colour, not in the
#: order of the companion's colour list, so a wizard that ignored the taps would not match)
TAPPED_ROWS = ["white", "green", "blue", "orange", "brown"]


def layout_is_entered_by_tapping(page: Page, url: str) -> None:
    """Morocco's layout in the wizard: a line entered in part is refused naming the line, in player words; the
    rows tapped whole start a game whose market has those cubes beside its rows (the rest drawn)."""
    rows = page.locator('select.layout-cell[data-line="rows"]')
    expect(rows).to_have_count(5)
    assert page.locator("#game-options textarea").count() == 0  # no JSON to type
    rows.nth(0).select_option(label="white")
    page.get_by_role("button", name="Next: review").click()
    expect(page.get_by_role("alert")).to_contain_text("Cubes beside market rows 1 to 5: 1 of 5 entered")
    for cell, colour in zip(rows.all(), TAPPED_ROWS, strict=True):
        cell.select_option(label=colour)
    screenshot(page, "morocco-wizard-layout")
    page.get_by_role("button", name="Next: review").click()
    expect(page.locator("#review")).to_contain_text("partly entered from the table")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    view = page.evaluate("id => Keshi.api('GET', '/api/games/' + id).then(r => r.data)", page.url.rsplit("/", 1)[1])
    assert view["board"]["rows"] == TAPPED_ROWS


def games_scanned(page: Page, url: str, games: dict[str, dict[str, str]], german: bool) -> list[str]:
    """Each game's page, joined with the PIN and playing for everyone, scanned."""
    page.goto(url + "/")  # joined from the games list, which sends no request of its own: an answer to one
    # still under way could bring back the session cookie from before a join
    for kind, game in games.items():
        seated = page.evaluate("([id, pin]) => Keshi.api('POST', '/api/games/' + id + '/join', {pin: pin})"
                               ".then(() => Keshi.api('POST', '/api/games/' + id + '/role', {seat: 'all'}))"
                               ".then(r => [r.status, r.data.error || ''])", [game["id"], game["pin"]])
        assert seated[0] == 200, (kind, seated)
    problems: list[str] = []
    for kind, game in games.items():
        page.goto(f"{url}/games/{game['id']}")
        expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"\d+"))
        if kind == "marrakesh asking":
            expect(page.locator(".pv-question")).to_be_visible()  # a printed value asked, its editor open
        if kind.endswith("final"):
            expect(page.locator("#final-table")).to_be_visible()
        if kind == "marrakesh final":
            rows_follow_the_category_order(page, game["id"])
            shot(page.locator("#screen"), f"scan-{'de' if german else 'en'}-marrakesh-final")
        problems += scan(page, f"{kind} game", german)
    return problems


def rows_follow_the_category_order(page: Page, game_id: str) -> None:
    """Marrakesh's final table: one row per category anyone scored in, in the view's order (as the game
    scores them, the rulebook's final scoring last), the same for every player (one column each)."""
    order = page.evaluate("id => Keshi.api('GET', '/api/games/' + id).then(r => r.data.category_order)", game_id)
    rows = page.locator("#final-table tr[data-category]").evaluate_all("rows => rows.map(r => r.dataset.category)")
    assert len(rows) > 3 and set(rows) <= set(order)
    assert rows == sorted(rows, key=order.index)


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_no_developer_text_on_any_screen(browser: Browser, served: str, locale: str,  # noqa: F811
                                         games: dict[str, dict[str, str]]) -> None:
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        problems = walk(context.new_page(), served, games, german=locale.startswith("de"))
    finally:
        context.close()
    assert problems == []
