"""Issue 14: every dashboard screen in German fits a 360×740 phone (and the game pages a 1280×800 tablet).

German words are much longer than English ones ("Würfelturm-Basis", "Versorgungsplättchen"), so one phone
whose browser asks for German (``Accept-Language: de-DE``) opens every screen: the games list; the setup
wizard (a Marrakesh setup with every expansion, the draws typed at the table); a Marrakesh game with every
expansion (joining with the PIN, "Who are you?", the tower check's counter, choosing keshis, the tower's
result and its correction, claims with the tower-base display, the boards and score breakdowns, a decision,
a printed-value question, the season scoring, a phone that only watches); the Board page with two values'
editors open, the Tower page before and after a toss, the camera calibration, the Fairness report (with
tosses); a Morocco and a Sabika game at their start and a few moves in (Sabika's board sections open), with
a long list one step in. The Marrakesh, Morocco and Sabika pages are measured on a 1280×800 tablet too.

On each screen ``LAYOUT_PROBLEMS`` looks for: the page scrolling sideways; a button, link, heading, label,
chip or table cell reaching past the screen (or past its own slide in a sideways carousel such as the boards,
whose slides must each fit its window; a statistics table in the Fairness report's own ``.scroll`` window
is the one wide thing allowed); text wider than its box (spilling over its edge, or cut off where the box
hides what does not fit); a word broken across two lines (Debian's Chromium has no hyphenation dictionaries,
so such a break shows no hyphen: "Startplättch|en"); a button, select or summary lower than 48 px (issue
14's touch targets, as test_boards and test_sabika_game ask). Every problem of every screen is collected
and reported at once. On a claim turn the sticky turn bar covers at most a fifth of the phone (``TURN_BAR_PX``).
A screenshot of each screen goes to ``test-artifacts/screenshots/german-360-*.png`` (tablet: ``german-1280-*``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from companion.cli import main
from companion.games.sabika.simulate import random_profile
from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.test_boards_taps import settled
from tests.browser.test_real_table import fast_forward, season_scored
from tests.conftest import LiveServer
from tests.games.sabika.helpers import BASE_PROFILE
from tests.web.http_table import HttpTable

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 1280, "height": 800}
#: Long German names, as a table types them.
PLAYERS = [{"name": "Annegret", "colour": "blue"}, {"name": "Bartholomäus", "colour": "red"},
           {"name": "Cornelia", "colour": "green"}]
SEED = 7
#: Every expansion: its words on the boards too (desert towns, Sultan and Imam, exchange offices, ...).
EXPANSIONS = [1, 2, 3, 4, 5]
#: Moves made through the API (seeded random choices) before the Morocco and Sabika pages are measured again: each
#: then shows a long list of moves, grouped, whose first step opens its group.
MOVES = {"morocco": 12, "sabika": 7}
MOVES_SEED = 12
#: Tappable things are at least this tall (issue 14).
TARGET_PX = 48
#: The sticky turn bar ("▲ Bartholomäus ist am Zug", "Du bist dran, …") on a claim turn: at most a fifth of the
#: phone's 740 px, which it covers all game (English: 140 px).
TURN_BAR_PX = 148

#: Every layout problem on the screen, in words (empty: the screen fits). Runs in the page; ``target``: TARGET_PX.
LAYOUT_PROBLEMS = r"""(target) => {
  const width = window.innerWidth, problems = [];
  const say = e => (e.innerText || e.textContent || e.value || e.getAttribute('aria-label') || e.tagName)
    .trim().replace(/\s+/g, ' ').slice(0, 50);
  const tag = e => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className
    ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  const visible = e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  };
  const inline = e => ['inline', 'contents'].includes(getComputedStyle(e).display);

  const page = document.scrollingElement.scrollWidth;
  if (page > width) problems.push(`the page scrolls sideways: ${page} px wide`);

  // What scrolls sideways inside the page: a carousel (the boards) whose slides each fit its window, or a
  // statistics table alone in the Fairness report's .scroll window.
  const sideways = new Set();
  for (const e of document.querySelectorAll('body *')) {
    const x = getComputedStyle(e).overflowX;
    if ((x !== 'auto' && x !== 'scroll') || e.scrollWidth <= e.clientWidth || !visible(e)) continue;
    sideways.add(e);
    if (e.matches('.scroll') && e.children.length === 1 && e.firstElementChild.matches('table')) continue;
    for (const slide of e.children) {
      const w = slide.getBoundingClientRect().width;
      if (visible(slide) && w > e.clientWidth + 1)
        problems.push(`${tag(slide)} "${say(slide)}" is ${Math.round(w)} px wide in a ${e.clientWidth} px window`);
    }
  }
  // The frame a box must stay inside: the screen, or its own slide in a sideways window.
  const frame = e => {
    for (let slide = e; slide.parentElement && slide.parentElement !== document.body; slide = slide.parentElement) {
      if (sideways.has(slide.parentElement)) return slide.getBoundingClientRect();
    }
    return {left: 0, right: width};
  };

  // Buttons, links, headings, labels, chips and cells: inside their frame, their text inside them.
  const boxes = 'a, button, .button, summary, select, label, h1, h2, h3, .chip, .option, .board-dot, th, td';
  for (const e of document.querySelectorAll(boxes)) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect(), f = frame(e);
    if (r.right > f.right + 1 || r.left < f.left - 1)
      problems.push(`${tag(e)} "${say(e)}" reaches past the screen: ${Math.round(r.left)}–${Math.round(r.right)} px`);
    if (!inline(e) && e.tagName !== 'SELECT' && e.scrollWidth > e.clientWidth + 1)
      problems.push(`${tag(e)} "${say(e)}" is too narrow for its text: ${e.scrollWidth} px in ${e.clientWidth} px`);
  }
  // Text cut off by a box that hides what does not fit.
  for (const e of document.querySelectorAll('body *')) {
    const s = getComputedStyle(e);
    const clips = s.overflowX === 'hidden' || s.overflowX === 'clip' || s.textOverflow === 'ellipsis';
    if (clips && !sideways.has(e) && (e.textContent || '').trim() && e.scrollWidth > e.clientWidth + 1 && visible(e))
      problems.push(`${tag(e)} "${say(e)}" is cut off: ${e.scrollWidth} px of text in ${e.clientWidth} px`);
  }

  // Every piece of text: not over the right edge of any box around it (a label into its value, out of its
  // card), up to a positioned box (placed on purpose) or a sideways window; and no word broken in two lines.
  const spilled = new Set(), broken = new Set();
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const parent = node.parentElement;
    if (!node.data.trim() || parent.closest('svg, option, script, style, .join-url, code, pre') || !visible(parent))
      continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const right = Math.max(...[...range.getClientRects()].filter(r => r.width > 0).map(r => r.right));
    for (let box = parent; box && box !== document.body && !sideways.has(box); box = box.parentElement) {
      if (inline(box)) continue;
      const over = right - (box.getBoundingClientRect().left + box.clientLeft + box.clientWidth);
      if (over > 1) {
        if (!spilled.has(box))
          problems.push(`"${node.data.trim().slice(0, 30)}" runs ${Math.round(over)} px over the edge of ` +
                        `${tag(box)} "${say(box)}"`);
        spilled.add(box);
        break;
      }
      if (['absolute', 'fixed'].includes(getComputedStyle(box).position)) break;
    }
    // this browser does not hyphenate: a word on two lines is split with no hyphen ("Startplättch|en")
    for (const m of node.data.matchAll(/[^\s\-–—\/·]+[\-–—\/]?/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
      if (lines.size > 1 && !broken.has(m[0] + say(parent))) {
        broken.add(m[0] + say(parent));
        problems.push(`"${m[0]}" is broken across two lines in ${tag(parent)} "${say(parent)}"`);
      }
    }
  }

  // Touch targets.
  for (const e of document.querySelectorAll('button, .button, summary, select, [role=button], input[type=submit]')) {
    const h = e.getBoundingClientRect().height;
    if (visible(e) && h < target - 0.5) problems.push(`${tag(e)} "${say(e)}" is ${Math.round(h)} px tall`);
  }
  return problems;
}"""


class Phone:
    """The German phone: each screen photographed and measured; the problems of every screen collected."""

    def __init__(self, page: Page, url: str) -> None:
        self.page, self.url = page, url
        self.problems: dict[str, list[str]] = {}
        self.screens: list[str] = []

    def check(self, name: str, *, full_page: bool = True) -> None:
        """Measure the screen and photograph it: the whole page, or (``full_page=False``) what the phone
        shows where the page scrolled itself (the choices of a turn, under the sticky turn bar)."""
        self.screens.append(name)
        name = f"{len(self.screens):02d}-{name}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        width = (self.page.viewport_size or PHONE)["width"]
        self.page.screenshot(path=str(SCREENSHOTS / f"german-{width}-{name}.png"), full_page=full_page)
        found = self.page.evaluate(LAYOUT_PROBLEMS, TARGET_PX)
        if found:
            self.problems[name] = found

    def note(self, problem: str) -> None:
        """A problem of the screen measured last, found by the test itself."""
        self.problems.setdefault(f"{len(self.screens):02d}-{self.screens[-1]}", []).append(problem)

    def open(self, path: str, name: str, ready: str) -> None:
        """Go to ``path`` and measure it once ``ready`` (what its script draws last) is on screen."""
        self.page.goto(self.url + path)
        expect(self.page.locator(ready).first).to_be_visible()
        self.check(name)

    def on_tablet(self, name: str) -> None:
        """The same screen on a 1280×800 tablet, then back to the phone."""
        self.page.set_viewport_size(TABLET)
        self.check(name)
        self.page.set_viewport_size(PHONE)

    def sit_at(self, game: dict[str, Any]) -> None:
        """Join a game with its PIN as the table's shared device."""
        self.page.goto(f"{self.url}/games/{game['id']}/join?pin={game['pin']}")
        self.page.get_by_role("button", name="Beitreten").click()
        self.page.get_by_role("button", name="Gemeinsames Gerät: spielt für alle").click()


