"""The tray camera: a frame source and the vision detector behind one small interface.

On the Pi the frames come from the camera under the tower base (``vision.sources.Picamera2Source``,
locked to the calibration's exposure, gains and focus) and the instance's calibration drives the
detector. The same camera can instead replay a folder of image files (``vision.sources.FileSource``,
the ``CAMERA_FRAMES_DIR`` setting): everything else — light pairs, counting, snapshots — runs as on
the Pi, so the hardware tower can be rehearsed and measured off a Pi (``benchmarks/bench_memory.py``).
In the simulator the "camera" photographs a synthetic tray (``vision.synthetic``) showing
exactly the pieces that fell out, and the same detector counts them, so the simulated tower runs
the real vision pipeline. Vision is imported lazily, inside the constructors.

The simulated scene is rendered in the background as soon as the tower knows what fell (``show``),
while the pieces are still dropping: it stands for the physical tray, which exists before the
camera looks at it. ``capture`` then only hands that frame over, as a camera's capture would, so
"settled -> counts" measures capture hand-off, detection, storing and publishing — not the renderer.

Frames and counting are separate: a camera takes photos even without a calibration (the calibration
wizard needs them to make one), and ``load_calibration`` swaps the detector in place, so a new
calibration counts the next toss without a restart. The simulated camera uses the instance's
``calibration.json`` when there is one, and the simulated tower's own default calibration otherwise.

Room light: a frame is a light-on/off pair (``vision.frame_pair``). ``capture`` runs while the tower
light is at full power (``firmware.capture.lit_frame``); a camera that holds the light takes a second
frame with the ring at its idle level and returns the difference in linear light, the tray as the
ring alone lights it, so a lamp in the room (and the tower wall's shadow of it) never reaches the
detector. The simulated camera does the same with a simulated room lamp. Calibration frames come
through ``capture`` too, so calibration and counting see the same kind of frame.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from companion.errors import KeshiError
from firmware.capture import CameraCount

log = logging.getLogger(__name__)

#: The instance's camera calibration (written by the calibration wizard or ``keshi vision calibrate``).
CALIBRATION_FILENAME = "calibration.json"

#: The tower LED ring's level in the "off" frame of a light-on/off pair (``firmware.devices.TowerLight``'s
#: idle level: the ring is never fully off between captures).
IDLE_LEVEL = 0.15
#: The simulated room's light under the tower (brightness, colour temperature K): a dim warm lamp,
#: which the light-on/off pair cancels as it would on the Pi.
SIMULATED_ROOM_LIGHT = (0.1, 3000)

#: What a simulated tray can show: colour counts (scattered as tossed pieces fall) or laid-out pieces
#: (``vision.synthetic.PlacedPiece``, e.g. the calibration wizard's separated pieces).
TrayScene = Mapping[str, int] | Sequence[Any]


class CameraUnavailableError(KeshiError, RuntimeError):
    """The tower has no camera to photograph or count with, or its camera has no calibration."""


class TrayCamera(Protocol):
    """A frame source and a counter in one, as the tower service uses it."""

    name: str
    #: True when ``count`` can count (a calibration is loaded).
    calibrated: bool

    def show(self, scene: TrayScene) -> None:
        """Simulated cameras: the pieces now lying in the tray. Real cameras ignore it."""

    def capture(self) -> Any: ...

    def count(self, frame: Any) -> CameraCount: ...

    def load_calibration(self, path: Path | None) -> None:
        """Count with the calibration at ``path`` from now on."""

    def settle(self) -> Any:
        """Let automatic exposure and white balance settle on what the camera sees, lock them, and
        return them as ``vision.calibrate.CameraSettings`` for the calibration (None: nothing to lock)."""

    def close(self) -> None: ...


class _VisionCounter:
    """Counts with ``vision.detect.Detector``; shared by both cameras. No calibration: no counting."""

    def __init__(self) -> None:
        self._detector: Any = None
        self.calibrated = False

    def _use(self, calibration: Any) -> None:
        from vision.detect import Detector

        detector = Detector(calibration)
        self._detector, self.calibrated = detector, True  # one swap: a toss counts with old or new

    def count(self, frame: Any) -> CameraCount:
        detector = self._detector
        if detector is None:
            raise CameraUnavailableError("the tray camera has no calibration to count with")
        detection = detector.detect(frame)
        pieces = tuple(detection.to_json()["pieces"])
        return CameraCount(dict(detection.counts), int(detection.unknown), pieces)


class SimulatedTrayCamera(_VisionCounter):
    """A rendered 640x480 tray of the simulated tower, counted by the real detector."""

    name = "simulated"

    def __init__(self, seed: int, calibration_path: Path | None = None, tray_seed: int = 0) -> None:
        import numpy as np

        super().__init__()
        self._rng = np.random.default_rng(seed)
        self._tray_seed = tray_seed
        self._frame: Any = None
        self._ready = threading.Event()
        self._shown = 0  # which show() the frame being rendered belongs to
        self._render_lock = threading.Lock()
        #: Render threads still running; ``close`` waits for them, so none is inside OpenCV when the
        #: interpreter exits (a daemon thread unwound there aborts the process).
        self._renderers: list[threading.Thread] = []
        self.load_calibration(calibration_path)
        self._render_for([], 0, seed)

    def load_calibration(self, path: Path | None) -> None:
        """The instance's calibration when ``path`` exists, else the simulated tower's default one."""
        from vision.calibrate import Calibration
        from vision.synthetic import default_calibration

        if path is not None and path.is_file():
            self._use(Calibration.load(path))
        else:
            self._use(default_calibration(self._tray_seed))

    def show(self, scene: TrayScene) -> None:
        """The pieces now in the tray: render them in the background (see the module doc)."""
        content: Any = dict(scene) if isinstance(scene, Mapping) else list(scene)
        with self._render_lock:
            self._shown += 1
            self._ready.clear()
            shown, seed = self._shown, int(self._rng.integers(2**63))
            renderer = threading.Thread(
                target=self._render_for, args=(content, shown, seed), name="tray-render", daemon=True
            )
            self._renderers = [t for t in self._renderers if t.is_alive()] + [renderer]
        renderer.start()

    def _render_for(self, scene: Any, shown: int, seed: int) -> None:
        """Photograph the tray as the Pi does: a light-on/off pair under a little room light, differenced."""
        import numpy as np

        from vision.frame_pair import tower_light_only
        from vision.synthetic import Lighting, place_pieces, render_scene

        frame: Any = None
        try:
            rng = np.random.default_rng(seed)
            pieces = place_pieces(scene, rng) if isinstance(scene, dict) else list(scene)
            ambient = Lighting(*SIMULATED_ROOM_LIGHT)
            lit, _ = render_scene(pieces, rng, tray_seed=self._tray_seed, ambient=ambient)
            unlit, _ = render_scene(pieces, rng, tray_seed=self._tray_seed, ambient=ambient, tower_level=IDLE_LEVEL)
            frame = tower_light_only(lit, unlit, srgb=False)
        finally:
            with self._render_lock:
                if shown == self._shown:  # an older scene finishing late must not replace a newer one
                    self._frame = frame
                    self._ready.set()

    def capture(self) -> Any:
        if not self._ready.wait(timeout=10.0) or self._frame is None:
            raise CameraUnavailableError("the simulated tray frame was not rendered within 10 s")
        return self._frame

    def settle(self) -> Any:
        """The synthetic tray has fixed exposure and white balance: nothing to lock."""
        return None

    def close(self) -> None:
        for renderer in self._renderers:
            renderer.join(timeout=1.0)


class PiTrayCamera(_VisionCounter):
    """The Raspberry Pi camera under the tray, locked to the calibration's camera settings.

    Without a calibration it still takes photos (automatic exposure and white balance), for the
    calibration wizard, but does not count. Given ``frames`` (a folder of images) it replays those
    files in name order instead of opening Picamera2; two files make one light-on/off pair.
    """

    def __init__(self, calibration_path: Path, light: Any = None, frames: Path | None = None) -> None:
        """``light``: the tower's ``firmware.devices.TowerLight``; with it each capture is a light-on/off pair."""
        super().__init__()
        self.name = "picamera2" if frames is None else "files"
        self._frames = frames
        self._source: Any = None
        self._light = light
        self.load_calibration(calibration_path)

    def load_calibration(self, path: Path | None) -> None:
        """(Re)open the camera with the calibration's size, locked controls and focus, and count with it."""
        from vision.calibrate import Calibration
        from vision.sources import FileSource, Picamera2Source

        calibration = Calibration.load(path) if path is not None and path.is_file() else None
        size, controls, lens = (640, 480), None, None
        if calibration is not None:
            cam = calibration.camera
            size, lens = (calibration.width, calibration.height), cam.lens_position
            if cam.exposure_time_us is not None and cam.analogue_gain is not None and cam.colour_gains is not None:
                controls = Picamera2Source.lock_controls(cam.exposure_time_us, cam.analogue_gain, cam.colour_gains)
        if self._source is not None:
            self._source.close()  # Picamera2 opens a camera once: close before reopening
            self._source = None
        if self._frames is not None:
            self._source = FileSource(self._frames)
        else:
            self._source = Picamera2Source(size=size, controls=controls, lens_position=lens)
        if calibration is not None:
            self._use(calibration)
        else:
            self._detector, self.calibrated = None, False

    def show(self, scene: TrayScene) -> None:
        """A real camera sees for itself."""

    def settle(self) -> Any:
        """Settle AE/AWB on the tray (Picamera2Source.settle locks them) and return the settings,
        with this camera's fixed focus, for the calibration file to lock from now on. Image files
        have nothing to lock (None)."""
        from vision.calibrate import CameraSettings

        if self._source is None:
            raise CameraUnavailableError("the Pi camera is closed (reopening it with a calibration failed)")
        if self._frames is not None:
            return None
        locked = self._source.settle()
        matrix = locked.get("ColourCorrectionMatrix")
        return CameraSettings(
            exposure_time_us=int(locked["ExposureTime"]),
            analogue_gain=float(locked["AnalogueGain"]),
            colour_gains=(float(locked["ColourGains"][0]), float(locked["ColourGains"][1])),
            lens_position=self._source.lens_position,
            colour_matrix=[[float(v) for v in matrix[i : i + 3]] for i in (0, 3, 6)] if matrix else None,
        )

    def capture(self) -> Any:
        """One frame with the light as it is; with the tower light, the light-on/off difference (module doc)."""
        if self._source is None:
            raise CameraUnavailableError("the Pi camera is closed (reopening it with a calibration failed)")
        lit = self._source.capture()
        if self._light is None:
            return lit
        from vision.frame_pair import tower_light_only

        level = self._light.value
        self._light.value = self._light.idle_level
        try:
            unlit = self._source.capture()
        finally:
            self._light.value = level
        return tower_light_only(lit, unlit, srgb=True)

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None


