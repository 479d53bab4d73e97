"""The Tower page and its API: press Toss, watch the drops arrive, read what fell out."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from companion.errors import KeshiError
from companion.tower.service import TowerBusyError
from companion.web.palette import palette_for_templates

bp = Blueprint("tower_page", __name__)


@bp.get("/tower")
def tower() -> ResponseReturnValue:
    """The live Tower page."""
    status = current_app.extensions["keshi.tower"].status()
    return render_template("tower.html", status=status, palette=palette_for_templates())


@bp.post("/api/tower/toss")
def toss() -> ResponseReturnValue:
    """Start a toss: JSON ``{"pieces_in": {colour: n}}`` or no body for a random table's handful."""
    body: Any = request.get_json(silent=True) if request.data else {}
    if body is None or not isinstance(body, dict):
        return jsonify(error="the request body must be a JSON object"), 400
    pieces_in = body.get("pieces_in")
    if pieces_in is not None and not (
        isinstance(pieces_in, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in pieces_in.values())
    ):
        return jsonify(error="pieces_in must map colour names to whole numbers"), 400
    try:
        toss_id = current_app.extensions["keshi.tower"].toss(pieces_in)
    except TowerBusyError as exc:
        return jsonify(error=str(exc)), 409
    except KeshiError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(toss_id=toss_id), 202
