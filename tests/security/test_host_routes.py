"""The table decides table-wide things: a stranger with a fresh session (and its CSRF token) is refused
every tower control, the calibration, the board profile's changes and creating, importing or deleting a
game, and changes nothing; the same device with the owner code may; watching stays open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.cli import main
from tests.conftest import LiveServer
from tests.security.live import RawClient, serve_for_module
from tests.security.table import device, error, new_game

#: Every table-wide change: (method, path, body).
TABLE_WIDE: list[tuple[str, str, Any]] = [
    ("POST", "/api/tower/toss", {"pieces_in": {"red": 1}}),
    ("POST", "/api/tower/empty", {"found": {}}),
    ("POST", "/api/tower/contents", {"contents": {"red": 2}}),
    ("POST", "/api/tower/misread", {"counts": {"red": 1}}),
    ("POST", "/api/calibration/capture", {"step": "empty"}),
    ("POST", "/api/calibration/finish", {}),
    ("POST", "/api/calibration/test", {}),
    ("PUT", "/api/board-profile/essential/values/provision.9.demand", {"value": 3}),
    ("DELETE", "/api/board-profile/essential/values/provision.9.demand", None),
    ("POST", "/api/board-profile/import", {"edition": "essential", "values": {}}),
    ("PUT", "/api/board-profile/sabika/values/rondel.small.outer.size", {"value": 8}),
    ("DELETE", "/api/board-profile/sabika/values/rondel.small.outer.size", None),
    ("PUT", "/api/table-profile/morocco/values/overflow.market_tile", {"value": 1}),
    ("DELETE", "/api/table-profile/morocco/values/overflow.market_tile", None),
    ("POST", "/api/games", {"players": [{"name": "Eve"}, {"name": "Mal"}]}),
    ("POST", "/api/games/import", None),
]
#: What anyone may look at.
OPEN = ["/", "/tower", "/fairness/", "/profile", "/api/board-profile", "/api/board-profile?edition=sabika",
        "/api/table-profile/morocco", "/api/games", "/api/calibration"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_for_module(tmp_path_factory, "host")


def snapshot(client: RawClient) -> tuple[Any, ...]:
    """What the table-wide routes could change: the tower, the games, the board profiles (Marrakesh's, Sabika's,
    Morocco's), the calibration."""
    return (client.send("GET", "/healthz").json().get("tower"), client.send("GET", "/api/games").json(),
            client.send("GET", "/api/board-profile").json(),
            client.send("GET", "/api/board-profile?edition=sabika").json(),
            client.send("GET", "/api/table-profile/morocco").json(), client.send("GET", "/api/calibration").json())


def test_a_stranger_is_refused_every_table_wide_route_and_changes_nothing(server: LiveServer) -> None:
    screen, game = new_game(server)
    stranger = device(server, 9)
    before = snapshot(stranger)
    for method, path, body in [*TABLE_WIDE, ("DELETE", f"/api/games/{game['id']}", None)]:
        answer = stranger.call(method, path, body)
        assert answer.status == 403 and "host" in error(answer), (method, path, answer.status, answer.body)
    assert snapshot(stranger) == before
    for path in OPEN:
        assert stranger.send("GET", path).status == 200, path


def test_the_owner_code_makes_a_phone_the_host_and_a_new_code_signs_it_out(server: LiveServer) -> None:
    code = (server.instance / "owner_code").read_text().strip()
    assert (server.instance / "owner_code").stat().st_mode & 0o777 == 0o600
    phone = device(server, 10)
    assert phone.call("POST", "/api/host", {"code": "AAAA-BBBB-CCCC"}).status == 403
    assert phone.call("POST", "/api/host", {"code": code.lower().replace("-", " ")}).status == 200  # as typed
    created = phone.call("POST", "/api/games", {"players": [{"name": "Eve"}, {"name": "Mal"}]})
    assert created.status == 201, created.body
    assert phone.call("POST", "/api/tower/contents", {"contents": {"red": 1}}).status == 200
    assert phone.call("DELETE", f"/api/games/{created.json()['id']}").status == 200
    assert phone.call("DELETE", "/api/host").status == 200
    assert phone.call("POST", "/api/tower/contents", {"contents": {}}).status == 403
    assert phone.call("POST", "/api/host", {"code": code}).status == 200
    main(["owner-code", "--new", "--instance", str(server.instance)])  # from the companion's shell, no restart
    assert phone.call("POST", "/api/tower/contents", {"contents": {}}).status == 403  # signed out at once
    assert phone.call("POST", "/api/host", {"code": code}).status == 403  # the old code is no code


def test_the_own_screen_shows_the_code_and_a_phone_does_not(server: LiveServer) -> None:
    code = (server.instance / "owner_code").read_text().strip()
    assert code in RawClient(server.url).send("GET", "/host").body.decode()
    assert code not in device(server, 11).send("GET", "/host").body.decode()
