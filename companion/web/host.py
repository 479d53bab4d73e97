"""The Host page and its API: a phone becomes the table's host with the owner code (``docs/security.md``).

* ``GET /host`` — the page: on the companion's own screen it shows the owner code (to type on a
  phone); elsewhere it asks for it.
* ``POST /api/host`` ``{"code": ...}`` — this device becomes the host (throttled like a PIN).
* ``DELETE /api/host`` — this device is no longer the host.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from companion.web import access

bp = Blueprint("host", __name__)


@bp.get("/host")
def page() -> ResponseReturnValue:
    """Who is host here, and the form to become it (the code itself only on the companion's own screen)."""
    own_screen = access.is_own_screen()
    code = current_app.extensions["keshi.owner_code"].code() if own_screen else None
    return render_template("host.html", own_screen=own_screen, host=access.is_host(), owner_code=code)


@bp.post("/api/host")
def become() -> ResponseReturnValue:
    body = request.get_json(silent=True)
    access.become_host(body.get("code") if isinstance(body, dict) else None)
    return jsonify(host=True)


@bp.delete("/api/host")
def stop() -> ResponseReturnValue:
    access.stop_hosting()
    return jsonify(host=access.is_host())


@bp.errorhandler(access.AccessDenied)
def wrong_code(exc: access.AccessDenied) -> ResponseReturnValue:
    return jsonify(error=str(exc)), 403


@bp.errorhandler(access.TooManyTries)
def too_many(exc: access.TooManyTries) -> ResponseReturnValue:
    response = jsonify(error=str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response, 429
