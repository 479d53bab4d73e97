"""The games HTTP API with good and bad input: every refusal names the problem and changes nothing."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.fairness.load import load_tosses
from companion.games.marrakesh.errors import RuleError
from companion.i18n.player_words import without_rule_refs
from companion.table import marrakesh_engine
from companion.tower.record import colour_counts, iter_tosses
from tests.web.conftest import PLAYERS, Table, csrf_of
from tests.web.play import first_action, scores


def advance_to(table: Table, phase: str) -> dict[str, Any]:
    """Play first legal actions until the game is in ``phase`` with no pending decision."""
    view = table.view()
    while view["phase"] != phase or view["pending"]:
        response = table.act(first_action(view), view["version"])
        assert response.status_code == 201, response.get_json()
        view = response.get_json()["view"]
    return view


def selection(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The first legal selection of ``seat``."""
    option = view["selections"][str(seat)][0]
    return {"type": "select", "player": seat, "colours": option["colours"],
            "wild_sectors": option["wild"][0] if option["wild"] else []}


def engine_message(table: Table, action: dict[str, Any]) -> str:
    """What the engine itself says about ``action`` on a copy of the game (rebuilt from the export), in player
    words."""
    text = table.client.get(f"/api/games/{table.game_id}/log").get_data(as_text=True)
    game = marrakesh_engine.read_log(text, source="export")
    with pytest.raises(RuleError) as raised:
        game.apply(marrakesh_engine.parse_action(action))
    return without_rule_refs(str(raised.value))  # a phone reads it without the rulebook reference


def test_a_new_game_starts_in_the_select_phase_and_its_creator_is_seated(table: Table) -> None:
    view = table.view()
    assert view["phase"] == "select" and view["actions"] == 0 and view["seated"]
    assert view["names"] == [p["name"] for p in PLAYERS]
    assert set(view["selections"]) == {"0", "1"}  # both players may reveal, in any order
    assert len(table.pin) == 4 and table.pin.isdigit()


def test_an_illegal_claim_gets_422_with_the_rules_message_and_changes_nothing(table: Table) -> None:
    view = advance_to(table, "claim")
    mover = view["to_move"]
    other = 1 - mover
    missing = next(c for c in COLOURS if view["state"]["tower"]["display"][c] == 0)
    for action in ({"type": "claim", "player": mover, "colours": [missing]},
                   {"type": "claim", "player": other, "colours": view["legal"][0]["action"]["colours"]}):
        expected = engine_message(table, action)
        response = table.act(action, view["version"])
        assert response.status_code == 422
        assert response.get_json()["error"] == expected
        assert table.view()["version"] == view["version"]
    assert PLAYERS[other]["name"] in expected  # the rule's message names the player


