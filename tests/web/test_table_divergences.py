"""Awkward moments at a real table (issue 11 review): the tower, the game and the table still agree.

Things that happen outside a game's own actions — a Tower-page toss or fill between two of the
game's tosses, a restart that forgets the tower's running estimate, the toss button pressed at the
wrong moment, a toss lost in a restart — must not make a game's next toss disagree with the game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.app import create_app, shutdown_app
from companion.table import marrakesh_engine
from companion.table.service import RESULT_WAITS
from companion.tower.record import TossRecord, colour_counts, iter_tosses, save_toss
from companion.web import stream
from tests.conftest import FAST_TOWER
from tests.web.conftest import PLAYERS, Table, csrf_of, share
from tests.web.play import first_action
from tests.web.test_games_api import advance_to
from tests.web.test_toss_loop import non_zero, read_stream_until, toss_and_wait, tower_of


def confirm(table: Table, view: dict[str, Any]) -> dict[str, Any]:
    response = table.act({"type": "release", "counts": non_zero(view["tower_result"]["counts"])}, view["version"])
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json()["view"])


def held_before_toss(view: dict[str, Any]) -> dict[str, int]:
    """What the game believes the tower holds before this round's keshis go in."""
    inside = view["state"]["tower"]["inside"]
    return {c: inside[c] - view["pieces_in"].get(c, 0) for c in COLOURS}


def record_of(app: Flask, toss_id: str) -> Any:
    (record,) = [t for t in iter_tosses(app.extensions["keshi.store"]) if t.toss_id == toss_id]
    return record


def test_the_tower_holds_what_the_game_believes_when_the_game_tosses(app: Flask, table: Table) -> None:
    view = confirm(table, toss_and_wait(table, advance_to(table, "toss")))
    believed = view["state"]["tower"]["inside"]
    stranger = next(c for c in COLOURS if believed[c] == 0)
    # between two of the game's tosses the Tower page fills the tower with a colour the game never saw
    filled = table.post("/api/tower/contents", {"contents": {**non_zero(believed), stranger: 2}})
    assert filled.status_code == 200
    view = advance_to(table, "toss")
    result = toss_and_wait(table, view)["tower_result"]
    assert result["counts"][stranger] == 0 and result["leftover_if_confirmed"] == {}
    assert record_of(app, result["toss_id"]).contents_before == held_before_toss(view)


