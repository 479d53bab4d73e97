"""Light that differs from the calibration light: uneven room light, the camera's colour matrix, frame pairs."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion import COLOURS
from vision.calibrate import Calibration, CameraSettings, calibrate, piece_feature
from vision.detect import DARK_FLOOR, MIN_CONFIDENCE, Clipping, Detector, _group_peaks
from vision.errors import FrameError
from vision.features import SRGB_TO_LINEAR, sensor_matrix, sensor_signal
from vision.frame_pair import tower_light_only
from vision.synthetic import REFLECTANCE, Lighting, calibration_set, place_pieces, render_scene


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
    # no matrix: still linear light (the sRGB curve undone), in the camera's own sRGB channels
    np.testing.assert_allclose(sensor_signal(frame, sensor_matrix(None))[0, 0][::-1] / 1000.0, srgb_linear, rtol=0.03)


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



def _unbounded(values: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``Detector._adapt``'s bounds for pieces none of whose channels is clipped at white or near black."""
    return np.zeros((len(values), 3), bool), np.zeros((len(values), 3), bool)


def test_noisy_pieces_cannot_drag_the_adapted_colours_far(synthetic_calibration: Calibration) -> None:
    """The colour transform is learned from the frame's confidently named pieces, whose paints scatter
    about their calibrated colour; that scatter alone (the calibration light, no change to adapt to)
    must not move any colour model far, least of all the dark saturated ones it says little about."""
    detector = Detector(synthetic_calibration)
    teachers = [detector._names.index(c) for c in ("white", "beige", "gray", "yellow", "turquoise", "green", "black")]
    covariance = detector._covariances(0.0) + np.eye(3) * 0.1**2
    rng = np.random.default_rng(0)
    for _ in range(20):
        values = [(detector._means[i] + rng.normal(0, 0.06, 3)).astype(np.float32) for i in teachers]
        adapted = detector._adapt(values, *_unbounded(values), covariance)
        # in linear response relative to the floor: a log change of a channel at 1 % of the floor is noise
        assert np.abs(np.exp(adapted) - np.exp(detector._means)).max() < 0.05



def test_a_piece_in_shade_keeps_its_colour() -> None:
    """Shading (a piece farther from the lamp, or in a neighbour's shadow) darkens every channel alike:
    in the sensor's linear space a piece 20 % darker than calibration saw it is still its colour."""
    empty, frames = calibration_set(seed=2)
    identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]  # sensor space = linear sRGB
    detector = Detector(calibrate(empty, frames, CameraSettings(colour_matrix=identity)))
    shaded = {c: (0.8 * b, 0.8 * g, 0.8 * r) for c, (b, g, r) in REFLECTANCE.items()
              if c in ("yellow", "green", "red", "purple")}
    frame, truth = render_scene({c: 1 for c in shaded}, 9, palette=shaded)
    detection = detector.detect(frame)
    assert detection.counts == truth["counts"] and detection.unknown == 0


def test_two_maxima_on_one_dark_ridge_are_one_piece() -> None:
    """On a black lying piece the log of a signal near zero gives each distance-transform maximum a
    different hue; maxima a few pixels apart on one ridge are still one piece, while pieces of two
    colours a piece's width apart stay two."""
    blob = np.zeros((60, 120), np.uint8)
    blob[10:50, 10:110] = 1
    dist = np.asarray(cv2.distanceTransform(blob, cv2.DIST_L2, 5), np.float32)
    refl = np.zeros((60, 120, 3), np.float32)
    refl[:, :58] = (-3.8, -3.4, -3.4)  # black, its hue noisy: blue lower here ...
    refl[:, 58:] = (-2.6, -3.0, -3.0)  # ... and higher here
    assert len(_group_peaks(dist, refl, [(55, 30), (61, 30)], 1.0, 12.0)) == 1
    assert len(_group_peaks(dist, refl, [(35, 30), (85, 30)], 1.0, 12.0)) == 2


