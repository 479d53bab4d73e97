"""Light normalisation against the tray floor, shared by calibration and detection.

A frame is compared with the calibrated empty tray pixel by pixel: ``log(frame / floor)`` per
channel. A change of brightness or of colour temperature (with the white balance locked) scales
each channel by a gain, so it shifts every log ratio by the same per-channel constant; we estimate
that constant robustly from the visible floor (most of the frame) and subtract it. What remains is
the piece's reflectance relative to the floor: the same numbers under any light, and free of lens
falloff, which divides out with the floor.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

FloatImage = npt.NDArray[np.float32]
#: A frame as the detector compares it: the camera's 8-bit BGR, or its linear sensor signal (float).
Signal = npt.NDArray[np.uint8] | npt.NDArray[np.float32]

#: Side of the coarse grid (px) on which the floor model is stored and the light gain is estimated.
GRID = 8
#: Pixel values at or above this are treated as clipped by the sensor.
CLIPPED = 250
#: Log-ratio band around the floor that counts as "floor" when the light gain is estimated.
FLOOR_BAND = 0.10
#: Share of coarse cells that must be unclipped in a channel for its light gain to count as known.
KNOWN_SHARE = 0.15


#: Linear sensor signal of sRGB white (the scale keeps the ``>= 1`` floor of the log ratios harmless).
LINEAR_SCALE = 1000.0
_codes = np.arange(256, dtype=np.float64) / 255.0
#: 8-bit sRGB code -> linear light, times ``LINEAR_SCALE``.
SRGB_TO_LINEAR = (
    np.where(_codes <= 0.04045, _codes / 12.92, ((_codes + 0.055) / 1.055) ** 2.4) * LINEAR_SCALE
).astype(np.float32)
#: ``SRGB_TO_LINEAR`` held at 1 or more, as the log ratios need: the no-matrix signal in one lookup.
_SIGNAL_TABLE = np.maximum(SRGB_TO_LINEAR, 1.0).reshape(1, 256)


def sensor_matrix(colour_matrix: list[list[float]] | None) -> npt.NDArray[np.float32]:
    """The BGR-ordered inverse of a camera's colour matrix (sRGB -> sensor RGB).

    Without a matrix, the identity: the frame is still brought to linear light (the sRGB curve undone),
    where a change of light is a linear map of the channels; in the sRGB curve's codes it is not, and a
    gain per channel fitted there moves dark saturated paints the wrong way. The channels are then the
    camera's own linear sRGB, a 3x3 mix of the sensor's, so the detector lets the light change be a
    full 3x3 map (``Detector._adapt``) rather than one gain per channel.
    """
    if colour_matrix is None:
        return np.eye(3, dtype=np.float32)
    return np.asarray(np.linalg.inv(np.asarray(colour_matrix, np.float64))[::-1, ::-1], np.float32)


def sensor_signal(frame: npt.NDArray[np.uint8], inverse: npt.NDArray[np.float32]) -> FloatImage:
    """The frame in the sensor's linear colour space, where a change of light is a gain per channel.

    A camera white-balances its sensor's raw RGB, mixes it with a 3x3 colour matrix and applies the
    sRGB curve. Light of another colour scales the raw channels (nearly: von Kries), but after the
    matrix the channels are mixed, so in the delivered frame a warmer light is no longer a gain per
    channel, and saturated colours drift far from where calibration saw them. Undoing the curve and
    the matrix (``inverse``, from ``sensor_matrix``) restores the gain model; with the identity (no
    matrix known) only the curve is undone.
    """
    if np.array_equal(inverse, np.eye(3, dtype=np.float32)):
        return np.asarray(cv2.LUT(frame, _SIGNAL_TABLE), np.float32)
    mixed = np.asarray(cv2.transform(cv2.LUT(frame, SRGB_TO_LINEAR.reshape(1, 256)), inverse), np.float32)
    return np.maximum(mixed, 1.0, out=mixed)


def coarse(frame: Signal) -> FloatImage:
    """Average ``frame`` over ``GRID``-px cells (the resolution of the floor model)."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // GRID, h // GRID), interpolation=cv2.INTER_AREA)
    return np.asarray(np.maximum(small.astype(np.float32), 1.0), dtype=np.float32)


def expand(floor_small: FloatImage, width: int, height: int) -> FloatImage:
    """Bring the coarse floor model back to full frame size (smooth bilinear upsampling)."""
    return np.asarray(cv2.resize(floor_small, (width, height), interpolation=cv2.INTER_LINEAR), np.float32)


def floor_log_ratio(frame_small: FloatImage, floor_small: FloatImage) -> FloatImage:
    """Per coarse cell and channel, ``log(frame / floor)``: what ``light_gain`` and ``light_field`` read
    the frame's light from (computed once for both)."""
    return np.asarray(np.log(frame_small / floor_small), np.float32)


