"""Frame sources: file/folder replay, synthetic frames, and clear errors where no camera exists."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from vision.errors import CameraError, FrameError
from vision.sources import FileSource, FrameSource, OpenCVSource, Picamera2Source, SyntheticSource, write_image
from vision.synthetic import render_scene


def test_file_source_replays_a_folder_in_name_order(tmp_path: Path) -> None:
    for name, value in (("b.png", 20), ("a.png", 10)):
        write_image(tmp_path / name, np.full((4, 6, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    source = FileSource(tmp_path)
    assert isinstance(source, FrameSource)
    assert [int(source.capture()[0, 0, 0]) for _ in range(3)] == [10, 20, 10]
    source.close()


def test_file_source_without_images_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FrameError, match="no image files"):
        FileSource(tmp_path)


def test_synthetic_source_renders_each_capture() -> None:
    rng = np.random.default_rng(0)
    source = SyntheticSource(lambda: render_scene({"green": 1}, rng)[0])
    first, second = source.capture(), source.capture()
    assert first.shape == (480, 640, 3) and not np.array_equal(first, second)
    assert isinstance(source, FrameSource)


def test_missing_camera_devices_raise_camera_error() -> None:
    with pytest.raises(CameraError):
        OpenCVSource("/nonexistent/video-device")
    if os.environ.get("KESHI_HARDWARE_TESTS") != "1":
        with pytest.raises(CameraError, match="Picamera2"):
            Picamera2Source()


@pytest.mark.hardware
@pytest.mark.skipif(os.environ.get("KESHI_HARDWARE_TESTS") != "1", reason="needs the Pi camera")
def test_picamera2_settles_locks_and_captures() -> None:
    camera = Picamera2Source(lens_position=2.5)
    try:
        locked = camera.settle()
        assert locked["AeEnable"] is False and locked["AwbEnable"] is False
        first, second = camera.capture(), camera.capture()
        assert first.shape == (480, 640, 3) and first.dtype == np.uint8
        # exposure and white balance locked: an unchanged tray gives nearly the same frame
        assert abs(float(first.mean()) - float(second.mean())) < 3
    finally:
        camera.close()
