"""A few physically based scenes (``vision.physical``) on a tower of their own (neither tuning nor held-out).

The benchmark measures hundreds of scenes; these check the behaviours that matter under room light
on a handful: shadows and tray stains never count, the camera's colour matrix keeps warm-light
colours, and a light-on/off pair cancels a side lamp with its wall shadow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

pytest.importorskip("colour")

from vision.calibrate import Calibration, calibrate  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.frame_pair import tower_light_only  # noqa: E402
from vision.physical.evaluate import Tally  # noqa: E402
from vision.physical.scene import Lamp, Piece, Scene, Tray, render  # noqa: E402
from vision.physical.split import (  # noqa: E402
    ACROSS_CAMERAS_6,
    ACROSS_CAMERAS_7,
    LIGHTS,
    TUNING,
    Split,
    calibration_frames,
    camera_settings,
    make_scene,
    place,
    render_pair,
    towers,
)

TEST_TOWER = Split("test", seed=4242, tray=Tray(seed=31, falloff=0.3, stains=4))


@dataclass(frozen=True)
class Tower:
    with_matrix: Calibration
    without_matrix: Calibration
    pairs: Calibration


@pytest.fixture(scope="module")
def tower() -> Tower:
    empty, shots = calibration_frames(TEST_TOWER)
    pair_empty, pair_shots = calibration_frames(TEST_TOWER, pairs=True)
    return Tower(
        calibrate(empty, shots, camera_settings()),
        calibrate(empty, shots),
        calibrate(pair_empty, pair_shots, camera_settings()),
    )


@pytest.mark.parametrize("light", ["calibration light (LED 5100 K)", "tungsten 2700 K", "cool LED 6600 K"])
def test_shadows_and_tray_stains_are_never_pieces(tower: Tower, light: str) -> None:
    detector = Detector(tower.with_matrix)
    rng = np.random.default_rng(5)
    assert detector.detect(render(Scene([], LIGHTS[light](rng), 90, 1), TEST_TOWER.tray)).pieces == []
    # pale pieces under a lamp off to one side cast long shadows onto the tray
    pieces = place(rng, ["white", "beige", "yellow", "white"], touching=0.0, spacing=30)
    detection = detector.detect(render(Scene(pieces, LIGHTS[light](rng), 90, 2), TEST_TOWER.tray))
    assert detection.counts["black"] == detection.counts["brown"] == detection.counts["gray"] == 0
    assert len(detection.pieces) == 4


def test_warm_light_colours_hold_with_the_colour_matrix_and_without_it(tower: Tower) -> None:
    """With the camera's matrix colours are compared in its sensor space; without it (issue 26) in its
    linear sRGB with a 3x3 light change and each colour widened along its drift: both hold under warm
    light (in 8-bit codes without a matrix they did not)."""
    matched, bare = Tally(), Tally()
    for index in range(4, 8):  # scenes 0-3 no longer tell them apart: both count them exactly
        scene = make_scene(TEST_TOWER, "warm LED 3000 K", index)
        frame = render(scene, TEST_TOWER.tray)
        matched.add(Detector(tower.with_matrix).detect(frame), scene)
        bare.add(Detector(tower.without_matrix).detect(frame), scene)
    assert matched.accuracy >= 0.95 and matched.wrong_colour == 0
    assert bare.accuracy >= 0.95 and bare.wrong_colour == 0


def test_a_frame_pair_cancels_a_side_lamp_and_its_wall_shadow(tower: Tower) -> None:
    paired, single = Tally(), Tally()
    for index in range(3):
        scene = make_scene(TEST_TOWER, "tower LED + warm lamp", index)
        lit, unlit = render_pair(scene, TEST_TOWER.tray)
        paired.add(Detector(tower.pairs).detect(tower_light_only(lit, unlit, srgb=True)), scene)
        single.add(Detector(tower.with_matrix).detect(lit), scene)
    assert paired.extra == 0 and paired.wrong_colour == 0 and paired.unknown == 0
    assert single.extra > 0  # the wall's shadow and the lamp's light fool a single frame
    assert paired.accuracy > single.accuracy



@pytest.mark.parametrize("lamp", [(675.0, 305.0, 1065.0, 0.85), (-40.0, 240.0, 1100.0, 0.9)])
def test_a_standing_piece_is_named_without_the_shadow_it_casts(
    tower: Tower, lamp: tuple[float, float, float, float]
) -> None:
    """A lamp low at one side throws a standing piece's shadow across the tray, joined to the piece:
    read with it, a standing red's colour lay between red and the floor, far from every colour, and it
    was reported unknown."""
    pieces = [Piece("red", "standing", 110, 313, 40), Piece("orange", "standing", 172, 426, 100),
              Piece("red", "standing", 520, 120, 10), Piece("orange", "standing", 480, 400, 70)]
    scene = Scene(pieces, [Lamp("led-5100", *lamp)], 90, 3)
    detection = Detector(tower.with_matrix).detect(render(scene, TEST_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


Placed = list[tuple[str, str, int, int, int]]
"""Pieces as (colour, pose, x, y, angle): scenes spelled out, as ``place`` found them."""


def _cool_scene(pieces: Placed, lamp: tuple[float, float, float, float]) -> Scene:
    """``pieces`` under one cool LED room lamp at (x, y, z, intensity)."""
    placed = [Piece(c, pose, float(x), float(y), float(a)) for c, pose, x, y, a in pieces]
    return Scene(placed, [Lamp("led-6600", *lamp)], 90, 5)


@pytest.mark.parametrize(
    ("pieces", "lamp"),
    [
        ([("white", "lying", 134, 239, 115), ("white", "standing", 318, 219, 61), ("beige", "standing", 327, 54, 134)],
         (492.0, 23.0, 933.0, 0.96)),
        ([("white", "lying", 193, 84, 149), ("white", "standing", 107, 407, 92), ("white", "lying", 583, 421, 93)],
         (337.0, 420.0, 1373.0, 0.92)),
        ([("white", "lying", 371, 387, 34), ("beige", "standing", 477, 63, 18), ("white", "standing", 82, 200, 143)],
         (553.0, 455.0, 919.0, 0.78)),
    ],
)
def test_a_pale_piece_whose_top_matches_the_floor_is_one_piece(
    tower: Tower, pieces: Placed, lamp: tuple[float, float, float, float]
) -> None:
    """Under cool light a white or beige top can match the floor in every channel: the piece's mask has
    holes, and without filling them its distance transform splits it into slivers (counted twice, or lost)."""
    scene = _cool_scene(pieces, lamp)
    detection = Detector(tower.with_matrix).detect(render(scene, TEST_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


@pytest.mark.parametrize(
    ("pieces", "lamp"),
    [
        ([("turquoise", "lying", 561, 270, 104), ("purple", "standing", 517, 249, 131),
          ("green", "standing", 570, 213, 160), ("orange", "lying", 514, 308, 43)], (274.0, 122.0, 1333.0, 0.76)),
        ([("orange", "standing", 540, 376, 82), ("purple", "lying", 592, 376, 57),
          ("red", "standing", 566, 324, 172), ("purple", "standing", 520, 331, 149)], (604.0, 122.0, 1167.0, 0.94)),
        ([("pink", "standing", 355, 198, 31), ("white", "standing", 327, 162, 65),
          ("green", "lying", 298, 198, 36), ("green", "lying", 324, 104, 127)], (346.0, 563.0, 1065.0, 0.99)),
    ],
)
def test_touching_pieces_joined_by_their_shadows_are_split(
    tower: Tower, pieces: Placed, lamp: tuple[float, float, float, float]
) -> None:
    """Four touching pieces whose cast shadows pool between them: the distance transform of the whole
    blob peaks in the shadow, so a piece beside it got no marker of its own and vanished into a
    neighbour; the shadow itself must never count as a (gray, black or brown) piece."""
    scene = _cool_scene(pieces, lamp)
    detection = Detector(tower.with_matrix).detect(render(scene, TEST_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


def _with_its_matrix(tower: Split) -> Detector:
    """A detector for ``tower``, calibrated on its own frames with its camera's colour matrix."""
    empty, shots = calibration_frames(tower)
    return Detector(calibrate(empty, shots, camera_settings(tower.tray)))


