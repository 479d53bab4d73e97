"""``keshi vision calibrate --colour-matrix M.json`` and the ``CAL_DIR/camera.json`` sidecar: the
camera's matrix reaches the calibration, and a matrix that cannot be a camera's is refused with the reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from companion import COLOURS
from companion.cli import main
from vision import colour_matrix
from vision.calibrate import Calibration, CameraSettings, calibrate
from vision.errors import CalibrationError

#: A plausible camera matrix (an IMX219-like tuning): rows sum to 1.
CAMERA = [[1.8, -0.6, -0.2], [-0.35, 1.6, -0.25], [-0.05, -0.55, 1.6]]



def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_option_puts_the_matrix_in_the_calibration(
    cal_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cal.json"
    matrix = write(tmp_path / "m.json", CAMERA)
    assert main(["vision", "calibrate", str(cal_dir), "--out", str(out), "--colour-matrix", str(matrix)]) == 0
    assert Calibration.load(out).camera.colour_matrix == CAMERA
    assert "colour matrix from" in capsys.readouterr().out


def test_the_sidecar_is_read_and_the_option_wins_over_it(cal_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "with-sidecar"
    shutil.copytree(cal_dir, folder)
    flat = [v for row in CAMERA for v in row]  # Picamera2's metadata form: 9 numbers
    write(folder / colour_matrix.SIDECAR, {"ColourCorrectionMatrix": flat})
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(folder), "--out", str(out)]) == 0
    assert Calibration.load(out).camera.colour_matrix == CAMERA
    other = [[1.5, -0.4, -0.1], [-0.3, 1.5, -0.2], [0.0, -0.5, 1.5]]
    option = write(tmp_path / "m.json", {"colour_matrix": other})
    assert main(["vision", "calibrate", str(folder), "--out", str(out), "--colour-matrix", str(option)]) == 0
    assert Calibration.load(out).camera.colour_matrix == other


def test_without_matrix_or_sidecar_the_calibration_has_none(cal_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(cal_dir), "--out", str(out)]) == 0
    assert Calibration.load(out).camera.colour_matrix is None


@pytest.mark.parametrize(
    ("matrix", "reason"),
    [
        ([[1.0, 0.0], [0.0, 1.0]], "must be 3x3"),
        ([[1.0, 0.0, 0.0]] * 2 + [[1.0, 0.0, 0.0, 0.0]], "must be 3x3"),
        ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, "1", 0.0]], "finite number"),
        ([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]], "not invertible"),
        ([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], "row 1 sums to 2.000"),
        ([[7.0, -4.0, -2.0], [-3.0, 6.5, -2.5], [0.5, -3.5, 4.0]], "multiplies sensor noise up to 13.0 times"),
        ({"exposure_time_us": 1000}, "holds no colour matrix"),
    ],
)
def test_a_matrix_that_cannot_be_a_cameras_is_refused_with_the_reason(
    cal_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], matrix: object, reason: str
) -> None:
    bad = write(tmp_path / "m.json", matrix)
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(cal_dir), "--out", str(out), "--colour-matrix", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("keshi: error: ") and reason in err and str(bad) in err
    assert not out.exists()


def test_a_bad_sidecar_is_refused_naming_it(cal_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bad-sidecar"
    shutil.copytree(cal_dir, folder)
    write(folder / colour_matrix.SIDECAR, [[1.0, 0.2, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.raises(CalibrationError, match=r"camera\.json.*row 1 sums to 1\.200"):
        colour_matrix.read_sidecar(folder)


def test_unreadable_matrix_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="not found"):
        colour_matrix.read(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("[[1, 0, 0],", encoding="utf-8")
    with pytest.raises(CalibrationError, match="not a JSON file"):
        colour_matrix.read(tmp_path / "bad.json")


def test_a_camera_reporting_a_noisy_matrix_is_refused_in_process_too() -> None:
    """The wizard hands the camera's matrix to ``calibrate`` directly: a Foveon-like noise gain is refused
    there as from a file, before any frame is looked at."""
    noisy = CameraSettings(colour_matrix=[[7.0, -4.0, -2.0], [-3.0, 6.5, -2.5], [0.5, -3.5, 4.0]])
    blank = np.zeros((48, 64, 3), np.uint8)
    with pytest.raises(CalibrationError, match="too noisy"):
        calibrate(blank, {colour: [blank] for colour in COLOURS}, noisy)
