"""Issue 25: every refusal the calibration wizard can show is in a player's words and language (here German),
says what to do, and changes nothing; the API keeps the CLI's English as ``detail``.

The wizard's photos are written straight into its folder (small synthetic images, not 13 camera captures), so
each case costs a request or two.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.tower.calibration_wizard import STEPS, WIZARD_DIR
from companion.tower.service import TowerService
from firmware.tray_camera import CameraUnavailableError
from tests.web.conftest import csrf_of
from tests.web.test_i18n import untranslated
from vision.calibrate import Calibration, ColourModel, SizePrior
from vision.errors import CameraError
from vision.sources import write_image

GERMAN = {"Accept-Language": "de-DE"}


def headers(client: FlaskClient) -> dict[str, str]:
    return {"X-CSRF-Token": csrf_of(client), **GERMAN}


def said(answer: Any) -> str:
    """The refusal a German phone reads, checked for English catalog phrases and developer words."""
    error: str = answer.get_json()["error"]
    assert untranslated(error) == [] and "_" not in error and "{" not in error, error
    return error


def photos(app: Flask, sizes: dict[str, tuple[int, int]] | None = None) -> Path:
    """Every step's photo in the wizard's folder: a grey tray, 64×48 unless ``sizes`` says otherwise."""
    folder = Path(app.instance_path) / WIZARD_DIR
    folder.mkdir(exist_ok=True)
    for step in STEPS:
        width, height = (sizes or {}).get(step, (64, 48))
        write_image(folder / f"{step}.png", np.full((height, width, 3), 90, np.uint8))
    return folder


def tiny_calibration(width: int, height: int) -> Calibration:
    """A calibration made for frames of ``width``×``height`` (its numbers are a plain grey tray's)."""
    return Calibration(width=width, height=height, floor=[[[90.0, 90.0, 90.0]]],
                       colours={c: ColourModel(mean=[0.1 * i, 0.0, 0.0], pieces=4) for i, c in enumerate(COLOURS)},
                       covariance=np.eye(3).tolist(), threshold=0.2,
                       size_prior=SizePrior(area_median=900, area_min=600, area_max=1200, area_large=1000, radius=15))


def test_a_colour_photo_of_another_size_names_the_colour_and_both_sizes(app: Flask, client: FlaskClient) -> None:
    photos(app, {COLOURS[0]: (32, 24)})
    refused = client.post("/api/calibration/finish", headers=headers(client))
    assert refused.status_code == 422
    assert said(refused).startswith("Das Foto für Gelb hat 32×24 Pixel, das der leeren Schale 64×48")
    assert "yellow frame 1 is 32x24" in refused.get_json()["detail"]  # the CLI's English, for the host's logs
    assert not (Path(app.instance_path) / "calibration.json").exists()


def test_a_damaged_photo_is_named_by_its_step(app: Flask, client: FlaskClient) -> None:
    (photos(app) / "green.png").write_bytes(b"not a png")
    refused = client.post("/api/calibration/finish", headers=headers(client))
    assert refused.status_code == 422
    assert said(refused) == "Das Foto von Hellgrün ist nicht lesbar: Mach es noch einmal."
    assert not (Path(app.instance_path) / "calibration.json").exists()


@pytest.mark.parametrize(("matrix", "words"), [
    ([[1.0, 0.0], [0.0, 1.0]], "Die Farbeinstellungen der Kamera sind unvollständig, daher"),
    ([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]], "Die Farbeinstellungen der Kamera verwischen"),
    ([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], "Die Farbeinstellungen der Kamera machen aus Grau"),
    ([[7.0, -3.0, -3.0], [-3.0, 7.0, -3.0], [-3.0, -3.0, 7.0]], "Die Farben dieser Kamera rauschen zu stark"),
    ("{", "Die Farbeinstellungen der Kamera sind nicht lesbar"),
])
def test_a_colour_matrix_the_camera_reports_is_refused_in_player_words(
    app: Flask, client: FlaskClient, tmp_path: Path, matrix: Any, words: str
) -> None:
    """A replayed camera's colour matrix (``camera.json`` beside its frames) refused for each reason; the empty
    tray's photo is not taken."""
    app.config["CAMERA_FRAMES_DIR"] = str(tmp_path)
    (tmp_path / "camera.json").write_text(matrix if isinstance(matrix, str) else json.dumps(matrix))
    refused = client.post("/api/calibration/capture", json={"step": "empty"}, headers=headers(client))
    assert refused.status_code == 422 and said(refused).startswith(words)
    assert not (Path(app.instance_path) / WIZARD_DIR / "empty.png").exists()


