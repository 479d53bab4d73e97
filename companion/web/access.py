"""Who may do what (``docs/security.md``): watchers, seated phones, shared devices and the host.

* **CSRF**: every state-changing request (POST, PUT, PATCH, DELETE) carries the session's token in the
  ``X-CSRF-Token`` header (pages read it from ``<meta name="csrf-token">``; API clients from
  ``GET /api/session``) or a ``csrf_token`` form field; another site cannot read it.
* **Seated**: joining a game with its PIN (or its QR link's token) seats this browser session at it.
* **Role**: a seated device then says who it plays for; the server keeps that per device and game
  (``companion.table.seats``) and takes the acting seat from it, never from the request body.
* **Host**: table-wide things need the companion's own screen (a loopback request, unless
  ``LOOPBACK_IS_HOST`` is off behind a reverse proxy) or a device that typed the owner code.
* **One throttle**: every PIN, join token and owner code check goes through ``Throttle``, counted
  per client address and per secret, so one stranger's guesses slow that stranger alone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, abort, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue

from companion import owner_code
from companion.errors import KeshiError
from companion.i18n import Msg

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Requests from the companion itself (its own screen).
LOOPBACK = frozenset({"127.0.0.1", "::1"})
#: Wrong guesses a client may make without waiting (a mistyped PIN or two is normal).
FREE_TRIES = 5
#: The wait after the first failure beyond the free ones; it doubles with each further failure ...
FIRST_WAIT_SECONDS = 2.0
#: ... up to this: past it one guess an hour, so the 10,000 PINs take over a year to walk.
LONGEST_WAIT_SECONDS = 3600.0
#: A client whose last failure is this old starts again from nothing.
FORGET_AFTER_SECONDS = 24 * 3600.0
#: Clients remembered at most (the oldest are forgotten first), so a flood of addresses cannot grow memory.
MAX_CLIENTS = 4096


class AccessDenied(KeshiError, PermissionError):
    """The request lacks what it needs: a seat, the right PIN, the host role."""


class TooManyTries(KeshiError, PermissionError):
    """This client guessed wrong too often: it must wait ``retry_after`` seconds."""

    def __init__(self, message: Msg, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0
    blocked_until: float = 0.0


class Throttle:
    """Every secret a client types (PIN, join token, owner code) is checked here, per client address.

    Failures are counted per client and per secret (``scope``: one game's PIN and join link, or the
    owner code). ``FREE_TRIES`` wrong guesses cost nothing; each one after waits twice as long as the
    last (from ``FIRST_WAIT_SECONDS`` to ``LONGEST_WAIT_SECONDS``). A right answer clears only that
    secret's count, so knowing one game's PIN never buys more guesses at another's. Because the count
    is the client's own, a stranger's failures never make a player's right PIN wait.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clients: dict[str, _Failures] = {}
        self._lock = threading.Lock()
        self._now = clock

    def check(self, client: str, scope: str, secret: str, sent: object) -> bool:
        """Whether ``sent`` is ``secret``; ``TooManyTries`` (changing nothing) while ``client`` must wait."""
        return self.attempt(client, scope, lambda: same_text(sent, secret))

    def attempt(self, client: str, scope: str, is_right: Callable[[], bool]) -> bool:
        """Run the check ``is_right()`` for ``client`` and the secret ``scope`` under the throttle;
        count it when it fails."""
        client = f"{client} {scope}"
        now = self._now()
        with self._lock:
            failures = self._clients.get(client)
            if failures is not None and now - failures.last > FORGET_AFTER_SECONDS:
                del self._clients[client]
                failures = None
            if failures is not None and now < failures.blocked_until:
                wait = int(failures.blocked_until - now) + 1
                raise TooManyTries(Msg("Too many wrong tries from this device: wait {seconds} s and try again",
                                       seconds=wait), wait)
            if is_right():
                self._clients.pop(client, None)
                return True
            failures = self._clients.setdefault(client, _Failures())
            failures.count += 1
            failures.last = now
            beyond = failures.count - FREE_TRIES
            if beyond > 0:
                failures.blocked_until = now + min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** min(beyond - 1, 20))
            while len(self._clients) > MAX_CLIENTS:
                self._clients.pop(next(iter(self._clients)))
            return False


def same_text(sent: object, secret: str) -> bool:
    """``sent`` is the text ``secret`` (surrounding spaces ignored), compared in constant time; any text
    is fine to compare (``hmac.compare_digest`` refuses non-ASCII ``str``, so both go as UTF-8)."""
    return isinstance(sent, str) and hmac.compare_digest(sent.strip().encode(), secret.encode())


def client_address() -> str:
    """The address the request came from (the socket's peer; see docs/security.md for proxies)."""
    return request.remote_addr or "unknown"


def throttle() -> Throttle:
    found: Throttle = current_app.extensions["keshi.throttle"]
    return found


# -- CSRF -----------------------------------------------------------------------------------
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
    if not isinstance(expected, str) or not same_text(sent, expected):
        return jsonify(error=str(Msg("missing or wrong CSRF token: reload the page and try again"))), 403
    return None


