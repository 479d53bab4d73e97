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


def _counts_body(field: str) -> dict[str, int] | None:
    """``{field: {colour: n}}`` from the JSON body (None when the body is not that shape)."""
    body: Any = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        return None
    counts = body.get(field) or {}
    if not (isinstance(counts, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in counts.values())):
        return None
    return counts


@bp.post("/api/tower/empty")
def empty() -> ResponseReturnValue:
    """The tower was emptied by hand (between games): ``{"found": {colour: n}}`` is what fell out.
    Its running estimate (and the simulated tower) then hold nothing."""
    found = _counts_body("found")
    if found is None:
        return jsonify(error="found must map colour names to whole numbers"), 400
    try:
        believed = current_app.extensions["keshi.tower"].empty(found)
    except TowerBusyError as exc:
        return jsonify(error=str(exc)), 409
    except KeshiError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(believed={c: n for c, n in believed.items() if n}), 200


@bp.post("/api/tower/contents")
def set_contents() -> ResponseReturnValue:
    """Simulated tower only: make it hold ``{"contents": {colour: n}}`` (e.g. a piece left over from
    an earlier game, for a rehearsal or a test). On the Pi only real pieces fill the tower: 403."""
    tower = current_app.extensions["keshi.tower"]
    if tower.mode != "simulated":
        return jsonify(error="only the simulated tower can be filled from the dashboard"), 403
    contents = _counts_body("contents")
    if contents is None:
        return jsonify(error="contents must map colour names to whole numbers"), 400
    try:
        tower.set_contents(contents, "set on the Tower page")
    except TowerBusyError as exc:
        return jsonify(error=str(exc)), 409
    except KeshiError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(contents=tower.contents()), 200


@bp.post("/api/tower/misread")
def misread() -> ResponseReturnValue:
    """Simulated tower only: ``{"counts": {colour: ±n}}`` — the next toss's reported counts are off by
    that much (a camera's mistake for the table to correct); the tower's truth is untouched."""
    tower = current_app.extensions["keshi.tower"]
    if tower.mode != "simulated":
        return jsonify(error="only the simulated tower can be told to misread"), 403
    change = _counts_body("counts")
    if change is None:
        return jsonify(error="counts must map colour names to whole numbers"), 400
    try:
        tower.misread_next(change)
    except KeshiError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(misread=change), 200