def test_a_colour_matrix_the_pi_camera_settled_on_is_refused_at_calibration(app: Flask, client: FlaskClient) -> None:
    """On the Pi the matrix comes with the settings the camera locked on the empty tray; calibrating refuses a
    wrong one in the same words, and saves nothing."""
    folder = photos(app)
    (folder / "camera.json").write_text(json.dumps({"colour_matrix": [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0],
                                                                      [0.0, 0.0, 1.0]]}))
    refused = client.post("/api/calibration/finish", headers=headers(client))
    assert refused.status_code == 422 and said(refused).startswith("Die Farbeinstellungen der Kamera machen aus Grau")
    assert "the camera's colour matrix: not a camera's colour matrix" in refused.get_json()["detail"]
    assert not (Path(app.instance_path) / "calibration.json").exists()


@pytest.mark.parametrize("kept", ["{ damaged", "[1, 2]", '{"shutter": 1}'])
def test_damaged_camera_settings_kept_with_the_empty_tray_say_take_that_photo_again(
    app: Flask, client: FlaskClient, kept: str
) -> None:
    folder = photos(app)
    (folder / "camera.json").write_text(kept)
    refused = client.post("/api/calibration/finish", headers=headers(client))
    assert refused.status_code == 400 and said(refused) == (
        "Die mit dem Foto der leeren Schale gespeicherten Kameraeinstellungen sind beschädigt: "
        "Mach das Foto der leeren Schale noch einmal")
    assert not (Path(app.instance_path) / "calibration.json").exists()


def test_a_damaged_or_old_saved_calibration_says_calibrate_again(app: Flask, client: FlaskClient) -> None:
    saved = Path(app.instance_path) / "calibration.json"
    missing = client.post("/api/calibration/test", headers=headers(client))
    assert said(missing) == "Es ist noch keine Kalibrierung gespeichert: Mach zuerst die 13 Fotos und kalibriere."
    saved.write_text("{ damaged")
    assert said(client.post("/api/calibration/test", headers=headers(client))) == (
        "Die gespeicherte Kalibrierung ist beschädigt: Kalibriere noch einmal (13 Fotos).")
    summary = client.get("/api/calibration", headers=GERMAN).get_json()["calibration"]  # the page's result card
    assert summary["error"] == "Die gespeicherte Kalibrierung ist beschädigt: Kalibriere noch einmal (13 Fotos)."
    saved.write_text(json.dumps({"version": 1}))
    assert said(client.post("/api/calibration/test", headers=headers(client))).startswith(
        "Die gespeicherte Kalibrierung stammt von einer anderen Version des Companions")
    assert saved.read_text() == json.dumps({"version": 1})  # left for the table to replace


def test_a_test_photo_of_another_size_than_the_calibration_says_calibrate_again(
    app: Flask, client: FlaskClient
) -> None:
    tower: TowerService = app.extensions["keshi.tower"]
    assert tower.camera_ready.wait(60)
    tiny_calibration(64, 48).save(Path(app.instance_path) / "calibration.json")
    refused = client.post("/api/calibration/test", headers=headers(client))
    assert refused.status_code == 422
    assert said(refused).startswith("Das Foto der Kamera hat 640×480 Pixel, die Kalibrierung 64×48")


@pytest.mark.parametrize("problem", [CameraError("video device 0 returned no frame"),
                                     CameraUnavailableError("the Pi camera is closed (reopening it failed)")])
def test_a_camera_that_takes_no_photo_says_check_its_cable(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, problem: Exception
) -> None:
    tower: TowerService = app.extensions["keshi.tower"]

    def broken() -> None:
        raise problem

    monkeypatch.setattr(tower, "capture_frame", broken)
    refused = client.post("/api/calibration/capture", json={"step": "red"}, headers=headers(client))
    assert refused.status_code == 503
    assert said(refused) == ("Die Kamera des Turms macht keine Fotos: Prüfe ihr Kabel und starte dann den "
                             "Companion neu.")
    assert refused.get_json()["detail"] == str(problem)
