"""Detection: find the keshis on the tray floor, split touching ones, classify each colour or say unknown.

Pipeline per frame (all light-normalised against the visible floor, see ``vision.features``):
foreground mask -> distance transform peaks as one marker per piece -> watershed on the frame
(so touching pieces split along their shared edge) -> per piece the median log reflectance ->
Mahalanobis distance to the 12 calibrated colours. A piece too far from every colour, or nearly as
close to two of them, is reported ``unknown`` instead of guessed. A blob far larger than any single
piece that yielded only one marker counts as several pieces of its colour (size prior).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion import COLOURS
from vision import features
from vision.calibrate import Calibration, foreground, piece_feature
from vision.errors import FrameError

#: Mahalanobis distance beyond which a piece matches no colour.
MAX_DISTANCE = 6.0
#: Confidence (posterior of the best colour) below which a piece is reported unknown.
MIN_CONFIDENCE = 0.6
#: Fraction of the lower peak the distance may fall to between two maxima of one piece.
SADDLE = 0.8
#: Largest log-reflectance difference between two maxima of one piece (else two pieces).
COLOUR_STEP = 0.3
#: A segment this many times a lying piece's area that did not split counts as several pieces.
COPIES_RATIO = 1.55
#: Largest convex hull (times the largest calibrated piece) that ``_complete`` fills.
HULL_MAX = 1.15


@dataclass(frozen=True)
class Piece:
    """One detected piece: its colour (or ``"unknown"``), confidence, centre and outline (px)."""

    colour: str
    confidence: float
    x: float
    y: float
    outline: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{colour, confidence, x, y}`` as the CLI prints it."""
        return {
            "colour": self.colour,
            "confidence": round(self.confidence, 3),
            "x": round(self.x, 1),
            "y": round(self.y, 1),
        }


@dataclass(frozen=True)
class Detection:
    """What one frame shows: counts for all 12 colours, pieces it could not name, and every piece."""

    counts: dict[str, int]
    unknown: int
    pieces: list[Piece]

    def to_json(self) -> dict[str, Any]:
        """The ``keshi vision count --json`` object."""
        return {"counts": dict(self.counts), "unknown": self.unknown, "pieces": [p.to_json() for p in self.pieces]}

    def table(self) -> str:
        """A short human-readable table of the counts."""
        lines = [f"{colour:<10} {self.counts[colour]:>2}" for colour in COLOURS if self.counts[colour]]
        lines.append(f"{'unknown':<10} {self.unknown:>2}")
        lines.append(f"{'total':<10} {sum(self.counts.values()) + self.unknown:>2}")
        return "\n".join(lines) + "\n"


