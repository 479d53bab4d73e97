"""Frame sources behind one interface, plus image file helpers.

``FrameSource``: ``capture()`` returns one BGR uint8 frame, ``close()`` releases the device.
Implementations: ``Picamera2Source`` (the Pi camera, imported lazily), ``OpenCVSource`` (a USB
webcam via ``cv2.VideoCapture``), ``FileSource`` (replay one image or a folder of images) and
``SyntheticSource`` (rendered scenes, for the simulated tower and tests).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CameraError, FrameError, UnreadableImage

Frame = npt.NDArray[np.uint8]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


def read_image(path: Path) -> Frame:
    """Read an image file as a BGR uint8 frame; a missing, unreadable or corrupt file is a ``FrameError``."""
    if path.is_dir():
        raise UnreadableImage(f"{path}: is a folder, not an image file", path)
    if not path.is_file():
        raise UnreadableImage(f"{path}: image file not found", path)
    data = np.fromfile(str(path), dtype=np.uint8)
    stored = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
    if stored is None:
        raise UnreadableImage(f"{path}: not a readable image (corrupt or unsupported format)", path)
    if stored.ndim == 2 or stored.shape[2] == 1:
        raise UnreadableImage(
            f"{path}: is a greyscale image; keshis are told apart by colour, so a colour frame is needed", path
        )
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return np.asarray(frame, dtype=np.uint8)


def write_image(path: Path, frame: Frame) -> None:
    """Write ``frame`` to ``path`` (format from the suffix); failure is a ``FrameError``."""
    ok, data = cv2.imencode(path.suffix or ".png", frame)
    if not ok:
        raise FrameError(f"{path}: cannot encode an image with this suffix")
    data.tofile(str(path))


@runtime_checkable
class FrameSource(Protocol):
    """Anything that hands out BGR uint8 frames of the tray."""

    def capture(self) -> Frame:
        """Return the next frame (height x width x 3, BGR, uint8)."""
        ...

    def close(self) -> None:
        """Release the camera or files."""
        ...


class FileSource:
    """Replay one image file, or every image in a folder in name order (cycling)."""

    def __init__(self, path: Path) -> None:
        if path.is_dir():
            self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            self.paths = [path]
        if not self.paths:
            raise FrameError(f"{path}: no image files to replay")
        self._next = 0

    def capture(self) -> Frame:
        """Read the next image (wrapping round to the first)."""
        path = self.paths[self._next % len(self.paths)]
        self._next += 1
        return read_image(path)

    def close(self) -> None:
        """Nothing to release."""


class SyntheticSource:
    """Frames rendered by ``vision.synthetic``: each ``capture()`` renders the scene ``scene()`` returns."""

    def __init__(self, scene: Callable[[], Frame]) -> None:
        self._scene = scene

    def capture(self) -> Frame:
        """Render and return the current scene."""
        return self._scene()

    def close(self) -> None:
        """Nothing to release."""


class OpenCVSource:
    """A USB webcam (or any ``cv2.VideoCapture`` device/URL), asked for a fixed frame size."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (640, 480), warmup_frames: int = 5) -> None:
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise CameraError(f"cannot open video device {device!r}")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._warmup = warmup_frames
        self.device = device

    def capture(self) -> Frame:
        """Grab a fresh frame (the first call drops a few so exposure settles and buffers empty)."""
        for _ in range(self._warmup):
            self._capture.grab()
        self._warmup = 1  # drop one buffered frame so the frame is taken after the tray settled
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"video device {self.device!r} returned no frame")
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        """Release the device."""
        self._capture.release()


class Picamera2Source:
    """The Raspberry Pi camera through Picamera2 (imported only here, so everything else runs anywhere).

    Uses a still configuration at ``size`` with ``RGB888`` (which Picamera2 delivers as B,G,R bytes,
    i.e. OpenCV order). With ``controls`` from a calibration (``lock_controls``) exposure, gain and
    white balance are fixed, so frames under the same light look the same; without them AE/AWB run
    and ``settle()`` can read back the values to store in a calibration. ``lens_position`` (dioptres)
    fixes the focus of a Camera Module 3 (autofocus off).
    """

    def __init__(
        self,
        size: tuple[int, int] = (640, 480),
        controls: dict[str, Any] | None = None,
        lens_position: float | None = None,
        camera_num: int = 0,
    ) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:  # off the Pi
            raise CameraError(f"Picamera2 is not available ({exc}); use a file or OpenCV source") from None
        self._camera = Picamera2(camera_num)
        self.lens_position = lens_position
        config = self._camera.create_still_configuration(main={"size": size, "format": "RGB888"})
        self._camera.configure(config)
        initial: dict[str, Any] = {}
        if lens_position is not None:
            from libcamera import controls as libcamera_controls

            initial.update(AfMode=libcamera_controls.AfModeEnum.Manual, LensPosition=float(lens_position))
        if controls:
            initial.update(controls)
        if initial:
            self._camera.set_controls(initial)
        self._camera.start()

    @staticmethod
    def lock_controls(exposure_time_us: int, analogue_gain: float, colour_gains: Sequence[float]) -> dict[str, Any]:
        """Controls that switch AE/AWB off and fix exposure, gain and white balance."""
        return {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(exposure_time_us),
            "AnalogueGain": float(analogue_gain),
            "ColourGains": (float(colour_gains[0]), float(colour_gains[1])),
        }

    def settle(self, frames: int = 30) -> dict[str, Any]:
        """Let AE/AWB converge over ``frames`` frames, then lock and return the settled controls, plus
        the colour matrix the camera settled on (``ColourCorrectionMatrix``, 9 numbers, when reported)."""
        metadata: dict[str, Any] = {}
        for _ in range(frames):
            metadata = self._camera.capture_metadata()
        locked = self.lock_controls(metadata["ExposureTime"], metadata["AnalogueGain"], metadata["ColourGains"])
        self._camera.set_controls(locked)
        return {**locked, "ColourCorrectionMatrix": metadata.get("ColourCorrectionMatrix")}

    def capture(self) -> Frame:
        """Capture a frame started after this call (``flush=True``), so it shows the settled tray."""
        request = self._camera.capture_request(flush=True)
        try:
            frame = request.make_array("main")
        finally:
            request.release()
        return np.ascontiguousarray(frame[:, :, :3], dtype=np.uint8)

    def close(self) -> None:
        """Stop and close the camera."""
        self._camera.stop()
        self._camera.close()
