"""Light-on / light-off frame pairs: cancel the room's light by subtracting it.

The tower controls its own LED ring. A frame with the ring at full power shows the tray under the
ring *plus* whatever lamp is in the room; a frame moments later with the ring at its idle level shows
the same tray under the room lamp plus the idle fraction of the ring. Light adds linearly, so their
difference in linear light is the tray under (1 - idle level) of the ring alone: the calibration light,
whatever the room does (a side lamp, its shadow of the tower wall, a fluorescent tube). Calibrate
and count on such differences and the room's light never reaches the detector.

The difference is taken in linear light: for an sRGB camera (``srgb=True``) both frames are decoded
with the sRGB curve first and the result re-encoded; for a linear source (``vision.synthetic``) the
8-bit values are subtracted directly. The price is noise (two frames' worth) and a darker frame
where the room is bright, so the ring should dominate the tray's light; pixels clipped in the lit
frame cannot be recovered.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import FrameError
from vision.features import LINEAR_SCALE, SRGB_TO_LINEAR

Frame = npt.NDArray[np.uint8]

_levels = np.arange(4096, dtype=np.float64) / 4095.0
#: Linear light (0-1 in 4096 steps) -> 8-bit sRGB code.
_LINEAR_TO_SRGB = np.clip(
    np.round(255 * np.where(_levels <= 0.0031308, 12.92 * _levels, 1.055 * _levels ** (1 / 2.4) - 0.055)), 0, 255
).astype(np.uint8)


def tower_light_only(lit: Frame, unlit: Frame, srgb: bool) -> Frame:
    """The tray as the tower's own light alone shows it: ``lit - unlit`` in linear light, as a BGR frame."""
    for name, frame in (("lit", lit), ("unlit", unlit)):
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            raise FrameError(f"the {name} frame of a light-on/off pair must be a BGR uint8 image")
    if lit.shape != unlit.shape:
        raise FrameError(f"the frames of a light-on/off pair differ in size: {lit.shape[:2]} and {unlit.shape[:2]}")
    if not srgb:
        return np.asarray(cv2.subtract(lit, unlit), np.uint8)
    lut = SRGB_TO_LINEAR.reshape(1, 256)
    linear = cv2.subtract(cv2.LUT(lit, lut), cv2.LUT(unlit, lut)) / LINEAR_SCALE
    codes = np.clip(np.asarray(linear) * 4095 + 0.5, 0, 4095).astype(np.intp)
    return np.asarray(_LINEAR_TO_SRGB[codes], np.uint8)
