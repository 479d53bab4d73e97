"""The tray camera: a frame source and the vision detector, behind one small interface.

On the Pi the frames come from the camera under the tower base; in the simulator from the vision
package's synthetic tray renderer, shown exactly the pieces that fell out (``show``), so the real
detector counts them. Vision is imported lazily: without it the service has no camera (``None``)
and says so in its status, and the simulator falls back to its own truth.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from firmware.capture import CameraCount


class TrayCamera(Protocol):
    """A frame source and a counter in one, as the tower service uses it."""

    name: str

    def show(self, pieces: Mapping[str, int]) -> None:
        """Simulated cameras: the pieces now lying in the tray. Real cameras ignore it."""

    def capture(self) -> Any: ...

    def count(self, frame: Any) -> CameraCount: ...

    def close(self) -> None: ...


def simulated_camera(instance_dir: Path | None, rng: random.Random) -> TrayCamera | None:
    """A rendered tray counted by the real detector, or None while the vision package lacks them."""
    try:
        import vision.detect  # noqa: F401
        import vision.synthetic  # noqa: F401
    except ImportError:
        return None
    return None


def hardware_camera(instance_dir: Path | None) -> TrayCamera | None:
    """The Pi camera and the instance's calibration, or None if either is missing."""
    return None
