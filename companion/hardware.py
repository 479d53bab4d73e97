"""Detect whether we run on a Raspberry Pi, so ``keshi serve`` picks the real tower or the simulator."""

from __future__ import annotations

from pathlib import Path

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")


def pi_model(model_file: Path = DEVICE_TREE_MODEL) -> str | None:
    """The Pi's model string (e.g. ``Raspberry Pi 4 Model B Rev 1.4``), or None off a Pi."""
    try:
        model = model_file.read_bytes().rstrip(b"\x00").decode("ascii", "replace").strip()
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def tower_mode(simulate: bool, model_file: Path = DEVICE_TREE_MODEL, *, camera_frames: Path | None = None) -> str:
    """``"hardware"`` on a Pi unless ``simulate`` is asked for; ``"simulated"`` everywhere else.

    ``camera_frames`` (the ``CAMERA_FRAMES_DIR`` setting: the camera replays image files) makes it
    ``"hardware"`` off a Pi too, so the Pi's code path can be rehearsed and measured anywhere; its
    pins then come from the pin factory gpiozero is told to use (``GPIOZERO_PIN_FACTORY=mock``).
    """
    if simulate:
        return "simulated"
    return "hardware" if camera_frames is not None or pi_model(model_file) is not None else "simulated"
