"""Hidden information stays hidden: while a round's selections are secret, no answer another device can
get (the view, the game list, the page, the export, the game's event stream from its start, the bus
stream) contains a player's chosen keshis."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import LiveServer
from tests.security.live import RawClient, serve_for_module
from tests.security.table import device, new_game, seated_phone, view


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_for_module(tmp_path_factory, "hidden")


def contains_choice(value: Any, chosen: list[str]) -> bool:
    """True when ``value`` (parsed JSON) holds the chosen keshis (in any order) as a list anywhere, except
    in ``selections``: the legal triples of the players still choosing, which may be the same colours."""
    if isinstance(value, list):
        if len(value) == 3 and all(isinstance(v, str) for v in value) and sorted(value) == sorted(chosen):
            return True
        return any(contains_choice(v, chosen) for v in value)
    if isinstance(value, dict):
        return any(contains_choice(v, chosen) for k, v in value.items() if k != "selections")
    return False


def stream_messages(server: LiveServer, path: str, seconds: float = 1.5) -> list[Any]:
    """The JSON data of every SSE message ``path`` sends within ``seconds``."""
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=seconds, source_address=("127.0.0.30", 0))
    messages: list[Any] = []
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        while True:
            line = response.fp.readline().decode()
            if line.startswith("data: "):
                messages.append(json.loads(line[6:]))
    except (TimeoutError, OSError):
        pass
    finally:
        connection.close()
    return messages


def test_no_answer_shows_a_choice_before_everyone_has_revealed(server: LiveServer) -> None:
    screen, game = new_game(server)
    ana = seated_phone(server, 31, game, seat=0)
    current = view(ana, game["id"])
    option = current["selections"]["0"][0]
    chosen = list(option["colours"])
    acted = ana.call("POST", f"/api/games/{game['id']}/actions", {"action": {
        "type": "select", "player": 0, "colours": chosen, "wild_sectors": option["wild"][0] if option["wild"] else []},
        "version": current["version"]})
    assert acted.status == 201, acted.body
    ben = seated_phone(server, 32, game, seat=1)
    stranger = device(server, 33)
    for who in (ben, stranger, RawClient(server.url)):  # another player, a watcher, even the host's screen
        for path in (f"/api/games/{game['id']}", "/api/games"):
            answer = who.send("GET", path)
            assert answer.status == 200 and not contains_choice(answer.json(), chosen), path
        page = who.send("GET", f"/games/{game['id']}").body.decode()
        assert " + ".join(chosen) not in page and json.dumps(chosen) not in page
        export = who.send("GET", f"/api/games/{game['id']}/log")
        assert export.status == 409 and "revealed" in export.json()["error"]
    messages = stream_messages(server, f"/api/games/{game['id']}/events?last_event_id=0")
    assert messages and not any(contains_choice(m, chosen) for m in messages)
    assert not any(contains_choice(m, chosen) for m in stream_messages(server, "/events?last_event_id=0"))
    seen = view(stranger, game["id"])
    assert seen["state"]["players"][0]["selected"] == [] and seen["state"]["players"][0]["has_selected"]