def test_malformed_json_is_400(table: Table) -> None:
    response = table.client.post(f"/api/games/{table.game_id}/actions", data="{not json",
                                 headers={"X-CSRF-Token": table.csrf, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert "not valid JSON" in response.get_json()["error"]


def test_a_malformed_action_is_400_naming_the_field(table: Table) -> None:
    response = table.act({"type": "claim", "colours": ["green"]}, 0)
    assert response.status_code == 400
    assert "'player'" in response.get_json()["error"]


def phone(app: Flask, address: str) -> tuple[FlaskClient, str]:
    """A phone on the table's Wi-Fi at ``address`` (not the companion's own screen), with its CSRF token."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client, csrf_of(client)


def test_wrong_pin_is_403_and_a_watcher_cannot_act(app: Flask, table: Table) -> None:
    watcher, csrf = phone(app, "192.168.1.40")
    wrong = "0000" if table.pin != "0000" else "1111"
    joined = watcher.post(f"/api/games/{table.game_id}/join", json={"pin": wrong}, headers={"X-CSRF-Token": csrf})
    assert joined.status_code == 403 and "wrong table PIN" in joined.get_json()["error"]
    action = first_action(table.view())
    acted = watcher.post(f"/api/games/{table.game_id}/actions", json={"action": action, "version": 0},
                         headers={"X-CSRF-Token": csrf})
    assert acted.status_code == 403
    assert watcher.get(f"/api/games/{table.game_id}").status_code == 200  # watching needs no PIN
    with_header = watcher.post(f"/api/games/{table.game_id}/actions", json={"action": action, "version": 0},
                               headers={"X-CSRF-Token": csrf, "X-Table-PIN": table.pin})
    assert with_header.status_code == 403  # a PIN header seats nobody: only joining does, under the throttle
    assert watcher.post(f"/api/games/{table.game_id}/join", json={"pin": table.pin},
                        headers={"X-CSRF-Token": csrf}).status_code == 200
    unsaid = watcher.post(f"/api/games/{table.game_id}/actions", json={"action": action, "version": 0},
                          headers={"X-CSRF-Token": csrf})
    assert unsaid.status_code == 403 and "Who are you" in unsaid.get_json()["error"]
    assert table.view()["version"] == 0


def test_repeated_wrong_pins_are_throttled_for_the_guesser_only(app: Flask, table: Table) -> None:
    guesser, csrf = phone(app, "192.168.1.66")
    answers = [guesser.post(f"/api/games/{table.game_id}/join", json={"pin": "x"}, headers={"X-CSRF-Token": csrf})
               for _ in range(8)]
    codes = [a.status_code for a in answers]
    assert codes[:6] == [403] * 6 and codes[6:] == [429, 429], codes
    assert int(answers[-1].headers["Retry-After"]) >= 1
    right = guesser.post(f"/api/games/{table.game_id}/join", json={"pin": table.pin}, headers={"X-CSRF-Token": csrf})
    assert right.status_code == 429  # even the right PIN waits: the guesser cannot tell which was right
    player, player_csrf = phone(app, "192.168.1.41")
    joined = player.post(f"/api/games/{table.game_id}/join", json={"pin": table.pin},
                         headers={"X-CSRF-Token": player_csrf})
    assert joined.status_code == 200  # another phone with the PIN is not locked out


def test_state_changing_requests_need_the_csrf_token(table: Table) -> None:
    action = first_action(table.view())
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        response = table.client.post(f"/api/games/{table.game_id}/actions", json={"action": action, "version": 0},
                                     headers=headers)
        assert response.status_code == 403 and "CSRF" in response.get_json()["error"]
    assert table.view()["version"] == 0


def test_a_replayed_idempotency_key_applies_once(table: Table) -> None:
    view = table.view()
    action = first_action(view)
    first = table.act(action, view["version"], key="tap-1")
    again = table.act(action, view["version"], key="tap-1")
    assert first.status_code == 201 and again.status_code == 200
    assert again.get_json()["replayed"] and again.get_json()["version"] == first.get_json()["version"]
    assert again.get_json()["event_id"] == first.get_json()["event_id"]
    assert table.view()["actions"] == 1 and table.view()["version"] == 1


def test_two_phones_at_once_one_wins_the_other_hears_the_game_moved_on(table: Table) -> None:
    view = table.view()
    won = table.act(selection(view, 0), view["version"], key="sarah")
    lost = table.post(f"/api/games/{table.game_id}/undo", {"version": view["version"], "idempotency_key": "jan"})
    assert won.status_code == 201
    assert lost.status_code == 409  # Jan's undo was meant for the game before Sarah's selection
    body = lost.get_json()
    assert "the game moved on" in body["error"]
    assert body["view"]["version"] == won.get_json()["version"]  # a fresh view comes with the refusal
    assert table.view()["actions"] == 1


def test_players_selecting_at_once_are_all_kept(table: Table) -> None:
    """Everyone picks behind their screen at the same time: a selection that lands while another
    phone's was on its way is no conflict, so neither player is asked to choose again."""
    view = table.view()
    sarah, jan = (selection(view, seat) for seat in (0, 1))
    first = table.act(sarah, view["version"], key="sarah")
    second = table.act(jan, view["version"], key="jan")  # sent from the same, now older, version
    assert (first.status_code, second.status_code) == (201, 201), second.get_json()
    after = table.view()
    assert after["actions"] == 2 and after["phase"] != "select"
    again = table.act(jan, view["version"], key="jan-again")  # the rules still judge a stale selection
    assert again.status_code == 422 and table.view()["actions"] == 2
    bad = table.post(f"/api/games/{table.game_id}/actions", {"action": sarah, "version": "seven"})
    assert bad.status_code == 400 and "version must be a whole number" in bad.get_json()["error"]


def test_undo_takes_back_the_last_action(table: Table) -> None:
    start = table.view()
    done = table.act(first_action(start), start["version"]).get_json()["view"]
    undone = table.post(f"/api/games/{table.game_id}/undo", {"version": done["version"]})
    assert undone.status_code == 201
    view = undone.get_json()["view"]
    assert view["actions"] == 0 and view["state"] == start["state"] and view["version"] == 2
    nothing = table.post(f"/api/games/{table.game_id}/undo", {"version": view["version"]})
    assert nothing.status_code == 422 and "Nothing to take back" in nothing.get_json()["error"]


def test_export_then_import_rebuilds_the_same_game(table: Table) -> None:
    view = advance_to(table, "assistants")
    text = table.client.get(f"/api/games/{table.game_id}/log").get_data(as_text=True)
    assert text.splitlines()[0].startswith('{"edition": "essential", "format": "keshi-game-log"')
    imported = table.post("/api/games/import", None)
    assert imported.status_code == 400  # an empty body is not a log
    response = table.client.post("/api/games/import", data=text, headers={"X-CSRF-Token": table.csrf})
    assert response.status_code == 201
    copy = response.get_json()["view"]
    assert copy["state"] == view["state"] and copy["actions"] == view["actions"]
    assert scores(copy) == scores(view)


def test_a_damaged_import_names_the_line(table: Table) -> None:
    text = table.client.get(f"/api/games/{table.game_id}/log").get_data(as_text=True)
    damaged = text + '{"type": "claim", "player": 0}\n'
    response = table.client.post("/api/games/import", data=damaged, headers={"X-CSRF-Token": table.csrf})
    assert response.status_code == 400
    assert "import:2" not in response.get_json()["error"] and ":2:" in response.get_json()["error"]


def test_an_oversized_import_is_413(app: Flask, table: Table) -> None:
    app.config["IMPORT_MAX_BYTES"] = 1024
    big = "x" * 2048
    response = table.client.post("/api/games/import", data=big, headers={"X-CSRF-Token": table.csrf})
    assert response.status_code == 413
    assert "1 KiB import limit" in response.get_json()["error"]


def test_setup_errors_name_the_field(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    for body, words in (({"players": [{"name": "Solo"}]}, "2 to 4 players"),
                        ({"players": PLAYERS, "tower_layer": "B3"}, "tower_layer"),
                        ({"players": [{"name": "Sarah"}, {"name": " "}]}, "player 2 needs a name")):
        response = client.post("/api/games", json=body, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 400 and words in response.get_json()["error"]


def test_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/games/nope").status_code == 404
    assert client.get("/api/games/nope/events").status_code == 404


def test_the_games_list_shows_each_game(client: FlaskClient, table: Table) -> None:
    games = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in games] == [table.game_id]
    page = client.get("/").get_data(as_text=True)
    assert f"/games/{table.game_id}" in page and "Sarah, Jan" in page


def wait_for_tower_result(table: Table) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        view = table.view()
        if view["tower_result"]:
            return view
        time.sleep(0.05)
    raise AssertionError("no tower result")


def test_a_toss_result_is_stored_and_a_correction_is_logged_not_silent(app: Flask, table: Table) -> None:
    view = advance_to(table, "toss")
    tossed = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    assert tossed.status_code == 202
    again = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    assert again.status_code == 409  # the tower is still settling
    view = wait_for_tower_result(table)
    detected = view["tower_result"]["counts"]
    assert sum(detected.values()) == view["tower_result"]["beam_count"]
    assert view["tower_result"]["toss_id"] == tossed.get_json()["toss_id"]
    colour = next(c for c, n in detected.items() if n)
    corrected = {**{c: n for c, n in detected.items() if n}, colour: detected[colour] - 1}
    response = table.act({"type": "release", "counts": corrected}, view["version"])
    assert response.status_code == 201
    after = response.get_json()["view"]
    assert after["tower_result"] is None and after["phase"] != "toss"
    label = table.view()["history"][0]["label"]
    assert "corrected by the table (the tower saw" in label and f"{detected[colour]} {colour}" in label
    store = app.extensions["keshi.store"]
    meta = store.query("SELECT meta FROM game_log WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (table.game_id,))
    logged = json.loads(meta[0]["meta"])
    assert logged["corrected"] and logged["detected"] == {c: n for c, n in detected.items() if n}
    # the toss log keeps the camera's counts and the table's correction; the statistics use the correction
    (toss,) = [t for t in iter_tosses(store) if t.toss_id == logged["toss_id"]]
    assert toss.pieces_out == colour_counts(detected)
    assert toss.correction == colour_counts(corrected)
    loaded = load_tosses(store)
    row = [t.toss_id for t in iter_tosses(store)].index(toss.toss_id)
    assert loaded.pieces_out[row].tolist() == [colour_counts(corrected)[c] for c in COLOURS]
    assert loaded.corrected[row]


def test_a_selection_stays_hidden_until_everyone_has_chosen(app: Flask, table: Table) -> None:
    view = table.view()
    first = selection(view, 0)
    chosen = table.act(first, view["version"]).get_json()["view"]
    sarah = chosen["state"]["players"][0]
    assert sarah["has_selected"] and sarah["selected"] == [] and sarah["assistants"] == []
    assert sarah["screen"] == view["state"]["players"][0]["screen"]  # nothing left the screen, as far as anyone sees
    watcher = app.test_client()
    seen = watcher.get(f"/api/games/{table.game_id}").get_json()
    assert seen["history"][0]["label"] == "Sarah has chosen 3 keshis (shown when everyone has)"
    revealed = table.act(selection(chosen, 1), chosen["version"]).get_json()["view"]
    assert revealed["state"]["players"][0]["selected"] == first["colours"]
    assert table.view()["history"][0]["label"].startswith("Everyone reveals — Sarah: " + " + ".join(first["colours"]))
