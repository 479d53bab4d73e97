"""The table PIN is never lost: a seated browser keeps its seat beyond closing, the games list shows it.

Issue 11, item 10: closing the host's browser used to end its (browser-session) cookie, so nobody
could show the PIN again.
"""

from __future__ import annotations

from flask import Flask

from tests.web.conftest import Table


def test_the_seat_cookie_outlives_the_browser_session(table: Table) -> None:
    response = table.client.get(f"/games/{table.game_id}")
    assert response.status_code == 200
    cookie = table.client.get_cookie("session")
    assert cookie is not None and cookie.expires is not None  # permanent, not a browser-session cookie
    assert table.pin in response.get_data(as_text=True)


def test_the_games_list_shows_the_pin_only_to_a_browser_seated_at_that_game(table: Table, app: Flask) -> None:
    seated = table.client.get("/").get_data(as_text=True)
    assert f'<strong class="pin">{table.pin}</strong>' in seated
    stranger = app.test_client().get("/").get_data(as_text=True)
    assert table.game_id in stranger  # the game is listed …
    assert 'class="pin"' not in stranger  # … without its PIN
