"""Inputs bounded by the box and names that read as what they are: a toss, what fell out, what the
tower holds and a rehearsed misreading never exceed the keshis the box holds (so one request cannot
keep the tower busy for minutes), and a name of control, bidi-override or only invisible characters
is refused; a name is kept in Unicode's composed form."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import pytest

from tests.conftest import LiveServer
from tests.security.live import RawClient, serve_for_module
from tests.security.table import error, new_game, view


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_for_module(tmp_path_factory, "bounds")


def test_no_count_above_what_the_box_holds(server: LiveServer) -> None:
    host = RawClient(server.url)  # the companion's own screen: the host may use the Tower page
    for path, body, words in (
            ("/api/tower/toss", {"pieces_in": {"red": 10_000_000}}, "but the box holds 25"),
            ("/api/tower/toss", {"pieces_in": {"red": 26}}, "but the box holds 25"),
            ("/api/tower/contents", {"contents": {"black": 2**64}}, "but the box holds 25"),
            ("/api/tower/misread", {"counts": {"white": -10**9}}, "but the box holds 25"),
            ("/api/tower/empty", {"found": {"mauve": 1}}, "unknown colour"),
            ("/api/tower/toss", {"pieces_in": {"red": 1.5}}, "whole numbers")):
        answer = host.call("POST", path, body)
        assert answer.status == 400 and words in error(answer), (path, answer.body)
    unchecked = host.call("POST", "/api/games", {"players": [{"name": "Ana"}, {"name": "Ben"}]}).json()
    assert host.call("POST", f"/api/games/{unchecked['id']}/role", {"seat": "all"}).status == 200
    found = host.call("POST", f"/api/games/{unchecked['id']}/tower/empty", {"found": {"red": 7}})
    assert found.status == 400 and "the box holds 6" in error(found)  # an Essential box has 6 red
    screen, game = new_game(server)
    current = view(screen, game["id"])
    too_many = screen.call("POST", f"/api/games/{game['id']}/actions",
                           {"action": {"type": "release", "counts": {"green": 11}}, "version": current["version"]})
    assert too_many.status == 400 and "the box holds 10" in error(too_many)
    assert view(screen, game["id"])["version"] == current["version"]
    assert host.call("POST", "/api/tower/toss", {"pieces_in": {"red": 25}}).status == 202  # a full box of red


@pytest.mark.parametrize(("name", "why"), [
    ("Ana\x00", "control character"), ("Ben\nCem", "control character"), ("\u202eanA", "reverses the text"),
    ("Ana\u2066x", "reverses the text"), ("\u200b\u200b", "visible letter"), ("\u2060\ufeff", "visible letter"),
    ("\u200b" * 24 + "Ana", "visible letter"),
])
def test_deceiving_names_are_refused(server: LiveServer, name: str, why: str) -> None:
    host = RawClient(server.url)
    before = host.send("GET", "/api/games").json()
    answer = host.call("POST", "/api/games", {"players": [{"name": "Zoe"}, {"name": name}]})
    assert answer.status == 400 and why in error(answer) and "player 2" in error(answer), answer.body
    assert host.send("GET", "/api/games").json() == before


def test_names_are_kept_composed(server: LiveServer) -> None:
    host = RawClient(server.url)
    decomposed = unicodedata.normalize("NFD", "Zoé")
    created = host.call("POST", "/api/games", {"players": [{"name": decomposed}, {"name": "Jürgen"}]})
    assert created.status == 201
    assert created.json()["view"]["names"][0] == "Zoé" == unicodedata.normalize("NFC", decomposed)
