"""Every scene of the shared keshi sample is counted exactly (both lightings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import COLOURS
from vision.calibrate import Calibration
from vision.detect import Detector
from vision.sources import read_image


@pytest.mark.parametrize("lighting", ["cal", "dim"])
def test_every_sample_scene_counted_exactly(sample_dir: Path, sample_calibration: Calibration, lighting: str) -> None:
    detector = Detector(sample_calibration)
    truth = json.loads((sample_dir / "scenes" / lighting / "truth.json").read_text())
    wrong = {}
    for name, expected in truth.items():
        detection = detector.detect(read_image(sample_dir / "scenes" / lighting / name))
        if detection.counts != {c: expected[c] for c in COLOURS} or detection.unknown:
            wrong[name] = (detection.counts, detection.unknown)
    assert not wrong
    assert len(truth) == 12


def test_sample_calibration_learns_all_colours_and_a_piece_size(sample_calibration: Calibration) -> None:
    assert set(sample_calibration.colours) == set(COLOURS)
    assert all(model.pieces >= 3 for model in sample_calibration.colours.values())
    # pieces are about 44 px across: the largest inscribed radius is about half of that
    assert 18 < sample_calibration.size_prior.radius < 30
