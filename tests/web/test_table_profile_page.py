"""Issue 25: Morocco's printed value (how much a market tile's overflow arrow adds) can be entered on the Board
page before play, and the next Morocco game starts with it (asking nothing); a value the game cannot have is
refused naming the possible ones and changes nothing; Forget lets the next game ask again."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from companion.games.morocco.setup import OVERFLOW_KEY
from companion.table.service import GameService
from tests.web.conftest import csrf_of

API = f"/api/table-profile/morocco/values/{OVERFLOW_KEY}"
PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def new_morocco(client: FlaskClient, csrf: str) -> str:
    made = client.post("/api/games", json={"game": "morocco", "players": PLAYERS, "seed": 3},
                       headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.get_json()
    return str(made.get_json()["id"])


def test_the_board_page_enters_moroccos_printed_value_for_the_next_game(app: Flask, client: FlaskClient) -> None:
    csrf = csrf_of(client)
    listed = client.get("/api/table-profile/morocco", headers=GERMAN).get_json()["entries"]
    assert [(e["key"], e["value"], e["source"]) for e in listed] == [(OVERFLOW_KEY, None, "missing")]
    assert listed[0]["title"].startswith("Wie viel zählt der Überlaufpfeil")  # the question, in the phone's words
    assert 'id="tp-morocco"' in client.get("/profile?edition=morocco").get_data(as_text=True)
    refused = client.put(API, json={"value": 3}, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 400 and "1, 2" in refused.get_json()["error"]
    assert client.get("/api/table-profile/morocco").get_json()["entries"][0]["value"] is None
    assert client.put(API, json={"value": 2}, headers={"X-CSRF-Token": csrf}).status_code == 200
    games: GameService = app.extensions["keshi.games"]
    assert games.get(new_morocco(client, csrf)).game.profile == {OVERFLOW_KEY: 2}  # never asked in that game
    assert client.delete(API, headers={"X-CSRF-Token": csrf}).get_json() == {"forgotten": OVERFLOW_KEY}
    assert games.get(new_morocco(client, csrf)).game.profile == {}


def test_the_board_pages_tabs_name_their_game_and_moroccos_card_shows_on_its_tab_only(client: FlaskClient) -> None:
    """Each tab says which game it is for (Marrakesh's two editions, Sabika, Morocco); Morocco's value is on
    Morocco's tab and nowhere else, and that tab shows none of the boards' values."""
    for edition in ("essential", "classic", "sabika"):
        page = client.get(f"/profile?edition={edition}", headers=GERMAN).get_data(as_text=True)
        tabs = [(key, re.sub(r"<[^>]+>", "", words)) for key, words in
                re.findall(r'<a class="button[^"]*" href="/profile\?edition=(\w+)"[^>]*>(.+?)</a>', page, re.DOTALL)]
        assert tabs == [("essential", "Marrakesh Essential Edition (2023)"), ("classic", "Marrakesh Classic (2022)"),
                        ("sabika", "Sabika"), ("morocco", "Morocco")]
        assert 'id="tp-morocco"' not in page and 'id="pf-values"' in page
    morocco = client.get("/profile?edition=morocco", headers=GERMAN).get_data(as_text=True)
    assert 'id="tp-morocco"' in morocco and 'id="pf-values"' not in morocco and 'id="pf-import"' not in morocco
    assert re.search(r'href="/profile\?edition=morocco"\s+aria-current="page"', morocco)


def test_a_game_without_printed_values_to_enter_is_refused(client: FlaskClient) -> None:
    refused = client.get("/api/table-profile/sabika")
    assert refused.status_code == 400 and "Sabika" in refused.get_json()["error"]
