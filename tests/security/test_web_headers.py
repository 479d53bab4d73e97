"""Every answer of a live server tells the browser to trust as little as it can: a Content-Security-Policy
without inline script that forbids framing, ``nosniff``, no referrer (join links carry secrets) and
``X-Frame-Options``; the session and language cookies are HttpOnly, SameSite=Lax and, over TLS, Secure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.conftest import LiveServer
from tests.security.live import Answer, RawClient, serve_for_module


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for this file's requests (they change nothing another test reads)."""
    yield from serve_for_module(tmp_path_factory, "headers")


#: Pages, API answers, static files, downloads and errors: the headers are on every kind of answer.
PATHS = ["/", "/games/new", "/tower", "/setup/calibrate", "/profile", "/fairness/", "/fairness/report.html",
         "/fairness/report.json", "/api/session", "/api/games", "/healthz", "/static/common.js",
         "/manifest.webmanifest", "/no-such-page", "/api/games/no-such-game"]


def policy(answer: Answer) -> dict[str, list[str]]:
    """The Content-Security-Policy as {directive: sources}."""
    header = answer.headers.get("Content-Security-Policy") or ""
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {words[0]: words[1:] for words in directives}


def assert_hardened(answer: Answer, what: str) -> None:
    csp = policy(answer)
    assert csp.get("script-src") == ["'self'"], f"{what}: script-src {csp.get('script-src')}"
    assert csp.get("default-src") == ["'self'"], what
    assert csp.get("frame-ancestors") == ["'none'"], what
    assert csp.get("object-src") == ["'none'"], what
    assert csp.get("base-uri") == ["'none'"], what
    assert answer.headers.get("X-Content-Type-Options") == "nosniff", what
    assert answer.headers.get("Referrer-Policy") == "no-referrer", what
    assert answer.headers.get("X-Frame-Options") == "DENY", what


def test_every_kind_of_answer_carries_the_security_headers(server: LiveServer) -> None:
    stranger = RawClient(server.url)
    for path in PATHS:
        answer = stranger.send("GET", path)
        assert answer.status < 500, (path, answer.status)
        assert_hardened(answer, f"GET {path} ({answer.status})")


def test_a_refused_request_carries_them_too(server: LiveServer) -> None:
    stranger = RawClient(server.url)
    no_token = stranger.send("POST", "/api/games", b"{}", {"Content-Type": "application/json", "X-CSRF-Token": "x"})
    assert no_token.status == 403
    assert_hardened(no_token, "POST /api/games without the CSRF token")


def test_a_game_page_and_its_join_page_cannot_be_framed_or_leak_the_join_link(server: LiveServer) -> None:
    """The pages that show or take a PIN: no inline script, no frame, no Referer."""
    table = RawClient(server.url)
    created = table.send("POST", "/api/games", b'{"players": [{"name": "Ana", "colour": "blue"}, '
                         b'{"name": "Ben", "colour": "red"}], "seed": 1}', {"Content-Type": "application/json"})
    assert created.status == 201, created.body
    game = created.json()["id"]
    for path in (f"/games/{game}", f"/games/{game}/join?pin=1234", f"/api/games/{game}"):
        answer = RawClient(server.url).send("GET", path)
        assert answer.status == 200, path
        assert_hardened(answer, path)
        assert b"<script>" not in answer.body, f"{path} has an inline script"


def cookie(set_cookies: list[str], name: str) -> list[str]:
    """The attributes of the ``Set-Cookie`` header for ``name``, lower-cased (``["httponly", "samesite=lax"]``)."""
    for header in set_cookies:
        if header.startswith(f"{name}="):
            return [part.strip().lower() for part in header.split(";")[1:]]
    raise AssertionError(f"no {name} cookie in {set_cookies}")


def test_the_session_cookie_is_httponly_and_samesite_lax_and_not_secure_over_plain_http(
        server: LiveServer) -> None:
    stranger = RawClient(server.url)
    stranger.cookies.clear()  # a new browser: the answer starts its session
    attributes = cookie(stranger.send("GET", "/api/session").set_cookies(), "session")
    assert "httponly" in attributes
    assert "samesite=lax" in attributes
    assert "secure" not in attributes  # plain HTTP: a Secure cookie would never come back


def test_the_language_cookie_is_httponly_and_samesite_lax_over_plain_http(server: LiveServer) -> None:
    answer = RawClient(server.url).send("GET", "/language/de?next=/tower")
    attributes = cookie(answer.set_cookies(), "keshi_lang")
    assert "httponly" in attributes and "samesite=lax" in attributes
    assert "secure" not in attributes


def test_over_tls_both_cookies_are_secure(app: Flask) -> None:
    """Behind TLS (``wsgi.url_scheme`` https) the cookies are sent back only over TLS."""
    client = app.test_client()
    session = client.get("/api/session", base_url="https://keshi.example")
    assert {"secure", "httponly", "samesite=lax"} <= set(cookie(session.headers.getlist("Set-Cookie"), "session"))
    language = client.get("/language/de?next=/", base_url="https://keshi.example")
    assert {"secure", "httponly", "samesite=lax"} <= set(cookie(language.headers.getlist("Set-Cookie"), "keshi_lang"))
