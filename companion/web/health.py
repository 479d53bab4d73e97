"""``GET /healthz``: what a monitor or a curious tinkerer needs to know at a glance."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from companion import __version__

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """Version, tower mode, camera, beam and database status; 503 when the database is down."""
    tower = current_app.extensions["keshi.tower"].status()
    database = current_app.extensions["keshi.store"].health()
    body = {
        "status": "ok" if database == "ok" else "degraded",
        "version": __version__,
        "tower": tower["mode"],
        "camera": tower["camera"],
        "beam": tower["beam"],
        "layer": tower["layer"],
        "database": database,
    }
    return jsonify(body), 200 if database == "ok" else 503
