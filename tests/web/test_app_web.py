"""App-level guarantees of the dashboard: no debugger, ever; pages render for a phone."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from companion.app import create_app, shutdown_app
from tests.conftest import FAST_TOWER


def test_the_debugger_is_never_on_even_when_config_asks(tmp_path: Path) -> None:
    app = create_app({"DEBUG": True, "SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "instance")
    try:
        assert app.debug is False
        client = app.test_client()
        response = client.get("/api/games/nope")
        assert response.status_code == 404 and "Traceback" not in response.get_data(as_text=True)
    finally:
        shutdown_app(app)


def test_pages_carry_the_csrf_token_and_link_every_area(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    token = client.get("/api/session").get_json()["csrf"]
    assert f'<meta name="csrf-token" content="{token}">' in page
    for href in ('href="/"', 'href="/tower"', 'href="/fairness/"', 'href="/games/new"'):
        assert href in page
    assert client.get("/games/new").status_code == 200
