"""A phone at the table over real HTTP (cookies, CSRF token), and an SSE reader, for live-server tests."""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.request
from typing import Any


class HttpTable:
    """One browser session against a running ``keshi serve``."""

    def __init__(self, base_url: str) -> None:
        self.base = base_url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = str(self.request("GET", "/api/session")[1]["csrf"])

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if method != "GET":
            req.add_header("X-CSRF-Token", self.csrf)
        try:
            with self.opener.open(req, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def create(self, players: list[dict[str, str]], seed: int) -> dict[str, Any]:
        """A new game whose tower the table has checked (confirmed empty), so it may be tossed."""
        status, body = self.request("POST", "/api/games", {"players": players, "seed": seed})
        assert status == 201, body
        status, shared = self.request("POST", f"/api/games/{body['id']}/role", {"seat": "all"})
        assert status == 200, shared  # the host's device plays for everyone
        status, emptied = self.request("POST", f"/api/games/{body['id']}/tower/empty", {"found": {}})
        assert status == 201, emptied
        return body

    def act(self, game_id: str, action: dict[str, Any], version: int) -> dict[str, Any]:
        status, body = self.request("POST", f"/api/games/{game_id}/actions", {"action": action, "version": version})
        assert status == 201, body
        return dict(body["view"])

    def view(self, game_id: str) -> dict[str, Any]:
        return self.request("GET", f"/api/games/{game_id}")[1]

    def toss_and_wait(self, game_id: str, version: int, timeout: float = 15.0) -> dict[str, Any]:
        """Toss the tower for this round and wait until its durable result is part of the view."""
        status, body = self.request("POST", f"/api/games/{game_id}/toss", {"version": version})
        assert status == 202, body
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view = self.view(game_id)
            if view["tower_result"]:
                return view
            time.sleep(0.05)
        raise AssertionError("the tower result did not arrive")


def read_sse_ids(url: str, last_event_id: int | None, until_id: int, timeout: float = 10.0) -> list[int]:
    """The ``id:`` values a fresh EventSource-like client receives, up to ``until_id``."""
    req = urllib.request.Request(url)
    if last_event_id is not None:
        req.add_header("Last-Event-ID", str(last_event_id))
    ids: list[int] = []
    with urllib.request.urlopen(req, timeout=timeout) as response:
        while not ids or ids[-1] < until_id:
            line = response.readline().decode()
            if not line:
                break
            if line.startswith("id: "):
                ids.append(int(line[4:]))
    return ids
