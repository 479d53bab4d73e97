"""The calibration wizard's API on the simulated tower: 13 photos through the tower's camera, a saved
calibration the tower counts with at once, a test count."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.tower.calibration_wizard import STEPS, WIZARD_DIR
from companion.tower.service import TowerService
from tests.web.conftest import csrf_of
from vision.calibrate import Calibration, CameraSettings


def tower_of(app: Flask) -> TowerService:
    tower: TowerService = app.extensions["keshi.tower"]
    assert tower.camera_ready.wait(60)  # the simulated camera's default calibration: once per process
    return tower


def toss_result(app: Flask, pieces: dict[str, int]) -> dict[str, Any]:
    """Toss the app's simulated tower and wait for its result."""
    tower, bus = tower_of(app), app.extensions["keshi.bus"]
    with bus.subscribe(last_event_id=bus.last_id) as sub:
        toss_id = tower.toss(pieces)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            event = sub.get(timeout=0.05)
            if event is not None and event.topic == "toss.result" and event.data["toss_id"] == toss_id:
                return dict(event.data)
    raise AssertionError("no toss.result within 10 s")


def test_the_wizard_walks_empty_tray_and_12_colours_then_saves_and_test_counts(app: Flask,
                                                                                  client: FlaskClient) -> None:
    csrf = csrf_of(client)
    headers = {"X-CSRF-Token": csrf}
    tower_of(app)
    status = client.get("/api/calibration").get_json()
    assert [s["step"] for s in status["steps"]] == ["empty", *COLOURS]
    assert not any(s["captured"] for s in status["steps"]) and status["calibration"] is None
    early = client.post("/api/calibration/finish", headers=headers)
    assert early.status_code == 400 and "the empty tray, yellow" in early.get_json()["error"]

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
    assert no_calibration.status_code == 422 and "calibration file not found" in no_calibration.get_json()["detail"]
    assert client.post("/api/calibration/capture", json={"step": "empty"}).status_code == 403  # CSRF
    assert client.get("/api/calibration/frames/secret_key.png").status_code == 404
    assert client.get("/api/calibration/frames/empty.png").status_code == 404  # not captured yet


def test_after_finish_the_simulated_tower_counts_with_the_new_calibration(app: Flask, client: FlaskClient) -> None:
    """The table put green pieces in for red and red for green: once saved, the tower reads red as green."""
    headers = {"X-CSRF-Token": csrf_of(client)}
    tower = tower_of(app)
    before = toss_result(app, {"red": 6})
    assert before["counts"]["green"] == 0  # the simulated tower's own calibration
    for step in STEPS:
        assert client.post("/api/calibration/capture", json={"step": step}, headers=headers).status_code == 200
    folder = Path(app.instance_path) / WIZARD_DIR
    (folder / "red.png").rename(folder / "swap.png")
    (folder / "green.png").rename(folder / "red.png")
    (folder / "swap.png").rename(folder / "green.png")
    assert client.post("/api/calibration/finish", headers=headers).status_code == 200
    assert tower.status()["calibrated"]
    for _ in range(3):  # until a toss lets some red out
        after = toss_result(app, {"red": 6})
        fell_red = after["record"]["contents_before"]["red"] + 6 - after["record"]["contents_after"]["red"]
        if fell_red:
            break
    assert fell_red and after["source"] == "camera"
    assert after["counts"]["green"] == fell_red and after["counts"]["red"] == 0  # no restart needed


def test_the_wizard_photographs_through_the_tower_so_a_running_toss_comes_first(
        app: Flask, client: FlaskClient) -> None:
    tower_of(app).toss({"black": 10})
    busy = client.post("/api/calibration/capture", json={"step": "empty"}, headers={"X-CSRF-Token": csrf_of(client)})
    assert busy.status_code == 409 and "tossing" in busy.get_json()["error"]