class Detector:
    """Counts keshis in frames of the tower the ``calibration`` was made for."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self._floor_small = calibration.floor_array()
        self._floor = features.expand(self._floor_small, calibration.width, calibration.height)
        self._names = list(calibration.colours)
        self._means = np.array([calibration.colours[c].mean for c in self._names], dtype=np.float32)
        self._covariance = np.asarray(calibration.covariance, dtype=np.float64)
        self._inv_cov = np.linalg.inv(self._covariance)
        size = calibration.size_prior
        self._min_area = 0.3 * size.area_min
        self._peak_min = 0.4 * size.radius
        self._peak_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(size.radius) | 1,) * 2)

    def detect(self, frame: npt.NDArray[np.uint8]) -> Detection:
        """Count the pieces in one BGR uint8 frame of the calibrated size."""
        self._check(frame)
        gain, known = features.light_gain(features.coarse(frame), self._floor_small)
        refl = features.log_reflectance(frame, self._floor, gain)
        blind = features.saturated_floor(frame, self._floor, gain)
        blind[:, :, ~known] = True  # a channel whose floor clips tells nothing anywhere in this frame
        if blind.any():
            refl[blind] = 0.0
            frame = np.where(blind, np.uint8(0), frame)
        mask = foreground(refl, self.calibration.threshold, frame)
        pieces: list[Piece] = []
        for (x0, y0), segment in self._segments(frame, refl, mask):
            h, w = segment.shape
            crop = (slice(y0, y0 + h), slice(x0, x0 + w))
            pieces.extend(self._classify(refl[crop], frame[crop], segment, (x0, y0), known))
        counts = dict.fromkeys(COLOURS, 0)
        unknown = 0
        for piece in pieces:
            if piece.colour in counts:
                counts[piece.colour] += 1
            else:
                unknown += 1
        return Detection(counts=counts, unknown=unknown, pieces=pieces)

    def _check(self, frame: Any) -> None:
        cal = self.calibration
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            raise FrameError("frame must be a BGR uint8 image (height x width x 3)")
        if frame.shape[:2] != (cal.height, cal.width):
            raise FrameError(
                f"frame is {frame.shape[1]}x{frame.shape[0]} but the calibration is {cal.width}x{cal.height}"
            )

    def _segments(
        self, frame: npt.NDArray[np.uint8], refl: features.FloatImage, mask: npt.NDArray[np.uint8]
    ) -> list[tuple[tuple[int, int], npt.NDArray[np.bool_]]]:
        """Split the foreground into one mask per piece: ``((x0, y0), mask of the crop at x0, y0)``."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        segments: list[tuple[tuple[int, int], npt.NDArray[np.bool_]]] = []
        pad = 4
        for index in range(1, count):
            x, y, w, h, area = stats[index]
            if area < self._min_area:
                continue
            x0, y0 = max(0, x - pad), max(0, y - pad)
            x1, y1 = min(frame.shape[1], x + w + pad), min(frame.shape[0], y + h + pad)
            blob = self._complete((labels[y0:y1, x0:x1] == index).astype(np.uint8))
            for part in self._split(frame[y0:y1, x0:x1], refl[y0:y1, x0:x1], blob):
                segments.append(((int(x0), int(y0)), part))
        return segments

    def _complete(self, blob: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """Fill a ragged blob no larger than one piece with its convex hull.

        A white piece on a light floor shows some facets at almost the floor's brightness, so only
        parts of it pass the threshold; its hull is the piece. Larger blobs (touching pieces) are
        left alone, since their hull would bridge the gaps between pieces.
        """
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.vstack(contours))
        hull_area = cv2.contourArea(hull)
        if hull_area > self.calibration.size_prior.area_max * HULL_MAX or blob.sum() > 0.85 * hull_area:
            return blob
        filled = blob.copy()
        cv2.fillPoly(filled, [hull], 1)
        return filled

    def _split(
        self, crop: npt.NDArray[np.uint8], refl: features.FloatImage, blob: npt.NDArray[np.uint8]
    ) -> list[npt.NDArray[np.bool_]]:
        """Split one blob at the saddles of its distance transform (one marker per piece), by watershed."""
        dist = np.asarray(cv2.distanceTransform(blob, cv2.DIST_L2, 5), np.float32)
        local_max = ((dist >= cv2.dilate(dist, self._peak_kernel)) & (dist >= self._peak_min)).astype(np.uint8)
        # a plateau or ridge of equal maxima is one candidate: keep its pixel farthest from the edge
        count, plateau = cv2.connectedComponents(local_max)
        peaks = []
        for label in range(1, count):
            ys, xs = np.nonzero(plateau == label)
            best = int(np.argmax(dist[ys, xs]))
            peaks.append((int(xs[best]), int(ys[best])))
        groups = _group_peaks(dist, refl, peaks)
        if len(groups) <= 1:
            return [blob.astype(bool)]
        markers = np.zeros(blob.shape, dtype=np.int32)
        markers[blob == 0] = 1  # background marker
        for label, group in enumerate(groups, start=2):
            for x, y in group:
                cv2.circle(markers, (x, y), 3, label, -1)
        markers[blob == 0] = 1
        cv2.watershed(np.ascontiguousarray(crop), markers)
        parts = [(markers == label) for label in range(2, len(groups) + 2)]
        return [p for p in parts if p.sum() >= self._min_area]

    def _classify(
        self,
        refl: features.FloatImage,
        frame: npt.NDArray[np.uint8],
        segment: npt.NDArray[np.bool_],
        origin: tuple[int, int],
        known: npt.NDArray[np.bool_],
    ) -> list[Piece]:
        """Name one segment's colour (or unknown); a segment the size of several lying pieces repeats."""
        ys, xs = np.nonzero(segment)
        area = len(xs)
        value = piece_feature(refl, segment)
        clipped = np.median(frame[segment][::4], axis=0) >= features.CLIPPED
        delta = self._means - value
        if clipped.any():  # a clipped channel only says "at least this bright"
            delta[:, clipped] = np.minimum(delta[:, clipped], 0.0)
        inv_cov = self._inv_cov
        if not known.all():  # channels whose light gain is unknown (clipped floor) cannot compare colours
            delta = delta[:, known]
            inv_cov = np.linalg.inv(self._covariance[np.ix_(known, known)])
        d2 = np.einsum("ki,ij,kj->k", delta, inv_cov, delta)
        best = int(np.argmin(d2))
        weights = np.exp(-0.5 * (d2 - d2[best]))
        confidence = float(weights[best] / weights.sum())
        colour = self._names[best]
        if d2[best] > MAX_DISTANCE**2 or confidence < MIN_CONFIDENCE:
            colour = "unknown"
        contours, _ = cv2.findContours(segment.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = [(int(p[0][0]) + origin[0], int(p[0][1]) + origin[1]) for p in max(contours, key=cv2.contourArea)]
        ratio = area / self.calibration.size_prior.area_large
        copies = int(round(ratio)) if ratio > COPIES_RATIO else 1
        x, y = float(xs.mean()) + origin[0], float(ys.mean()) + origin[1]
        return [Piece(colour, confidence, x, y, outline) for _ in range(copies)]


def _group_peaks(
    dist: features.FloatImage, refl: features.FloatImage, peaks: list[tuple[int, int]]
) -> list[list[tuple[int, int]]]:
    """Group distance-transform maxima that lie on one piece: same colour and no saddle between them.

    Two maxima belong to the same piece when the distance never drops below ``SADDLE`` of the lower
    peak along the straight line between them (a lying piece's ridge; two touching pieces have a
    narrow neck there) and their surroundings have the same colour (touching pieces of two colours
    can meet along a wide edge).
    """
    colours = [np.median(refl[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4].reshape(-1, 3), axis=0) for x, y in peaks]
    parent = list(range(len(peaks)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (xa, ya) in enumerate(peaks):
        for j in range(i + 1, len(peaks)):
            xb, yb = peaks[j]
            steps = max(abs(xb - xa), abs(yb - ya)) + 1
            line_x = np.linspace(xa, xb, steps).round().astype(int)
            line_y = np.linspace(ya, yb, steps).round().astype(int)
            lowest = float(dist[line_y, line_x].min())
            same_colour = float(np.abs(colours[i] - colours[j]).max()) < COLOUR_STEP
            if same_colour and lowest >= SADDLE * min(float(dist[ya, xa]), float(dist[yb, xb])):
                parent[root(j)] = root(i)
    groups: dict[int, list[tuple[int, int]]] = {}
    for i, peak in enumerate(peaks):
        groups.setdefault(root(i), []).append(peak)
    return list(groups.values())


def draw_debug(frame: npt.NDArray[np.uint8], detection: Detection) -> npt.NDArray[np.uint8]:
    """A copy of ``frame`` with each piece's outline, colour label and confidence drawn on it."""
    out = frame.copy()
    for piece in detection.pieces:
        colour = (0, 0, 255) if piece.colour == "unknown" else (0, 200, 0)
        if piece.outline:
            cv2.polylines(out, [np.array(piece.outline, dtype=np.int32)], True, colour, 2)
        label = f"{piece.colour} {piece.confidence:.2f}"
        org = (int(piece.x) - 30, int(piece.y))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
    return out
