"""The tray camera: a frame source and the vision detector behind one small interface.

On the Pi the frames come from the camera under the tower base (``vision.sources.Picamera2Source``,
locked to the calibration's exposure, gains and focus) and the instance's calibration drives the
detector. In the simulator the "camera" photographs a synthetic tray (``vision.synthetic``) showing
exactly the pieces that fell out, and the same detector counts them, so the simulated tower runs
the real vision pipeline. Vision is imported lazily, inside the constructors.

The simulated scene is rendered in the background as soon as the tower knows what fell (``show``),
while the pieces are still dropping: it stands for the physical tray, which exists before the
camera looks at it. ``capture`` then only hands that frame over, as a camera's capture would, so
"settled -> counts" measures capture hand-off, detection, storing and publishing — not the renderer.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from companion.errors import KeshiError
from firmware.capture import CameraCount

log = logging.getLogger(__name__)

#: The instance's camera calibration (written by ``keshi vision calibrate ... --out``).
CALIBRATION_FILENAME = "calibration.json"


class TrayCamera(Protocol):
    """A frame source and a counter in one, as the tower service uses it."""

    name: str

    def show(self, pieces: Mapping[str, int]) -> None:
        """Simulated cameras: the pieces now lying in the tray. Real cameras ignore it."""

    def capture(self) -> Any: ...

    def count(self, frame: Any) -> CameraCount: ...

    def close(self) -> None: ...


class _VisionCounter:
    """Counts with ``vision.detect.Detector``; shared by both cameras."""

    def __init__(self, calibration: Any) -> None:
        from vision.detect import Detector

        self._detector = Detector(calibration)

    def count(self, frame: Any) -> CameraCount:
        detection = self._detector.detect(frame)
        return CameraCount(dict(detection.counts), int(detection.unknown))


class SimulatedTrayCamera(_VisionCounter):
    """A rendered 640x480 tray of the simulated tower, counted by the real detector."""

    name = "simulated"

    def __init__(self, seed: int, tray_seed: int = 0) -> None:
        import numpy as np

        from vision.synthetic import default_calibration

        super().__init__(default_calibration(tray_seed))
        self._rng = np.random.default_rng(seed)
        self._tray_seed = tray_seed
        self._frame: Any = None
        self._ready = threading.Event()
        self._render_for({})

    def show(self, pieces: Mapping[str, int]) -> None:
        """The pieces that fell out: render their tray in the background (see the module doc)."""
        self._ready.clear()
        threading.Thread(target=self._render_for, args=(dict(pieces),), name="tray-render", daemon=True).start()

    def _render_for(self, pieces: dict[str, int]) -> None:
        from vision.synthetic import render_scene

        try:
            self._frame, _truth = render_scene(pieces, self._rng, tray_seed=self._tray_seed)
        finally:
            self._ready.set()

    def capture(self) -> Any:
        if not self._ready.wait(timeout=10.0):
            raise KeshiError("the simulated tray frame was not rendered within 10 s")
        return self._frame

    def close(self) -> None:
        self._ready.wait(timeout=1.0)


class PiTrayCamera(_VisionCounter):
    """The Raspberry Pi camera under the tray, locked to the calibration's camera settings."""

    name = "picamera2"

    def __init__(self, calibration_path: Path) -> None:
        from vision.calibrate import Calibration
        from vision.sources import Picamera2Source

        calibration = Calibration.load(calibration_path)
        super().__init__(calibration)
        cam = calibration.camera
        controls = None
        if cam.exposure_time_us is not None and cam.analogue_gain is not None and cam.colour_gains is not None:
            controls = Picamera2Source.lock_controls(cam.exposure_time_us, cam.analogue_gain, cam.colour_gains)
        self._source = Picamera2Source(
            size=(calibration.width, calibration.height), controls=controls, lens_position=cam.lens_position
        )

    def show(self, pieces: Mapping[str, int]) -> None:
        """A real camera sees for itself."""

    def capture(self) -> Any:
        return self._source.capture()

    def close(self) -> None:
        self._source.close()


def simulated_camera(seed: int) -> TrayCamera | None:
    """The simulated tray camera, or None (and a log line) where the vision package cannot load."""
    try:
        return SimulatedTrayCamera(seed)
    except ImportError as exc:
        log.warning("no simulated camera (%s): counts come from the simulator's truth", exc)
        return None


def hardware_camera(instance_dir: Path | None) -> TrayCamera:
    """The Pi camera with the instance's calibration; a ``KeshiError`` saying what is missing."""
    if instance_dir is None or not (instance_dir / CALIBRATION_FILENAME).exists():
        where = instance_dir / CALIBRATION_FILENAME if instance_dir is not None else CALIBRATION_FILENAME
        raise KeshiError(
            f"no camera calibration at {where}; run 'keshi vision calibrate CAL_DIR --out {where}' "
            "(see hardware/assembly.md)"
        )
    return PiTrayCamera(instance_dir / CALIBRATION_FILENAME)
