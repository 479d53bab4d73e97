"""The fairness page, the hub, the tower's faults and the engine's option words in German.

Each German text is scanned for English catalog phrases left (``untranslated``, tests/web/test_i18n.py);
the English twins stay as they were (the files, the JSON and the CLI keep English).
"""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.fairness.simulate import simulate_into_store
from companion.games.marrakesh import Game, SetupOptions
from companion.games.marrakesh.actions import Answer
from companion.games.marrakesh.errors import IllegalAnswer
from companion.games.marrakesh.simulate import RandomPlayer
from companion.i18n import Msg, use_locale
from companion.table.board_profile import SOURCES, source_words
from companion.table.marrakesh_engine import label, option_text, option_words
from companion.tower.model import SimulatedTower, TowerParams
from tests.web.test_i18n import GERMAN, untranslated, visible


@pytest.fixture
def tossed(app: Flask) -> FlaskClient:
    """The dashboard with a red-biased tower on both layers and one toss that cannot be reconciled."""
    store = app.extensions["keshi.store"]
    simulate_into_store(store, 500, TowerParams(layer="B1", bias={"red": 0.3}), seed=5)
    simulate_into_store(store, 240, TowerParams(layer="B2"), seed=6)
    with store.write() as conn:
        conn.execute("UPDATE tosses SET pieces_in = ? WHERE id = 5", (json.dumps(dict.fromkeys(COLOURS, 0)),))
    return app.test_client()


def page_text(client: FlaskClient, path: str, headers: dict[str, str] | None = None) -> tuple[str | None, str]:
    response = client.get(path, headers=headers or {})
    assert response.status_code == 200, response.get_data(as_text=True)
    page = visible(response.get_data(as_text=True))
    return page.lang, "\n".join(page.parts)


def test_the_fairness_page_speaks_german_on_a_german_phone_and_its_files_stay_english(tossed: FlaskClient) -> None:
    lang, german = page_text(tossed, "/fairness/", GERMAN)
    assert lang == "de" and untranslated(german) == [], german
    # every part of a flagged, two-layer report with a set-aside toss is there to be scanned
    assert "Ergebnis: Farbverzerrung erkannt" in german and "Rot" in german and "Ebene B2" in german
    assert "nichts wurde als eingeworfen erfasst" in german and "B1 im Vergleich zu B2" in german
    assert "English" in german  # the menu's switch back
    lang, english = page_text(tossed, "/fairness/")
    assert lang == "en" and "Verdict: colour bias detected" in english and untranslated(english)
    refused = tossed.get("/fairness/?layer=B9", headers=GERMAN)
    assert refused.status_code == 400 and refused.get_data(as_text=True).startswith("ungültige Anfrage: die Ebene muss")
    csv = tossed.get("/fairness/report.csv", headers=GERMAN).get_data(as_text=True)
    assert "nothing was recorded as tossed in" in csv and "nichts" not in csv  # a saved file stays English


def test_the_report_json_keeps_english_and_carries_every_sentence_as_a_message(tossed: FlaskClient) -> None:
    document = tossed.get("/fairness/report.json", headers=GERMAN).get_json()
    stages = list(document["stages"].values())
    messages = [Msg.from_json(stage["sentence_say"]) for stage in stages]
    assert [message.english() for message in messages] == [stage["sentence"] for stage in stages]
    detail = [Msg.from_json(sentence) for sentence in document["detail_say"]]
    assert " ".join(message.english() for message in detail) == document["detail"] and "set aside" in document["detail"]
    [aside] = document["set_aside"]
    reason = Msg.from_json(aside["reason_say"])
    assert reason.english() == aside["reason"]
    with use_locale("de"):
        german = "\n".join(str(message) for message in [*messages, *detail, reason])
    assert "Farbverzerrung erkannt" in german and untranslated(german) == [], german


# --- the engine's option and answer words (companion/table/marrakesh_engine.py, games/marrakesh/game.py) ---

def test_a_small_dict_option_reads_as_amounts_in_english_and_german() -> None:
    option = {"dinars": 1, "water": 2, "dates": 3}
    assert option_text(option) == "1 dinar, 2 water, 3 dates"
    with use_locale("de"):
        german = str(option_words(option))
    assert german == "1 Dinar, 2 Wasser, 3 Datteln" and untranslated(german) == []
    assert label({"type": "choose", "player": 0, "option": {"dinars": 2}}, ["Jan"]) == "Jan chooses 2 dinars"


def test_an_impossible_answer_names_the_value_and_the_answers_in_player_words() -> None:
    rng = random.Random(5)
    game = Game.new(SetupOptions(players=["Sarah", "Jan", "Marie"], seed=5))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(layer="B1"), rng))
    while game.pending is None or game.pending["kind"] != "question":
        game.apply(player.action(game))
    pending = game.pending
    with pytest.raises(IllegalAnswer) as refused:
        game.apply(Answer(pending["key"], "river"))
    english = str(refused.value)
    assert english.startswith("river is not a possible answer to 'On the mosque staircase")
    assert "possible answers: (1, 2), (1, 3)" in english
    assert "[" not in english and "'river'" not in english  # no Python list or quoted key
    with use_locale("de"):
        german = str(refused.value)
    assert german.startswith("Fluss ist keine mögliche Antwort auf „") and untranslated(german) == [], german
    assert game.pending == pending  # refused: nothing changed


def test_where_a_board_value_came_from_is_said_in_the_language_of_the_moment() -> None:
    with use_locale("de"):
        german = source_words()
    assert german["answer"] == "in einem Spiel beantwortet" and untranslated("\n".join(german.values())) == []
    assert source_words() == SOURCES and SOURCES["answer"] == "answered in a game"  # English as the API sends it
