"""A body of 100,000 ``[`` (or any JSON nested deeper than 32 levels) is refused with a 400 that says so,
on every route that reads JSON (not a RecursionError's 500, nor taken for "no body"), and the live
server goes on answering."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from companion.web.json_depth import MAX_DEPTH, nested_too_deeply
from tests.conftest import LiveServer
from tests.security.live import RawClient, serve_for_module

DEEP = "[" * 100_000
TWO_PLAYERS = {"players": [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}], "seed": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_for_module(tmp_path_factory, "json-depth")


@pytest.fixture(scope="module")
def table(server: LiveServer) -> tuple[RawClient, str]:
    """A session that created (so sits at) a game, and the game's id."""
    client = RawClient(server.url)
    created = client.post_json_text("/api/games", json.dumps(TWO_PLAYERS))
    assert created.status == 201, created.body
    return client, str(created.json()["id"])


def nested(levels: int) -> str:
    """``{"a": {"a": ... 1}}`` with ``levels`` objects."""
    return '{"a": ' * levels + "1" + "}" * levels


def assert_refused_as_too_deep(answer_status: int, body: bytes, what: str) -> None:
    assert answer_status == 400, f"{what}: {answer_status} {body[:200]!r}"
    assert "nested too deeply" in json.loads(body)["error"], what


ROUTES = [
    ("POST", "/api/games"),
    ("POST", "/api/games/{game}/actions"),
    ("POST", "/api/games/{game}/join"),
    ("POST", "/api/games/{game}/undo"),
    ("POST", "/api/games/{game}/tower/empty"),
    ("POST", "/api/games/{game}/season-scoring/ack"),
    ("POST", "/api/games/{game}/toss"),
    ("POST", "/api/tower/toss"),
    ("POST", "/api/tower/empty"),
    ("POST", "/api/tower/contents"),
    ("POST", "/api/tower/misread"),
    ("POST", "/api/calibration/capture"),
    ("PUT", "/api/board-profile/essential/values/river"),
    ("POST", "/api/board-profile/import"),
]


@pytest.mark.parametrize(("method", "route"), ROUTES)
def test_a_deep_body_is_a_400_on_every_route_that_reads_json(
        server: LiveServer, table: tuple[RawClient, str], method: str, route: str) -> None:
    client, game = table
    path = route.format(game=game)
    answer = client.send(method, path, DEEP.encode(), {"Content-Type": "application/json"})
    assert_refused_as_too_deep(answer.status, answer.body, f"{method} {path}")
    assert server.get_json("/healthz")["status"] == "ok"  # and the server still answers


def test_a_deep_imported_log_or_board_profile_is_a_400_raw_or_uploaded(table: tuple[RawClient, str]) -> None:
    """These routes parse the file themselves (JSON Lines, a profile document), not through get_json."""
    client, _game = table
    raw = client.send("POST", "/api/games/import", DEEP.encode(), {"Content-Type": "application/x-ndjson"})
    assert_refused_as_too_deep(raw.status, raw.body, "raw log")
    boundary = "keshi-boundary"
    form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"deep.jsonl\"\r\n"
            f"Content-Type: application/x-ndjson\r\n\r\n{DEEP}\r\n--{boundary}--\r\n").encode()
    multipart = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    uploaded = client.send("POST", "/api/games/import", form, multipart)
    assert_refused_as_too_deep(uploaded.status, uploaded.body, "uploaded log")
    board = client.post_json_text("/api/board-profile/import", nested(5000))
    assert_refused_as_too_deep(board.status, board.body, "board profile file")


def test_the_limit_is_32_levels(table: tuple[RawClient, str]) -> None:
    client, _game = table
    over = client.post_json_text("/api/games", nested(MAX_DEPTH + 1))
    assert_refused_as_too_deep(over.status, over.body, "33 levels")
    at_the_limit = client.post_json_text("/api/games", nested(MAX_DEPTH))
    assert at_the_limit.status == 400  # a bad setup, but read: not refused for its depth
    assert "nested too deeply" not in at_the_limit.json()["error"]


def test_the_refusal_speaks_the_phones_language(table: tuple[RawClient, str]) -> None:
    client, _game = table
    answer = client.send("POST", "/api/games", DEEP.encode(),
                         {"Content-Type": "application/json", "Accept-Language": "de-DE"})
    assert answer.status == 400
    assert "zu tief verschachtelt" in answer.json()["error"]


def test_brackets_inside_strings_do_not_count() -> None:
    assert not nested_too_deeply(json.dumps({"name": "[" * 1000, "note": '\\"{' * 500}))
    assert not nested_too_deeply("[1]\n" * 100)  # JSON Lines: each line starts again at 0
    assert nested_too_deeply(nested(MAX_DEPTH + 1)) and not nested_too_deeply(nested(MAX_DEPTH))
