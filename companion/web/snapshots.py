"""Serves the tray camera's snapshot of each toss from the instance folder (``companion.table.snapshots``
names them and works out each colour's confidence)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, send_from_directory
from flask.typing import ResponseReturnValue

from companion.table.snapshots import SNAPSHOT_DIR, TOSS_ID

bp = Blueprint("snapshots", __name__)


@bp.get(f"/{SNAPSHOT_DIR}/<toss_id>.jpg")
def snapshot(toss_id: str) -> ResponseReturnValue:
    """``<instance>/snapshots/<toss_id>.jpg``; 404 for any other name or a missing file."""
    if not TOSS_ID.fullmatch(toss_id):
        abort(404)
    folder = Path(current_app.instance_path) / SNAPSHOT_DIR
    return send_from_directory(folder, f"{toss_id}.jpg", mimetype="image/jpeg", max_age=3600)
