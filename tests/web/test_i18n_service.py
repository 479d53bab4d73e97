"""German from the game service (issue 14): its refusals through the API in the phone's language with the
game unchanged, and its log lines (selections, reveals, the tower, undo) sent as messages with their German.

The English ``label`` stays as it was (stored, compared by the API tests); ``say`` is the same line as
message data, which the page renders in its language (``Keshi.say``), here rendered with ``Msg.from_json``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.i18n import Msg, use_locale
from tests.web.conftest import Table, csrf_of, share
from tests.web.test_games_api import advance_to
from tests.web.test_i18n import GERMAN, PO, untranslated, visible


def texts_of(say: Any) -> list[tuple[str, str | None]]:
    """Every catalog id (with its context) in a message sent as data: the message and those among its values."""
    if isinstance(say, list):
        return [found for item in say for found in texts_of(item)]
    if not isinstance(say, dict) or "text" not in say:
        return []
    return [(say["text"], say.get("context")),
            *(found for value in say.get("params", {}).values() for found in texts_of(value))]


@cache
def german_catalog() -> Catalog:
    with PO.open("rb") as source:
        return read_po(source)


def has_german(text: str, context: str | None) -> bool:
    """True when the German catalog has ``text`` (or it has no words of its own, e.g. ``"{n} {colour}"``)."""
    if not re.sub(r"\{\w+(?:!r)?\}|[^A-Za-z]", "", text):
        return True
    entry = german_catalog().get(text, context)
    return entry is not None and bool(entry.string)


def german(say: dict[str, Any]) -> str:
    with use_locale("de"):
        return str(Msg.from_json(say))


def test_the_service_refuses_in_german_through_the_api_and_changes_nothing(table: Table) -> None:
    view = advance_to(table, "select")
    before = table.view()
    again = table.post(f"/api/games/{table.game_id}/tower/empty", {"found": {}}, **GERMAN)
    assert again.status_code == 409, again.get_json()
    assert again.get_json()["error"] == "Der Turm wurde für dieses Spiel schon geprüft"
    early = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]}, **GERMAN)
    assert early.status_code == 409
    assert early.get_json()["error"] == ("Der Turm wird geworfen, sobald alle ihre Keshis aufgedeckt haben; "
                                         "jetzt: Holz-Keshis auswählen")
    stale = table.post(f"/api/games/{table.game_id}/undo", {"version": view["version"] - 1}, **GERMAN)
    assert stale.status_code == 409 and stale.get_json()["kind"] == "GameMovedOn"
    assert stale.get_json()["error"].startswith("das Spiel ist weiter: du hast auf Stand")
    assert table.view() == before  # three refusals, nothing changed
    english = table.post(f"/api/games/{table.game_id}/tower/empty", {"found": {}})
    assert english.get_json()["error"] == "The tower was already checked for this game"


def test_setup_and_body_errors_come_back_in_german(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    shared = client.post("/api/games", json={"players": [{"name": "Ana", "colour": "red"},
                                                         {"name": "Ben", "colour": "red"}]},
                         headers={"X-CSRF-Token": csrf, **GERMAN})
    assert shared.status_code == 400
    assert shared.get_json()["error"] == "Ana und Ben haben beide Rot gewählt: jeder Platz braucht seine eigene Farbe"
    nameless = client.post("/api/games", json={"players": [{"name": "Ana"}, {"name": " "}]},
                           headers={"X-CSRF-Token": csrf, **GERMAN})
    assert nameless.get_json()["error"] == "Spieler 2 braucht einen Namen"
    broken = client.post("/api/games", data="{not json", content_type="application/json",
                         headers={"X-CSRF-Token": csrf, **GERMAN})
    assert broken.status_code == 400 and broken.get_json()["error"] == "der Inhalt der Anfrage ist kein gültiges JSON"
    assert client.get("/api/games").get_json()["games"] == []  # no game was made


def test_every_log_line_of_a_round_is_sent_with_its_german_beside_the_english(table: Table) -> None:
    advance_to(table, "claim")
    undone = table.post(f"/api/games/{table.game_id}/undo", {"version": table.view()["version"]})
    assert undone.status_code == 201, undone.get_json()
    history = table.view()["history"]
    worded = [entry for entry in history if "say" in entry]
    kinds = {entry["kind"] for entry in worded}
    assert {"created", "tower.emptied", "action", "undo"} <= kinds, kinds
    for entry in worded:
        assert Msg.from_json(entry["say"]).english() == entry["label"]  # the stored English is unchanged
        missing = [text for text, context in texts_of(entry["say"]) if not has_german(text, context)]
        assert missing == [], (entry["label"], missing)
    lines = [german(entry["say"]) for entry in worded]
    assert any(line.startswith("Alle decken auf — Sarah: ") for line in lines), lines
    assert any(line.startswith("Turm: ") and "vom Tisch eingetippt" in line for line in lines), lines
    assert "Der Tisch hat bestätigt, dass der Turm leer ist" in lines
    assert lines[0].startswith("Der Tisch hat zurückgenommen: "), lines[0]  # the undo, newest first


def test_the_games_list_and_the_setup_wizard_have_no_english_left_in_german(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    for body in ({"players": [{"name": "Ana"}, {"name": "Ben"}], "edition": "classic", "expansions": [2, 3]},
                 {"game": "morocco", "players": [{"name": "Ana"}, {"name": "Ben"}]}):
        assert client.post("/api/games", json=body, headers={"X-CSRF-Token": csrf}).status_code == 201
    for path in ("/", "/games/new"):
        page = visible(client.get(path, headers=GERMAN).get_data(as_text=True))
        text = "\n".join(page.parts)
        assert page.lang == "de" and untranslated(text) == [], (path, untranslated(text))
        english = "\n".join(visible(client.get(path).get_data(as_text=True)).parts)
        assert untranslated(english), "the scan must see the English page's texts"
    listed = "\n".join(visible(client.get("/", headers=GERMAN).get_data(as_text=True)).parts)
    assert "Classic (2022) + Erweiterungen 2 Imam & Sultan, 3 zusätzliche Wechselstuben" in listed
    wizard = client.get("/games/new", headers=GERMAN).get_data(as_text=True)
    assert "Startspieler (wer zuletzt nach Marokko gereist ist)" in wizard  # a table game's own field, in GAMES
    assert "Fortgeschrittenen-Modus: 3 Ereignisse" in wizard


def test_a_morocco_view_sends_the_adapters_words_as_messages_with_their_german(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    created = client.post("/api/games", json={"game": "morocco", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                              "seed": 5}, headers={"X-CSRF-Token": csrf})
    share(client, csrf, created.get_json()["id"])
    view = created.get_json()["view"]
    choices, said = view["choices"], []
    assert Msg.from_json(choices["prompt_say"]).english() == choices["prompt"]
    said.append(choices["prompt_say"])
    worded = [option for option in choices["options"] if "path_say" in option]
    assert len(worded) == 6, choices["options"]  # the die's five colours and its wild face
    for option in worded:
        assert [Msg.from_json(step).english() for step in option["path_say"]] == option["path"]
        assert Msg.from_json(option["group_say"]).english() == option["group"]
        said += [*option["path_say"], option["group_say"]]
    assert Msg.from_json(view["board"]["phase_say"]).english() == view["board"]["phase"]
    said.append(view["board"]["phase_say"])
    missing = {text for say in said for text, context in texts_of(say) if not has_german(text, context)}
    assert missing == set(), missing
    assert german(choices["prompt_say"]).endswith(": den Marktwürfel werfen — was zeigt er?")


def test_morocco_log_lines_come_with_their_german(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    created = client.post("/api/games", json={"game": "morocco", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                              "seed": 5}, headers={"X-CSRF-Token": csrf}).get_json()
    share(client, csrf, created["id"])
    view = created["view"]
    for _ in range(12):  # rolls, scouts, placements, ends of turns
        option = view["choices"]["options"][0]
        response = client.post(f"/api/games/{created['id']}/actions", json={"action": option["action"],
                               "version": view["version"]}, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 201, response.get_json()
        view = response.get_json()["view"]
    history = client.get(f"/api/games/{created['id']}").get_json()["history"]
    actions = [entry for entry in history if entry["kind"] == "action"]
    assert {entry["action"]["type"] for entry in actions if "say" in entry} >= {"roll", "scout", "place"}, actions
    for entry in actions:
        if "say" in entry:
            assert Msg.from_json(entry["say"]).english() == entry["label"]
            missing = [text for text, context in texts_of(entry["say"]) if not has_german(text, context)]
            assert missing == [], (entry["label"], missing)