def test_after_a_restart_the_next_toss_starts_from_what_the_game_believes(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    config = {"TESTING": True, "SIMULATE": True, **FAST_TOWER}
    app = create_app(config, instance_path=instance)
    try:
        client = app.test_client()
        csrf = csrf_of(client)
        created = client.post("/api/games", json={"players": PLAYERS, "seed": 3}, headers={"X-CSRF-Token": csrf})
        body = created.get_json()
        share(client, csrf, body["id"])
        table = Table(client, csrf, body["id"], body["pin"])
        assert table.post(f"/api/games/{table.game_id}/tower/empty", {"found": {}}).status_code == 201
        view = toss_and_wait(table, advance_to(table, "toss"))
        counts = non_zero(view["tower_result"]["counts"])
        kept = next(iter(counts))
        counts[kept] -= 1  # the table saw one fewer: that piece is still inside
        view = table.act({"type": "release", "counts": counts}, view["version"]).get_json()["view"]
        assert any(view["state"]["tower"]["inside"].values())  # a piece the table says is still inside
    finally:
        shutdown_app(app)
    app = create_app(config, instance_path=instance)  # the server restarted: the tower knows nothing
    try:
        client = app.test_client()
        table = Table(client, csrf_of(client), table.game_id, table.pin)
        assert table.post(f"/api/games/{table.game_id}/join", {"pin": table.pin}).status_code == 200
        table.plays_for("all")
        view = advance_to(table, "toss")
        result = toss_and_wait(table, view)["tower_result"]
        held = held_before_toss(view)
        assert any(held.values()) and record_of(app, result["toss_id"]).contents_before == held
    finally:
        shutdown_app(app)


def test_a_refused_press_of_the_towers_button_is_told_on_the_games_phones(
        app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    view = toss_and_wait(table, advance_to(table, "toss"))  # the result waits: a press must be refused
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.2)
    response = table.client.get(f"/api/games/{table.game_id}/events?last_event_id={view['event_id']}",
                                buffered=False)
    tower_of(app)._button_pressed()  # the physical button, as its gpiozero callback calls it
    seen = read_stream_until(response, "tower.refused")
    (line,) = [m for m in seen.split("\n\n") if "tower.refused" in m]
    message = json.loads(line.split("data: ", 1)[1])
    assert message["topic"] == "tower.refused" and message["data"]["game_id"] == table.game_id
    assert message["data"]["message"] == RESULT_WAITS
    assert table.view()["tower_result"] == view["tower_result"]  # nothing tossed, nothing changed


def test_the_tower_pages_hooks_refuse_in_player_words(app: Flask, client: FlaskClient,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    headers = {"X-CSRF-Token": csrf_of(client)}
    bad = client.post("/api/tower/toss", json={"pieces_in": {"red": "two"}}, headers=headers)
    assert bad.status_code == 400 and bad.get_json() == {"error": "pieces_in must map keshi colours to whole numbers"}
    not_json = client.post("/api/tower/empty", data="[1]", headers={**headers, "Content-Type": "application/json"})
    assert not_json.status_code == 400 and "JSON object" in not_json.get_json()["error"]
    monkeypatch.setattr(tower_of(app), "mode", "hardware")  # on a Pi only real pieces fill the tower
    for path, body in (("/api/tower/contents", {"contents": {"red": 1}}), ("/api/tower/misread", {"counts": {}})):
        refused = client.post(path, json=body, headers=headers)
        assert refused.status_code == 403 and refused.get_json()["error"].startswith("only the simulated tower")


def test_the_season_scoring_put_away_from_two_phones_is_one_event(app: Flask, table: Table) -> None:
    view = table.view()
    while view["season_scoring"] is None:
        view = table.act(first_action(view), view["version"]).get_json()["view"]
    path = f"/api/games/{table.game_id}/season-scoring/ack"
    table.plays_for(0)
    first = table.post(path, {"season": 1})
    table.plays_for(1)
    second = table.post(path, {"season": 1})  # Jan's phone had not heard of Sarah's tap yet
    assert first.status_code == second.status_code == 200
    assert second.get_json()["view"]["season_scoring"]["acknowledged"]
    events = app.extensions["keshi.games"].events_after(table.game_id, view["event_id"])
    assert [e["data"]["label"] for e in events if e["kind"] != "role"] == ["Sarah put the season 1 scoring away"]


def test_a_toss_interrupted_by_a_restart_is_filed_when_the_companion_is_back(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    config = {"TESTING": True, "SIMULATE": True, **FAST_TOWER}
    app = create_app(config, instance_path=instance)
    try:  # two games, each stopped with its toss in the air: one stored by the tower, one never counted
        games = app.extensions["keshi.games"]
        ids = []
        for seed in (3, 4):
            live = games.create({"players": PLAYERS, "seed": seed})
            games.empty_tower(live.id, {})
            while live.game.phase != "toss":
                seat, options = next(iter(marrakesh_engine.selection_options(live.game).items()))
                games.act(live.id, {"type": "select", "player": int(seat), "colours": options[0]["colours"],
                                    "wild_sectors": options[0]["wild"][0] if options[0]["wild"] else []}, None, None)
            ids.append(live.id)
        games.start_toss(ids[0], None, lambda pieces, **context: "aaaaaaaaaaa1")  # its result never came
        games.start_toss(ids[1], None, lambda pieces, **context: "aaaaaaaaaaa2")
        pieces = marrakesh_engine.pieces_in(games.get(ids[1]).game)
        save_toss(app.extensions["keshi.store"], TossRecord(  # stored by the tower, not yet filed for the game
            "aaaaaaaaaaa2", "default", "B1", "simulated", 1.0, pieces, pieces, colour_counts(), colour_counts(),
            beam_count=sum(pieces.values()), counts_source="simulator-truth", game_id=ids[1], season=1, round=1))
    finally:
        shutdown_app(app)
    app = create_app(config, instance_path=instance)
    try:
        games = app.extensions["keshi.games"]
        waiting = games.get(ids[1]).tower_result
        assert waiting is not None and waiting["toss_id"] == "aaaaaaaaaaa2" and waiting["counts"] == pieces
        failed = games.events_after(ids[0], 0)[-1]
        assert failed["kind"] == "toss.failed" and "restarted" in failed["data"]["label"]
        assert games.get(ids[0]).tower_result is None and not games.get(ids[0]).tossing
    finally:
        shutdown_app(app)


def test_a_choice_in_the_log_says_what_it_answered() -> None:
    action = {"type": "choose", "player": 1, "option": 6}
    text = marrakesh_engine.label(action, ["Sarah", "Jan"], "Reveal which provision tile for the next season?")
    assert text == "Jan chooses 6 (“Reveal which provision tile for the next season?”)"
    assert marrakesh_engine.label(action, ["Sarah", "Jan"]) == "Jan chooses 6"
