"""The capture step: once the tray has settled, light it fully, take one frame, count the pieces,
and cross-check the camera's count against the beam's.

The frame source and the counter are seams (``FrameSource``, ``PieceCounter``): on the Pi a camera
and the vision detector, in the simulator a rendered tray and the same detector, in tests anything
that returns a frame and a count. On a mismatch the toss is flagged for the table to confirm: the
code never guesses which of the two senses was right. The counted frame is kept as the toss's JPEG
snapshot (``save_snapshot``), so the table can see what the camera saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.errors import KeshiError
from firmware.devices import TowerLight

#: JPEG quality of toss snapshots: sharp enough to check a count by eye, ~20 kB for a 640x480 tray.
SNAPSHOT_QUALITY = 85


class SnapshotError(KeshiError, OSError):
    """A toss's snapshot could not be written (bad frame, full or read-only disk)."""


@dataclass(frozen=True)
class CameraCount:
    """What the camera saw in the tray: pieces per colour, plus pieces of no known colour.

    ``pieces`` lists every piece as ``{colour, confidence, x, y}`` (``vision.detect.Piece.to_json``).
    """

    counts: dict[str, int]
    unknown: int = 0
    pieces: tuple[dict[str, Any], ...] = ()

    @property
    def total(self) -> int:
        """Every piece seen, coloured or not."""
        return sum(self.counts.values()) + self.unknown


class FrameSource(Protocol):
    """Anything that captures one frame of the tray (a BGR ``numpy`` array)."""

    def capture(self) -> Any: ...


class PieceCounter(Protocol):
    """Anything that counts the keshis in a frame."""

    def count(self, frame: Any) -> CameraCount: ...


def lit_frame(light: TowerLight, source: FrameSource) -> Any:
    """Full light (no PWM flicker in the frame), one frame, light back to idle."""
    with light.for_capture():
        return source.capture()


def capture_count(light: TowerLight, source: FrameSource, counter: PieceCounter) -> tuple[Any, CameraCount]:
    """One lit frame and its count (counting needs no light, so it runs after the light dims)."""
    frame = lit_frame(light, source)
    return frame, counter.count(frame)


def save_snapshot(frame: Any, path: Path) -> None:
    """Write ``frame`` (BGR) as a JPEG at ``path``, creating its folder; ``SnapshotError`` if it cannot."""
    import cv2  # only where a camera exists, i.e. where the vision package (and OpenCV) loaded

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, SNAPSHOT_QUALITY])
    except (OSError, cv2.error) as exc:
        raise SnapshotError(f"could not write the snapshot {path}: {exc}") from exc
    if not written:
        raise SnapshotError(f"could not write the snapshot {path}: OpenCV refused the file")


def needs_confirmation(beam_count: int, camera: CameraCount | None) -> bool:
    """True when the table must confirm the toss: the senses disagree, or a piece had no colour.

    Without a camera there is nothing to cross-check against; the caller decides what that means.
    """
    if camera is None:
        return False
    return camera.total != beam_count or camera.unknown > 0
