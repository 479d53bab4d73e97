"""The count cross-check: the beam and the camera, each weighed for what it can know.

The beam cannot see pieces that leave the tower together: they block it as one longer block. So its
count is a lower bound with some slack. From each drop's block time (``Drop.blocked_ms``) and the
tower's calibrated single-piece block (``BeamCalibration``):

- *certain* pieces: a block holds at least ``ceil(blocked / longest single block)`` pieces (n pieces
  in one block can block it at most n single blocks long), and every drop is at least one piece;
- *plausible* pieces: one more than certain for every drop that may hide a piece the beam could not
  tell apart: a block longer than one piece makes (pieces are known to overlap there), or a block
  that follows the previous one closely (a cluster, where overlaps happen).

The camera counts every piece and names each colour with a calibrated confidence (a piece at 0.9 is
right 9 times in 10), but can miss or add a piece. A toss is flagged for the table only when the two
senses cannot both be right (``FLAG_REASONS``): the camera saw fewer pieces than the beam's certain
ones, more than its plausible ones, a piece of no known colour, or a colour it was unsure of.
Otherwise the result can explain a difference ("two pieces probably fell together"); the player
words of both are in ``companion.tower.count_words`` (firmware/ speaks no language).

The single-piece block time is calibrated per tower (``calibrate_single_block``) from the blocks of
tosses on which the beam and the camera agreed piece for piece, and kept in the instance's
``tower.json`` (``firmware.config``); ``BeamCalibration()`` is a default for a ~20 cm tower.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from firmware.capture import CameraCount
from firmware.errors import TimingConfigError
from firmware.timing import Drop

#: A coloured piece the camera named with a confidence below this is flagged for the table to look
#: at (calibrated confidences: such a colour is wrong at least one time in five).
LOW_CONFIDENCE = 0.8
#: The fewest single-piece blocks a calibration is made from (fewer give a too-short longest block).
MIN_CALIBRATION_BLOCKS = 200
#: The share of single-piece blocks the calibrated longest block covers (the rest are outliers) ...
LONGEST_QUANTILE = 0.995
#: ... and the margin on it, so a single piece a little slower than any seen is still one piece.
LONGEST_MARGIN = 1.02

#: Why a toss is flagged, by stable name (``companion.tower.count_words`` says each in player words).
FLAG_REASONS = ("no_camera", "fewer", "more", "unknown", "unsure")


@dataclass(frozen=True)
class BeamCalibration:
    """How long one piece blocks this tower's beam (ms): typically, and at the longest."""

    single_block_ms: float = 4.5
    single_block_max_ms: float = 6.5

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise TimingConfigError(f"beam calibration {name} must be a positive number, not {value!r}")
        if self.single_block_max_ms < self.single_block_ms:
            raise TimingConfigError(
                f"single_block_max_ms ({self.single_block_max_ms}) must not be shorter than "
                f"single_block_ms ({self.single_block_ms})"
            )

    @property
    def close_gap_ms(self) -> float:
        """A clear gap shorter than one typical block before a block: the pieces came in a cluster."""
        return self.single_block_ms


def calibrate_single_block(blocks_ms: Sequence[float]) -> BeamCalibration:
    """The calibration from single-piece block times (ms), e.g. every drop of tosses on which the
    camera counted exactly as many pieces as the beam saw drops: median, and the longest block
    (``LONGEST_QUANTILE``) with ``LONGEST_MARGIN``."""
    if len(blocks_ms) < MIN_CALIBRATION_BLOCKS:
        raise TimingConfigError(
            f"calibrating the beam needs at least {MIN_CALIBRATION_BLOCKS} single-piece blocks, not {len(blocks_ms)}"
        )
    ordered = sorted(blocks_ms)
    longest = ordered[min(len(ordered) - 1, int(LONGEST_QUANTILE * len(ordered)))]
    return BeamCalibration(round(statistics.median(ordered), 3), round(longest * LONGEST_MARGIN, 3))


@dataclass(frozen=True)
class BeamReading:
    """What the beam can say about a toss's count: drops seen, pieces certain, pieces plausible."""

    drops: int
    certain: int
    plausible: int


def read_beam(drops: Sequence[Drop], calibration: BeamCalibration) -> BeamReading:
    """The beam's lower bound and plausible maximum from its drops' block times and gaps."""
    certain = plausible = 0
    previous: Drop | None = None
    for drop in drops:
        pieces = max(1, math.ceil(drop.blocked_ms / calibration.single_block_max_ms - 1e-9))
        long_block = drop.blocked_ms > calibration.single_block_max_ms
        clear_gap = drop.gap_ms - previous.blocked_ms if previous is not None else math.inf
        certain += pieces
        plausible += pieces + (1 if long_block or clear_gap < calibration.close_gap_ms else 0)
        previous = drop
    return BeamReading(len(drops), certain, plausible)


@dataclass(frozen=True)
class CrossCheck:
    """The verdict on one toss: flagged or not, why (``FLAG_REASONS``), and the figures behind it."""

    flagged: bool
    reasons: tuple[str, ...]
    beam: BeamReading
    pieces: int | None  # what the camera counted (None: no camera count)
    unknown: int = 0
    unsure: tuple[str, ...] = ()


def unsure_colours(camera: CameraCount) -> tuple[str, ...]:
    """The colours of coloured pieces the camera named with less than ``LOW_CONFIDENCE``, once each."""
    unsure: list[str] = []
    for piece in camera.pieces:
        colour = piece.get("colour")
        sure = float(piece.get("confidence", 1.0)) >= LOW_CONFIDENCE
        if colour not in (None, "unknown", *unsure) and not sure:
            unsure.append(str(colour))
    return tuple(unsure)


def cross_check(drops: Sequence[Drop], camera: CameraCount | None, calibration: BeamCalibration) -> CrossCheck:
    """Flag the toss when the beam and the camera cannot both be right (reasons in ``FLAG_REASONS`` order)."""
    beam = read_beam(drops, calibration)
    if camera is None:
        return CrossCheck(True, ("no_camera",), beam, None)
    unsure = unsure_colours(camera)
    found = {
        "fewer": camera.total < beam.certain,
        "more": camera.total > beam.plausible,
        "unknown": camera.unknown > 0,
        "unsure": bool(unsure),
    }
    reasons = tuple(reason for reason, hit in found.items() if hit)
    return CrossCheck(bool(reasons), reasons, beam, camera.total, camera.unknown, unsure)
