"""The table's board profile: the key catalogue, the store, the screen's API, export and import, and
the games' hooks (answers kept for the table, a new game starts with them, a taken-back answer leaves)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app import create_app, shutdown_app
from companion.games.marrakesh.simulate import play_random_game
from companion.store import Store
from companion.table.board_profile import BoardProfile, ProfileError
from companion.table.board_profile_keys import check_value, info
from tests.conftest import FAST_TOWER
from tests.web.conftest import share

from .conftest import PLAYERS, Table, csrf_of
from .play import first_action


@pytest.fixture
def profile(tmp_path: Path) -> Iterator[BoardProfile]:
    with Store(tmp_path / "profile.sqlite3") as store:
        yield BoardProfile(store)


class Api:
    """The board-profile API as a browser session with its CSRF token uses it."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = csrf_of(client)

    def put(self, key: str, value: Any, edition: str = "essential") -> Any:
        return self.client.put(f"/api/board-profile/{edition}/values/{key}", json={"value": value},
                               headers={"X-CSRF-Token": self.csrf})

    def entries(self, edition: str = "essential") -> dict[str, dict[str, Any]]:
        body = self.client.get(f"/api/board-profile?edition={edition}").get_json()
        return {e["key"]: e for e in body["entries"]}

    def import_(self, doc: Any) -> Any:
        raw = doc if isinstance(doc, (str, bytes)) else json.dumps(doc)
        return self.client.post("/api/board-profile/import", data=raw, content_type="application/json",
                                headers={"X-CSRF-Token": self.csrf})


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


# -- the catalogue knows every question the engine asks ------------------------------------------
@pytest.mark.parametrize(("edition", "expansions", "seed"), [("essential", (1, 2, 3, 4, 5), 1), ("classic", (), 2),
                                                             ("essential", (), 4)])
def test_every_asked_value_is_in_the_catalogue(edition: str, expansions: tuple[int, ...], seed: int) -> None:
    game = play_random_game(3, seed, edition=edition, expansions=expansions)
    assert len(game.profile) > 50
    for key, value in game.profile.items():  # every answer the random table gave, and the shipped values
        assert check_value(key, value) is None, key


def test_catalogue_refuses_what_the_engine_would_not_ask() -> None:
    assert check_value("oasis.17.points", 9) == "Oasis 17: points: 9 is not a possible value"
    assert check_value("palace.segment_starts", [5, 3]) is not None  # segment 3 cannot begin before segment 2
    assert check_value("oasis.2.colours", []) is not None
    assert check_value("oasis.2.colours", ["green", "green"]) is not None
    assert check_value("sahara.cost.left.2", {"dates": 1, "water": 1}) is None  # key order is no matter
    assert check_value("oasis.17.points", True) is not None  # JSON true is no 1
    with pytest.raises(ValueError, match="'oasis.17.smell' is not a printed value"):
        info("oasis.17.smell")


def test_disc_questions_explain_the_section_numbering() -> None:
    where = info("disc.section.3").where
    assert "section 0" in where and "clockwise" in where and "ring position" in where


# -- the store ---------------------------------------------------------------------------------
def test_answers_are_kept_per_edition(profile: BoardProfile) -> None:
    assert profile.remember_answer("essential", "oasis.17.points", 3, "g1")
    assert not profile.remember_answer("essential", "river_tiles", 3, "g1")  # a drawn tile is no printed value
    assert profile.values("essential") == {"oasis.17.points": 3}
    assert profile.values("classic") == {}


def test_a_taken_back_answer_is_forgotten_only_if_still_that_answer(profile: BoardProfile) -> None:
    profile.remember_answer("essential", "oasis.17.points", 3, "g1")
    assert not profile.forget_answer("essential", "oasis.17.points", 2, "g1")
    assert not profile.forget_answer("essential", "oasis.17.points", 3, "g2")
    assert profile.forget_answer("essential", "oasis.17.points", 3, "g1")
    profile.remember_answer("essential", "oasis.18.points", 2, "g1")
    profile.set_value("essential", "oasis.18.points", 4)  # edited on the screen since: keep the edit
    assert not profile.forget_answer("essential", "oasis.18.points", 2, "g1")
    assert profile.values("essential") == {"oasis.18.points": 4}