def test_without_a_camera_the_wizard_says_so(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    tower = tower_of(app)
    monkeypatch.setattr(tower, "camera", None)  # as when the tower's camera could not be opened
    monkeypatch.setattr(tower, "_camera_problem", "the tower's camera could not be opened: no cameras available")
    answer = client.post("/api/calibration/capture", json={"step": "empty"}, headers={"X-CSRF-Token": csrf_of(client)})
    assert answer.status_code == 503 and "no cameras available" in answer.get_json()["detail"]
    assert answer.get_json()["error"].startswith("The tower's camera is not taking photos")


def test_the_camera_settles_on_the_empty_tray_and_the_calibration_locks_those_settings(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the Pi the camera's auto exposure and white balance settle once, on the empty tray, and the
    calibration records them so the camera is locked to them from then on. Off the Pi the tower's
    camera has nothing to lock (the simulated one says so); here it reports what a Pi camera would."""
    csrf = {"X-CSRF-Token": csrf_of(client)}
    tower = tower_of(app)
    assert tower.settle_camera() is None  # the simulated camera: fixed exposure, nothing to lock
    settled = CameraSettings(exposure_time_us=12000, analogue_gain=1.5, colour_gains=(1.9, 1.6), lens_position=4.0)
    calls: list[str] = []

    def settle_on_the_tray() -> CameraSettings:
        calls.append("settle")
        return settled

    monkeypatch.setattr(tower, "settle_camera", settle_on_the_tray)
    for step in STEPS:
        client.post("/api/calibration/capture", json={"step": step}, headers=csrf)
    assert calls == ["settle"]  # once, on the empty tray, not for every colour
    client.post("/api/calibration/finish", headers=csrf)
    assert Calibration.load(Path(app.instance_path) / "calibration.json").camera == settled


def test_a_frames_folders_camera_json_gives_the_wizard_its_colour_matrix(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """A camera replaying a frames folder reports no matrix; the folder's camera.json supplies it, and a
    bad one is refused with the reason."""
    import json

    headers = {"X-CSRF-Token": csrf_of(client)}
    tower_of(app)
    app.config["CAMERA_FRAMES_DIR"] = str(tmp_path)
    matrix = [[1.8, -0.6, -0.2], [-0.35, 1.6, -0.25], [-0.05, -0.55, 1.6]]
    (tmp_path / "camera.json").write_text(json.dumps(matrix))
    assert client.post("/api/calibration/capture", json={"step": "empty"}, headers=headers).status_code == 200
    recorded = json.loads((Path(app.instance_path) / WIZARD_DIR / "camera.json").read_text())
    assert recorded["colour_matrix"] == matrix
    (tmp_path / "camera.json").write_text(json.dumps([[1.0, 0.0], [0.0, 1.0]]))
    before = (Path(app.instance_path) / WIZARD_DIR / "empty.png").read_bytes()
    refused = client.post("/api/calibration/capture", json={"step": "empty"}, headers=headers)
    assert refused.status_code == 422 and "must be 3x3" in refused.get_json()["detail"]
    assert (Path(app.instance_path) / WIZARD_DIR / "empty.png").read_bytes() == before  # nothing changed


def test_a_colour_photo_taken_without_its_keshi_is_named_in_the_players_language(
    app: Flask, client: FlaskClient
) -> None:
    """The table forgot to put the red keshi in: finishing names red, in German on a German phone, and
    saves nothing."""
    headers = {"X-CSRF-Token": csrf_of(client), "Accept-Language": "de-DE"}
    tower_of(app)
    for step in STEPS:
        assert client.post("/api/calibration/capture", json={"step": step}, headers=headers).status_code == 200
    wizard = Path(app.instance_path) / WIZARD_DIR
    (wizard / "red.png").write_bytes((wizard / "empty.png").read_bytes())  # the red photo shows the empty tray
    refused = client.post("/api/calibration/finish", headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["error"].startswith("Auf dem Foto für Rot wurde kein Keshi gefunden")
    assert not (Path(app.instance_path) / "calibration.json").exists()
