"""German and English: the language a page picks, rule errors in the phone's language, the catalogs' build."""

from __future__ import annotations

import random
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.games.marrakesh import Claim, Game, RuleError, SetupOptions
from companion.games.marrakesh.simulate import RandomPlayer
from companion.i18n import Msg, claim_name, colour_name, compile_catalogs, use_locale
from companion.i18n.catalogs import TRANSLATIONS_DIR, js_catalog
from companion.i18n.web import COOKIE
from companion.tower.model import SimulatedTower, TowerParams
from tests.web.conftest import Table
from tests.web.play import first_action
from tests.web.test_games_api import advance_to

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
PO = TRANSLATIONS_DIR / "de" / "LC_MESSAGES" / "messages.po"


class VisibleText(HTMLParser):
    """The text a reader sees (script, style and JSON blocks left out), plus ``<html lang>``."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.lang: str | None = None
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:  # words a reader meets in attributes: labels, alt texts, titles
            if name in ("aria-label", "alt", "title", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.parts.append(" ".join(data.split()))


def visible(html: str) -> VisibleText:
    parser = VisibleText()
    parser.feed(html)
    return parser


def english_phrases() -> list[str]:
    """Catalog ids whose German differs from the English (so seeing one means an untranslated text),
    with their placeholders cut out: each fixed piece of at least 2 words is searched for."""
    with PO.open("rb") as source:
        catalog = read_po(source)
    phrases: set[str] = set()
    for message in catalog:
        if not message.id or not isinstance(message.id, str) or message.string == message.id:
            continue
        for piece in re.split(r"%\(\w+\)s|\{\w+(?:!r)?\}", message.id):
            piece = piece.strip(" .:;,()·")
            if len(piece.split()) >= 2 or (message.context and piece):
                phrases.add(piece)
    return sorted(phrases, key=len, reverse=True)


def untranslated(text: str) -> list[str]:
    """The English catalog phrases found in ``text`` (a colour word only as a whole word)."""
    found = []
    for phrase in english_phrases():  # the plain substring test first: it skips almost every regex
        if phrase in text and re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text):
            found.append(phrase)
    return found


# --- choosing the language ------------------------------------------------------------------------

def test_the_browser_language_picks_german_and_english_stays_the_default(client: FlaskClient) -> None:
    german = visible(client.get("/tower", headers=GERMAN).get_data(as_text=True))
    assert german.lang == "de" and "Turm" in german.parts
    assert "Spiele" in german.parts and "Games" not in german.parts
    english = visible(client.get("/tower", headers={"Accept-Language": "fr-FR,fr"}).get_data(as_text=True))
    assert english.lang == "en" and "Games" in english.parts and "Spiele" not in english.parts


def test_the_menu_switch_overrides_the_browser_and_is_kept_across_pages(client: FlaskClient) -> None:
    page = client.get("/tower", headers=GERMAN).get_data(as_text=True)
    assert 'href="/language/en?next=/tower"' in page  # the menu offers the other language
    switched = client.get("/language/en?next=/tower", headers=GERMAN)
    assert switched.status_code == 302 and switched.headers["Location"] == "/tower"
    assert COOKIE in switched.headers["Set-Cookie"]
    for path in ("/tower", "/setup/calibrate"):  # the German browser now reads English everywhere
        assert visible(client.get(path, headers=GERMAN).get_data(as_text=True)).lang == "en"
    client.get("/language/de?next=/")
    assert visible(client.get("/tower").get_data(as_text=True)).lang == "de"


def test_the_switch_refuses_an_unknown_language_and_a_foreign_target(client: FlaskClient) -> None:
    assert client.get("/language/fr").status_code == 404
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        response = client.get("/language/de", query_string={"next": target})
        assert response.headers["Location"] == "/"


# --- rule errors ----------------------------------------------------------------------------------

def test_a_rule_error_comes_back_in_german_with_its_rule_and_changes_nothing(table: Table) -> None:
    view = advance_to(table, "claim")
    other = 1 - view["to_move"]
    action = {"type": "claim", "player": other, "colours": view["legal"][0]["action"]["colours"]}
    before = table.view()
    response = table.client.post(f"/api/games/{table.game_id}/actions", json={"action": action,
                                 "version": view["version"]}, headers={"X-CSRF-Token": table.csrf, **GERMAN})
    assert response.status_code == 422
    error = response.get_json()["error"]
    names = before["names"]
    assert error.startswith(f"{names[other]} ist nicht am Zug: {names[view['to_move']]} ist jetzt dran")
    assert "Holz-Keshis nehmen" in error and "EN:L625" not in error  # the rule's phase, no rulebook line
    assert table.view() == before  # nothing changed
    english = table.act(action, view["version"]).get_json()["error"]
    assert "is not" in english and "'s turn" in english and "EN:L625" not in english


def test_a_shared_device_without_a_name_is_named_in_each_readers_language(table: Table) -> None:
    """The companion's own screen made shared from a German page: a German phone reads its name in German,
    an English one in English (the name is kept in neither language, not as the host happened to read it)."""
    response = table.client.post(f"/api/games/{table.game_id}/role", json={"seat": "all"},
                                 headers={"X-CSRF-Token": table.csrf, **GERMAN})
    assert response.status_code == 200, response.get_json()
    [device] = [d for d in table.view()["devices"] if d["seat"] == "all"]
    said = Msg.from_json(device["say"])
    assert said.render("de") == "Der Bildschirm des Begleiters spielt für alle"
    assert said.render("en") == "The companion's screen plays for everyone"


def test_an_engine_message_renders_in_the_active_language_and_stays_english_elsewhere() -> None:
    game = Game.new(SetupOptions(players=["Sarah", "Jan"], seed=3))
    with pytest.raises(RuleError) as raised:
        game.apply(Claim(0, ("green",)))  # claiming while keshis are being selected
    error = raised.value
    english = str(error)
    with use_locale("de"):
        german = str(error)
    assert german != english and "Sarah" in german and str(error) == english
    message = Msg("{player} has no {colour} keshi left behind the screen", player="Ben", colour=colour_name("green"))
    assert message.render("de") == "Ben hat keinen Keshi in Hellgrün mehr hinter dem Sichtschirm"
    assert Msg.from_json(message.to_json()) == message
    assert message.english() == "Ben has no green keshi left behind the screen"
    claim = Msg("{player} cannot claim {colours}; legal: {options}", player="Ben", colours=claim_name(("red",)),
                options=[claim_name(("yellow", "orange")), claim_name(("green", "green"))])
    assert claim.english() == "Ben cannot claim red; legal: yellow+orange, green+green"
    german = "Ben kann Rot nicht nehmen; erlaubt: Gelb+Orange, Hellgrün+Hellgrün"
    assert Msg.from_json(claim.to_json()).render("de") == german


def test_a_decision_shown_to_the_table_carries_its_prompt_in_words_any_language_can_render(table: Table) -> None:
    view = table.view()
    while not view["pending"]:
        response = table.act(first_action(view), view["version"])
        assert response.status_code == 201, response.get_json()
        view = response.get_json()["view"]
    pending = view["pending"]
    prompt = Msg.from_json(pending["say"])
    assert prompt.english() == pending["prompt"]  # the stored prompt (logs, CLI) stays English
    german = prompt.render("de")
    assert german != pending["prompt"] and untranslated(german) == [], german


def message_ids(say: dict[str, Any]) -> set[str]:
    """Every catalog key a ``Msg.to_json`` uses (the message's and its words')."""
    key = f"{say['context']}\u0004{say['text']}" if say.get("context") else say["text"]
    keys = {key}
    for value in say["params"].values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                keys |= message_ids(item)
    return keys


@pytest.mark.parametrize("edition, expansions", [("essential", (1, 2, 3, 4, 5)), ("classic", ())])
def test_every_prompt_of_a_whole_game_has_its_german(edition: str, expansions: tuple[int, ...]) -> None:
    rng = random.Random(5)
    game = Game.new(SetupOptions(players=["Sarah", "Jan", "Marie"], seed=5, edition=edition, expansions=expansions))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(layer="B1"), rng))
    asked: set[str] = set()
    while not game.finished:
        if game.pending is not None:
            asked |= message_ids(game.pending["say"])  # every prompt is a Msg: none is English-only
        game.apply(player.action(game))
    missing = asked - set(js_catalog("de"))
    assert len(asked) > 20 and not missing, missing


# --- the pages this module translates -------------------------------------------------------------

@pytest.mark.parametrize("path", ["/tower", "/setup/calibrate", "join", "game", "/profile"])
def test_a_german_page_has_no_english_left(table: Table, path: str) -> None:
    url = {"join": f"/games/{table.game_id}/join", "game": f"/games/{table.game_id}"}.get(path, path)
    response = table.client.get(url, headers=GERMAN)
    assert response.status_code == 200
    page = visible(response.get_data(as_text=True))
    text = "\n".join(page.parts)
    assert page.lang == "de" and untranslated(text) == [], text
    english = "\n".join(visible(table.client.get(url).get_data(as_text=True)).parts)
    assert untranslated(english), "the scan must see the English page's texts"


def test_the_page_carries_the_catalog_for_javascript_and_colour_names_as_the_rulebook_spells_them(
        client: FlaskClient) -> None:
    page = client.get("/tower", headers=GERMAN).get_data(as_text=True)
    assert 'id="keshi-i18n"' in page and "Hellgrün" in page
    catalog = js_catalog("de")
    assert catalog["Tossing…"] == "Wurf läuft …"
    words = {c: catalog[f"colour\u0004{c}"] for c in ("turquoise", "green", "white", "purple", "pink")}
    assert words == {"turquoise": "Türkis", "green": "Hellgrün", "white": "Weiß", "purple": "Lila", "pink": "Rosa"}
    assert catalog["sector\u0004main square"] == "Großer Platz"
    assert 'id="keshi-i18n"' not in client.get("/tower").get_data(as_text=True)  # English needs no catalog


# --- the catalogs ---------------------------------------------------------------------------------

def test_the_catalogs_compile_from_a_clean_tree(tmp_path: Path) -> None:
    tree = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS_DIR, tree, ignore=shutil.ignore_patterns("*.mo"))
    mo = tree / "de" / "LC_MESSAGES" / "messages.mo"
    assert not mo.exists()
    assert compile_catalogs(tree) == [mo] and mo.stat().st_size > 1000
    assert compile_catalogs(tree) == []  # up to date: nothing to do
    import gettext

    german: Any = gettext.translation("messages", str(tree), ["de"])
    assert german.pgettext("colour", "green") == "Hellgrün" and german.gettext("Tower") == "Turm"


def test_every_translation_keeps_the_placeholders_of_its_english() -> None:
    with PO.open("rb") as source:
        catalog = read_po(source)
    pattern = re.compile(r"%\(\w+\)s|\{\w+(?:!r)?\}")
    for message in catalog:
        if message.id and message.string:
            assert sorted(pattern.findall(str(message.string))) == sorted(pattern.findall(str(message.id))), message.id


# --- the game page's data and refusals (views.py, games/common/game_base.py, access.py) ------------------------

def test_the_game_view_sends_its_words_as_messages_with_their_german(table: Table) -> None:
    view = advance_to(table, "claim")
    catalog = js_catalog("de")
    for key, say in view["category_labels"].items():  # every score category has its rulebook word
        assert not message_ids(say) - set(catalog), key
    sectors = view["boards"][0]["sectors"]
    assert [Msg.from_json(s["say"]).render("de") for s in sectors][:3] == ["Fluss", "Dattelplantage", "Souk"]
    goes_to = [Msg.from_json(row["to_say"]).render("de") for row in view["claim_display"]]
    assert goes_to and untranslated(" / ".join(goes_to)) == [], goes_to
    undo = Msg.from_json(view["undo_say"])
    assert undo.english() == view["undo"]["label"] or undo.english().startswith("the tower release (")
    assert untranslated(undo.render("de")) == [], undo.render("de")


def test_a_move_while_a_decision_waits_is_refused_in_german_with_the_german_prompt(table: Table) -> None:
    view = table.view()
    while not view["pending"]:
        view = table.act(first_action(view), view["version"]).get_json()["view"]
    prompt = Msg.from_json(view["pending"]["say"])
    wrong = {"type": "claim", "player": 0, "colours": ["yellow"]}
    response = table.client.post(f"/api/games/{table.game_id}/actions", json={"action": wrong,
                                 "version": view["version"]}, headers={"X-CSRF-Token": table.csrf, **GERMAN})
    error = response.get_json()["error"]
    assert response.status_code == 422 and "muss zuerst antworten: " + prompt.render("de") in error, error
    assert table.view()["version"] == view["version"]  # nothing changed


def test_a_wrong_pin_and_a_missing_csrf_token_are_refused_in_german(table: Table) -> None:
    fresh = table.client.application.test_client()
    token = fresh.get("/api/session").get_json()["csrf"]
    wrong = fresh.post(f"/api/games/{table.game_id}/join", json={"pin": "not a pin"},
                       headers={**GERMAN, "X-CSRF-Token": token})
    assert wrong.status_code == 403 and wrong.get_json()["error"].startswith("falsche Tisch-PIN"), wrong.get_json()
    no_token = fresh.post(f"/api/games/{table.game_id}/join", json={"pin": "not a pin"},
                          headers={**GERMAN, "X-CSRF-Token": ""})
    assert "CSRF-Token fehlt" in no_token.get_json()["error"]


# --- the board profile's key catalogue and the engine's setup and action-format errors ------------

#: One key of every family in the board-profile catalogue (the test below fails when a family has none).
PROFILE_SAMPLES = [
    "river.space.4", "river.jetty.2", "river.crocodile", "palace.segment_starts", "mosque.segment_starts",
    "palace.segment4_start", "mosque.segment4_start", "palace.final_step", "mosque.final_step", "line.2.3",
    "line.2.3.spaces", "line.2.3.fixed", "stair_tile.7.B", "palace.sultan_step", "mosque.imam_step",
    "square.position.river_step", "disc.section.3", "disc.purple.section.5", "workshop.1.price",
    "workshop.2.points", "gate_space.6", "sahara.cost.right.2", "storage.4", "storage.reverse.2", "office.3.purple",
    "office.2.new.orange", "luxury.9.cost", "luxury.9.reward", "luxury.9.type", "provision.5.demand",
    "provision.5.points", "scroll.12.colour", "scroll.12.goods", "oasis.8.colours", "oasis.8.points",
    "oasis.8.colour", "oasis.8.luxury", "oasis.8.resource",
]


def test_every_board_profile_key_has_its_german_title_and_description() -> None:
    from companion.table.board_profile_keys import SPECS, check_value, info, spec_of

    families = {key: spec_of(key) for key in PROFILE_SAMPLES}
    assert all(families.values()), "every sample is a known key"
    found = {family[0].pattern for family in families.values() if family}
    assert {spec.pattern for spec in SPECS} <= found, "a catalogue family has no sample key here"
    catalog = js_catalog("de")
    shown: list[str] = []
    for key, family in families.items():
        assert family is not None
        spec, match = family
        messages = [spec.title(match), spec.where(match), *spec.parts]
        for message in messages:  # each text (and each word in it) has a German entry
            assert not message_ids(message.to_json()) - set(catalog), (key, message.english())
        with use_locale("de"):
            german = info(key)
            refusal = check_value(key, "not a value")
        assert german.title != info(key).title and german.where != info(key).where and refusal, key
        shown += [german.title, german.where, *german.parts, refusal]
    assert untranslated("\n".join(shown)) == []  # no English phrase left in any of them (one scan: it is slow)
    with use_locale("de"):
        where = info("disc.section.0").where
    assert "Abschnitt 0" in where and "im Uhrzeigersinn" in where and "Ringposition" in where  # the same numbering


def test_the_board_profile_data_in_german_has_no_english_left(table: Table) -> None:
    """The profile page draws its list from the API: every title, description and part label in German."""
    put = table.client.put("/api/board-profile/essential/values/oasis.4.points", json={"value": 3},
                           headers={"X-CSRF-Token": table.csrf})
    assert put.status_code == 200, put.get_json()

    def texts(headers: dict[str, str]) -> str:
        entries = table.client.get("/api/board-profile?edition=essential", headers=headers).get_json()["entries"]
        assert len(entries) > 40
        return "\n".join(part for e in entries for part in (e["title"], e["where"], *e["parts"]))

    german = texts(GERMAN)
    assert untranslated(german) == [], untranslated(german)
    assert "Oase 4: Punkte" in german and "Zuschauer-Scheibe" in german
    assert untranslated(texts({})), "the scan must see the English texts"
    refused = table.client.put("/api/board-profile/essential/values/oasis.4.points", json={"value": 9},
                               headers={"X-CSRF-Token": table.csrf, **GERMAN})
    assert refused.status_code == 400 and refused.get_json()["error"] == "Oase 4: Punkte: 9 ist kein möglicher Wert"
    values = {"square.position.water": 1, "square.position.goods": 1, "oasis.4.points": 0}
    clash = {"format": "keshi-board-profile", "version": 1, "edition": "essential", "values": values}
    imported = table.post("/api/board-profile/import", clash, **GERMAN)
    assert imported.status_code == 400 and imported.get_json()["error"] == (
        "Oase 4: Punkte: 0 ist kein möglicher Wert (und 1 weiteres Problem)"), imported.get_json()
    del values["oasis.4.points"]
    imported = table.post("/api/board-profile/import", clash, **GERMAN)
    assert imported.get_json()["error"] == ("Großer Platz: Ringposition 1 kann nicht zugleich das Feld „Ware“ und "
                                            "das Feld „Wasser“ sein"), imported.get_json()
    source_words = ("answered in a game", "edited here", "imported", "from the rulebook",
                    "not known yet: set it now, or it is asked in play")
    assert all(js_catalog("de").get(word) for word in source_words)  # profile.js shows where a value came from


def test_a_setup_error_comes_back_in_german_and_creates_no_game(table: Table) -> None:
    before = table.client.get("/api/games").get_json()["games"]
    body = {"players": [{"name": "Sarah"}, {"name": "Jan"}], "seed": 1, "draws": {"river_tiles": [3, 1, 5]}}
    response = table.post("/api/games", body, **GERMAN)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("Fluss-Plättchen 3 gehört nicht zu Durchgang 1") and untranslated(error) == [], error
    assert table.client.get("/api/games").get_json()["games"] == before
    english = table.post("/api/games", body).get_json()["error"]
    assert english.startswith("river tile 3 does not belong to season 1"), english


@pytest.mark.parametrize("bad, german, english", [
    ({"type": "release", "counts": {"green": -1}}, "Hellgrün muss eine ganze Zahl >= 0 sein, nicht -1",
     "release count for green must be a whole number >= 0, not -1"),
    ({"type": "claim", "player": "Sarah", "colours": ["green"]}, "das Feld 'player' hat den falschen Typ: 'Sarah'",
     "claim action field 'player' has the wrong type: 'Sarah'"),
])
def test_an_action_format_error_comes_back_in_german_and_changes_nothing(
        table: Table, bad: dict[str, Any], german: str, english: str) -> None:
    before = table.view()
    response = table.client.post(f"/api/games/{table.game_id}/actions", json={"action": bad,
                                 "version": before["version"]}, headers={"X-CSRF-Token": table.csrf, **GERMAN})
    error = response.get_json()["error"]
    assert response.status_code in (400, 422) and german in error and untranslated(error) == [], error
    assert table.view() == before
    assert english in table.act(bad, before["version"]).get_json()["error"]


@pytest.mark.parametrize("options, english", [
    ({"draws": {"workshops": [["green"] * 8] * 4}}, "workshops hold 32 green gates; the bag has"),
    ({"draws": {"disc_orientation": [9, 0]}}, "disc_orientation must give each player a section 0-7: [9, 0]"),
    ({"draws": {"exchange_offices": [1, 1, 2]}}, "exchange_offices must list 3 distinct values from"),
    ({"draws": {"moon": 1}}, "unknown setup draws ['moon']; expected some of river_tiles, exchange_offices"),
    ({"expansions": [6]}, "unknown expansion 6; the expansions are 1 (staircase tiles), 2 (Imam & Sultan)"),
    ({"expansions": [1], "draws": {"staircase_tiles": [[1, "A"]]}}, "staircase_tiles must list 12 distinct"),
    ({"table_draws": True}, "with table draws the table must enter: river_tiles"),
    ({"edition": "chess"}, "unknown edition 'chess'; known: essential, classic"),
])
def test_every_kind_of_setup_error_has_its_german(options: dict[str, Any], english: str) -> None:
    from companion.games.marrakesh import SetupError

    with pytest.raises(SetupError) as caught:
        Game.new(SetupOptions(players=["Sarah", "Jan"], seed=1, **options))
    assert str(caught.value).startswith(english)
    with use_locale("de"):
        german = str(caught.value)
    assert german != str(caught.value) and untranslated(german) == [], german