def light_gain(
    log_ratio_small: FloatImage, camera_small: FloatImage
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Per-channel log gain of this frame's light relative to the calibration light.

    Per channel, two passes of a median over the coarse cells: the first over every cell not clipped
    in that channel, the second only over cells within ``FLOOR_BAND`` of the first estimate, so
    pieces covering part of the tray do not pull it. If the floor is clipped almost everywhere in a
    channel (very bright, very warm or cool light) the gain is only known to be at least 255/floor:
    the second result marks the channels whose gain is known. ``log_ratio_small`` is
    ``floor_log_ratio`` of the coarse frame; ``camera_small`` the coarse 8-bit frame, where clipping
    shows (a sensor signal, ``sensor_signal``, hides it).
    """
    log_ratio = log_ratio_small.reshape(-1, 3)
    unclipped = camera_small.reshape(-1, 3) < CLIPPED - 2
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


#: Largest |log ratio| (per channel) off the fitted light field for a coarse cell to count as floor.
FIELD_BAND = 0.06
#: A fitted light field varying less than this (log) across the frame is treated as even light.
FIELD_FLAT = 0.04


@cache
def _design(h: int, w: int) -> npt.NDArray[np.float64]:
    """The quadratic surface's design matrix over an ``h`` x ``w`` grid (x, y scaled to -1..1), once per size."""
    yy, xx = np.mgrid[0:h, 0:w]
    x, y = (xx.ravel() / max(1, w - 1)) * 2 - 1, (yy.ravel() / max(1, h - 1)) * 2 - 1
    design = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)
    design.flags.writeable = False
    return design


def light_field(
    log_ratio_small: FloatImage, gain: npt.NDArray[np.float32], known: npt.NDArray[np.bool_]
) -> FloatImage:
    """Per coarse cell and channel, the log gain of this frame's light: ``gain`` made to vary smoothly.

    A room lamp off to one side lights the near side of the tray more than the far side, unlike the
    tower LED the floor was calibrated under; one gain for the whole frame then leaves a bright or dark
    cast over part of the floor, which reads as pale or dark pieces. Per channel a quadratic surface in
    (x, y) is fitted to the log ratio of frame and floor over the cells that look like floor, refitted
    three times keeping only cells within ``FIELD_BAND`` of the surface (pieces are outliers). Channels
    whose gain is not known keep the constant ``gain``, and light even within ``FIELD_FLAT`` keeps it
    everywhere. ``log_ratio_small``: ``floor_log_ratio`` of the coarse frame.
    """
    h, w = log_ratio_small.shape[:2]
    log_ratio = log_ratio_small.reshape(-1, 3)
    design = _design(h, w)
    fit = np.broadcast_to(gain, log_ratio.shape).astype(np.float64)
    seen = log_ratio[:, known]  # the channels whose gain is known decide which cells are floor
    inlier = (np.abs(seen - gain[known]) < 2 * FLOOR_BAND).all(axis=1)
    for _ in range(3):
        if inlier.sum() < 60:
            break
        used = design[inlier]  # normal equations: a 6x6 solve, far cheaper than lstsq's SVD here
        coef = np.linalg.solve(used.T @ used + np.eye(6) * 1e-6, used.T @ log_ratio[inlier])
        candidate = design @ coef
        inlier = (np.abs(seen - candidate[:, known]) < FIELD_BAND).all(axis=1)
        fit = np.where(known, candidate, gain)
    if float(np.ptp(fit, axis=0).max()) < FIELD_FLAT:  # even light: keep the one robust gain, unperturbed
        fit = np.broadcast_to(gain, log_ratio.shape)
    return np.asarray(fit.reshape(h, w, 3), np.float32)


def log_lit_floor(floor_small: FloatImage, field: FloatImage, width: int, height: int) -> FloatImage:
    """``log`` of the floor as this frame's light shows it (``field``: ``light_field``), at full size.

    Taken at the coarse grid and then upsampled: one full-size image, no full-size ``exp``, divide or
    ``log`` of the floor (the floor is smooth at the grid's scale, so the log of the upsampled floor
    and the upsampled log differ by far less than the sensor's noise).
    """
    return expand(np.asarray(np.log(floor_small) + field, np.float32), width, height)


#: ``log`` of the linear floor level at and above which a clipped pixel says nothing (``saturated_floor``).
_LOG_NEAR_CLIPPING = float(np.log(SRGB_TO_LINEAR[CLIPPED - 15]))


def saturated_floor(frame: npt.NDArray[np.uint8], log_floor: FloatImage) -> npt.NDArray[np.bool_]:
    """Per pixel and channel: clipped in the frame where the floor itself (``log_floor``: ``log`` of the
    floor model under this frame's light, in the camera's linear sRGB) would be near clipping.

    There the log reflectance says nothing (a piece brighter than the floor and the floor look the
    same), so the detector sets it to 0 rather than mistake the clipped floor for pieces.
    """
    clipped = frame >= CLIPPED
    if not clipped.any():  # most frames: nothing clips, no full-size comparison of the floor
        return clipped
    return np.asarray(clipped & (log_floor >= _LOG_NEAR_CLIPPING))


def log_reflectance(signal: FloatImage, log_floor: FloatImage) -> FloatImage:
    """Per-pixel, per-channel ``log(frame) - log_floor``: 0 on the floor under any light.

    ``log_floor`` is ``log`` of the floor as this frame's light shows it (the detector's
    ``log_lit_floor``; calibration's floor plus its frame's one gain per channel).
    """
    # a sensor signal (``sensor_signal``) is >= 1, and so is its blur: the log is defined everywhere
    return np.asarray(cv2.subtract(cv2.log(cv2.GaussianBlur(signal, (3, 3), 0)), log_floor), np.float32)
