"""The capture step: once the tray has settled, light it fully, take one frame, count the pieces,
and cross-check the camera's count against the beam's.

The frame source and the counter are seams (``FrameSource``, ``PieceCounter``): on the Pi a camera
and the vision detector, in the simulator a rendered tray and the same detector, in tests anything
that returns a frame and a count. On a mismatch the toss is flagged for the table to confirm: the
code never guesses which of the two senses was right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from firmware.devices import TowerLight


@dataclass(frozen=True)
class CameraCount:
    """What the camera saw in the tray: pieces per colour, plus pieces of no known colour."""

    counts: dict[str, int]
    unknown: int = 0

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


def capture_count(light: TowerLight, source: FrameSource, counter: PieceCounter) -> CameraCount:
    """Full light, one frame, light back to idle, then count (counting needs no light)."""
    with light.for_capture():
        frame = source.capture()
    return counter.count(frame)


def needs_confirmation(beam_count: int, camera: CameraCount | None) -> bool:
    """True when the table must confirm the toss: the senses disagree, or a piece had no colour.

    Without a camera there is nothing to cross-check against; the caller decides what that means.
    """
    if camera is None:
        return False
    return camera.total != beam_count or camera.unknown > 0
