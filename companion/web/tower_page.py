"""The Tower page and its API: press Toss, watch the drops arrive, read what fell out.

Every answer to a refused request is ``{"error": ...}``: 400 for a body that is not what the route
needs (naming the field), 409 while the tower is tossing, 403 for a simulated-tower-only hook on a Pi.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from companion.errors import KeshiError
from companion.i18n import Msg
from companion.i18n.player_words import without_rule_refs
from companion.store import StorageFull
from companion.table import keshi_box
from companion.tower.service import TowerBusyError
from companion.web import access
from companion.web.palette import palette_for_templates

bp = Blueprint("tower_page", __name__)
bp.before_request(access.host_for_changes)  # changes need the host; looking is open


class TowerPageInput(KeshiError, ValueError):
    """A Tower-page request body that is not what the route needs; the message names the field."""


class SimulatedOnly(KeshiError, PermissionError):
    """A hook only the simulated tower has, asked of the Pi's real tower."""


@bp.get("/tower")
def tower() -> ResponseReturnValue:
    """The live Tower page."""
    status = current_app.extensions["keshi.tower"].status()
    return render_template("tower.html", status=status, palette=palette_for_templates())


def _counts_body(field: str) -> dict[str, int] | None:
    """``{field: {colour: n}}`` from the JSON body (None when the body does not name ``field``)."""
    body: Any = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise TowerPageInput(Msg("the request body must be a JSON object"))
    counts = body.get(field)
    if counts is None:
        return None
    return keshi_box.check_counts(counts, field, signed=field == "counts")  # never more than a box holds


@bp.post("/api/tower/toss")
def toss() -> ResponseReturnValue:
    """Start a toss: JSON ``{"pieces_in": {colour: n}}`` or no body for a random table's handful."""
    toss_id = current_app.extensions["keshi.tower"].toss(_counts_body("pieces_in"))
    return jsonify(toss_id=toss_id), 202


@bp.post("/api/tower/empty")
def empty() -> ResponseReturnValue:
    """The tower was emptied by hand (between games): ``{"found": {colour: n}}`` is what fell out.
    Its running estimate (and the simulated tower) then hold nothing."""
    believed = current_app.extensions["keshi.tower"].empty(_counts_body("found") or {})
    return jsonify(believed={c: n for c, n in believed.items() if n}), 200


def _simulated_tower(refusal: str) -> Any:
    """The tower, for a hook only the simulated tower has (on the Pi: 403 with ``refusal``)."""
    tower = current_app.extensions["keshi.tower"]
    if tower.mode != "simulated":
        raise SimulatedOnly(refusal)
    return tower


@bp.post("/api/tower/contents")
def set_contents() -> ResponseReturnValue:
    """Simulated tower only: make it hold ``{"contents": {colour: n}}`` (e.g. a piece left over from
    an earlier game, for a rehearsal or a test). On the Pi only real pieces fill the tower: 403."""
    tower = _simulated_tower("only the simulated tower can be filled from the dashboard")
    tower.set_contents(_counts_body("contents") or {}, "set on the Tower page")
    return jsonify(contents=tower.contents()), 200


@bp.post("/api/tower/misread")
def misread() -> ResponseReturnValue:
    """Simulated tower only: ``{"counts": {colour: ±n}}`` — the next toss's reported counts are off by
    that much (a camera's mistake for the table to correct); the tower's truth is untouched."""
    tower = _simulated_tower("only the simulated tower can be told to misread")
    change = _counts_body("counts") or {}
    tower.misread_next(change)
    return jsonify(misread=change), 200


@bp.errorhandler(KeshiError)
def refused(exc: KeshiError) -> ResponseReturnValue:
    """The tower's own words: 409 while it tosses, 403 for a simulated-only hook on a Pi, 507 on a full
    disk, else 400."""
    status = (409 if isinstance(exc, TowerBusyError) else 403 if isinstance(exc, SimulatedOnly)
              else 507 if isinstance(exc, StorageFull) else 400)
    return jsonify(error=without_rule_refs(str(exc))), status
