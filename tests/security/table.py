"""A table over real HTTP for the access tests: the companion's own screen (127.0.0.1) and phones that
connect from other addresses (127.0.0.2, ...), each its own device with its own cookies."""

from __future__ import annotations

from typing import Any

from tests.conftest import LiveServer
from tests.security.live import Answer, RawClient

#: The companion's own screen: a loopback request, so the host.
OWN_SCREEN = "127.0.0.1"
PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}, {"name": "Cem", "colour": "green"}]


def device(server: LiveServer, n: int) -> RawClient:
    """Device number ``n`` on the table's network (never the companion's own screen)."""
    assert n >= 2
    return RawClient(server.url, f"127.0.0.{n}")


def new_game(server: LiveServer, seed: int = 3) -> tuple[RawClient, dict[str, Any]]:
    """A 3-player game made on the companion's own screen, its tower checked; the screen plays for everyone."""
    screen = RawClient(server.url, OWN_SCREEN)
    created = screen.call("POST", "/api/games", {"players": PLAYERS, "seed": seed})
    assert created.status == 201, created.body
    game = created.json()
    assert screen.call("POST", f"/api/games/{game['id']}/role", {"seat": "all"}).status == 200
    assert screen.call("POST", f"/api/games/{game['id']}/tower/empty", {"found": {}}).status == 201
    return screen, game


def seated_phone(server: LiveServer, n: int, game: dict[str, Any], seat: int | None = None) -> RawClient:
    """Device ``n`` joined to ``game`` with its PIN, playing for ``seat`` when given."""
    phone = device(server, n)
    assert phone.call("POST", f"/api/games/{game['id']}/join", {"pin": game["pin"]}).status == 200
    if seat is not None:
        taken = phone.call("POST", f"/api/games/{game['id']}/role", {"seat": seat})
        assert taken.status == 200, taken.body
    return phone


def view(client: RawClient, game_id: str) -> dict[str, Any]:
    answer = client.send("GET", f"/api/games/{game_id}")
    assert answer.status == 200, answer.body
    found: dict[str, Any] = answer.json()
    return found


def error(answer: Answer) -> str:
    """The refusal's words."""
    return str(answer.json().get("error", ""))
