"""A camera's colour correction matrix as an input: read it from a file and refuse one that cannot be a camera's.

The matrix maps the camera's white-balanced sensor RGB to linear sRGB (Picamera2's
``ColourCorrectionMatrix`` convention). Because white balance has already made grey equal in every
channel, a grey stays grey through it: each row sums to 1. With it the detector compares colours in the
sensor's own linear space, where a change of light is (nearly) one gain per channel.

Accepted files (``--colour-matrix M.json`` or the sidecar ``CAL_DIR/camera.json``): a 3x3 JSON list of
rows; Picamera2's flat list of 9; or an object holding either under ``colour_matrix`` or
``ColourCorrectionMatrix`` (a saved ``CameraSettings`` or a metadata dump). A matrix that is not 3x3,
not finite, not invertible or whose rows do not sum to about 1 is refused with the reason: a wrong
matrix does worse than none, so it is never used silently. So is a matrix whose noise gain
(``MAX_NOISE_GAIN``) says the camera's colours are too noisy for the detector.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from vision.errors import ColourMatrixRefused

#: Name of the sidecar in a calibration folder that holds the camera's matrix.
SIDECAR = "camera.json"
#: How far (absolute) a row's sum may be from 1: Picamera2's tuning files round to 4 decimals.
ROW_SUM_TOLERANCE = 0.05
#: Smallest |determinant| accepted: a real camera's matrix is far from singular (typically 0.5-3).
MIN_DETERMINANT = 1e-3
#: Largest noise gain accepted: the sum of a row's absolute entries, how many times the matrix can
#: multiply the sensor's noise into one sRGB channel. A Bayer sensor's matrix (a Pi camera's, the
#: Nikon 5100 colour-science ships) stays near 2-4; a Foveon sensor's (colour-science's Sigma SD
#: Merrill, entries up to +-7) reaches 16, and on simulated frames of it the detector named 29-91 % of
#: the pieces with its matrix and could not calibrate without it: unknown is better than wrong, so such
#: a matrix is refused, saying why.
MAX_NOISE_GAIN = 6.0
#: Keys under which a JSON object may hold the matrix.
_KEYS = ("colour_matrix", "ColourCorrectionMatrix")


def validate(value: Any, source: str = "colour matrix") -> list[list[float]]:
    """The matrix as 3 rows of 3 floats, or a ``CalibrationError`` naming what is wrong with it."""
    if isinstance(value, list) and len(value) == 9 and all(_is_number(v) for v in value):
        value = [value[0:3], value[3:6], value[6:9]]
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(r, list) and len(r) == 3 for r in value)):
        raise ColourMatrixRefused(f"{source}: a colour matrix must be 3x3 (a JSON list of 3 rows of 3 numbers)",
                                  ColourMatrixRefused.SHAPE)
    if not all(_is_number(v) for row in value for v in row):
        raise ColourMatrixRefused(f"{source}: every entry of the colour matrix must be a finite number",
                                  ColourMatrixRefused.SHAPE)
    matrix = np.asarray(value, dtype=np.float64)
    if abs(float(np.linalg.det(matrix))) < MIN_DETERMINANT:
        raise ColourMatrixRefused(f"{source}: the colour matrix is not invertible (determinant near 0)",
                                  ColourMatrixRefused.NOT_INVERTIBLE)
    sums = matrix.sum(axis=1)
    bad = [f"row {i + 1} sums to {s:.3f}" for i, s in enumerate(sums) if abs(s - 1.0) > ROW_SUM_TOLERANCE]
    if bad:
        raise ColourMatrixRefused(
            f"{source}: not a camera's colour matrix: {', '.join(bad)} (each row of a white-balanced "
            "camera's matrix sums to 1)", ColourMatrixRefused.ROW_SUMS
        )
    gain = float(np.abs(matrix).sum(axis=1).max())
    if gain > MAX_NOISE_GAIN:
        raise ColourMatrixRefused(
            f"{source}: this camera's colour matrix multiplies sensor noise up to {gain:.1f} times (more than "
            f"{MAX_NOISE_GAIN:g}; a row's absolute entries sum to that): its colours are too noisy to tell "
            "the keshis apart reliably, so keshi vision does not support this camera",
            ColourMatrixRefused.NOISE_GAIN,
            gain,
        )
    return [[float(v) for v in row] for row in matrix]


def _is_number(value: Any) -> bool:
    """A JSON number (not a bool) that is finite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def read(path: Path) -> list[list[float]]:
    """Read and validate the matrix in ``path`` (any of the module's accepted forms)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ColourMatrixRefused(f"{path}: colour matrix file not found", ColourMatrixRefused.UNREADABLE) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ColourMatrixRefused(f"{path}: not a JSON file ({exc})", ColourMatrixRefused.UNREADABLE) from None
    if isinstance(data, dict):
        key = next((k for k in _KEYS if data.get(k) is not None), None)
        if key is None:
            raise ColourMatrixRefused(f"{path}: holds no colour matrix (no {' or '.join(_KEYS)})",
                                      ColourMatrixRefused.UNREADABLE)
        data = data[key]
    return validate(data, str(path))


def read_sidecar(folder: Path) -> list[list[float]] | None:
    """The matrix of ``folder/camera.json`` when that file exists (validated), else None."""
    path = folder / SIDECAR
    return read(path) if path.is_file() else None
