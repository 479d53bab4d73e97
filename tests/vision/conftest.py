"""Vision fixtures: the sample dataset's calibration and the simulated tower's calibration (computed once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.calibrate import Calibration, calibrate_folder
from vision.sources import write_image
from vision.synthetic import calibration_set, default_calibration

SAMPLE = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "keshi-sample"
if not SAMPLE.is_dir():
    SAMPLE = Path("/work/shared/datasets/keshi-sample")


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    if not (SAMPLE / "calibration").is_dir():
        pytest.skip("keshi-sample dataset not available")
    return SAMPLE


@pytest.fixture(scope="session")
def sample_calibration(sample_dir: Path) -> Calibration:
    return calibrate_folder(sample_dir / "calibration")


@pytest.fixture(scope="session")
def synthetic_calibration() -> Calibration:
    calibration: Calibration = default_calibration()
    return calibration


@pytest.fixture(scope="session")
def cal_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A calibration folder of the simulated tower, as ``keshi vision calibrate`` expects it (tests that
    change it work on a copy)."""
    folder = tmp_path_factory.mktemp("cal")
    empty, frames = calibration_set()
    write_image(folder / "empty.png", empty)
    for colour, shots in frames.items():
        for n, frame in enumerate(shots, start=1):
            write_image(folder / f"{colour}-{n}.png", frame)
    return folder
