"""Bad input gives one clear error line (or a correct zero count), never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import COLOURS
from companion.cli import main
from vision.calibrate import Calibration
from vision.detect import Detector
from vision.errors import CalibrationError, FrameError
from vision.sources import write_image
from vision.synthetic import render_scene


@pytest.fixture(scope="module")
def cal_file(cal_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("calfile") / "cal.json"
    assert main(["vision", "calibrate", str(cal_dir), "--out", str(out)]) == 0
    return out


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("keshi: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def test_cli_counts_a_frame_as_json_and_draws_a_debug_image(
    cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame, truth = render_scene({"red": 2, "white": 1, "turquoise": 3}, 4)
    write_image(tmp_path / "scene.png", frame)
    debug = tmp_path / "debug.png"
    argv = ["vision", "count", str(tmp_path / "scene.png"), "--calibration", str(cal_file), "--json"]
    assert main([*argv, "--debug-image", str(debug)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["counts"] == truth["counts"] and result["unknown"] == 0
    colours = sorted(p["colour"] for p in result["pieces"])
    assert colours == ["red", "red", "turquoise", "turquoise", "turquoise", "white"]
    assert set(result["pieces"][0]) == {"colour", "confidence", "x", "y"}
    assert debug.stat().st_size > 0
    assert main(argv[:-1]) == 0  # human-readable table
    assert "turquoise   3" in capsys.readouterr().out


def test_missing_colour_in_cal_dir(cal_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    partial = tmp_path / "partial"
    shutil.copytree(cal_dir, partial)
    for path in partial.glob("black*.png"):
        path.unlink()
    err = one_line_error(capsys, ["vision", "calibrate", str(partial), "--out", str(tmp_path / "c.json")])
    assert "black" in err and not (tmp_path / "c.json").exists()


def test_corrupt_and_missing_images(cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    assert "corrupt.png" in one_line_error(capsys, ["vision", "count", str(corrupt), "--calibration", str(cal_file)])
    missing = tmp_path / "nope.png"
    assert "not found" in one_line_error(capsys, ["vision", "count", str(missing), "--calibration", str(cal_file)])
    assert "is a folder" in one_line_error(capsys, ["vision", "count", str(tmp_path), "--calibration", str(cal_file)])


def test_a_greyscale_image_is_refused_not_counted(
    cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((480, 640), 170, np.uint8))
    err = one_line_error(capsys, ["vision", "count", str(grey), "--calibration", str(cal_file)])
    assert "grey.png" in err and "greyscale" in err


def test_frame_of_another_size(cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_image(tmp_path / "small.png", np.full((240, 320, 3), 170, np.uint8))
    err = one_line_error(capsys, ["vision", "count", str(tmp_path / "small.png"), "--calibration", str(cal_file)])
    assert "320x240" in err and "640x480" in err
    with pytest.raises(FrameError):
        Detector(Calibration.load(cal_file)).detect(np.zeros((480, 640), np.uint8))


def test_calibration_of_another_version(cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(cal_file.read_text())
    data["version"] = 99
    other = tmp_path / "old.json"
    other.write_text(json.dumps(data))
    write_image(tmp_path / "f.png", render_scene({}, 1)[0])
    err = one_line_error(capsys, ["vision", "count", str(tmp_path / "f.png"), "--calibration", str(other)])
    assert "version 99" in err
    (tmp_path / "junk.json").write_text("{not json")
    one_line_error(capsys, ["vision", "count", str(tmp_path / "f.png"), "--calibration", str(tmp_path / "junk.json")])
    with pytest.raises(CalibrationError):
        Calibration.from_json({**data, "version": 1, "colours": {}})


def test_empty_tray_counts_zero_under_any_light(synthetic_calibration: Calibration) -> None:
    from vision.synthetic import Lighting

    detector = Detector(synthetic_calibration)
    for lighting in (Lighting(), Lighting(brightness=1.35), Lighting(brightness=0.65), Lighting(temperature=3000)):
        detection = detector.detect(render_scene({}, 2, lighting=lighting)[0])
        assert detection.counts == dict.fromkeys(COLOURS, 0) and detection.unknown == 0 and detection.pieces == []


def test_calibration_round_trips_through_json(synthetic_calibration: Calibration, tmp_path: Path) -> None:
    synthetic_calibration.save(tmp_path / "c.json")
    loaded = Calibration.load(tmp_path / "c.json")
    frame, truth = render_scene({"pink": 2, "purple": 2, "brown": 1}, 8)
    assert Detector(loaded).detect(frame).counts == truth["counts"]