def calibration_path(instance_dir: Path | None) -> Path | None:
    """Where the instance keeps its camera calibration (None without an instance folder)."""
    return instance_dir / CALIBRATION_FILENAME if instance_dir is not None else None


def simulated_camera(seed: int, instance_dir: Path | None = None) -> TrayCamera | None:
    """The simulated tray camera, or None (and a log line) where the vision package cannot load."""
    try:
        return SimulatedTrayCamera(seed, calibration_path(instance_dir))
    except ImportError as exc:
        log.warning("no simulated camera (%s): counts come from the simulator's truth", exc)
        return None


def hardware_camera(instance_dir: Path | None, light: Any = None, frames: Path | None = None) -> TrayCamera:
    """The Pi camera with the instance's calibration (uncalibrated if there is none yet); given the
    tower ``light``, it captures light-on/off pairs; given ``frames``, it replays that folder's images."""
    path = calibration_path(instance_dir) or Path(CALIBRATION_FILENAME)
    return PiTrayCamera(path, light, frames)


def missing_calibration(instance_dir: Path | None) -> str:
    """What to tell the table when the Pi camera has no calibration to count with."""
    where = calibration_path(instance_dir) or CALIBRATION_FILENAME
    return (f"no camera calibration at {where}; calibrate in Setup → Calibrate camera, or run "
            f"'keshi vision calibrate CAL_DIR --out {where}' (see hardware/assembly.md)")
