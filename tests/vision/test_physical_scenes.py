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
from vision.physical.scene import Scene, Tray, render  # noqa: E402
from vision.physical.split import (  # noqa: E402
    LIGHTS,
    Split,
    calibration_frames,
    camera_settings,
    make_scene,
    place,
    render_pair,
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


def test_the_colour_matrix_keeps_warm_light_colours(tower: Tower) -> None:
    matched, bare = Tally(), Tally()
    for index in range(4):
        scene = make_scene(TEST_TOWER, "warm LED 3000 K", index)
        frame = render(scene, TEST_TOWER.tray)
        matched.add(Detector(tower.with_matrix).detect(frame), scene)
        bare.add(Detector(tower.without_matrix).detect(frame), scene)
    assert matched.accuracy >= 0.95 and matched.wrong_colour == 0
    assert bare.accuracy < matched.accuracy


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
