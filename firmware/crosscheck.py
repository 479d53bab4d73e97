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

A clumpy tower (a tight exit) also lets pieces leave so closely together that their block is no
longer than one piece's: nothing in the beam shows them. How often that happens is the tower's own
*hidden allowance*: the fewest extra pieces beyond the plausible count that cover all but
``EXCESS_SHARE`` of its tosses, learned from the camera's counts (the camera is right far more often
than a tower hides a piece). The game's side of the toss can add what the beam cannot: the most
of each colour that could have fallen out (``could_release``: what the tower was believed to hold
plus what went in). A colour the camera counts beyond that is ``beyond``: an over-count, flagged
whatever the beam says.

The single-piece block time and the hidden allowance are calibrated per tower (``learn_calibration``)
from the tower's recent tosses: the blocks of those on which the beam and the camera agreed piece
for piece, and every camera count against the beam's plausible one. The tower service refines them
as tosses come (``BeamLearner``) and keeps them in the instance's ``tower.json`` (``firmware.config``);
``BeamCalibration()`` is a default for a ~20 cm tower.
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

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

#: The share of a tower's tosses its hidden allowance may leave above the plausible count (those
#: are flagged for the table: a hidden piece, or a camera that saw one too many).
EXCESS_SHARE = 0.02
#: The most a tower's hidden allowance may grow to: a tower that seems to hide more is far more likely
#: a camera that counts too many, which the table must keep seeing flagged.
MAX_HIDDEN_ALLOWANCE = 2
#: How many recent tosses ``BeamLearner`` learns from, and after how many new ones it learns again.
LEARNING_WINDOW = 400
RELEARN_EVERY = 50

#: Why a toss is flagged, by stable name (``companion.tower.count_words`` says each in player words).
FLAG_REASONS = ("no_camera", "fewer", "more", "beyond", "unknown", "unsure")


@dataclass(frozen=True)
class BeamCalibration:
    """How long one piece blocks this tower's beam (ms), typically and at the longest, and how many
    pieces beyond its plausible count the tower's beam may hide (``hidden_allowance``)."""

    single_block_ms: float = 4.5
    single_block_max_ms: float = 6.5
    hidden_allowance: int = 0

    def __post_init__(self) -> None:
        for name in ("single_block_ms", "single_block_max_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise TimingConfigError(f"beam calibration {name} must be a positive number, not {value!r}")
        allowance = self.hidden_allowance
        if isinstance(allowance, bool) or not isinstance(allowance, int) or allowance < 0:
            raise TimingConfigError(f"beam calibration hidden_allowance must be a whole number >= 0, not {allowance!r}")
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


def hidden_allowance(tosses: Sequence[tuple[Sequence[Drop], int]], calibration: BeamCalibration) -> int:
    """The fewest pieces beyond the beam's plausible count that cover all but ``EXCESS_SHARE`` of
    ``tosses`` (each its drops and the camera's count), at most ``MAX_HIDDEN_ALLOWANCE``."""
    plain = replace(calibration, hidden_allowance=0)
    excess = [pieces - read_beam(drops, plain).plausible for drops, pieces in tosses]
    allowance = 0
    while allowance < MAX_HIDDEN_ALLOWANCE and sum(1 for e in excess if e > allowance) > EXCESS_SHARE * len(excess):
        allowance += 1
    return allowance


def learn_calibration(tosses: Sequence[tuple[Sequence[Drop], int]]) -> BeamCalibration:
    """A tower's calibration from its tosses (drops, camera count): the single block from the blocks of
    tosses whose count matched the drops, then the hidden allowance (``TimingConfigError`` if the
    agreeing tosses hold fewer than ``MIN_CALIBRATION_BLOCKS`` blocks)."""
    blocks = [drop.blocked_ms for drops, pieces in tosses if pieces == len(drops) for drop in drops]
    single = calibrate_single_block(blocks)
    return replace(single, hidden_allowance=hidden_allowance(tosses, single))


class BeamLearner:
    """Refines a tower's calibration from its tosses as they come: the last ``LEARNING_WINDOW`` tosses
    the camera counted, learned again after every ``RELEARN_EVERY`` new ones (once enough agree)."""

    def __init__(self) -> None:
        self._tosses: deque[tuple[tuple[Drop, ...], int]] = deque(maxlen=LEARNING_WINDOW)
        self._new = 0

    def observe(self, drops: Sequence[Drop], camera: CameraCount) -> BeamCalibration | None:
        """Take one counted toss; return a newly learned calibration when it is time, else None.
        A toss with a piece of no known colour says nothing sure about the count and is left out."""
        if camera.unknown or not drops:
            return None
        self._tosses.append((tuple(drops), camera.total))
        self._new += 1
        if self._new < RELEARN_EVERY:
            return None
        self._new = 0
        try:
            return learn_calibration(self._tosses)
        except TimingConfigError:
            return None  # not enough agreeing blocks yet


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
    return BeamReading(len(drops), certain, plausible + calibration.hidden_allowance if drops else 0)


@dataclass(frozen=True)
class CrossCheck:
    """The verdict on one toss: flagged or not, why (``FLAG_REASONS``), and the figures behind it."""

    flagged: bool
    reasons: tuple[str, ...]
    beam: BeamReading
    pieces: int | None  # what the camera counted (None: no camera count)
    unknown: int = 0
    unsure: tuple[str, ...] = ()
    beyond: tuple[str, ...] = ()  # colours counted beyond what could have fallen out


def unsure_colours(camera: CameraCount) -> tuple[str, ...]:
    """The colours of coloured pieces the camera named with less than ``LOW_CONFIDENCE``, once each."""
    unsure: list[str] = []
    for piece in camera.pieces:
        colour = piece.get("colour")
        sure = float(piece.get("confidence", 1.0)) >= LOW_CONFIDENCE
        if colour not in (None, "unknown", *unsure) and not sure:
            unsure.append(str(colour))
    return tuple(unsure)


def beyond_colours(camera: CameraCount, could_release: Mapping[str, int]) -> tuple[str, ...]:
    """The colours the camera counted more of than could have fallen out (``could_release``)."""
    return tuple(c for c, n in camera.counts.items() if n > could_release.get(c, 0))


def cross_check(drops: Sequence[Drop], camera: CameraCount | None, calibration: BeamCalibration,
                could_release: Mapping[str, int] | None = None) -> CrossCheck:
    """Flag the toss when the beam and the camera cannot both be right, or the camera counted a colour
    beyond ``could_release`` (when known: held before plus what went in); reasons in ``FLAG_REASONS``
    order."""
    beam = read_beam(drops, calibration)
    if camera is None:
        return CrossCheck(True, ("no_camera",), beam, None)
    unsure = unsure_colours(camera)
    beyond = beyond_colours(camera, could_release) if could_release is not None else ()
    found = {
        "fewer": camera.total < beam.certain,
        "more": camera.total > beam.plausible,
        "beyond": bool(beyond),
        "unknown": camera.unknown > 0,
        "unsure": bool(unsure),
    }
    reasons = tuple(reason for reason, hit in found.items() if hit)
    return CrossCheck(bool(reasons), reasons, beam, camera.total, camera.unknown, unsure, beyond)
