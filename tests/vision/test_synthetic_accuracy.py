"""Piece accuracy on generated scenes, under the calibration light and the changed lights of the issue.

Accuracy = 1 - (sum |predicted - true| + unknown) / sum true, over a few random scenes (the
benchmark measures it over many more).
"""

from __future__ import annotations

import numpy as np
import pytest

from companion import COLOURS
from vision.calibrate import Calibration
from vision.detect import Detector
from vision.synthetic import Lighting, random_counts, render_scene


def accuracy(calibration: Calibration, lighting: Lighting, scenes: int, seed: int) -> float:
    detector = Detector(calibration)
    rng = np.random.default_rng(seed)
    error = total = 0
    for _ in range(scenes):
        frame, truth = render_scene(random_counts(rng, 4, 20), rng, lighting=lighting)
        detection = detector.detect(frame)
        error += sum(abs(detection.counts[c] - truth["counts"][c]) for c in COLOURS) + detection.unknown
        total += sum(truth["counts"].values())
    return 1 - error / total


@pytest.mark.parametrize(
    ("lighting", "target", "scenes"),
    [
        (Lighting(), 0.995, 12),  # the 99.5 %: over ~130 pieces that means not one miss
        (Lighting(brightness=0.65), 0.98, 4),
        (Lighting(brightness=1.35), 0.98, 4),
        (Lighting(temperature=3000), 0.98, 4),
        (Lighting(temperature=6500), 0.98, 4),
    ],
)
def test_piece_accuracy_under_changed_light(
    synthetic_calibration: Calibration, lighting: Lighting, target: float, scenes: int
) -> None:
    assert accuracy(synthetic_calibration, lighting, scenes=scenes, seed=11) >= target


def test_render_scene_truth_matches_requested_counts() -> None:
    counts = {"red": 3, "white": 2, "black": 1}
    frame, truth = render_scene(counts, 5)
    assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
    assert truth["counts"] == {c: counts.get(c, 0) for c in COLOURS}
    assert len(truth["pieces"]) == 6


def test_light_changes_the_frame_but_not_the_count(synthetic_calibration: Calibration) -> None:
    counts = {"yellow": 2, "orange": 2, "beige": 1, "gray": 2}
    warm, _ = render_scene(counts, 3, lighting=Lighting(temperature=3000))
    cool, _ = render_scene(counts, 3, lighting=Lighting(temperature=6500))
    assert abs(float(warm[:, :, 2].mean()) - float(cool[:, :, 2].mean())) > 20  # red channel moved a lot
    detector = Detector(synthetic_calibration)
    assert detector.detect(warm).counts == detector.detect(cool).counts == {c: counts.get(c, 0) for c in COLOURS}


def test_unfamiliar_colour_is_reported_unknown_not_guessed(synthetic_calibration: Calibration) -> None:
    detector = Detector(synthetic_calibration)
    frame, _ = render_scene({"red": 1}, 9)
    assert detector.detect(frame).counts["red"] == 1
    odd, _ = render_scene({"red": 1}, 9, palette={"red": (1.3, 0.3, 0.1)})  # a blue no keshi has
    detection = detector.detect(odd)
    assert detection.unknown == 1 and sum(detection.counts.values()) == 0
