"""Who may act: a table PIN per game (watching needs none) and a CSRF token per browser session.

* CSRF: every state-changing request (POST, PUT, PATCH, DELETE) must carry the session's token in
  the ``X-CSRF-Token`` header (pages read it from ``<meta name="csrf-token">``; API clients from
  ``GET /api/session``), or in a ``csrf_token`` form field. A page from another site cannot read the
  token, so it cannot act in a player's name.
* PIN: joining a game with its PIN marks this browser session as seated at that table; a seated
  session (or a request with the right ``X-Table-PIN`` header) may act. Wrong PINs are counted per
  game; after ``MAX_PIN_FAILURES`` in a minute, joining waits (429), so the 4 digits cannot be walked.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque

from flask import Flask, abort, jsonify, request, session
from flask.typing import ResponseReturnValue

from companion.errors import KeshiError
from companion.i18n import Msg

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_PIN_FAILURES = 10
PIN_WINDOW_SECONDS = 60.0


class AccessDenied(KeshiError, PermissionError):
    """The request lacks the table PIN or the CSRF token."""


class TooManyTries(KeshiError, PermissionError):
    """Too many wrong PINs for this game in the last minute."""


def csrf_token() -> str:
    """This session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def check_csrf() -> ResponseReturnValue | None:
    """``before_request`` hook: refuse a state-changing request without this session's token."""
    if request.method not in STATE_CHANGING:
        return None
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    expected = session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
        return jsonify(error=str(Msg("missing or wrong CSRF token: reload the page and try again"))), 403
    return None


def install(app: Flask) -> None:
    """Check CSRF on every state-changing request of the app and offer the token to templates."""
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token


class PinGuard:
    """Counts wrong PINs per game within a sliding minute."""

    def __init__(self) -> None:
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def join(self, game_id: str, pin: str, sent: object) -> None:
        """Seat this session at ``game_id`` if ``sent`` is its PIN; else raise ``AccessDenied``."""
        now = time.monotonic()
        with self._lock:
            failures = self._failures[game_id]
            while failures and now - failures[0] > PIN_WINDOW_SECONDS:
                failures.popleft()
            if len(failures) >= MAX_PIN_FAILURES:
                raise TooManyTries(Msg("too many wrong PINs for game {game}; wait a minute", game=game_id))
            if not isinstance(sent, str) or not hmac.compare_digest(sent.strip(), pin):
                failures.append(now)
                raise AccessDenied(Msg("wrong table PIN for game {game}", game=game_id))
        seat(game_id)


def seat(game_id: str) -> None:
    """Remember in the session that this browser sits at ``game_id``, beyond the browser's own session.

    The cookie is permanent (Flask's ``PERMANENT_SESSION_LIFETIME``, 31 days by default), so a host
    who closes the browser still sees the table PIN when the game page is opened again.
    """
    session.permanent = True  # closing the browser keeps the seat (and the PIN on screen)
    seated = list(session.get("tables", []))
    if game_id not in seated:
        session["tables"] = [*seated[-19:], game_id]


def is_seated(game_id: str, pin: str) -> bool:
    """True when this session joined ``game_id`` or the request carries its PIN."""
    if game_id in session.get("tables", []):
        return True
    sent = request.headers.get("X-Table-PIN")
    return sent is not None and hmac.compare_digest(sent, pin)


def require_seat(game_id: str, pin: str) -> None:
    """Abort with 403 unless this request may act at ``game_id``."""
    if not is_seated(game_id, pin):
        refusal = Msg("join game {game} with its table PIN to act (watching needs none)", game=game_id)
        abort(403, description=str(refusal))
