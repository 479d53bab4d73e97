"""The games list: date, game and edition per game (an imported game dated by when it was played), and a
delete that removes the game, its log and its events, tells a following stream, and needs a seat, the
companion's own screen or the PIN."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.store import Store, _statements
from companion.table import game_records
from companion.table.service import GameService
from tests.web.conftest import Table, csrf_of, share

PHONE = {"REMOTE_ADDR": "192.168.1.23"}  # a phone on the table's Wi-Fi (not the companion's own screen)


def create(client: FlaskClient, game: str, names: tuple[str, str]) -> Table:
    csrf = csrf_of(client)
    players = [{"name": names[0], "colour": "blue"}, {"name": names[1], "colour": "red"}]
    response = client.post("/api/games", json={"game": game, "players": players, "seed": 4},
                           headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201, response.get_json()
    share(client, csrf, response.get_json()["id"])
    return Table(client, csrf, response.get_json()["id"], response.get_json()["pin"])


def test_the_list_shows_date_game_and_edition_with_a_delete(client: FlaskClient) -> None:
    marrakesh = create(client, "marrakesh", ("Sarah", "Jan"))
    morocco = create(client, "morocco", ("Ana", "Ben"))
    html = client.get("/").get_data(as_text=True)
    for table, game in ((marrakesh, "Marrakesh"), (morocco, "Morocco")):
        row = html.split(f'data-id="{table.game_id}"', 1)[1].split("</li>", 1)[0]
        assert f'<span class="game-name">{game}</span>' in row and 'class="secondary delete-game"' in row
    assert "Essential Edition (2023)" in html.split(f'data-id="{marrakesh.game_id}"', 1)[1].split("</li>", 1)[0]
    summaries = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert summaries[morocco.game_id]["kind"] == "morocco" and summaries[marrakesh.game_id]["kind"] == "marrakesh"


#: a week before the test's games were made (seconds since the epoch)
PLAYED = time.time() - 7 * 24 * 3600


def row_of(html: str, game_id: str) -> str:
    """The games list's entry of ``game_id``."""
    return html.split(f'data-id="{game_id}"', 1)[1].split("</li>", 1)[0]


def test_an_imported_game_is_dated_by_when_it_was_played_not_by_its_import(app: Flask, client: FlaskClient) -> None:
    played = create(client, "morocco", ("Ana", "Ben"))
    games: GameService = app.extensions["keshi.games"]
    with games.store.write() as db:
        db.execute("UPDATE games SET created_at = ? WHERE id = ?", (PLAYED, played.game_id))
    log = client.get(f"/api/games/{played.game_id}/log").get_data(as_text=True)
    imported = client.post("/api/games/import", data=log.encode(), headers={"X-CSRF-Token": played.csrf})
    assert imported.status_code == 201, imported.get_json()
    html = client.get("/").get_data(as_text=True)
    day = time.strftime("%Y-%m-%d %H:%M", time.localtime(PLAYED))
    assert day in row_of(html, imported.get_json()["id"])
    assert time.strftime("%Y-%m-%d", time.localtime()) not in row_of(html, imported.get_json()["id"])


def test_an_import_with_a_date_of_play_that_is_not_a_time_is_refused_and_adds_no_game(client: FlaskClient) -> None:
    played = create(client, "morocco", ("Ana", "Ben"))
    head, rest = client.get(f"/api/games/{played.game_id}/log").get_data(as_text=True).split("\n", 1)
    assert '"played_at": "' in head
    damaged = re.sub(r'"played_at": "[^"]*"', '"played_at": "last Saturday"', head) + "\n" + rest
    refused = client.post("/api/games/import", data=damaged.encode(), headers={"X-CSRF-Token": played.csrf})
    assert refused.status_code == 400 and '"last Saturday"' in refused.get_json()["error"]
    assert "date of play" in refused.get_json()["error"]
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [played.game_id]


def test_the_list_counts_one_move_in_the_singular(client: FlaskClient) -> None:
    none_yet = create(client, "morocco", ("Ana", "Ben"))
    one = create(client, "morocco", ("Cy", "Di"))
    assert one.act({"type": "roll", "player": one.view()["choices"]["actor"], "face": "green"}, 0).status_code == 201
    html = client.get("/").get_data(as_text=True)
    assert '<span class="game-moves">1 move</span>' in row_of(html, one.game_id)
    assert '<span class="game-moves">0 moves</span>' in row_of(html, none_yet.game_id)


