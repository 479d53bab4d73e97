"""The shipped calibration of the simulated tower still matches what the renderer produces."""

from __future__ import annotations

import numpy as np

from vision.synthetic import DEFAULT_CALIBRATION_FILE, compute_default_calibration, default_calibration


def _numbers(value: object) -> list[float]:
    """Every number in a nested JSON value, in a stable order."""
    if isinstance(value, dict):
        return [n for key in sorted(value) for n in _numbers(value[key])]
    if isinstance(value, list | tuple):
        return [n for item in value for n in _numbers(item)]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    return [float(value)]  # type: ignore[arg-type]


def test_the_shipped_default_calibration_is_what_the_simulated_tray_calibrates_to() -> None:
    assert DEFAULT_CALIBRATION_FILE.is_file()
    shipped = default_calibration(0).to_json()
    fresh = compute_default_calibration(0).to_json()
    assert shipped.keys() == fresh.keys()
    assert sorted(shipped["colours"]) == sorted(fresh["colours"])
    np.testing.assert_allclose(_numbers(shipped), _numbers(fresh), rtol=1e-4, atol=1e-6)
