"""Scoring a detector on physically based scenes: piece accuracy, wrong colours, exact scenes, calibration.

Piece accuracy is the issue's count measure, ``1 - (sum |predicted - true| + unknown) / sum true``.
Per piece, each reported piece is matched to the true piece whose footprint (grown by 6 px) holds its
centre: right colour, wrong colour, ``unknown``, or an extra (no piece there). A true piece no report
lands on is missed. The wrong-colour rate is wrong colours per true piece. Confidences are checked
with a reliability table: a report is "right" only when it names the true piece's colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion import COLOURS
from vision.detect import Detection, Piece
from vision.physical.scene import HEIGHT, WIDTH, Scene


@dataclass
class Tally:
    """Running totals for one light."""

    scenes: int = 0
    exact: int = 0
    pieces: int = 0
    count_error: int = 0
    unknown: int = 0
    wrong_colour: int = 0
    extra: int = 0
    missed: int = 0
    reports: list[tuple[float, bool]] = field(default_factory=list)
    """(confidence, right) of every reported piece."""

    def add(self, detection: Detection, scene: Scene) -> None:
        """Score one frame's detection against its scene."""
        truth = scene.counts()
        self.scenes += 1
        self.pieces += len(scene.pieces)
        self.count_error += sum(abs(detection.counts[c] - truth[c]) for c in COLOURS) + detection.unknown
        self.unknown += detection.unknown
        self.exact += int(detection.counts == truth and detection.unknown == 0)
        matched = match(detection, scene)
        for report, index in matched:
            truth_colour = scene.pieces[index].colour if index is not None else None
            if truth_colour is None:
                self.extra += 1
            elif report.colour not in (truth_colour, "unknown"):
                self.wrong_colour += 1
            self.reports.append((report.confidence, report.colour == truth_colour))
        self.missed += len(scene.pieces) - len({index for _, index in matched if index is not None})

    @property
    def accuracy(self) -> float:
        """Piece accuracy (count measure), 0-1."""
        return 1 - self.count_error / max(1, self.pieces)

    @property
    def wrong_rate(self) -> float:
        """Wrong colours per true piece, 0-1."""
        return self.wrong_colour / max(1, self.pieces)


def match(detection: Detection, scene: Scene) -> list[tuple[Piece, int | None]]:
    """Each reported piece with the index of the true piece it lies on (None: no piece there)."""
    ids = np.full((HEIGHT, WIDTH), -1, np.int32)
    for index, piece in enumerate(scene.pieces):
        mask = np.zeros((HEIGHT, WIDTH), np.uint8)
        cv2.fillPoly(mask, [piece.footprint()], 1)
        grown = cv2.dilate(mask, np.ones((13, 13), np.uint8))
        ids[(grown > 0) & (ids < 0)] = index
    out: list[tuple[Piece, int | None]] = []
    for report in detection.pieces:
        x, y = min(WIDTH - 1, max(0, int(round(report.x)))), min(HEIGHT - 1, max(0, int(round(report.y))))
        index = int(ids[y, x])
        out.append((report, index if index >= 0 else None))
    return out


def reliability(
    reports: list[tuple[float, bool]], bins: int = 10
) -> tuple[list[tuple[float, float, float, int]], float]:
    """Reliability table ``[(low, mean confidence, share right, n)]`` over equal-width bins, and the ECE."""
    rows: list[tuple[float, float, float, int]] = []
    ece = 0.0
    total = len(reports)
    if not total:
        return rows, 0.0
    conf = np.array([c for c, _ in reports])
    right = np.array([r for _, r in reports], dtype=float)
    edges = np.linspace(0, 1, bins + 1)
    for b in range(bins):
        sel = (conf >= edges[b]) & ((conf < edges[b + 1]) if b < bins - 1 else (conf <= 1.0))
        n = int(sel.sum())
        if not n:
            continue
        mean_conf, share = float(conf[sel].mean()), float(right[sel].mean())
        rows.append((float(edges[b]), mean_conf, share, n))
        ece += n / total * abs(mean_conf - share)
    return rows, ece
