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
#: Share of coarse cells that must be unclipped in a channel for its light gain to count as known.
KNOWN_SHARE = 0.15


def coarse(frame: npt.NDArray[np.uint8]) -> FloatImage:
    """Average ``frame`` over ``GRID``-px cells (the resolution of the floor model)."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // GRID, h // GRID), interpolation=cv2.INTER_AREA)
    return np.asarray(np.maximum(small.astype(np.float32), 1.0), dtype=np.float32)


def expand(floor_small: FloatImage, width: int, height: int) -> FloatImage:
    """Bring the coarse floor model back to full frame size (smooth bilinear upsampling)."""
    return np.asarray(cv2.resize(floor_small, (width, height), interpolation=cv2.INTER_LINEAR), np.float32)


def light_gain(
    frame_small: FloatImage, floor_small: FloatImage
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Per-channel log gain of this frame's light relative to the calibration light.

    Per channel, two passes of a median over the coarse cells: the first over every cell not clipped
    in that channel, the second only over cells within ``FLOOR_BAND`` of the first estimate, so
    pieces covering part of the tray do not pull it. If the floor is clipped almost everywhere in a
    channel (very bright, very warm or cool light) the gain is only known to be at least 255/floor:
    the second result marks the channels whose gain is known.
    """
    log_ratio = np.log(frame_small / floor_small).reshape(-1, 3)
    unclipped = frame_small.reshape(-1, 3) < CLIPPED - 2
    gain = np.empty(3, dtype=np.float32)
    known = unclipped.mean(axis=0) >= KNOWN_SHARE
    for channel in range(3):
        cells = log_ratio[unclipped[:, channel], channel]
        if not known[channel]:  # the floor is clipped: a lower bound, which makes it read as clipped floor
            gain[channel] = float(np.median(log_ratio[:, channel]))
            continue
        first = float(np.median(cells))
        near = cells[np.abs(cells - first) < FLOOR_BAND]
        gain[channel] = float(np.median(near)) if near.size >= 10 else first
        clipped_cells = log_ratio[~unclipped[:, channel], channel]
        mostly_clipped = clipped_cells.size > 0.5 * len(log_ratio)
        if mostly_clipped and gain[channel] < float(np.median(clipped_cells)) - FLOOR_BAND / 2:
            # the clipped floor is brighter than this gain allows: the unclipped cells were pieces
            known[channel] = False
            gain[channel] = float(np.median(log_ratio[:, channel]))
    return gain, np.asarray(known)


def saturated_floor(
    frame: npt.NDArray[np.uint8], floor: FloatImage, gain: npt.NDArray[np.float32]
) -> npt.NDArray[np.bool_]:
    """Per pixel and channel: clipped in the frame where the floor itself would be near clipping.

    There the log reflectance says nothing (a piece brighter than the floor and the floor look the
    same), so the detector sets it to 0 rather than mistake the clipped floor for pieces.
    """
    expected = floor * np.exp(gain).reshape(1, 1, 3)
    return np.asarray((frame >= CLIPPED) & (expected >= CLIPPED - 15))


def log_reflectance(frame: npt.NDArray[np.uint8], floor: FloatImage, gain: npt.NDArray[np.float32]) -> FloatImage:
    """Per-pixel, per-channel ``log(frame / floor) - gain``: 0 on the floor under any light."""
    smooth = cv2.GaussianBlur(frame, (3, 3), 0).astype(np.float32)
    np.maximum(smooth, 1.0, out=smooth)
    ratio = cv2.divide(smooth, floor)
    out: FloatImage = cv2.log(ratio) - gain.reshape(1, 1, 3)
    return out