#: A tuning tower whose perturbed colour matrix (issue 26) takes a red's green and blue below black
#: under tungsten light, and whose floor's red comes near white there.
WARM_TOWER = towers(Split("gen-2525", seed=2525, tray=Tray(seed=2532, falloff=0.35, stains=4)))[1][1]


@pytest.fixture(scope="module")
def warm_tower_frames() -> tuple[np.ndarray, dict[str, list[np.ndarray]]]:
    """The warm tower's calibration frames: the empty tray and the pieces of each colour."""
    return calibration_frames(WARM_TOWER)


@pytest.fixture(scope="module")
def warm_tower_detector(warm_tower_frames: tuple[np.ndarray, dict[str, list[np.ndarray]]]) -> Detector:
    return Detector(calibrate(*warm_tower_frames, camera_settings(WARM_TOWER.tray)))


@pytest.mark.parametrize("index", [14, 18])
def test_a_red_at_black_in_green_is_not_read_as_a_dim_orange(warm_tower_detector: Detector, index: int) -> None:
    """Under a tungsten lamp this camera's matrix takes a standing red's green and blue to black and
    leaves its red; undoing the matrix spreads that one channel over all three, where a red lit
    brighter than at calibration and a dim orange lie nearly on one line, and it read orange. An
    orange would have shown green in the frame, which was black there."""
    scene = make_scene(WARM_TOWER, "tungsten 2700 K", index)
    assert warm_tower_detector.detect(render(scene, WARM_TOWER.tray)).counts == scene.counts()


