"""Vision errors: each is a ``KeshiError`` and the builtin a caller would expect.

The CLI turns any of them into one ``keshi: error: ...`` line; messages name the bad input. An error a table
can meet in the calibration wizard also carries the data its message was made from (a colour, the frame sizes,
why a colour matrix was refused), so a dashboard can say it in the player's language and words
(``companion.web.calibration_words``) while the CLI keeps its precise English.
"""

from pathlib import Path

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


class CalibrationFileMissing(CalibrationError):
    """No calibration file at ``path`` (none saved yet)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class CalibrationFileDamaged(CalibrationError):
    """A calibration file that cannot be used: not JSON, malformed, lacking colours, or (``version`` not None)
    written in another calibration version, which needs a new calibration rather than a repair."""

    def __init__(self, message: str, version: object = None) -> None:
        super().__init__(message)
        self.version = version


class ColourMatrixRefused(CalibrationError):
    """A camera's colour correction matrix that cannot be a camera's or that the detector cannot work with.

    ``reason`` is one of the ``*`` constants below; ``gain`` is the matrix's noise gain when that was the reason.
    """

    #: the file holding it is missing, not JSON, or holds no matrix
    UNREADABLE = "unreadable"
    #: not 3 rows of 3 finite numbers
    SHAPE = "shape"
    #: its determinant is near 0: it mixes colours beyond undoing
    NOT_INVERTIBLE = "not invertible"
    #: a row does not sum to about 1: grey would not stay grey
    ROW_SUMS = "row sums"
    #: it multiplies sensor noise too much for the detector
    NOISE_GAIN = "noise gain"

    def __init__(self, message: str, reason: str, gain: float | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.gain = gain


class FrameError(VisionError, ValueError):
    """A frame is unreadable, corrupt, of the wrong shape or of another size than the calibration."""


class UnreadableImage(FrameError):
    """The image file at ``path`` is missing, a folder, corrupt, or greyscale."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class FrameSizeMismatch(FrameError):
    """A frame of another size than the frames it goes with: ``size`` and ``expected`` are (width, height);
    ``colour`` names the calibration photo that differs from the empty tray's, None for a frame counted with a
    calibration made at another size."""

    def __init__(self, message: str, size: tuple[int, int], expected: tuple[int, int],
                 colour: str | None = None) -> None:
        super().__init__(message)
        self.size = size
        self.expected = expected
        self.colour = colour


class CameraError(VisionError, RuntimeError):
    """A camera could not be opened or stopped delivering frames."""
