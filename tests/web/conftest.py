"""A Flask client seated at a fresh 2-player game, with its CSRF token at hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

PLAYERS = [{"name": "Sarah", "colour": "blue"}, {"name": "Jan", "colour": "red"}]


@dataclass
class Table:
    """A test client that created (so sits at) one game, as a shared device playing for everyone."""

    client: FlaskClient
    csrf: str
    game_id: str
    pin: str

    def post(self, path: str, body: Any = None, **headers: str) -> TestResponse:
        return self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf, **headers})

    def act(self, action: dict[str, Any], version: int | None, key: str | None = None) -> TestResponse:
        body: dict[str, Any] = {"action": action, "version": version}
        if key:
            body["idempotency_key"] = key
        return self.post(f"/api/games/{self.game_id}/actions", body)

    def plays_for(self, seat: int | str) -> None:
        """This device now plays for ``seat`` (a player's number, or "all")."""
        response = self.post(f"/api/games/{self.game_id}/role", {"seat": seat})
        assert response.status_code == 200, response.get_json()

    def view(self) -> dict[str, Any]:
        data: dict[str, Any] = self.client.get(f"/api/games/{self.game_id}").get_json()
        return data


def share(client: FlaskClient, csrf: str, game_id: str) -> None:
    """This (host) client's device plays for everyone at ``game_id``, as the companion's own screen does."""
    response = client.post(f"/api/games/{game_id}/role", json={"seat": "all"}, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 200, response.get_json()


def csrf_of(client: FlaskClient) -> str:
    token: str = client.get("/api/session").get_json()["csrf"]
    return token


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return new_table(client)


def new_table(client: FlaskClient) -> Table:
    """A fresh 2-player game made by ``client`` (the companion's own screen), its tower checked, the
    client playing for everyone."""
    csrf = csrf_of(client)
    response = client.post("/api/games", json={"players": PLAYERS, "seed": 3}, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    share(client, csrf, body["id"])
    emptied = client.post(f"/api/games/{body['id']}/tower/empty", json={"found": {}}, headers={"X-CSRF-Token": csrf})
    assert emptied.status_code == 201, emptied.get_json()  # the game-start tower check, done
    return Table(client, csrf, body["id"], body["pin"])
