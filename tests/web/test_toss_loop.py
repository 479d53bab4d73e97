"""The toss loop when the table and the model disagree (issue 11): every divergence can be mended.

The game is the one source of truth for what the tower holds: a new game starts by emptying the
tower, the table's count of what fell out wins (pieces nobody believed inside are leftovers), the
tower (simulated here) follows the game's count, undo brings a confirmed result back, and a second
toss never changes the first result.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.table import marrakesh_engine
from companion.table.service import IN_THE_TRAY, RESULT_WAITS
from companion.tower.count_words import check_json
from companion.tower.record import TossRecord, iter_tosses, save_toss
from companion.web import stream
from firmware.capture import CameraCount
from firmware.crosscheck import BeamCalibration, cross_check
from firmware.timing import Drop
from tests.web.conftest import PLAYERS, Table, csrf_of, share
from tests.web.play import first_action
from tests.web.test_games_api import advance_to, wait_for_tower_result


def toss_and_wait(table: Table, view: dict[str, Any]) -> dict[str, Any]:
    tossed = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    assert tossed.status_code == 202, tossed.get_json()
    return wait_for_tower_result(table)


def tower_of(app: Flask) -> Any:
    return app.extensions["keshi.tower"]


def non_zero(counts: dict[str, int]) -> dict[str, int]:
    return {c: n for c, n in counts.items() if n}


# -- the game-start tower check ----------------------------------------------------------------

def test_a_new_game_asks_to_empty_the_tower_and_tossing_waits_for_it(app: Flask, client: FlaskClient) -> None:
    csrf = csrf_of(client)
    assert client.post("/api/tower/contents", json={"contents": {"white": 1}},
                       headers={"X-CSRF-Token": csrf}).status_code == 200  # left from an earlier game
    created = client.post("/api/games", json={"players": PLAYERS, "seed": 3}, headers={"X-CSRF-Token": csrf})
    body = created.get_json()
    share(client, csrf, body["id"])
    table = Table(client, csrf, body["id"], body["pin"])
    check = body["view"]["tower_check"]
    assert check["needed"] and check["believed_inside"] == {"white": 1}
    view = advance_to(table, "toss")
    refused = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    assert refused.status_code == 409 and "Empty the tower" in refused.get_json()["error"]
    assert non_zero(tower_of(app).contents()) == {"white": 1}  # nothing changed

    table.plays_for(1)  # Jan's phone empties the tower
    emptied = table.post(f"/api/games/{table.game_id}/tower/empty", {"found": {"white": 1}})
    table.plays_for("all")
    assert emptied.status_code == 201
    done = emptied.get_json()["view"]["tower_check"]
    assert not done["needed"] and done["done"]["found"] == {"white": 1}
    assert done["done"]["label"] == "Jan emptied the tower: 1 white fell out (left from before)"
    assert not any(tower_of(app).contents().values())  # the simulated tower is empty for this game
    again = table.post(f"/api/games/{table.game_id}/tower/empty", {"found": {}})
    assert again.status_code == 409 and "already checked" in again.get_json()["error"]
    result = toss_and_wait(table, table.view())
    toss_id = result["tower_result"]["toss_id"]
    (record,) = [t for t in iter_tosses(app.extensions["keshi.store"]) if t.toss_id == toss_id]
    assert not any(record.contents_before.values())  # the first toss of the game: nothing stray inside
    assert non_zero(record.pieces_in) == non_zero(view["pieces_in"]) and record.game_id == table.game_id


def test_the_tower_check_survives_a_restart_of_the_service(app: Flask, table: Table) -> None:
    games = app.extensions["keshi.games"]
    games._games.clear()  # forget the live game: rebuilt from the store
    assert games.get(table.game_id).tower_check["needed"] is False


# -- the table's count wins ---------------------------------------------------------------------

def test_a_correction_may_name_any_colour_and_the_tower_follows_it(app: Flask, table: Table) -> None:
    view = toss_and_wait(table, advance_to(table, "toss"))
    inside = view["state"]["tower"]["inside"]
    stranger = next(c for c in COLOURS if inside[c] == 0)
    detected = non_zero(view["tower_result"]["counts"])
    corrected = {**detected, stranger: 2}  # upward, for a colour nobody believed inside
    response = table.act({"type": "release", "counts": corrected}, view["version"])
    assert response.status_code == 201, response.get_json()
    after = response.get_json()["view"]
    assert after["state"]["tower"]["leftovers"][stranger] == 2
    assert after["state"]["tower"]["display"][stranger] == 2
    line = table.view()["history"][0]["label"]
    assert f"2 {stranger}" in line and "left from before" in line and "corrected by the table" in line
    # the simulated tower now holds exactly what the game believes it holds
    assert tower_of(app).contents() == after["state"]["tower"]["inside"]


def test_a_downward_correction_leaves_the_piece_inside_the_simulated_tower(app: Flask, table: Table) -> None:
    view = toss_and_wait(table, advance_to(table, "toss"))
    detected = non_zero(view["tower_result"]["counts"])
    inside = view["state"]["tower"]["inside"]
    colour = next(c for c, n in detected.items() if inside[c] >= n)  # one the camera may well have seen
    corrected = {**detected, colour: detected[colour] - 1}
    after = table.act({"type": "release", "counts": corrected}, view["version"]).get_json()["view"]
    inside = after["state"]["tower"]["inside"]
    assert tower_of(app).contents() == inside and inside[colour] >= 1


# -- one toss, one result ------------------------------------------------------------------------

def test_a_second_toss_is_refused_while_the_tower_tumbles_and_while_its_result_waits(
        app: Flask, table: Table) -> None:
    view = advance_to(table, "toss")
    live = app.extensions["keshi.games"].get(table.game_id)
    with live.lock:  # the result cannot be filed meanwhile (the test client's requests run in this thread)
        first = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
        assert first.status_code == 202 and first.get_json()["view"]["tossing"]
        stalled = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    body = stalled.get_json()
    assert stalled.status_code == 409 and body["error"] == "The tower is still tossing: wait for its result"
    assert body["view"]["tossing"]  # the stalled phone catches up at once
    deadline = time.monotonic() + 15
    while not table.view()["tower_result"] and time.monotonic() < deadline:
        time.sleep(0.02)
    waiting = table.view()
    again = table.post(f"/api/games/{table.game_id}/toss", {"version": waiting["version"]})
    assert again.status_code == 409 and again.get_json()["error"] == RESULT_WAITS
    time.sleep(0.1)
    assert table.view()["tower_result"] == waiting["tower_result"]  # the first result never changes
    store = app.extensions["keshi.store"]
    assert [t.toss_id for t in iter_tosses(store)] == [first.get_json()["toss_id"]]
    assert not waiting["tossing"]


# -- undo ------------------------------------------------------------------------------------------

def test_undo_after_confirming_brings_the_result_back_not_a_new_toss(app: Flask, table: Table) -> None:
    view = toss_and_wait(table, advance_to(table, "toss"))
    result = view["tower_result"]
    assert view["undo"] == {"available": False, "label": view["undo"]["label"], "reason": IN_THE_TRAY,
                            "reason_say": {"text": IN_THE_TRAY, "params": {}}}  # the reason in the phone's language
    refused = table.post(f"/api/games/{table.game_id}/undo", {"version": view["version"]})
    assert refused.status_code == 409 and refused.get_json()["error"] == IN_THE_TRAY
    detected = non_zero(result["counts"])
    stranger = next(c for c in COLOURS if view["state"]["tower"]["inside"][c] == 0)
    confirmed = table.act({"type": "release", "counts": {**detected, stranger: 1}}, view["version"])
    after = confirmed.get_json()["view"]
    assert after["undo"]["available"] and after["undo"]["label"].startswith("the tower release (")
    table.plays_for(0)  # Sarah's phone takes it back
    undone = table.post(f"/api/games/{table.game_id}/undo", {"version": after["version"]})
    assert undone.status_code == 201, undone.get_json()
    back = undone.get_json()["view"]
    assert back["phase"] == "toss" and back["tower_result"]["toss_id"] == result["toss_id"]
    assert back["tower_result"]["counts"] == result["counts"]
    assert back["state"]["tower"]["leftovers"][stranger] == 0
    assert table.view()["history"][0]["label"].startswith("Sarah took back the tower release (")
    store = app.extensions["keshi.store"]
    (toss,) = list(iter_tosses(store))
    assert toss.correction is None  # the correction went with the undone release
    expected = {c: max(0, back["state"]["tower"]["inside"][c] - result["counts"].get(c, 0)) for c in COLOURS}
    assert tower_of(app).contents() == expected  # what fell out is in the tray, not in the tower
    again = table.post(f"/api/games/{table.game_id}/toss", {"version": back["version"]})
    assert again.status_code == 409  # the keshis are in the tray: no toss again


def test_the_undo_label_names_what_will_really_be_taken_back(table: Table) -> None:
    view = table.view()
    assert view["undo"]["available"] is False and view["undo"]["label"] is None
    chosen = table.act(first_action(view), view["version"]).get_json()["view"]
    assert chosen["undo"]["label"] == f"{PLAYERS[int(first_action(view)['player'])]['name']}'s choice of keshis"
    revealed = table.act(first_action(chosen), chosen["version"]).get_json()["view"]
    last = first_action(chosen)
    assert revealed["undo"]["label"] == (f"{PLAYERS[last['player']]['name']}'s reveal "
                                         f"({' + '.join(last['colours'])})")
    table.plays_for(1)
    undone = table.post(f"/api/games/{table.game_id}/undo", {"version": revealed["version"], "by": 0})
    event = table.view()["history"][0]["label"]  # the device's seat, never the body's "by"
    assert undone.status_code == 201 and event == f"Jan took back {revealed['undo']['label']}"


# -- player words --------------------------------------------------------------------------------

def test_answers_are_labelled_with_their_question_never_its_key() -> None:
    action = {"type": "answer", "key": "oasis.17.points", "value": 3}
    text = marrakesh_engine.label(action, ["Ana"], "How many points per gate does oasis 17 show?")
    assert text == "The table answers “How many points per gate does oasis 17 show?”: 3"
    assert "oasis.17" not in marrakesh_engine.label(action, ["Ana"])
    assert marrakesh_engine.category_text("river_evaluation") == "River evaluation"
    assert marrakesh_engine.phase_text("season_end") == "season scoring"
    assert "." not in marrakesh_engine.category_text("oasis.17.points")


def test_each_toss_is_one_line_in_the_log(table: Table) -> None:
    view = toss_and_wait(table, advance_to(table, "toss"))
    table.act({"type": "release", "counts": non_zero(view["tower_result"]["counts"])}, view["version"])
    labels = [h["label"] for h in table.view()["history"]]
    tower_lines = [text for text in labels if "tower" in text.lower() or "Tower" in text]
    assert len(tower_lines) == 2, labels  # the tower check, and the toss's one line
    assert tower_lines[0].startswith("Tower: ") and "confirmed by the table" in tower_lines[0]


# -- setup, PIN, season scoring ------------------------------------------------------------------

def test_two_seats_with_one_colour_are_refused(client: FlaskClient) -> None:
    players = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "Red"}]
    response = client.post("/api/games", json={"players": players}, headers={"X-CSRF-Token": csrf_of(client)})
    assert response.status_code == 400
    assert response.get_json()["error"] == "Ana and Ben both chose Red: each seat needs its own colour"
    assert client.get("/api/games").get_json()["games"] == []


def test_the_pin_is_in_seated_views_and_on_the_companions_own_screen(app: Flask, table: Table) -> None:
    assert table.view()["pin"] == table.pin
    phone, lan = app.test_client(), {"REMOTE_ADDR": "192.168.1.40"}
    assert "pin" not in phone.get(f"/api/games/{table.game_id}", environ_base=lan).get_json()
    assert phone.get(f"/api/games/{table.game_id}/pin", environ_base=lan).status_code == 403
    host_screen = app.test_client()  # a new browser on the companion itself (loopback)
    pin = host_screen.get(f"/api/games/{table.game_id}/pin", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert pin.get_json() == {"pin": table.pin}


def test_the_season_scoring_stays_in_the_view_until_acknowledged(app: Flask, table: Table) -> None:
    view = table.view()
    before_scoring = view
    while view["season"] == 1:
        if view["phase"] not in ("round_end", "season_end"):
            before_scoring = view  # the last view before the scoring began (it may pause for questions)
        view = table.act(first_action(view), view["version"]).get_json()["view"]
    scoring = view["season_scoring"]
    assert scoring["season"] == 1 and scoring["label"] == "Season 1 scoring" and not scoring["acknowledged"]
    expected = []
    for old, new in zip(before_scoring["state"]["players"], view["state"]["players"], strict=True):
        expected.append({k: v - old["breakdown"].get(k, 0) for k, v in new["breakdown"].items()
                         if v != old["breakdown"].get(k, 0)})
    assert scoring["deltas"] == expected
    stored = app.extensions["keshi.store"].query("SELECT season_scoring FROM games WHERE id = ?", (table.game_id,))
    assert json.loads(stored[0]["season_scoring"])["season"] == 1  # survives a reload and a restart
    moved_on = table.act(first_action(view), view["version"]).get_json()["view"]
    assert moved_on["season_scoring"]["season"] == 1  # still shown while the next round starts
    table.plays_for(1)
    acked = table.post(f"/api/games/{table.game_id}/season-scoring/ack", {"season": 1})
    assert acked.status_code == 200 and acked.get_json()["view"]["season_scoring"]["acknowledged"]
    events = [e for e in app.extensions["keshi.games"].events_after(table.game_id, moved_on["event_id"])
              if e["kind"] != "role"]
    assert [e["data"]["label"] for e in events] == ["Jan put the season 1 scoring away"]  # every stream hears it
    assert acked.get_json()["event_id"] == events[0]["id"]


# -- the Tower page's hooks (simulated tower) ------------------------------------------------------

def test_a_misread_makes_the_next_result_wrong_and_the_table_mends_it(app: Flask, table: Table) -> None:
    view = advance_to(table, "toss")
    stranger = next(c for c in COLOURS if view["state"]["tower"]["inside"][c] == 0)
    hook = table.post("/api/tower/misread", {"counts": {stranger: 1}})
    assert hook.status_code == 200
    view = toss_and_wait(table, view)
    result = view["tower_result"]
    assert result["counts"][stranger] == 1 and result["leftover_if_confirmed"] == {stranger: 1}
    if result["source"] == "camera":  # (until the simulated camera has opened, the simulator's truth counts)
        assert result["camera_count"] == sum(result["counts"].values()) + result["unknown"]
    mended = {c: n for c, n in non_zero(result["counts"]).items() if c != stranger}  # down to 0
    after = table.act({"type": "release", "counts": mended}, view["version"]).get_json()["view"]
    assert after["state"]["tower"]["leftovers"][stranger] == 0
    assert tower_of(app).contents() == after["state"]["tower"]["inside"]
    assert table.post("/api/tower/misread", {"counts": {"plaid": 1}}).status_code == 400


def test_emptying_the_tower_by_hand_on_the_tower_page(app: Flask, client: FlaskClient) -> None:
    csrf = csrf_of(client)
    client.post("/api/tower/contents", json={"contents": {"red": 2}}, headers={"X-CSRF-Token": csrf})
    emptied = client.post("/api/tower/empty", json={"found": {"red": 2}}, headers={"X-CSRF-Token": csrf})
    assert emptied.status_code == 200 and emptied.get_json() == {"believed": {"red": 2}}
    assert not any(tower_of(app).contents().values())
    bad = client.post("/api/tower/contents", json={"contents": {"red": "two"}}, headers={"X-CSRF-Token": csrf})
    assert bad.status_code == 400


def read_stream_until(response: Any, needle: str, timeout: float = 5.0) -> str:
    """What a game stream (an unbuffered test-client response) sent until ``needle`` (or the timeout);
    a short ``HEARTBEAT_SECONDS`` keeps the chunks coming meanwhile."""
    seen = ""
    deadline = time.monotonic() + timeout
    for chunk in response.response:
        seen += chunk.decode() if isinstance(chunk, bytes) else chunk
        if needle in seen or time.monotonic() > deadline:
            break
    response.close()
    return seen


def test_the_game_stream_pings_so_a_phone_can_tell_it_is_alive(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.3)
    response = table.client.get(f"/api/games/{table.game_id}/events?last_event_id=0", buffered=False)
    seen = read_stream_until(response, "event: ping")
    assert "id: " in seen and "event: game" in seen  # resumed from last_event_id=0: every stored event
    assert "event: ping\ndata: {}\n\n" in seen


def test_a_toss_the_tower_could_not_finish_stops_blocking_the_game(app: Flask, table: Table) -> None:
    view = advance_to(table, "toss")
    games, link = app.extensions["keshi.games"], app.extensions["keshi.tower_link"]
    live = games.get(table.game_id)
    live.tossing, live.tossing_since = "lost1", time.time()  # as if a toss had started ...
    link.expect("lost1", table.game_id)
    app.extensions["keshi.bus"].publish("tower.fault", {"kind": "toss_failed", "toss_id": "lost1",
                                                        "message": "toss lost1 could not be recorded: disk full"})
    deadline = time.monotonic() + 5
    while live.tossing is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert live.tossing is None  # ... and failed: the table can toss again or type the counts
    assert "could not count this toss" in games.events_after(table.game_id, view["event_id"])[-1]["data"]["label"]
    assert table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]}).status_code == 202


def test_a_result_rebuilt_after_a_restart_still_says_why_it_was_flagged(app: Flask, table: Table) -> None:
    """The companion stopped after the tower stored its toss but before the game filed the result: the
    result rebuilt from the stored toss carries the cross-check's reasons, in player words."""
    view = advance_to(table, "toss")
    games, store = app.extensions["keshi.games"], app.extensions["keshi.store"]
    games.start_toss(table.game_id, view["version"], lambda pieces, **context: "cut-short")  # never tossed
    zero = dict.fromkeys(COLOURS, 0)
    record = TossRecord(toss_id="cut-short", tower="default", layer="B1", mode="simulated", started_at=1.0,
                        pieces_in=zero, pieces_out={**zero, "red": 2}, contents_before=zero, contents_after=zero,
                        drop_times_ms=[200.0, 280.0, 350.0], beam_count=3, camera_count=2, flagged=True)
    verdict = check_json(cross_check([Drop(0, 0.0, 200.0, 200.0, 4.0, False), Drop(1, 0.0, 280.0, 80.0, 4.0, False),
                                      Drop(2, 0.0, 350.0, 70.0, 4.0, False)], CameraCount({"red": 2}),
                                     BeamCalibration()))
    save_toss(store, record, verdict)
    games._games.clear()  # the restart: the game is rebuilt from the store
    app.extensions["keshi.tower_link"].file_interrupted_tosses()
    result = table.view()["tower_result"]
    assert result["toss_id"] == "cut-short" and result["flagged"]
    assert result["check"]["reasons"] == ["fewer"]
    said = "the camera saw {pieces} pieces, but the beam saw at least {certain} fall"
    assert result["check"]["say"] == [{"text": said, "params": {"pieces": 2, "certain": 3}}]
