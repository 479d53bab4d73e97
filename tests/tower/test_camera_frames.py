"""Hardware mode off a Pi: ``CAMERA_FRAMES_DIR`` makes the Pi camera's code replay image files."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from companion.hardware import tower_mode
from firmware.tray_camera import CALIBRATION_FILENAME, hardware_camera
from vision.sources import write_image
from vision.synthetic import DEFAULT_CALIBRATION_FILE, render_scene


def test_a_frames_folder_makes_hardware_mode_off_a_pi(tmp_path: Path) -> None:
    no_pi = tmp_path / "model"  # no device tree here
    assert tower_mode(False, no_pi) == "simulated"
    assert tower_mode(False, no_pi, camera_frames=tmp_path) == "hardware"
    assert tower_mode(True, no_pi, camera_frames=tmp_path) == "simulated"


def test_the_pi_camera_counts_a_replayed_frame_with_the_instances_calibration(tmp_path: Path) -> None:
    shutil.copy(DEFAULT_CALIBRATION_FILE, tmp_path / CALIBRATION_FILENAME)
    frames = tmp_path / "frames"
    frames.mkdir()
    tray, truth = render_scene({"blue": 2, "red": 1}, np.random.default_rng(3))
    write_image(frames / "01.png", tray)
    camera = hardware_camera(tmp_path, None, frames)
    try:
        assert camera.name == "files" and camera.calibrated and camera.settle() is None
        counted = camera.count(camera.capture())
    finally:
        camera.close()
    assert counted.counts == truth["counts"] and counted.unknown == 0
