"""Issue 25: no developer text on a player's screen, in English or German.

One 360×740 phone per language walks every screen a table sees: the games list, the setup wizard's steps
for each game (Morocco's layout entered by tapping), the tower, fairness, host and board pages, and a
Marrakesh, a Morocco and a Sabika game (joined with the PIN, playing for everyone). Each screen's text is
scanned for rulebook line numbers ("L1120"), JSON or placeholders ("{", "}"), the engine's phase keys
("phase roll"), internal snake_case names, and, on the German phone, English phrases of the catalogue; the
top menu must be one line. The
games are made through the HTTP API; the pages are reused (no new browser per screen).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_i18n_pages import served  # noqa: F401 - the in-process server fixture
from tests.web.http_table import HttpTable
from tests.web.test_i18n import untranslated

pytestmark = pytest.mark.browser

#: What a player must never read: a rulebook line reference, JSON or an unfilled placeholder, an engine phase
#: key after "phase", and an internal key (two or more lower-case words joined by "_").
DEVELOPER_TEXT = {
    "rulebook line": re.compile(r"\bL\d{2,4}\b"),
    "JSON or placeholder": re.compile(r"[{}]"),
    "phase key": re.compile(r"\bphase (?:roll|scout|assign|select|toss|claim|finished)\b", re.IGNORECASE),
    "internal name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
}
PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
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
    found = developer_text(text) + ([f"English: {p!r}" for p in untranslated(text)] if german else [])
    menu = page.locator(".topbar").bounding_box()  # the top menu is one line of 48 px targets, not two
    if menu is None or menu["height"] > MENU_HEIGHT:
        found.append(f"the top menu is {menu and round(menu['height'])} px high")
    return [f"{screen}: {f}" for f in found]


@pytest.fixture
def games(served: str) -> Iterator[dict[str, dict[str, str]]]:  # noqa: F811 - the fixture imported above
    """A Marrakesh, a Morocco and a Sabika game (id and PIN), made by the host through the HTTP API."""
    host = HttpTable(served)
    made = {"marrakesh": host.create(PLAYERS, seed=5)}
    for kind in ("morocco", "sabika"):
        status, body = host.request("POST", "/api/games", {"game": kind, "players": PLAYERS, "seed": 5})
        assert status == 201, body
        made[kind] = body
    yield {kind: {"id": str(g["id"]), "pin": str(g["pin"])} for kind, g in made.items()}


def walk(page: Page, url: str, games: dict[str, dict[str, str]], german: bool) -> list[str]:
    """Every screen, scanned; the problems found."""
    problems: list[str] = []
    for path in ("/", "/tower", "/fairness/", "/host", "/profile"):
        page.goto(url + path)
        expect(page.locator("main")).to_be_visible()
        problems += scan(page, path, german)
    for kind in ("morocco", "sabika"):  # the wizard's steps of each table game
        page.goto(url + "/games/new")
        page.locator(f'input[name="game"][value="{kind}"]').check()
        names = page.locator(".player-name")
        names.nth(0).fill("Ana")
        names.nth(1).fill("Ben")
        page.locator(".player-colour").nth(1).select_option("red")
        page.locator("#next-players").click()
        expect(page.locator("#game-options")).to_be_visible()
        problems += scan(page, f"wizard {kind} options", german)
        if kind == "morocco" and not german:
            layout_is_entered_by_tapping(page, url)
    return problems + games_scanned(page, url, games, german)


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
    problems: list[str] = []
    for kind, game in games.items():
        page.goto(f"{url}/games/{game['id']}")
        page.evaluate("([id, pin]) => Keshi.api('POST', '/api/games/' + id + '/join', {pin: pin})"
                      ".then(() => Keshi.api('POST', '/api/games/' + id + '/role', {seat: 'all'}))",
                      [game["id"], game["pin"]])
        page.reload()
        expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"\d+"))
        problems += scan(page, f"{kind} game", german)
    return problems


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_no_developer_text_on_any_screen(browser: Browser, served: str, locale: str,  # noqa: F811
                                         games: dict[str, dict[str, str]]) -> None:
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        problems = walk(context.new_page(), served, games, german=locale.startswith("de"))
    finally:
        context.close()
    assert problems == []