def test_a_thin_dark_floor_coloured_part_is_a_cast_shadow_not_a_gray_piece(synthetic_calibration: Calibration) -> None:
    """A side lamp's deep shadow beside a pale standing piece was split off as a part of its own and
    counted as a gray piece. Such a part is the floor's colour, darker, and a crescent; a gray piece's
    part is as wide as a piece, a pale piece's shaded edge is barely darker, a coloured part is not grey."""
    detector = Detector(synthetic_calibration)
    radius = synthetic_calibration.size_prior.radius
    thin = np.zeros((120, 120), bool)
    thin[20:100, 50 : 50 + int(0.6 * radius)] = True  # a crescent's width: 0.3 of a radius from its middle
    wide = np.zeros((120, 120), bool)
    cv2.circle(wide.view(np.uint8), (60, 60), int(radius), 1, -1)
    refl = np.empty((120, 120, 3), np.float32)
    refl[:] = (-1.7, -1.75, -1.8)  # neutral, well below the floor, far above a black piece
    assert detector._cast_shadow(piece_feature(refl, thin), thin)
    assert not detector._cast_shadow(piece_feature(refl, wide), wide)
    refl[:] = (-0.1, -0.1, -0.12)  # barely darker: a white piece's shaded edge
    assert not detector._cast_shadow(piece_feature(refl, thin), thin)
    refl[:] = (-2.8, -2.3, -0.7)  # a red's colour
    assert not detector._cast_shadow(piece_feature(refl, thin), thin)
    refl[:] = (-3.4, -3.4, -3.4)  # a black piece
    assert not detector._cast_shadow(piece_feature(refl, thin), thin)


def _encode(linear: np.ndarray) -> np.ndarray:
    """Linear sRGB (0-1) as the camera's 8-bit codes: clipped at black and white, the sRGB curve."""
    clipped = np.clip(linear, 0.0, 1.0)
    curve = np.where(clipped <= 0.0031308, 12.92 * clipped, 1.055 * clipped ** (1 / 2.4) - 0.055)
    return np.asarray(np.round(255 * curve), np.uint8)


def test_colours_are_compared_as_the_camera_clips_them_at_black(synthetic_calibration: Calibration) -> None:
    """Under warm light a yellow's blue falls below the camera's black (its colour matrix makes it
    negative) and the frame holds 0 there; undoing the matrix then mixes that error into every sensor
    channel. The colour models are clipped the same way, so a piece and its colour's model agree again."""
    matrix = [[1.7, -0.6, -0.1], [-0.2, 1.5, -0.3], [0.05, -0.4, 1.35]]
    detector = Detector(replace(synthetic_calibration, camera=CameraSettings(colour_matrix=matrix)))
    floor = 400.0  # the lit floor's sensor signal in every channel (1000: white)
    yellow = np.array([0.9, 0.7, 0.01])  # sensor R, G, B relative to the floor
    assert (np.asarray(matrix) @ yellow)[2] < 0  # the camera's blue is below black
    codes = _encode(np.asarray(matrix) @ yellow * floor / 1000)[::-1]  # BGR
    seen = np.log(sensor_signal(np.broadcast_to(codes, (2, 2, 3)).copy(), detector._inverse)[0, 0] / floor)
    means = np.log(np.array([yellow[::-1], (0.5, 0.5, 0.5)], np.float32))
    clipped = detector._as_the_camera_clips(means, np.full(3, np.log(floor), np.float32))
    assert np.abs(means[0] - seen).max() > 0.5  # unclipped, the model is far from what the frame shows
    np.testing.assert_allclose(clipped[0], seen, atol=0.05)
    np.testing.assert_allclose(clipped[1], means[1], atol=1e-4)  # a gray is nowhere near black
    # without a matrix the frame's channels are the detector's: a mean below black is held at black
    dim = np.log(np.array([[0.001, 0.7, 0.9]], np.float32))  # B, G, R: a blue below the signal's floor of 1
    bare = Detector(synthetic_calibration)._as_the_camera_clips(dim, np.full(3, np.log(floor), np.float32))
    np.testing.assert_allclose(bare[0], [np.log(1 / floor), np.log(0.7), np.log(0.9)], atol=1e-4)


