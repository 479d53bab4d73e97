"""The hub dashboard: every table live, and the fairness report per tower and across towers.

Everything except ``/login`` and ``/healthz`` needs a logged-in dashboard user (``keshi hub
--add-user``); pages redirect to the login form, the JSON API answers 401. The login form carries a
CSRF token and wrong passwords are counted per client address, never per user name (a stranger
guessing must not lock a named user out): after ``FREE_FAILURES`` the address waits, longer after
each further wrong password (``LoginGuard``), and a right password clears its count. The broker appears only as
``mqtt://host:port`` and the database not at all: no page ever shows a credential.

Pages: ``/`` (the tables, refreshed every few seconds from ``/api/towers``), ``/fairness/`` (the
per-table report's page on the hub's tosses; ``?tower=NAME`` for one tower, the other filters as on
a table's own dashboard) and ``/fairness/report.json``.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from companion.errors import KeshiError
from companion.fairness.render import render_html, render_json
from companion.fairness.report import BIAS, NO_BIAS, NOT_ENOUGH, SCOPE_KEYS
from companion.hub.fairness import hub_report
from companion.hub.store import HubStore
from companion.i18n import LOCALE, Msg
from companion.i18n.web import init_app as init_i18n
from companion.publish.state import VERDICT_PENDING

#: Wrong passwords an address may send before it has to wait.
FREE_FAILURES = 5
#: The first wait; each further wrong password doubles it, up to ``MAX_DELAY_S``.
FIRST_DELAY_S = 2.0
MAX_DELAY_S = 15 * 60.0
#: An address with no wrong password for this long starts afresh.
FORGET_S = 3600.0
#: Addresses remembered at most (the oldest are forgotten first).
MAX_ADDRESSES = 10_000
OPEN_ENDPOINTS = frozenset({"hub.login", "hub.healthz", "static", "i18n.switch"})
#: The fairness verdict a tower's state message carries (``companion.publish.state``), in player words.
VERDICT_WORDS: dict[str, Msg] = {
    NOT_ENOUGH: Msg("not enough data yet"), NO_BIAS: Msg("no colour bias detected"), BIAS: Msg("colour bias detected"),
    VERDICT_PENDING: Msg("being computed"),
}
STATUS_WORDS = {"online": Msg("online"), "offline": Msg("offline")}
#: A tower row's fault cell when the tower reports none.
NO_FAULT = Msg("none")

bp = Blueprint("hub", __name__, template_folder="templates")


class LoginGuard:
    """Wrong passwords per client address, with a wait that grows with each one past ``FREE_FAILURES``.

    Keyed by address only: a stranger's guesses slow down the stranger, while the user, from their
    own device, still logs in. ``clock`` is injectable so tests need not wait.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # address -> (count, last)
        self._lock = threading.Lock()

    def wait_s(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next try (0: it may try now)."""
        with self._lock:
            count, last = self._current(address)
            return max(0.0, last + self.delay(count) - self._clock())

    @staticmethod
    def delay(count: int) -> float:
        """The wait after ``count`` wrong passwords."""
        if count < FREE_FAILURES:
            return 0.0
        return min(MAX_DELAY_S, FIRST_DELAY_S * 2.0 ** (count - FREE_FAILURES))

    def failed(self, address: str) -> None:
        with self._lock:
            count, _ = self._current(address)
            self._failures[address] = (count + 1, self._clock())
            self._failures.move_to_end(address)
            while len(self._failures) > MAX_ADDRESSES:
                self._failures.popitem(last=False)

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)

    def _current(self, address: str) -> tuple[int, float]:
        count, last = self._failures.get(address, (0, 0.0))
        if count and self._clock() - last > FORGET_S:
            del self._failures[address]
            return 0, 0.0
        return count, last


def create_hub_app(
    store: HubStore, status: Callable[[], dict[str, Any]], login_guard: LoginGuard | None = None
) -> Flask:
    """The dashboard app around ``store``; ``status`` tells the ingestor's state."""
    app = Flask(__name__)
    app.debug = False  # never the interactive debugger: anyone on the café network could run code
    app.config.update(SECRET_KEY=store.secret_key(), SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax")
    app.extensions["keshi.hub.store"] = store
    app.extensions["keshi.hub.status"] = status
    app.extensions["keshi.hub.logins"] = login_guard or LoginGuard()
    init_i18n(app)  # first: the login check's refusals are said in the reader's language too
    app.before_request(_require_login)
    app.jinja_env.globals["csrf_token"] = _csrf_token
    app.register_blueprint(bp)
    return app


def _store() -> HubStore:
    store: HubStore = current_app.extensions["keshi.hub.store"]
    return store


def _csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str):
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def _require_login() -> ResponseReturnValue | None:
    """``before_request``: a logged-in user for everything but the open endpoints; CSRF on POST."""
    if request.method == "POST":
        sent = request.form.get("csrf_token", "")
        expected = session.get("csrf")
        if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
            message = Msg("missing or wrong form token: reload the page and try again")
            return Response(f"{message}\n", 403, mimetype="text/plain")
    if request.endpoint in OPEN_ENDPOINTS or session.get("user"):
        return None
    if request.path.startswith("/api/") or request.path.endswith(".json"):
        return jsonify(error=str(Msg("log in to the hub dashboard first"))), 401
    return redirect(url_for("hub.login", next=request.full_path.rstrip("?")))


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    """The login form; a right name and password start a session."""
    error = None
    status = 200
    if request.method == "POST":
        name = request.form.get("name", "").strip()
        password = request.form.get("password", "")
        guard: LoginGuard = current_app.extensions["keshi.hub.logins"]
        address = request.remote_addr or "unknown"
        wait = guard.wait_s(address)
        if wait > 0:
            error = str(Msg("Too many wrong passwords from this address: try again in {seconds} s.",
                            seconds=math.ceil(wait)))
            status = 429
        elif _store().check_user(name, password):
            guard.succeeded(address)
            session.clear()
            session["user"] = name
            return redirect(_safe_next(request.args.get("next")))
        else:
            guard.failed(address)
            error, status = str(Msg("Wrong name or password.")), 401
    return render_template("hub/login.html", error=error), status


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    session.clear()
    return redirect(url_for("hub.login"))


@bp.get("/")
def towers_page() -> ResponseReturnValue:
    """Every table: online or not, last toss, keshis held, fault, verdict, what the hub stored."""
    return render_template("hub/towers.html", towers=_towers(), hub=hub_status(), user=session["user"])


@bp.get("/api/towers")
def towers_api() -> ResponseReturnValue:
    """Every tower as stored, each with the ``shown`` texts of its dashboard row (English) and the
    same texts ``said`` in the reader's language."""
    return jsonify(towers=_towers(), hub=hub_status())


def hub_status() -> dict[str, Any]:
    """The ingestor's state, the database's, the dead letters, and ``health``: ``ok`` or ``degraded``
    (``health_said``: why, in the reader's language; empty when all is well)."""
    status: dict[str, Any] = dict(current_app.extensions["keshi.hub.status"]())
    database = _store().health()
    dead = _store().dead_letter_count() if database == "ok" else None
    problems = []
    if database != "ok":
        problems.append(Msg("the database cannot be reached ({reason})", reason=database))
    if not status.get("connected"):
        problems.append(Msg("the broker is not connected"))
    if not status.get("writing", True):
        problems.append(Msg("the hub has stopped storing messages: restart it"))
    if dead:
        problems.append(Msg("{count} message(s) could not be stored and were set aside "
                            "(keshi hub --dead-letters lists them)", count=dead))
    status.update(database=database, dead_letters=dead, health="degraded" if problems else "ok",
                  health_said="; ".join(str(problem) for problem in problems))
    return status


def _towers() -> list[dict[str, Any]]:
    return [{**tower, "shown": shown(tower), "said": said(tower)} for tower in _store().towers()]


def shown(tower: dict[str, Any]) -> dict[str, str]:
    """The texts of a tower's row, with a dash for whatever its state message did not say."""
    state: dict[str, Any] = tower["state"] if isinstance(tower["state"], dict) else {}
    last: dict[str, Any] = state["last_toss"] if isinstance(state.get("last_toss"), dict) else {}
    fault: dict[str, Any] | None = state["fault"] if isinstance(state.get("fault"), dict) else None
    return {
        "status": "online" if tower["online"] else "offline",
        "last_toss": f"{last['in']} → {last['out']}" if "in" in last and "out" in last else "–",
        "held": str(state.get("pieces_held", "–")),
        "fault": str(fault.get("message") or fault.get("kind") or "fault") if fault else "none",
        "verdict": str(state.get("verdict", "–")),
    }


def said(tower: dict[str, Any]) -> dict[str, str]:
    """``shown`` in the language of the moment: the status, "none", a known verdict and a fault the tower
    sent as a message in words (a fault without one stays the tower's own text)."""
    texts = shown(tower)
    words = {"status": STATUS_WORDS[texts["status"]], "verdict": VERDICT_WORDS.get(texts["verdict"])}
    if texts["fault"] == "none":
        words["fault"] = NO_FAULT
    else:
        words["fault"] = _fault_said(tower["state"]["fault"].get("say"))
    return {**texts, **{name: str(message) for name, message in words.items() if message is not None}}


def _fault_said(say: Any) -> Msg | None:
    """A fault's message as the tower sent it (``Msg.to_json``), or None when it sent none or one this
    hub cannot read (an older tower: its English text is shown)."""
    if not isinstance(say, dict) or not isinstance(say.get("text"), str) or not isinstance(say.get("params", {}), dict):
        return None
    try:
        message = Msg.from_json(say)
        str(message)  # a message whose values do not fit its text is not shown
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return message


@bp.get("/fairness/")
def fairness_page() -> ResponseReturnValue:
    """The fairness report across every tower, or one tower's with ``?tower=NAME``."""
    try:
        report = hub_report(_store(), _filters())
    except KeshiError as exc:
        return Response(f"bad request: {exc}\n", 400, mimetype="text/plain")
    return Response(render_html(report, LOCALE.get()), mimetype="text/html")


@bp.get("/fairness/report.json")
def fairness_json() -> ResponseReturnValue:
    try:
        report = hub_report(_store(), _filters())
    except KeshiError as exc:
        return jsonify(error=str(exc)), 400
    return Response(render_json(report), mimetype="application/json")


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """Database, broker and writer status and the dead letters' count, for a monitor (no login,
    nothing secret): ``degraded`` with the reasons when anything is wrong, 503 without a database."""
    status = hub_status()
    body = {"status": status["health"], "database": status["database"], "broker_connected": bool(status["connected"]),
            "writing": bool(status.get("writing", True)), "dead_letters": status["dead_letters"],
            "problems": status["health_said"]}
    return jsonify(body), 200 if status["database"] == "ok" else 503


def _filters() -> dict[str, str | None]:
    return {name: (request.args.get(name) or None) for name in SCOPE_KEYS}


def _safe_next(target: str | None) -> str:
    """Only a path on this site (never another host) after logging in."""
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("hub.towers_page")