def install(app: Flask) -> None:
    """Check CSRF on every state-changing request, keep one throttle, offer the token and the host
    role to templates."""
    app.extensions["keshi.throttle"] = Throttle()
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_host"] = is_host


# -- the device -----------------------------------------------------------------------------
def device_id() -> str:
    """This browser's device id (random, made on first use, kept in its signed session cookie)."""
    device = session.get("device")
    if not isinstance(device, str):
        device = secrets.token_urlsafe(16)
        session["device"] = device
        session.permanent = True
    return device


# -- seated at a game -----------------------------------------------------------------------
def join_token(game_id: str, pin: str) -> str:
    """The QR link's secret for ``game_id``: long and unguessable, derived from the app's secret key
    and the PIN, so it needs no storage and a new PIN would make a new one."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, f"join:{game_id}:{pin}".encode(), hashlib.sha256).hexdigest()[:32]


def join(game_id: str, pin: str, sent_pin: object) -> None:
    """Seat this session at ``game_id`` if ``sent_pin`` is its PIN (throttled); else ``AccessDenied``."""
    if not throttle().check(client_address(), f"game {game_id}", pin, sent_pin):
        raise AccessDenied(Msg("wrong table PIN for this game"))
    seat(game_id)


def join_with_token(game_id: str, pin: str, sent_token: object, *, throttled: bool = True) -> None:
    """Seat this session at ``game_id`` with the QR link's token (throttled like a PIN, except for the
    link itself: another site can make a player's browser open bad links, which must not make that
    player wait; 128 random-looking bits need no throttle against guessing)."""
    token = join_token(game_id, pin)
    right = (throttle().check(client_address(), f"game {game_id}", token, sent_token) if throttled
             else same_text(sent_token, token))
    if not right:
        raise AccessDenied(Msg("this join link is not valid (any more): type the table PIN instead"))
    seat(game_id)


def seat(game_id: str) -> None:
    """Remember in the session that this browser sits at ``game_id``, beyond the browser's own session.

    The cookie is permanent (Flask's ``PERMANENT_SESSION_LIFETIME``, 31 days by default, from the last
    change to the session: ``hardening.HardenedSessionInterface``), so a phone that sleeps or a host who
    closes the browser is still seated when the page opens again.
    """
    session.permanent = True
    seated = list(session.get("tables", []))
    if game_id not in seated:
        session["tables"] = [*seated[-19:], game_id]


def is_seated(game_id: str) -> bool:
    """True when this session joined (or created) ``game_id``."""
    return game_id in session.get("tables", [])


def require_seat(game_id: str) -> None:
    """Abort with 403 unless this request may act at ``game_id``."""
    if not is_seated(game_id):
        refusal = Msg("Join this game with its table PIN to play (watching needs none)")
        abort(403, description=str(refusal))


# -- the host -------------------------------------------------------------------------------
def is_own_screen() -> bool:
    """True for the companion's own screen: a loopback request, when loopback is trusted."""
    return bool(current_app.config.get("LOOPBACK_IS_HOST", True)) and client_address() in LOOPBACK


def _owner_code() -> str:
    """The owner code as the instance's file says now (``keshi owner-code --new`` needs no restart)."""
    found: owner_code.CodeFile = current_app.extensions["keshi.owner_code"]
    return found.code()


def is_host() -> bool:
    """True for the companion's own screen and for a device that typed the current owner code."""
    if is_own_screen():
        return True
    sent = session.get("host")
    expected = owner_code.fingerprint(_owner_code(), str(current_app.config["SECRET_KEY"]))
    return isinstance(sent, str) and same_text(sent, expected)


def become_host(typed: object) -> None:
    """Make this device the host if ``typed`` is the owner code (throttled); else ``AccessDenied``."""
    code = _owner_code()
    if not throttle().attempt(client_address(), "owner code", lambda: owner_code.matches(typed, code)):
        raise AccessDenied(Msg("that is not this companion's owner code"))
    session.permanent = True
    session["host"] = owner_code.fingerprint(code, str(current_app.config["SECRET_KEY"]))


def stop_hosting() -> None:
    """This device is no host any more (the companion's own screen always is)."""
    session.pop("host", None)


def require_host() -> None:
    """Abort with 403 unless this request comes from the host."""
    if not is_host():
        abort(403, description=str(Msg(NOT_HOST)))


def host_for_changes() -> ResponseReturnValue | None:
    """``before_request`` hook of a table-wide blueprint (tower, calibration, board profile): looking is
    open to anyone, changing needs the host (403 in JSON otherwise)."""
    if request.method in STATE_CHANGING and not is_host():
        return jsonify(error=str(Msg(NOT_HOST))), 403
    return None


#: What a phone that is not the host reads when it tries a table-wide thing.
NOT_HOST = ("Only the table's host can do this: the companion's own screen, or a phone that entered the "
            "owner code on the Host page")