def test_the_adaptation_moves_no_colour_below_a_dark_floor(synthetic_calibration: Calibration) -> None:
    """A warm light pulls a dim blue down (a 3x3 change of the channels, the floor pinned); fitted to the
    frame's pieces, the change drove a yellow's blue to 1e-4 of the floor (log -9.2), as far in log terms
    from the frame's yellows as from anything. It follows the light down, but no lower than 1 % of the
    floor's response (or the colour's calibrated response, where that is lower)."""
    detector = Detector(synthetic_calibration)
    refs = np.exp(detector._means.astype(np.float64))
    warm = np.eye(3)
    warm[0] += (0.3, 0.0, -0.3)  # B, G, R: the blue row takes 0.3 of (blue - red)
    teachers = [detector._names.index(c) for c in ("white", "gray", "beige", "pink", "turquoise", "purple")]
    values = [np.log(refs[i] @ warm.T).astype(np.float32) for i in teachers]
    adapted = detector._adapt(values, *_unbounded(values), detector._covariances(0.4))
    yellow = detector._names.index("yellow")
    assert (refs[yellow] @ warm.T)[0] < 0  # the light would take the yellow's blue below black
    assert adapted[yellow][0] < detector._means[yellow][0] - 0.2  # the adaptation followed it down ...
    assert (adapted >= np.log(np.minimum(refs, DARK_FLOOR)) - 1e-5).all()  # ... to the floor, no lower


def test_a_piece_clipped_at_white_may_be_lit_brighter_than_its_colour(synthetic_calibration: Calibration) -> None:
    """A standing pink's head near a warm lamp clips its red and reads brighter than the calibrated pink
    in every channel; with no brightness allowed for a clipped piece it was named beige. Its colour may
    now be lit brighter (then clipped as the frame was), never darker: a clipped white is no gray.
    With the camera's colour matrix (here one that leaves the channels as they are)."""
    identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    detector = Detector(replace(synthetic_calibration, camera=CameraSettings(colour_matrix=identity)))
    covariance = detector._covariances(0.0)
    segment = np.zeros((40, 40), bool)
    cv2.circle(segment.view(np.uint8), (20, 20), 15, 1, -1)
    known = np.ones(3, bool)

    def named(value: np.ndarray, clipped: np.ndarray) -> str:
        clipping = Clipping(clipped, np.zeros(3, bool), np.full(3, np.log(400.0), np.float32), np.zeros(3, bool))
        inverse = np.asarray(np.linalg.inv(covariance), np.float64)
        pieces = detector._classify(
            value.astype(np.float32), clipping, segment, (0, 0), known, covariance, inverse, detector._means, True
        )
        return pieces[0].colour

    pink = detector._means[detector._names.index("pink")]
    lit = pink + 0.45  # B, G, R all brighter; the red is clipped there, so it says "at least this"
    assert named(lit, np.array([False, False, True])) == "pink"
    white = detector._means[detector._names.index("white")]
    assert named(white, np.ones(3, bool)) == "white"
    gray = detector._means[detector._names.index("gray")]
    assert named(gray + 0.3, np.array([False, False, True])) == "gray"


def test_a_channel_near_black_on_a_piece_only_bounds_the_adaptation(synthetic_calibration: Calibration) -> None:
    """A warm light takes a yellow's and an orange's blue below black, where the frame shows a few codes
    of noise: taken as taught, that blue "rose" against a light that lowers it, and held every colour's
    blue where it was (a beige's too, which then read yellow). A channel near black says only "at most
    this much", which the light's fall keeps."""
    detector = Detector(synthetic_calibration)
    refs = np.exp(detector._means.astype(np.float64))
    warm = np.eye(3)
    warm[0] += (0.3, 0.0, -0.3)  # B, G, R: the blue row takes 0.3 of (blue - red)
    names = ("white", "gray", "beige", "pink", "turquoise", "purple", "yellow", "orange")
    teachers = [detector._names.index(c) for c in names]
    lit = np.array([refs[i] @ warm.T for i in teachers])
    values = list(np.log(np.maximum(lit, 0.02)).astype(np.float32))  # below black: the frame's noise
    near_black = lit <= 0.02
    assert near_black[-2:, 0].all()  # the yellow's and the orange's blue
    beige = detector._names.index("beige")
    bounded = detector._adapt(values, np.zeros_like(near_black), near_black, detector._covariances(0.4))
    assert bounded[beige][0] < detector._means[beige][0] - 0.05  # the beige's blue follows the light down
    taken_as_seen = detector._adapt(values, *_unbounded(values), detector._covariances(0.4))
    assert taken_as_seen[beige][0] > bounded[beige][0] + 0.05  # the near-black blue would have held it