def test_delete_removes_the_game_its_log_and_events_only(app: Flask, client: FlaskClient) -> None:
    keep = create(client, "morocco", ("Ana", "Ben"))
    gone = create(client, "morocco", ("Cy", "Di"))
    assert gone.act({"type": "roll", "player": gone.view()["choices"]["actor"], "face": "green"}, 0).status_code == 201
    games: GameService = app.extensions["keshi.games"]
    response = client.delete(f"/api/games/{gone.game_id}", headers={"X-CSRF-Token": gone.csrf})
    assert response.status_code == 200 and response.get_json() == {"deleted": gone.game_id}
    for table in ("games", "game_log", "game_events"):
        column = "id" if table == "games" else "game_id"
        left = games.store.query(f"SELECT COUNT(*) AS n FROM {table} WHERE {column} = ?", (gone.game_id,))
        assert left[0]["n"] == 0, table
    assert client.get(f"/api/games/{gone.game_id}").status_code == 404
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [keep.game_id]
    assert keep.view()["version"] == 0


def test_only_the_host_deletes_a_game_not_a_phone_that_knows_the_pin(app: Flask) -> None:
    host = app.test_client()
    table = create(host, "morocco", ("Ana", "Ben"))
    phone = app.test_client()
    phone.environ_base.update(PHONE)
    csrf = csrf_of(phone)
    assert phone.post(f"/api/games/{table.game_id}/join", json={"pin": table.pin},
                      headers={"X-CSRF-Token": csrf}).status_code == 200  # seated, even
    for body in (None, {"pin": table.pin}):
        refused = phone.delete(f"/api/games/{table.game_id}", json=body, headers={"X-CSRF-Token": csrf})
        assert refused.status_code == 403 and "host" in refused.get_json()["error"]
    assert host.get(f"/api/games/{table.game_id}").status_code == 200
    code = app.extensions["keshi.owner_code"].code()
    assert phone.post("/api/host", json={"code": code.lower()}, headers={"X-CSRF-Token": csrf}).status_code == 200
    allowed = phone.delete(f"/api/games/{table.game_id}", headers={"X-CSRF-Token": csrf})
    assert allowed.status_code == 200


def test_a_following_stream_hears_the_game_was_deleted_and_ends(app: Flask, client: FlaskClient) -> None:
    table = create(client, "marrakesh", ("Sarah", "Jan"))
    stream = client.get(f"/api/games/{table.game_id}/events?last_event_id=0", buffered=False)
    games: GameService = app.extensions["keshi.games"]
    games.delete(table.game_id)
    guard = threading.Timer(10, app.extensions["keshi.stopping"].set)  # without the notice: stop, then fail
    guard.start()
    try:
        text = "".join(chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in stream.response)
    finally:
        guard.cancel()
    assert "event: deleted" in text and "This game was deleted from the companion" in text
    assert text.rstrip().endswith("}")


def test_games_stored_before_the_kind_column_are_marrakesh(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_migrations (component TEXT NOT NULL, version INTEGER NOT NULL,"
               " applied_at TEXT NOT NULL DEFAULT (datetime('now')), PRIMARY KEY (component, version))")
    for version, script in enumerate(game_records.MIGRATIONS[:2], start=1):
        assert isinstance(script, str)
        for statement in _statements(script):
            db.execute(statement)
        db.execute("INSERT INTO schema_migrations (component, version) VALUES (?, ?)",
                   (game_records.COMPONENT, version))
    db.execute("INSERT INTO games (id, title, created_at, updated_at, edition, setup, seating, pin)"
               " VALUES ('old', 'Old game', 0, 0, 'essential', '{}', '[]', '1234')")
    db.commit()
    db.close()
    store = Store(path)
    try:
        assert (game_records.COMPONENT, 3) in store.applied
        assert store.query("SELECT kind FROM games WHERE id = 'old'")[0]["kind"] == "marrakesh"
    finally:
        store.close()
