"""The calibration wizard's API on the simulated tower: 13 photos, a saved calibration, a test count."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.web.calibration import STEPS, CalibrationWizard, PiStepCamera
from tests.web.conftest import csrf_of
from vision.calibrate import Calibration


def test_the_wizard_walks_empty_tray_and_12_colours_then_saves_and_test_counts(app: Flask,
                                                                                  client: FlaskClient) -> None:
    csrf = csrf_of(client)
    headers = {"X-CSRF-Token": csrf}
    status = client.get("/api/calibration").get_json()
    assert [s["step"] for s in status["steps"]] == ["empty", *COLOURS]
    assert not any(s["captured"] for s in status["steps"]) and status["calibration"] is None
    early = client.post("/api/calibration/finish", headers=headers)
    assert early.status_code == 400 and "empty, yellow" in early.get_json()["error"]

    for step in STEPS:
        status = client.post("/api/calibration/capture", json={"step": step}, headers=headers).get_json()
    assert all(s["captured"] for s in status["steps"])
    purple = next(s for s in status["steps"] if s["step"] == "purple")
    assert purple["symbol"] and purple["hex"].startswith("#")  # every colour step has its symbol and swatch
    image = client.get(purple["image_url"])
    assert image.status_code == 200 and image.mimetype == "image/png" and image.data[:4] == b"\x89PNG"

    status = client.post("/api/calibration/finish", headers=headers).get_json()
    saved = Path(app.instance_path) / "calibration.json"
    assert Calibration.load(saved).colours.keys() == set(COLOURS)  # the tower's calibration file
    assert status["calibration"]["pieces"] == {c: 4 for c in COLOURS}

    test = client.post("/api/calibration/test", headers=headers).get_json()["test"]
    assert sum(test["truth"].values()) >= 4
    assert test["counts"] == test["truth"] and test["unknown"] == 0  # the fresh frame counted right
    assert all(0 <= p["confidence"] <= 1 for p in test["pieces"]) and len(test["pieces"]) == sum(test["truth"].values())
    assert client.get(test["image_url"]).status_code == 200


def test_bad_wizard_requests_are_refused_naming_the_problem(client: FlaskClient) -> None:
    headers = {"X-CSRF-Token": csrf_of(client)}
    bad = client.post("/api/calibration/capture", json={"step": "blue"}, headers=headers)
    assert bad.status_code == 400 and "unknown calibration step 'blue'" in bad.get_json()["error"]
    no_calibration = client.post("/api/calibration/test", headers=headers)
    assert no_calibration.status_code == 422 and "calibration file not found" in no_calibration.get_json()["error"]
    assert client.post("/api/calibration/capture", json={"step": "empty"}).status_code == 403  # CSRF
    assert client.get("/api/calibration/frames/secret_key.png").status_code == 404
    assert client.get("/api/calibration/frames/empty.png").status_code == 404  # not captured yet


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="a Pi with Picamera2 has a camera")
def test_without_a_camera_the_wizard_says_so(app: Flask, client: FlaskClient) -> None:
    app.extensions["keshi.calibration"] = CalibrationWizard(Path(app.instance_path), PiStepCamera())
    answer = client.post("/api/calibration/capture", json={"step": "empty"}, headers={"X-CSRF-Token": csrf_of(client)})
    assert answer.status_code == 503 and "Picamera2 is not available" in answer.get_json()["error"]
