"""Vision errors: each is a ``KeshiError`` and the builtin a caller would expect.

The CLI turns any of them into one ``keshi: error: ...`` line; messages name the bad input.
"""

from companion.errors import KeshiError


class VisionError(KeshiError):
    """Root of the vision errors."""


class CalibrationError(VisionError, ValueError):
    """A calibration folder or calibration file is missing, incomplete or of another version."""


class PieceNotFound(CalibrationError):
    """A colour's calibration photo shows no piece (the table forgot it, or it lies outside the tray);
    ``colour`` lets a dashboard say so in the player's language."""

    def __init__(self, colour: str) -> None:
        super().__init__(f"no {colour} piece found in its calibration frame(s)")
        self.colour = colour


class FrameError(VisionError, ValueError):
    """A frame is unreadable, corrupt, of the wrong shape or of another size than the calibration."""


class CameraError(VisionError, RuntimeError):
    """A camera could not be opened or stopped delivering frames."""
