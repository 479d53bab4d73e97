"""A stranger on the table's network, over raw HTTP: paths and bodies go out exactly as written
(``%09``, a backslash, a megabyte of brackets), redirects are not followed, cookies are kept."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import LiveServer, start_server


@dataclass
class Answer:
    """One response: status, headers and the body as bytes."""

    status: int
    headers: Message
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def set_cookies(self) -> list[str]:
        """The raw ``Set-Cookie`` headers (attributes included)."""
        return list(self.headers.get_all("Set-Cookie") or [])


class RawClient:
    """One browser session against a running ``keshi serve``, with its CSRF token at hand."""

    def __init__(self, base_url: str, source: str = "127.0.0.1") -> None:
        """``source``: the address this client connects from. The companion's own screen is 127.0.0.1;
        another loopback address (127.0.0.2, ...) is a different device on the table's network."""
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.source = source
        self.cookies: dict[str, str] = {}
        self.csrf = str(self.send("GET", "/api/session").json()["csrf"])

    def send(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> Answer:
        """Send one request as written (the CSRF token on anything but GET) and return the answer."""
        sent = dict(headers or {})
        if method != "GET":
            sent.setdefault("X-CSRF-Token", self.csrf)
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        connection = http.client.HTTPConnection(self.host, self.port, timeout=20, source_address=(self.source, 0))
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in {**sent, "Content-Length": str(len(body or b""))}.items():
                connection.putheader(name, value)
            connection.endheaders(body)
            response = connection.getresponse()
            answer = Answer(response.status, response.msg, response.read())
        finally:
            connection.close()
        for header in answer.set_cookies():
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return answer

    def call(self, method: str, path: str, body: Any = None) -> Answer:
        """A JSON request (``body`` serialised; none for ``None``)."""
        data = None if body is None else json.dumps(body).encode()
        return self.send(method, path, data, {"Content-Type": "application/json"} if data is not None else None)

    def post_json_text(self, path: str, text: str) -> Answer:
        """POST ``text`` as an ``application/json`` body (it need not be valid JSON)."""
        return self.send("POST", path, text.encode(), {"Content-Type": "application/json"})


def serve_for_module(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[LiveServer]:
    """A ``keshi serve`` shared by a module's tests (each test file starts its own: ~3 s each time)."""
    server = start_server(tmp_path_factory.mktemp(name) / "instance")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()
