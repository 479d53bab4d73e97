"""The calibration wizard's page and API (Setup → Calibrate camera); the wizard itself is
``companion.tower.calibration_wizard``.

Every answer is the wizard's status, each colour step shown with its swatch and symbol (the palette).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request, send_from_directory
from flask.typing import ResponseReturnValue

from companion.errors import KeshiError
from companion.i18n import Msg
from companion.tower.calibration_wizard import (
    CAMERA_SETTINGS_FILE,
    EMPTY,
    PIECES_PER_COLOUR,
    STEPS,
    TEST,
    WIZARD_DIR,
    CalibrationWizard,
)
from companion.tower.service import TowerBusyError
from companion.web import access
from companion.web.calibration_words import player_words
from companion.web.palette import PALETTE, palette_for_templates
from firmware.tray_camera import CameraUnavailableError
from vision.errors import CameraError, VisionError

bp = Blueprint("calibration", __name__)
bp.before_request(access.host_for_changes)  # changes need the host; looking is open


def wizard() -> CalibrationWizard:
    """The app's wizard, made on first use around the app's tower service."""
    app = current_app
    found: CalibrationWizard | None = app.extensions.get("keshi.calibration")
    if found is None:
        seed = int(app.config.get("SIMULATOR_SEED") or 0)
        found = CalibrationWizard(Path(app.instance_path), app.extensions["keshi.tower"], seed)
        app.extensions["keshi.calibration"] = found
    return found


@bp.get("/setup/calibrate")
def page() -> ResponseReturnValue:
    """The wizard's page: one screen per step, the camera image, then the result and a test count."""
    return render_template("calibrate.html", palette=palette_for_templates(), pieces=PIECES_PER_COLOUR)


def shown(status: dict[str, Any]) -> ResponseReturnValue:
    """The wizard's status as JSON, each colour step with its swatch ``hex`` and ``symbol``, and a saved
    calibration that cannot be used said in player words."""
    for entry in status["steps"]:
        if entry["step"] in PALETTE:
            entry["hex"], entry["symbol"] = PALETTE[entry["step"]]
    saved = status["calibration"]
    if saved is not None and "error" in saved:
        saved["error"] = str(unusable_calibration_words(saved["error"]))
    return jsonify(status)


def unusable_calibration_words(detail: str) -> Msg | str:
    """Why the saved calibration cannot be used, in player words (the wizard's summary gives only its English
    ``detail``: loading it again gives the error itself, with its data)."""
    from vision.calibrate import Calibration

    try:
        Calibration.load(wizard().calibration_path)
    except VisionError as exc:
        return player_words(exc)
    return detail  # repaired in between: the summary's own words


@bp.get("/api/calibration")
def status() -> ResponseReturnValue:
    return shown(wizard().status())


@bp.post("/api/calibration/capture")
def capture() -> ResponseReturnValue:
    """``{"step": "empty" | colour}``: take that step's frame."""
    body = request.get_json(silent=True)
    step = body.get("step") if isinstance(body, dict) else None
    found = wizard()
    # read first: a bad camera.json is refused before the step's frame is replaced
    matrix = frames_matrix() if step == EMPTY else None
    status = found.capture(str(step))
    settings = found.folder / CAMERA_SETTINGS_FILE
    if matrix is not None and not settings.is_file():  # a matrix the camera itself reported is kept
        settings.write_text(json.dumps({"colour_matrix": matrix}))
        status = found.status()
    return shown(status)


def frames_matrix() -> list[list[float]] | None:
    """A camera replaying a frames folder (``CAMERA_FRAMES_DIR``) reports no colour matrix; that
    folder's ``camera.json`` (``vision.colour_matrix``) supplies it for ``finish``, as a Pi camera's
    does. None without such a file."""
    from vision import colour_matrix

    frames = current_app.config.get("CAMERA_FRAMES_DIR")
    return colour_matrix.read_sidecar(Path(frames)) if frames else None


@bp.post("/api/calibration/finish")
def finish() -> ResponseReturnValue:
    return shown(wizard().finish())


@bp.post("/api/calibration/test")
def test() -> ResponseReturnValue:
    return shown(wizard().test())


@bp.get("/api/calibration/frames/<step>.png")
def frame(step: str) -> ResponseReturnValue:
    if step not in (*STEPS, TEST):
        abort(404)
    return send_from_directory(Path(current_app.instance_path) / WIZARD_DIR, f"{step}.png", mimetype="image/png")


@bp.errorhandler(KeshiError)
def refused(exc: KeshiError) -> ResponseReturnValue:
    """A missing step, a failed calibration (naming the colour), a tossing tower, no camera: 4xx/503."""
    if isinstance(exc, (CameraError, CameraUnavailableError)):
        status = 503
    elif isinstance(exc, TowerBusyError):
        status = 409
    else:
        status = 422 if isinstance(exc, VisionError) else 400
    # what the table reads, in its words; the English the CLI would print stays in the answer for the host's logs
    return jsonify(error=str(player_words(exc)), detail=str(exc), kind=type(exc).__name__), status
