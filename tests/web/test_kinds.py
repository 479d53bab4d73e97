"""Morocco through the generic games service and API: create, act, refuse, undo, resume, export/import.

Marrakesh's own path is covered by the other tests here; these check that a game of another kind gets
the same store, versions, idempotency keys, undo by replay and log, and that the tower parts refuse it.
"""

from __future__ import annotations

import json
import random
from typing import Any, cast

from flask import Flask
from flask.testing import FlaskClient

from companion.events import EventBus
from companion.games.morocco import Game as MoroccoGame
from companion.games.morocco import action_to_dict
from companion.games.morocco.log import read_log, write_log
from companion.games.morocco.simulate import RandomPlayer, play_random_game
from companion.table.kinds import morocco
from companion.table.service import GameService
from tests.web.conftest import Table, csrf_of, share

PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]


def new_morocco(client: FlaskClient, **form: Any) -> Table:
    csrf = csrf_of(client)
    response = client.post("/api/games", json={"game": "morocco", "players": PLAYERS, "seed": 28, **form},
                           headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    share(client, csrf, body["id"])
    return Table(client, csrf, body["id"], body["pin"])


def service(app: Flask) -> GameService:
    games: GameService = app.extensions["keshi.games"]
    return games


def test_a_morocco_game_is_created_with_its_board_choices_and_no_tower(client: FlaskClient) -> None:
    table = new_morocco(client, options={"start_player": 1})
    view = table.view()
    assert view["kind"] == "morocco" and view["game_name"] == "Morocco" and view["version"] == 0
    assert view["choices"]["actor"] == 1 and view["turn"] == "Ben"
    assert view["choices"]["prompt"] == "Ben: roll the market die — what does it show?"
    assert [o["path"] for o in view["choices"]["options"]][-1] == ["Wild (each picks a cube)"]
    assert len(view["board"]["stalls"]) == 25 and view["board"]["players"][1]["start"] is True
    assert view["history"][-1]["label"] == "Game created: Ana · Ben"
    for path in ("/toss", "/tower/empty", "/season-scoring/ack"):
        refused = table.post(f"/api/games/{table.game_id}{path}", {"season": 1})
        assert refused.status_code == 400
        assert "Morocco" in refused.get_json()["error"]
    assert table.view()["version"] == 0


def test_setup_refusals_name_the_game_and_the_field(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    six = [{"name": f"P{i}", "colour": ""} for i in range(6)]
    too_many = client.post("/api/games", json={"game": "morocco", "players": six}, headers={"X-CSRF-Token": csrf})
    assert too_many.status_code == 400
    assert too_many.get_json()["error"] == "players must list 2 to 5 players for Morocco"
    unknown = client.post("/api/games", json={"game": "chess", "players": PLAYERS}, headers={"X-CSRF-Token": csrf})
    assert unknown.status_code == 400 and "not 'chess'" in unknown.get_json()["error"]
    options = {"draws": {"rows": ["red"]}}
    bad_draw = client.post("/api/games", json={"game": "morocco", "players": PLAYERS, "options": options},
                           headers={"X-CSRF-Token": csrf})
    assert bad_draw.status_code == 400 and "rows must list one cube of each colour" in bad_draw.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_actions_versions_idempotency_refusals_and_undo(client: FlaskClient) -> None:
    table = new_morocco(client, options={"start_player": 0})
    roll = {"type": "roll", "player": 0, "face": "green"}
    first = table.act(roll, 0, key="k1")
    assert first.status_code == 201 and first.get_json()["version"] == 1
    again = table.act(roll, 0, key="k1")  # a retried request: the first answer, nothing applied twice
    assert again.status_code == 200 and again.get_json()["replayed"] is True and table.view()["version"] == 1
    stale = table.act({"type": "roll", "player": 1, "face": "blue"}, 0)
    assert stale.status_code == 409 and stale.get_json()["view"]["version"] == 1
    not_yours = table.act({"type": "roll", "player": 0, "face": "blue"}, 1)
    assert not_yours.status_code == 422
    assert not_yours.get_json()["error"] == "it is not Ana's turn to roll the market die: Ben must act now"
    malformed = table.act({"type": "roll", "player": 1}, 1)
    assert malformed.status_code == 400 and "face" in malformed.get_json()["error"]
    view = table.view()
    assert view["version"] == 1 and view["board"]["players"][0]["cubes"]["green"] == 1
    assert view["undo"]["label"] == "Ana rolls the market die: green"
    undone = table.post(f"/api/games/{table.game_id}/undo", {"version": 1})
    assert undone.status_code == 201
    view = undone.get_json()["view"]
    assert view["version"] == 2 and view["actions"] == 0 and view["board"]["players"][0]["cubes"]["green"] == 0
    assert table.view()["history"][0]["label"] == "The table took back: Ana rolls the market die: green"
    nothing = table.post(f"/api/games/{table.game_id}/undo", {"version": 2})
    assert nothing.status_code == 400 and nothing.get_json()["error"].startswith("Nothing to take back")


def test_a_restarted_service_rebuilds_the_game_with_its_log_lines(app: Flask, client: FlaskClient) -> None:
    table = new_morocco(client)
    live = service(app).get(table.game_id)
    game = cast(MoroccoGame, live.game)
    player = RandomPlayer(random.Random(3))
    for _ in range(25):
        service(app).act(table.game_id, action_to_dict(player.action(game)), live.version, None)
    fresh = GameService(service(app).store, EventBus())
    again = fresh.get(table.game_id)
    assert again.kind == "morocco" and again.game.to_dict() == live.game.to_dict()
    assert again.labels == live.labels and len(again.labels) == 25


def test_the_overflow_answer_is_remembered_for_the_next_morocco_game(app: Flask, client: FlaskClient) -> None:
    table = new_morocco(client)
    games = service(app)
    live = games.get(table.game_id)
    game = cast(MoroccoGame, live.game)
    player = RandomPlayer(random.Random(2))
    while game.pending is None or game.pending["kind"] != "question":
        games.act(table.game_id, action_to_dict(player.action(game)), live.version, None)
    question = table.view()["choices"]
    assert question["actor"] == "table" and question["prompt"].startswith("How much does one market tile's overflow")
    answer = next(o["action"] for o in question["options"] if o["action"]["value"] == 2)
    assert table.act(answer, live.version).status_code == 201
    second = new_morocco(client)
    assert games.get(second.game_id).game.profile == {"overflow.market_tile": 2}
    table.post(f"/api/games/{table.game_id}/undo", {})  # taking the answer back forgets it
    assert games.get(new_morocco(client).game_id).game.profile == {}


def test_export_then_import_round_trips_a_whole_game(client: FlaskClient) -> None:
    played = play_random_game(2, 11, names=("Ana", "Ben"))
    text = write_log(played)
    csrf = csrf_of(client)
    imported = client.post("/api/games/import", data=text, headers={"X-CSRF-Token": csrf,
                                                                    "Content-Type": "application/x-ndjson"})
    assert imported.status_code == 201, imported.get_json()
    view = imported.get_json()["view"]
    assert view["kind"] == "morocco" and view["finished"] is True
    assert view["scores"] == [p.score for p in played.players] and view["winners"] == played.winners()
    exported = client.get(f"/api/games/{view['id']}/log").get_data(as_text=True)
    head, actions = exported.split("\n", 1)  # the engine's log, its header dated by the import (none given)
    assert {k: v for k, v in json.loads(head).items() if k != "played_at"} == json.loads(text.split("\n", 1)[0])
    assert actions == text.split("\n", 1)[1] and read_log(exported).to_dict() == played.to_dict()
    assert view["undo"]["label"] == morocco.describe(
        morocco.replay(played.setup, [action_to_dict(a) for a in played.log[:-1]]), action_to_dict(played.log[-1]))
    damaged = client.post("/api/games/import", data=text.replace('"type": "roll"', '"type": "rol"', 1),
                          headers={"X-CSRF-Token": csrf, "Content-Type": "application/x-ndjson"})
    assert damaged.status_code == 400 and "unknown action type 'rol'" in damaged.get_json()["error"]