def test_two_main_square_spaces_cannot_share_a_ring_position(profile: BoardProfile) -> None:
    profile.set_value("essential", "square.position.water", 3)
    with pytest.raises(ProfileError, match="ring position 3 cannot hold both the"):
        profile.set_value("essential", "square.position.dinar", 3)
    profile.set_value("essential", "square.position.water", 3)  # the same space again is fine


# -- the screen's API --------------------------------------------------------------------------
def test_edit_review_and_forget(api: Api) -> None:
    assert api.put("oasis.17.points", 3).status_code == 200
    entry = api.entries()["oasis.17.points"]
    assert entry["value"] == 3 and entry["source"] == "edit"
    assert entry["options"] == [1, 2, 3, 4] and "Oasis tile 17" in entry["where"]
    assert api.entries()["oasis.3.points"]["source"] == "rulebook"  # shipped values are shown too
    gone = api.client.delete("/api/board-profile/essential/values/oasis.17.points", headers={"X-CSRF-Token": api.csrf})
    assert gone.status_code == 200
    assert api.entries()["oasis.17.points"]["source"] == "missing"  # listed again, to be entered or asked
    again = api.client.delete("/api/board-profile/essential/values/oasis.17.points", headers={"X-CSRF-Token": api.csrf})
    assert again.status_code == 400 and "no value to forget" in again.get_json()["error"]


@pytest.mark.parametrize(("key", "value", "error"), [
    ("oasis.17.points", 9, "Oasis 17: points: 9 is not a possible value"),
    ("oasis.17.smell", 1, "'oasis.17.smell' is not a printed value the companion asks about"),
    ("workshop.1.price", "two", "Workshop 2: price: 'two' is not a possible value"),
])
def test_a_bad_edit_is_refused_and_changes_nothing(api: Api, key: str, value: Any, error: str) -> None:
    response = api.put(key, value)
    assert response.status_code == 400
    assert response.get_json()["error"] == error
    assert {e["source"] for e in api.entries().values()} == {"rulebook", "missing"}


def test_the_boards_own_values_can_be_entered_before_the_first_game(api: Api) -> None:
    entries = api.entries()
    missing = {k for k, e in entries.items() if e["source"] == "missing"}
    assert {"disc.section.0", "square.position.water", "palace.segment_starts", "gate_space.8"} <= missing
    assert {"provision.12.points", "scroll.42.goods", "oasis.20.resource", "line.5.5", "river.space.1"} <= missing
    assert "workshop.0.price" not in missing  # the rulebook gives it
    assert entries["disc.section.0"]["component"] == "board" and entries["luxury.25.type"]["component"] == "tiles"
    assert api.put("disc.section.0", 2).status_code == 200
    entry = api.entries()["disc.section.0"]
    assert entry["source"] == "edit" and entry["value"] == 2


def test_edits_need_the_csrf_token(api: Api) -> None:
    response = api.client.put("/api/board-profile/essential/values/oasis.17.points", json={"value": 3})
    assert response.status_code == 403
    assert api.entries()["oasis.17.points"]["source"] == "missing"  # listed again, to be entered or asked


def test_describe_gives_a_question_its_words_and_the_tables_value(api: Api) -> None:
    api.put("palace.segment_starts", [3, 7])
    body = api.client.get("/api/board-profile/describe?key=palace.segment_starts&edition=essential").get_json()
    assert body["value"] == [3, 7] and body["parts"] == ["Segment 2 begins at step", "Segment 3 begins at step"]
    assert [3, 7] in body["options"] and "palace staircase" in body["where"]


# -- export and import -------------------------------------------------------------------------
def test_export_then_import_at_another_table(api: Api, tmp_path: Path) -> None:
    api.put("oasis.17.points", 3)
    api.put("sahara.cost.right.2", {"water": 1, "dates": 1})
    exported = api.client.get("/api/board-profile/essential/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    doc = json.loads(exported.get_data(as_text=True))
    assert doc["values"] == {"oasis.17.points": 3, "sahara.cost.right.2": {"dates": 1, "water": 1}}

    second = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "other")
    try:
        there = Api(second.test_client())
        there.put("oasis.17.points", 1)
        there.put("oasis.18.points", 2)
        answer = there.import_(doc)
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json() == {"edition": "essential", "added": 1, "changed": 1, "unchanged": 0}
        values = {k: e["value"] for k, e in there.entries().items() if e["source"] not in ("rulebook", "missing")}
        assert values == {"oasis.17.points": 3, "oasis.18.points": 2, "sahara.cost.right.2": {"dates": 1, "water": 1}}
    finally:
        shutdown_app(second)