def test_floor_clipped_by_noise_near_a_warm_lamp_is_no_piece(warm_tower_detector: Detector) -> None:
    """Near a tungsten lamp this tray's red is a few codes below white; noise clips scattered floor
    pixels there, and joined into blobs they were read as two beige pieces that were not there."""
    scene = make_scene(WARM_TOWER, "tungsten 2700 K", 4)
    detection = warm_tower_detector.detect(render(scene, WARM_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


@pytest.mark.parametrize("index", [3, 27])
def test_a_beige_whose_blue_falls_under_a_warm_lamp_is_not_read_yellow_without_the_matrix(
    warm_tower_frames: tuple[np.ndarray, dict[str, list[np.ndarray]]], index: int
) -> None:
    """Without this camera's matrix, under tungsten light its beiges lose half their blue, more than the
    light's 3x3 change learnt from the frame's other pieces says; the yellow's blue, at black under the
    calibration light, was allowed to rise so far (its spread reckoned from 1 % of the floor) that blue
    no longer told them apart, and they read yellow (two in each of these scenes)."""
    detector = Detector(calibrate(*warm_tower_frames))
    scene = make_scene(WARM_TOWER, "tungsten 2700 K", index)
    tally = Tally()
    tally.add(detector.detect(render(scene, WARM_TOWER.tray)), scene)
    assert tally.wrong_colour == 0 and tally.accuracy == 1.0


def _tungsten_cluster(tower: Split, pieces: Placed, lamp: tuple[float, float, float, float]) -> bool:
    """Whether ``tower``'s detector with its camera's matrix counts ``pieces`` right under one 2700 K lamp."""
    detector = _with_its_matrix(tower)
    placed = [Piece(c, pose, float(x), float(y), float(a)) for c, pose, x, y, a in pieces]
    scene = Scene(placed, [Lamp("tungsten-2700", *lamp)], 90, 3)
    detection = detector.detect(render(scene, tower.tray))
    return detection.counts == scene.counts() and detection.unknown == 0


def test_two_touching_pieces_of_one_colour_whose_shadows_fill_the_neck_are_two() -> None:
    """Under a 2700 K lamp two standing beiges' shadows fill the neck between them: the whole blob's
    distance has no saddle there and the two (alike in colour) were one piece; the shadow-free part has
    one. (A cluster of the tuning split's tower with a perturbed matrix, issue 26's seventh round.)"""
    tower = towers(TUNING)[1][1]
    pieces = [("beige", "standing", 234, 75, 115), ("beige", "standing", 198, 102, 100),
              ("pink", "lying", 144, 125, 165)]
    assert _tungsten_cluster(tower, pieces, (84.5, 402.4, 947.6, 0.99))


def test_a_pale_piece_the_watershed_gave_to_the_floor_is_still_a_piece() -> None:
    """Under a 2700 K lamp a lying beige's colour is near the floor's; in a cluster of six it had no
    distance peak of its own and the watershed gave it all to the floor. (A cluster of a tuning tower,
    seed 1010, camera with its fitted matrix, issue 26's seventh round.)"""
    tower = towers(Split("tuning-1010", seed=1010, tray=Tray(seed=1017, falloff=0.35, stains=4)))[0][1]
    pieces = [("orange", "standing", 133, 185, 108), ("black", "standing", 172, 114, 176),
              ("pink", "standing", 134, 231, 18), ("beige", "lying", 109, 146, 150),
              ("red", "standing", 89, 201, 31), ("orange", "standing", 193, 206, 109)]
    assert _tungsten_cluster(tower, pieces, (363.6, 496.3, 964.2, 0.86))


def test_two_pieces_of_two_colours_stay_two_though_the_shadow_between_them_is_alike_to_each() -> None:
    """A standing beige and a standing pink touch; a distance maximum in the shade between them is
    alike in colour to each (same hue, brightness within the shading step), and by it the two were
    grouped as one piece, read pink: the beige wrong and the pink missed. (A tower drawn for issue 26's
    seventh round, camera with its fitted matrix, 65 % of the calibration light.)"""
    tower = towers(Split("tuning-3131", seed=3131, tray=Tray(seed=3138, falloff=0.35, stains=4)))[0][1]
    detector = _with_its_matrix(tower)
    scene = make_scene(tower, "65 % brightness", 8)
    detection = detector.detect(render(scene, tower.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


def test_a_yellow_whose_blue_no_colour_explains_is_still_yellow() -> None:
    """Under a cool lamp this perturbed matrix's yellow model shows blue around code 70 in the frame where
    the camera shows 5, and so does every other colour: a channel no colour explains says nothing about
    which colour it is (the check against what a colour shows at black made these yellows unknown; the
    seventh round's held-out split, read after it was reported)."""
    tower = towers(ACROSS_CAMERAS_6)[1][1]
    detector = _with_its_matrix(tower)
    scene = make_scene(tower, "cool LED 6600 K", 14)
    detection = detector.detect(render(scene, tower.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


def test_a_lying_piece_is_one_piece_without_the_colour_matrix(tower: Tower) -> None:
    """Without the camera's matrix colours are compared in the camera's linear sRGB, where a saturated
    paint's weakest channel is dark: noise moved its log far between the two distance maxima along a
    lying piece's ridge, and this purple (with this noise draw) was counted twice. A little noise
    (``PEAK_NOISE``) added to every channel before maxima are compared keeps it one piece. (Issue 26's
    eighth round; on the tuning towers most lying pieces counted twice without the matrix were this.)"""
    lamps = LIGHTS["65 % brightness"](np.random.default_rng(0))
    scene = Scene([Piece("purple", "lying", 581, 368, 5, 0.05, 1.02)], lamps, 90, 117)
    detection = Detector(tower.without_matrix).detect(render(scene, TEST_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


def test_a_lying_white_whose_shaded_edge_went_to_the_floor_is_one_piece(tower: Tower) -> None:
    """Under a warm room lamp a lying white's shaded edge matches the light floor: its blob is narrow and
    waisted, the distance between its two ridge maxima (of one colour, 26 px apart) fell just below
    ``SADDLE`` of the lower peak, and without the camera's matrix it was counted twice. Maxima of one
    colour closer than ``RIDGE`` of a radius may fall to ``RIDGE_SADDLE`` (two pieces' centres lie farther
    apart). (Issue 26's eighth round.)"""
    white = Piece("white", "lying", 513.6, 212.9, 94.1, -0.021, 0.941)
    scene = Scene([white], [Lamp("led-3000", 520.2, 450.9, 1199.4, 0.87)], 90, 19)
    detection = Detector(tower.without_matrix).detect(render(scene, TEST_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


def test_a_lying_yellow_under_a_warm_lamp_is_one_piece_without_the_colour_matrix(tower: Tower) -> None:
    """Under a 3000 K lamp a yellow's blue lies far below its red in the camera's linear sRGB, and between
    the two distance maxima along a lying yellow's ridge it varied beyond what ``PEAK_NOISE`` absorbs: it
    was counted twice. A channel below ``HUE_FLOOR`` of the brightest says nothing of the hue."""
    yellow = Piece("yellow", "lying", 409, 262, 84, 0.0, 1.05)
    scene = Scene([yellow], [Lamp("led-3000", 246.7, 476.6, 1039.6, 0.92)], 90, 39)
    detection = Detector(tower.without_matrix).detect(render(scene, TEST_TOWER.tray))
    assert detection.counts == scene.counts() and detection.unknown == 0


def test_a_red_lit_brighter_under_tungsten_is_not_made_unknown_by_its_blue() -> None:
    """Under tungsten this perturbed matrix's red model shows blue in the frame where a standing red, its
    head near the lamp, shows black; the red was nearest to red by far (d² 1.2 against 7.5 to orange),
    but the check of near-black channels added 6-10 to red alone and it was reported unknown (the eighth
    round's held-out split, read after it was reported). That check now only breaks near ties."""
    tower = towers(ACROSS_CAMERAS_7)[1][1]
    detector = _with_its_matrix(tower)
    for index in (10, 12):
        scene = make_scene(tower, "tungsten 2700 K", index)
        detection = detector.detect(render(scene, tower.tray))
        assert detection.counts == scene.counts() and detection.unknown == 0


def _eighth_round_scene(light: str, index: int, with_matrix: bool) -> bool:
    """Whether the eighth round's held-out split (read after it was reported), on its first tower (the
    camera with its fitted matrix), is counted right in scene ``index`` of ``light``."""
    tower = towers(ACROSS_CAMERAS_7)[0][1]
    detector = _with_its_matrix(tower) if with_matrix else Detector(calibrate(*calibration_frames(tower)))
    scene = make_scene(tower, light, index)
    detection = detector.detect(render(scene, tower.tray))
    return detection.counts == scene.counts() and detection.unknown == 0


def test_three_pieces_around_a_small_enclosed_gap_are_three() -> None:
    """A lying gray, a lying black and a standing yellow touch around a gap of floor small enough to be
    filled as a hole; the filled blob's distance peaked at the gap, far from every piece's centre, and
    the three were one segment (a gray and two unknown). The blob cut along its edges, with the gap
    kept open, has a core per piece."""
    assert _eighth_round_scene("fluorescent F11", 57, with_matrix=True)


def test_two_touching_standing_grays_are_two() -> None:
    """Two standing grays touch under a 3000 K lamp; their shadows fill the neck between them, and a
    gray is the floor's colour, darker, so the shadow-free part does not show the neck either: they were
    one gray. Cut along its edges each is a whole core, and two cores of one colour stay apart."""
    assert _eighth_round_scene("warm LED 3000 K", 30, with_matrix=True)


def test_seven_touching_pieces_in_a_row_are_seven() -> None:
    """Seven pieces touching in a chain under a 6600 K lamp: the distance of the whole blob peaked at the
    junctions, a gray was lost and a lying brown split in two."""
    assert _eighth_round_scene("cool LED 6600 K", 23, with_matrix=True)


def test_a_turquoise_touching_a_black_is_not_read_black_without_the_matrix() -> None:
    """Under tungsten, without the camera's matrix, a standing turquoise and a black touching it were
    grouped as one piece and read black: a wrong colour and a missed piece."""
    assert _eighth_round_scene("tungsten 2700 K", 1, with_matrix=False)
