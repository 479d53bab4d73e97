"""A phone that joins keeps its seat while answers to its earlier requests are still arriving.

A page load sends many requests (scripts, icons, the service worker's files); one sent before the join
and answered after it must not carry the session from before the join back to the phone."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import Table, csrf_of, new_table

#: Answers a phone may still be waiting for when it joins: a script, the session, a page, the health check
UNDER_WAY = ["/static/common.js", "/api/session", "/", "/healthz"]


def session_cookie_sent(set_cookies: list[str]) -> str | None:
    """The session cookie's value an answer's ``Set-Cookie`` headers give the browser, if any."""
    for header in set_cookies:
        name, _, rest = header.partition("=")
        if name == "session":
            return rest.split(";", 1)[0]
    return None


def join(phone: FlaskClient, csrf: str, table: Table) -> None:
    joined = phone.post(f"/api/games/{table.game_id}/join", json={"pin": table.pin}, headers={"X-CSRF-Token": csrf})
    assert joined.status_code == 200


def test_an_answer_sent_before_the_join_does_not_unseat_the_phone(app: Flask, table: Table) -> None:
    phone: FlaskClient = app.test_client()
    csrf = csrf_of(phone)
    join(phone, csrf, new_table(app.test_client()))  # the evening's first game: the phone's cookie is kept
    cookie = phone.get_cookie("session")
    assert cookie is not None
    before_join = cookie.value
    join(phone, csrf, table)  # the second game
    earlier = app.test_client()  # the same browser's requests, sent with the cookie it had then
    earlier.set_cookie("session", before_join)
    for path in UNDER_WAY:
        answer = earlier.get(path)
        assert answer.status_code == 200, path
        sent = session_cookie_sent(answer.headers.getlist("Set-Cookie"))
        if sent is not None:  # the browser keeps whatever cookie arrives last
            phone.set_cookie("session", sent)
    seated = phone.post(f"/api/games/{table.game_id}/role", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    assert seated.status_code == 200, seated.get_json()


def test_a_change_to_the_session_is_still_sent(app: Flask) -> None:
    phone = app.test_client()
    first = phone.get("/api/session")
    assert session_cookie_sent(first.headers.getlist("Set-Cookie")) is not None  # the CSRF token, made now
    again = phone.get("/api/session")
    assert session_cookie_sent(again.headers.getlist("Set-Cookie")) is None  # nothing changed
