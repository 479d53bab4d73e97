"""Fit ``vision.detect.CONFIDENCE_MODEL`` on the tuning split (never the held-out one).

Run: ``.venv/bin/python -m vision.physical.fit_confidence [--scenes N]``. Detects every tuning scene
under every light (frame pairs for the pair lights), records per reported piece the two features of
``vision.detect._confidence`` and whether its nearest colour is the true piece's colour (a report on
no piece counts as wrong; pieces beyond ``MAX_DISTANCE`` are left out, the gate handles them), fits a
logistic regression (Newton's method) and prints the coefficients to paste into ``vision/detect.py``.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import detect
from vision.calibrate import calibrate
from vision.frame_pair import tower_light_only
from vision.physical.evaluate import match
from vision.physical.scene import render
from vision.physical.split import (
    LIGHTS,
    PAIR_LIGHTS,
    TUNING,
    calibration_frames,
    camera_settings,
    make_scene,
    render_pair,
)


def features(d2: npt.NDArray[np.float64]) -> tuple[float, float]:
    """The model's inputs: sqrt of the capped margin, log(1 + nearest d2)."""
    nearest, second = np.partition(d2, 1)[:2]
    return float(np.sqrt(min(float(second - nearest), detect.MARGIN_CAP))), float(np.log1p(nearest))


class Recorder:
    """Wraps ``Detector._classify`` to keep each reported piece's distances and nearest colour."""

    def __init__(self, detector: detect.Detector) -> None:
        self.seen: dict[int, tuple[tuple[float, float], str]] = {}
        original = detector._classify

        def classify(*args: Any) -> list[detect.Piece]:
            captured: list[npt.NDArray[np.float64]] = []
            real = detect._confidence

            def spy(d2: npt.NDArray[np.float64]) -> float:
                captured.append(d2.copy())
                return real(d2)

            detect._confidence = spy
            try:
                pieces = original(*args)
            finally:
                detect._confidence = real
            nearest = detector._names[int(np.argmin(captured[0]))]
            for piece in pieces:
                self.seen[id(piece)] = (features(captured[0]), nearest)
            return pieces

        detector._classify = classify  # type: ignore[method-assign,assignment]


def fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], ridge: float = 1e-3) -> npt.NDArray[np.float64]:
    """Logistic regression ``y ~ sigmoid(w0 + w . x)`` by Newton's method with a small ridge."""
    design = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(design.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ w))
        grad = design.T @ (p - y) + ridge * w
        hess = design.T @ (design * (p * (1 - p))[:, None]) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def main() -> None:
    """Collect, fit, print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=25, help="tuning scenes per light")
    args = parser.parse_args()
    camera = camera_settings()
    rows: list[tuple[float, float, float]] = []
    for pairs, lights in ((False, LIGHTS), (True, PAIR_LIGHTS)):
        empty, shots = calibration_frames(TUNING, pairs=pairs)
        detector = detect.Detector(calibrate(empty, shots, camera))
        recorder = Recorder(detector)
        for light in lights:
            for index in range(args.scenes):
                scene = make_scene(TUNING, light, index)
                frame = tower_light_only(*render_pair(scene, TUNING.tray), srgb=True) if pairs else render(
                    scene, TUNING.tray)
                for report, truth in match(detector.detect(frame), scene):
                    (margin, nearest_d2), nearest = recorder.seen[id(report)]
                    if np.expm1(nearest_d2) > detect.MAX_DISTANCE**2:
                        continue  # beyond the distance gate the model is not used
                    right = truth is not None and scene.pieces[truth].colour == nearest
                    rows.append((margin, nearest_d2, float(right)))
    data = np.array(rows)
    w = fit(data[:, :2], data[:, 2])
    print(f"{len(data)} reported pieces, {100 * data[:, 2].mean():.2f} % right")
    print(f"CONFIDENCE_MODEL = ({w[0]:.3f}, {w[1]:.3f}, {w[2]:.3f})")


if __name__ == "__main__":
    main()
