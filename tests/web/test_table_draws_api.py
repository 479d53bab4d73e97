"""``POST /api/games`` with ``table_draws``: a real table enters a subset of the setup draws and the
game asks the rest during play; a bad flag or a missing river tile is refused and creates nothing."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import PLAYERS, csrf_of


def games(client: FlaskClient) -> int:
    return len(client.get("/api/games").get_json()["games"])


def test_a_table_draws_game_with_only_the_river_tiles_entered_starts_without_a_question(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    body = {"players": PLAYERS, "start_player": 1, "table_draws": True,
            "draws": {"river_tiles": [7, 3, 17], "exchange_offices": [4, 1, 6]}}
    response = client.post("/api/games", json=body, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201, response.get_json()
    view = response.get_json()["view"]
    assert view["phase"] == "select" and view["pending"] is None
    assert view["state"]["exchange_offices"] == [4, 1, 6]  # the subset entered is kept
    assert view["state"]["scroll_display"] == {"gray": [], "yellow": [], "pink": [], "orange": []}  # asked later


def test_a_bad_table_draws_request_is_refused_naming_the_problem_and_creates_nothing(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    before = games(client)
    for body, words in (({"players": PLAYERS, "table_draws": "yes", "draws": {"river_tiles": [7, 3, 17]}},
                         "table_draws must be true or false, not 'yes'"),
                        ({"players": PLAYERS, "table_draws": True, "draws": {"workshops": [["red"] * 8] * 4}},
                         "with table draws the table must enter: river_tiles")):
        response = client.post("/api/games", json=body, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()
    assert games(client) == before
