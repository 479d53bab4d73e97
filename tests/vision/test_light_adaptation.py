"""Light that differs from the calibration light: uneven room light, the camera's colour matrix, frame pairs."""

from __future__ import annotations

import numpy as np
import pytest

from companion import COLOURS
from vision.calibrate import Calibration
from vision.detect import MIN_CONFIDENCE, Detector
from vision.errors import FrameError
from vision.features import SRGB_TO_LINEAR, sensor_matrix, sensor_signal
from vision.frame_pair import tower_light_only
from vision.synthetic import Lighting, place_pieces, render_scene


def test_a_room_lamp_off_to_one_side_is_not_a_piece(synthetic_calibration: Calibration) -> None:
    """Light falling off across the tray (a lamp beside it) must not read as pale or dark pieces."""
    empty, _ = render_scene({}, 4)
    xx = np.linspace(0.0, 1.0, empty.shape[1], dtype=np.float32)[None, :, None]
    uneven = np.clip(empty * (0.8 + 0.45 * xx), 0, 255).astype(np.uint8)
    detection = Detector(synthetic_calibration).detect(uneven)
    assert detection.pieces == []
    frame, truth = render_scene({"white": 2, "black": 2, "gray": 1}, 6)
    lit = np.clip(frame * (0.8 + 0.45 * xx), 0, 255).astype(np.uint8)
    assert Detector(synthetic_calibration).detect(lit).counts == truth["counts"]


def test_sensor_signal_undoes_the_srgb_curve_and_the_colour_matrix() -> None:
    matrix = [[1.7, -0.6, -0.1], [-0.2, 1.5, -0.3], [0.05, -0.4, 1.35]]
    sensor = np.array([0.30, 0.30, 0.20])  # linear R, G, B as the sensor saw it
    srgb_linear = np.asarray(matrix) @ sensor
    codes = np.round(255 * (1.055 * srgb_linear ** (1 / 2.4) - 0.055)).astype(np.uint8)
    frame = np.broadcast_to(codes[::-1], (4, 4, 3)).copy()  # BGR
    out = sensor_signal(frame, sensor_matrix(matrix))
    np.testing.assert_allclose(out[0, 0][::-1] / 1000.0, sensor, rtol=0.03)
    assert sensor_signal(frame, None) is frame  # no matrix: frames are compared as they are


def test_a_frame_pair_cancels_the_room_light_linear_and_srgb() -> None:
    rng = np.random.default_rng(3)
    pieces = place_pieces({"red": 2, "beige": 2}, rng)
    room = Lighting(brightness=0.3, temperature=3000)
    lit, _ = render_scene(pieces, 5, ambient=room)
    unlit, _ = render_scene(pieces, 6, ambient=room, tower_level=0.0)
    tower_only, _ = render_scene(pieces, 7)
    difference = tower_light_only(lit, unlit, srgb=False)
    assert np.abs(difference.astype(int) - tower_only.astype(int)).mean() < 3
    assert np.abs(lit.astype(int) - tower_only.astype(int)).mean() > 20  # the room light was there
    # sRGB: decode, subtract, encode
    tower = np.full((2, 2, 3), 0.2)
    lamp = np.full((2, 2, 3), 0.1) * np.array([0.4, 1.0, 1.6])  # warm, in B, G, R

    def encode(linear: np.ndarray) -> np.ndarray:
        return np.round(255 * (1.055 * linear ** (1 / 2.4) - 0.055)).astype(np.uint8)

    recovered = tower_light_only(encode(tower + lamp), encode(lamp), srgb=True)
    np.testing.assert_allclose(SRGB_TO_LINEAR[recovered] / 1000.0, tower, rtol=0.05)


def test_a_frame_pair_needs_two_frames_of_one_size() -> None:
    frame = np.zeros((8, 8, 3), np.uint8)
    with pytest.raises(FrameError, match="differ in size"):
        tower_light_only(frame, np.zeros((4, 8, 3), np.uint8), srgb=True)
    with pytest.raises(FrameError, match="unlit frame"):
        tower_light_only(frame, np.zeros((8, 8), np.uint8), srgb=False)


def test_the_simulated_tower_counts_through_the_frame_pair(synthetic_calibration: Calibration) -> None:
    from firmware.tray_camera import SimulatedTrayCamera

    camera = SimulatedTrayCamera(seed=9)
    try:
        camera.show({"yellow": 2, "green": 1, "white": 1})
        frame = camera.capture()
        lit, _ = render_scene({"yellow": 2, "green": 1, "white": 1}, 1, ambient=Lighting(0.1, 3000))
        assert frame.mean() < lit.mean() - 5  # the room light was subtracted
        assert camera.count(frame).counts == {c: {"yellow": 2, "green": 1, "white": 1}.get(c, 0) for c in COLOURS}
    finally:
        camera.close()


def test_unknown_pieces_carry_low_confidence(synthetic_calibration: Calibration) -> None:
    odd, _ = render_scene({"red": 1}, 9, palette={"red": (1.3, 0.3, 0.1)})  # a blue no keshi has
    (piece,) = Detector(synthetic_calibration).detect(odd).pieces
    assert piece.colour == "unknown" and piece.confidence < MIN_CONFIDENCE
