"""Light normalisation against the tray floor, shared by calibration and detection.

A frame is compared with the calibrated empty tray pixel by pixel: ``log(frame / floor)`` per
channel. A change of brightness or of colour temperature (with the white balance locked) scales
each channel by a gain, so it shifts every log ratio by the same per-channel constant; we estimate
that constant robustly from the visible floor (most of the frame) and subtract it. What remains is
the piece's reflectance relative to the floor: the same numbers under any light, and free of lens
falloff, which divides out with the floor.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

FloatImage = npt.NDArray[np.float32]

#: Side of the coarse grid (px) on which the floor model is stored and the light gain is estimated.
GRID = 8
#: Pixel values at or above this are treated as clipped by the sensor.
CLIPPED = 250
#: Log-ratio band around the floor that counts as "floor" when the light gain is estimated.
FLOOR_BAND = 0.10


def coarse(frame: npt.NDArray[np.uint8]) -> FloatImage:
    """Average ``frame`` over ``GRID``-px cells (the resolution of the floor model)."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // GRID, h // GRID), interpolation=cv2.INTER_AREA)
    return np.asarray(np.maximum(small.astype(np.float32), 1.0), dtype=np.float32)


def expand(floor_small: FloatImage, width: int, height: int) -> FloatImage:
    """Bring the coarse floor model back to full frame size (smooth bilinear upsampling)."""
    return np.asarray(cv2.resize(floor_small, (width, height), interpolation=cv2.INTER_LINEAR), np.float32)


def light_gain(frame_small: FloatImage, floor_small: FloatImage) -> npt.NDArray[np.float32]:
    """Per-channel log gain of this frame's light relative to the calibration light.

    Two passes of a median over the coarse cells: the first over everything, the second only over
    cells within ``FLOOR_BAND`` of the first estimate, so pieces covering part of the tray do not
    pull it. Cells clipped in the frame are left out.
    """
    log_ratio = np.log(frame_small / floor_small).reshape(-1, 3)
    usable = (frame_small.reshape(-1, 3) < CLIPPED).all(axis=1)
    cells = log_ratio[usable] if usable.sum() > 10 else log_ratio
    gain = np.median(cells, axis=0)
    near = (np.abs(cells - gain) < FLOOR_BAND).all(axis=1)
    if near.sum() > 10:
        gain = np.median(cells[near], axis=0)
    return gain.astype(np.float32)


def log_reflectance(frame: npt.NDArray[np.uint8], floor: FloatImage, gain: npt.NDArray[np.float32]) -> FloatImage:
    """Per-pixel, per-channel ``log(frame / floor) - gain``: 0 on the floor under any light."""
    smooth = cv2.GaussianBlur(frame, (3, 3), 0).astype(np.float32)
    np.maximum(smooth, 1.0, out=smooth)
    ratio = cv2.divide(smooth, floor)
    out: FloatImage = cv2.log(ratio) - gain.reshape(1, 1, 3)
    return out