@pytest.fixture
def german(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for German (``Accept-Language: de-DE``)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context.new_page()
    context.close()


def test_every_german_screen_fits_a_phone(german: Page, live_server: LiveServer) -> None:
    table = HttpTable(live_server.url)
    phone = Phone(german, live_server.url)
    marrakesh = create(table, {"players": PLAYERS, "seed": SEED, "expansions": EXPANSIONS})  # tower not yet checked
    morocco = create(table, {"game": "morocco", "players": PLAYERS[:2], "seed": 11})
    sabika = create(table, {"game": "sabika", "players": PLAYERS[:2], "seed": 21,
                            "options": {"profile": random_profile(2, 21, BASE_PROFILE)}})
    games_list_and_setup(phone)
    marrakesh_game(phone, table, marrakesh)
    main(["tower", "simulate", "--tosses", "200", "--seed", "2", "--instance", str(live_server.instance)])
    other_pages(phone, table)
    table_games(phone, table, morocco, sabika)
    german.context.clear_cookies()  # a phone that only watches: Join and "Show the table PIN"
    german.goto(f"{live_server.url}/games/{marrakesh['id']}")
    german.locator("#season-hide").click()  # the season scoring, put away on this phone only
    phone.check("watching")
    assert len(phone.screens) == 33, phone.screens
    assert phone.problems == {}, "\n".join(f"{screen}: {p}" for screen, found in phone.problems.items() for p in found)


def games_list_and_setup(phone: Phone) -> None:
    page = phone.page
    phone.open("/", "games", "#games")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("link", name="Neues Spiel").click()
    names = page.locator(".player-name")
    for i, player in enumerate(PLAYERS):
        if i >= names.count():
            page.locator("#add-player").click()
        names.nth(i).fill(player["name"])
    phone.check("setup-players")
    page.get_by_role("button", name="Weiter: Ausgabe & Turm").click()
    for box in page.locator('input[name="expansion"]').all():
        box.check()
    phone.check("setup-edition")
    page.get_by_role("button", name="Weiter: Aufbau-Ziehungen").click()
    page.get_by_label("Wir haben am Tisch gezogen: eintragen").check()
    phone.check("setup-draws")
    page.get_by_label("Der Companion zieht alles").check()
    page.get_by_role("button", name="Weiter: Überblick").click()
    expect(page.locator("#review li").first).to_be_visible()
    phone.check("setup-review")


def marrakesh_game(phone: Phone, table: HttpTable, game: dict[str, Any]) -> None:
    page, game_id = phone.page, str(game["id"])
    phone.open(f"/games/{game_id}/join?pin={game['pin']}", "join", "main button")
    page.get_by_role("button", name="Beitreten").click()
    expect(page.get_by_role("heading", name="Wer bist du?")).to_be_visible()
    phone.check("who-are-you")
    # the table's jobs, on the shared device: the tower check, choosing, the tower's result and its correction
    page.get_by_role("button", name="Gemeinsames Gerät: spielt für alle").click()
    page.locator("#tower-found").click()
    expect(page.locator("#counter .count-row").first).to_be_visible()
    phone.check("tower-check-counter")
    status, emptied = table.request("POST", f"/api/games/{game_id}/tower/empty", {"found": {}})
    assert status == 201, emptied
    expect(page.locator(".picker").first).to_be_visible()
    phone.check("choose-keshis")
    view = fast_forward(table, game_id, lambda v: v["phase"] == "toss" and not v["tower_result"])
    table.toss_and_wait(game_id, view["version"])
    settled([page], table, game_id)
    expect(page.locator("#accept")).to_be_visible()
    phone.check("tower-result")
    page.locator("#correct").click()
    phone.check("correct-counts")
    # Bartholomäus's own phone from here: his turn's cue, the claims beside the tower-base display, a decision
    page.locator("#role").select_option("1")
    expect(page.locator("#who-line")).to_contain_text("Bartholomäus")
    fast_forward(table, game_id, lambda v: v["phase"] == "claim" and v["to_move"] == 1 and not v["pending"])
    settled([page], table, game_id)
    expect(page.locator("#your-turn")).to_be_visible()
    phone.check("claims", full_page=False)
    bar = page.locator("#turnbar").bounding_box() or {"height": 0}
    if bar["height"] > TURN_BAR_PX:
        phone.note(f"the sticky turn bar is {round(bar['height'])} px tall: it covers that much of every screen")
    page.evaluate("() => document.querySelectorAll('main details').forEach(d => { d.open = true; })")  # scores
    page.locator("#display-card").scroll_into_view_if_needed()
    phone.check("display-and-boards")
    phone.on_tablet("claims")
    fast_forward(table, game_id, lambda v: (v["pending"] or {}).get("player") == 1)
    settled([page], table, game_id)
    phone.check("decision", full_page=False)
    page.locator("#role").select_option("all")  # the table's printed-value question (its steppers) at season's end
    view = fast_forward(table, game_id, lambda v: (v["pending"] or {}).get("kind") == "question")
    settled([page], table, game_id)
    expect(page.locator("#screen .pv-question .pv-submit")).to_be_visible()
    # a provision tile's demand before any tap (all steppers at 0): a step to take, not a wrong value
    expect(page.locator("#screen .pv-question")).to_contain_text("Versorgungsplättchen 5: die Ressourcen")
    expect(page.locator("#screen .pv-question .pv-msg")).to_have_text("Stelle ein, was dort aufgedruckt ist.")
    phone.check("value-question", full_page=False)
    fast_forward(table, game_id, season_scored)
    settled([page], table, game_id)
    expect(page.locator("#season-card")).to_be_visible()
    phone.check("season-scoring", full_page=False)


def other_pages(phone: Phone, table: HttpTable) -> None:
    page = phone.page
    phone.open("/profile", "board-profile", ".pf-component[open]")  # the boards open while values are missing
    unknown = page.locator(".pf-component[open] .pf-entry", has=page.locator(".pf-value", has_text="—"))
    tiles = page.locator(".pf-component[data-component='tiles']")
    if tiles.get_attribute("open") is None:  # the tiles open once the boards are known, or by a tap
        tiles.locator("summary").click()
    for value in (unknown.first.locator(".pf-open"),  # a value nobody entered yet: its steppers
                  page.locator(".pf-open", has_text="Oase 5: Farbe")):  # a colour: a button per colour name
        value.click()
        expect(value.locator("xpath=..").locator(".pf-edit")).to_be_visible()
        value.evaluate("e => e.scrollIntoView({block: 'start'})")
        phone.check("board-profile-editor", full_page=False)
    phone.open("/tower", "tower", "#counts")
    status, _ = table.request("POST", "/api/tower/contents", {"contents": {"red": 3, "green": 3, "beige": 3}})
    assert status == 200
    page.locator("#toss").click()  # the drops, the counts and where they come from, in German
    expect(page.locator("#counts-source")).not_to_be_empty(timeout=15_000)
    expect(page.locator("#drops li").first).to_be_visible()
    page.locator("#emptied").click()
    expect(page.locator("#empty-state")).not_to_be_empty()
    phone.check("tower-after-toss")
    phone.open("/setup/calibrate", "calibrate", "#cal-progress button")
    phone.open("/fairness/", "fairness", ".verdict")


def table_games(phone: Phone, table: HttpTable, morocco: dict[str, Any], sabika: dict[str, Any]) -> None:
    """Morocco and Sabika on the shared device: at the start, then a few moves in."""
    page = phone.page
    for game, name in ((morocco, "morocco"), (sabika, "sabika")):
        phone.sit_at(game)
        expect(page.locator("#choices button").first).to_be_visible()
        phone.check(f"{name}-start")
        view = play(table, str(game["id"]), MOVES[name])
        expect(page.locator("#game")).to_have_attribute("data-version", str(view["version"]))
        page.evaluate("() => document.querySelectorAll('#board details').forEach(d => { d.open = true; })")
        phone.check(f"{name}-moves-in")
        page.locator("#choices button.tg-step:not(.tg-leaf)").first.click()  # one step in: a group and Back
        expect(page.locator("#back")).to_be_visible()
        phone.check(f"{name}-next-step")
    phone.on_tablet("sabika")
    page.goto(f"{phone.url}/games/{morocco['id']}")  # this phone sits at it already
    expect(page.locator("#choices button").first).to_be_visible()
    phone.on_tablet("morocco")


def create(table: HttpTable, body: dict[str, Any]) -> dict[str, Any]:
    status, game = table.request("POST", "/api/games", body)
    assert status == 201, game
    assert table.request("POST", f"/api/games/{game['id']}/role", {"seat": "all"})[0] == 200  # the other phones
    return game


def play(table: HttpTable, game_id: str, moves: int) -> dict[str, Any]:
    """Morocco or Sabika, ``moves`` seeded random choices on through the API (as the other phones would)."""
    rng = random.Random(MOVES_SEED)
    view = table.view(game_id)
    for _ in range(moves):
        view = table.act(game_id, rng.choice(view["choices"]["options"])["action"], view["version"])
    return view