@pytest.mark.parametrize(("doc", "error"), [
    ("not json", "the file is not a board profile exported by a companion: it could not be read (near line 1)"),
    ([1, 2], "the file is not a board profile: it must be a JSON object"),
    ({"format": "keshi-game", "version": 1}, 'the file is not a board profile (its "format" must be'),
    ({"format": "keshi-board-profile", "version": 7, "edition": "essential", "values": {}}, "not 7"),
    ({"format": "keshi-board-profile", "version": 1, "edition": "deluxe", "values": {}},
     "the edition must be one of essential, classic, not 'deluxe'"),
    ({"format": "keshi-board-profile", "version": 1, "edition": "essential", "values": []},
     '"values" must be an object'),
    ({"format": "keshi-board-profile", "version": 1, "edition": "essential",
      "values": {"oasis.17.points": 2, "oasis.18.points": 12, "river.jetty.1": 0}},
     "Oasis 18: points: 12 is not a possible value (and 1 more problem)"),
    ({"format": "keshi-board-profile", "version": 1, "edition": "essential",
      "values": {"square.position.water": 1, "square.position.goods": 1}},
     "Main square: ring position 1 cannot hold both the goods and the water space"),
])
def test_a_bad_file_is_refused_and_changes_nothing(api: Api, doc: Any, error: str) -> None:
    api.put("oasis.17.points", 4)
    response = api.import_(doc)
    assert response.status_code == 400
    assert error in response.get_json()["error"]
    assert api.entries()["oasis.17.points"]["value"] == 4
    assert api.entries()["oasis.18.points"]["source"] == "missing"


def test_the_profile_screen_is_served(client: FlaskClient) -> None:
    page = client.get("/profile?edition=classic")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'data-edition="classic"' in text and "profile.js" in text and "value-editor.js" in text


# -- the games keep their answers in the table's profile (hooks in companion.table.service) ---------
def play_through(api: Api, seed: int, limit: int = 2000) -> tuple[str, list[str], dict[str, Any]]:
    """Create a 2-player game and play its first legal choices to the end; the game id, the keys of
    the questions it asked, and the final view."""
    headers = {"X-CSRF-Token": api.csrf}
    created = api.client.post("/api/games", json={"players": PLAYERS, "seed": seed}, headers=headers).get_json()
    game_id = created["id"]
    share(api.client, api.csrf, game_id)
    api.client.post(f"/api/games/{game_id}/tower/empty", json={"found": {}}, headers=headers)
    view = api.client.get(f"/api/games/{game_id}").get_json()
    asked: list[str] = []
    for _ in range(limit):
        if view["finished"]:
            break
        if view["pending"] and view["pending"]["kind"] == "question":
            asked.append(view["pending"]["key"])
        response = api.client.post(f"/api/games/{game_id}/actions", headers=headers,
                                   json={"action": first_action(view), "version": view["version"]})
        assert response.status_code in (200, 201), response.get_json()
        view = response.get_json()["view"]
    assert view["finished"]
    return game_id, asked, view


def test_a_second_game_asks_none_of_the_first_games_questions_and_uses_an_edit(api: Api) -> None:
    _, first, _ = play_through(api, seed=3)
    assert len(first) > 20
    kept = {k: e["value"] for k, e in api.entries().items() if e["source"] == "answer"}
    assert set(kept) == set(first)
    key = next(k for k in first if k.startswith("provision.") and k.endswith(".points"))
    kept[key] = (kept[key] + 1) % 9  # fixed on the board-profile screen between the games
    assert api.put(key, kept[key]).status_code == 200
    _, second, view = play_through(api, seed=11)
    assert not set(second) & set(first)
    assert {k: view["state"]["profile"][k] for k in kept} == kept  # the second game started with them


def test_a_taken_back_answer_leaves_the_profile(api: Api, table: Table) -> None:
    view = table.view()
    for _ in range(400):
        if view["pending"] and view["pending"]["kind"] == "question":
            break
        view = table.act(first_action(view), view["version"]).get_json()["view"]
    question = view["pending"]
    answered = table.act(first_action(view), view["version"]).get_json()["view"]
    assert api.entries()[question["key"]]["source"] == "answer"
    undone = table.post(f"/api/games/{table.game_id}/undo", {"version": answered["version"]})
    assert undone.status_code == 201, undone.get_json()
    assert api.entries().get(question["key"], {}).get("source") in (None, "missing")
