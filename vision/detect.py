"""Detection: find the keshis on the tray floor, split touching ones, classify each colour or say unknown.

Pipeline per frame (all light-normalised against the visible floor, see ``vision.features``; in the
camera's linear sensor space when the calibration knows its colour matrix): a smooth light field
fitted to the floor -> foreground mask (small holes filled: a pale top can match the floor) ->
distance transform peaks as one marker per piece (in a blob of several pieces also the peaks of its
shadow-free part: shadows pooled between touching pieces get no marker) -> watershed on the frame
(so touching pieces split along their shared edge) -> per piece the median
log reflectance -> Mahalanobis distance to the 12 calibrated colours, whose models allow for shading
(``BRIGHTNESS_SPREAD``) and widen (and, under coloured light, move: ``Detector._adapt``) as the light
departs from the calibration light.
The confidence is a calibrated probability (``_confidence``); a piece too far from every colour, or
nearly as close to two of them, is reported ``unknown`` with low confidence instead of guessed. A
blob far larger than any single piece that yielded only one marker counts as several pieces of its
colour (size prior), or, when it is not of one colour, one piece of its median colour and unknowns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from companion import COLOURS
from vision import features
from vision.calibrate import Calibration, foreground, piece_feature
from vision.errors import FrameError, FrameSizeMismatch

#: Confidence (probability the nearest colour is right, ``_confidence``) below which a piece is unknown.
MIN_CONFIDENCE = 0.5
#: Logistic model of ``_confidence``: intercept, weight of sqrt(margin), weight of log(1 + nearest d2).
CONFIDENCE_MODEL = (1.347, 1.312, -1.450)
#: Margins (d2 of the second colour minus the nearest) above this count as this: already unambiguous.
MARGIN_CAP = 100.0
#: Mahalanobis distance beyond which no calibrated colour is near: an unfamiliar paint, never a guess.
MAX_DISTANCE = 6.0
#: Confidence given to such a piece (it is reported unknown).
FAR_CONFIDENCE = 0.05
#: Spread (log) added to every colour model per unit of ``_colour_shift``: under light of another colour,
#: saturated paints drift from their calibrated values (their spectra meet the sensor's bands unevenly),
#: which a gain per channel does not undo; the farther the light, the wider each colour's model.
LIGHT_SPREAD = 0.4
#: Spread (log) of a colour's brightness alone, added to every colour model along (1, 1, 1): shading,
#: a standing piece's head nearer the lamp, a neighbour's shadow or a lamp's falloff scale all of a
#: piece's channels alike, which the calibration's few pieces under one light do not show; hue and
#: saturation stay tight. In linear sensor signal only (0.3-0.5 all did best on the tuning scenes): in
#: 8-bit codes shading spreads much less and a clipped white would pass for a gray.
BRIGHTNESS_SPREAD = 0.4
#: Without the camera's colour matrix: spread (log) per unit of ``_colour_shift`` along each colour's own
#: drift direction (``Detector._drift``). In the camera's sRGB a change of light is a 3x3 map of the
#: channels that leaves the floor grey; it moves a paint by ``E @ r`` (``r``: its linear response,
#: ``E``: rows summing to 0), so relative to ``r`` most in its dark channels and not at all for a grey.
DRIFT_SPREAD = 0.4
#: Without the camera's colour matrix: noise (linear, relative to the floor) of each channel; in log
#: terms it is ``CHANNEL_NOISE / r``, so a saturated paint's dark channel counts for less than its
#: bright ones instead of deciding its colour.
CHANNEL_NOISE = 0.01
#: For a piece with a channel clipped at white: how much brighter (log, all channels alike) than its
#: calibrated colour it may be lit, tried in ``LIT_STEPS`` steps (a standing piece's head nearer a lamp).
LIT_LIFT = 2 * BRIGHTNESS_SPREAD
LIT_STEPS = 9
#: Smallest linear response (relative to the floor) a colour's channel is taken to have.
DARK_FLOOR = 0.01
#: Without the camera's colour matrix: smallest linear response (relative to the floor) a colour's channel is
#: taken to have where its spread is reckoned (``DRIFT_SPREAD``, ``CHANNEL_NOISE``), which are relative to
#: it. At ``DARK_FLOOR`` a yellow's blue, at black under the calibration light, spread so wide (3.5 in log at
#: 2700 K) that its blue said nothing, and beiges whose blue fell under a warm lamp read yellow (0.03 and
#: 0.05 did alike on the tuning towers).
SPREAD_FLOOR = 0.03
#: Colour shift of the light (``_colour_shift``) beyond which the colour means adapt to the frame.
ADAPT_SHIFT = 0.2
#: Confidence a piece needs to teach the adaptation (``Detector._adapt``) its light.
ADAPT_CONFIDENCE = 0.9
#: Pull of the adaptation toward no change (ridge on the colour transform's six free entries).
ADAPT_RIDGE = 5.0
#: Below this log brightness a maximum's hue is noise (a black piece): its colour keeps no groups apart.
DARK_HUE = 1.5
#: Fraction of the lower peak the distance may fall to between two maxima of one piece.
SADDLE = 0.8
#: Without the camera's colour matrix: maxima of one colour closer than this (times a piece's radius) lie on
#: one lying piece's ridge (its two maxima lie about a radius apart; two pieces' centres at least 1.8 radii:
#: 42 px or more on the tuning towers), and the distance may fall to ``RIDGE_SADDLE`` of the lower peak
#: between them: a white lying on the light floor loses its shaded edge to the floor, and its blob is
#: narrow and waisted (0.70-0.79). (With the matrix it is not needed, and it joined standing grays.)
RIDGE = 1.5
RIDGE_SADDLE = 0.65
#: Maxima at least this far apart (times a piece's radius), not both grey and darker than the floor, are
#: also tested on the blob's shadow-free part (``Detector._solid``): two touching standing pieces' centres
#: lie about two radii apart, a lying piece's ridge maxima within about one, and a gray or white piece's
#: own shaded side looks like shadow, so nearer maxima, or two on a gray piece or in shadow (about grey,
#: ``PAINT_CHROMA``, and dark), are left to the distance of the whole blob.
APART = 1.1
#: Fraction of the lower peak the shadow-free part's distance may fall to between two maxima of one piece:
#: under a low lamp the shadows of two touching pieces fill the neck between them, so the whole blob has
#: no saddle there while its shadow-free part has one.
SOLID_SADDLE = 0.7
#: Largest log-reflectance difference between two maxima of one piece (else two pieces).
COLOUR_STEP = 0.3
#: A blob of several pieces is also cut along its edges (``_edge_cut``): where the frame's gradient is at
#: least this share of the blob's 99th percentile. Its markers are then the cut blob's maxima, one per
#: piece's core (``MARK``): in the whole blob, three pieces around a small enclosed gap (filled as a hole) or seven in
#: a row peaked at their junctions, not at their centres, and pieces were lost or read as one.
EDGE_CUT = 0.3
#: Two maxima of one colour on a blob cut along its edges stay apart when the cut falls between them and
#: both lie at least this far (times a piece's radius) inside the cut: two whole pieces' cores (two
#: touching standing grays, whose shadows fill the neck of the whole blob); of two shades, when one does.
#: A lying pale piece's facets cut it into smaller parts, which do join.
CORE = 0.8
#: A maximum of the cut blob is a marker only this far (times a piece's radius) inside the cut or more;
#: elsewhere the whole blob's maxima stand: a lying piece whose lit and shaded faces meet at an edge
#: (the shared sample's turquoise) falls apart into two thin halves, each of them of another shade.
MARK = 0.6
#: Without the camera's colour matrix: noise (linear, relative to the lit floor) added to each channel of
#: two distance maxima's colours before they are compared (``_group_peaks``). In the camera's linear sRGB a
#: saturated paint's weakest channel is dark (codes 6-80 where the floor shows 179: log -2 to -5), where the
#: sensor's noise and JPEG's coarse colour spread one 7x7 patch over 0-31 codes (a turquoise's red): the
#: patches' medians at the two maxima along one lying piece's ridge differed by 0.6-1.3 in log, and it split.
PEAK_NOISE = 0.05
#: Without the camera's colour matrix: a channel of a distance maximum's colour below this share of its
#: brightest channel (linear) is taken at that share when maxima are compared: it says nothing of the hue
#: (under warm light a yellow's blue lies 3-4 log below its red and varied by 1.4 along one lying piece).
HUE_FLOOR = 0.1
#: Distance-transform maxima closer than this (times a piece's radius) and without a saddle between
#: them are one piece, whatever their colour: pieces' centres lie a piece's width apart.
#: (0.5 before issue 26; 0.7 stops a piece of a camera without a known matrix splitting in two on the
#: tuning scenes, and changed nothing with the matrix).
NEAR_PEAKS = 0.7
#: Largest brightness difference (log, linear sensor signal) between two maxima of one piece of one hue.
LINEAR_BRIGHTNESS_STEP = 1.0
#: A segment this many times a lying piece's area that did not split counts as several pieces.
COPIES_RATIO = 1.55
#: A segment this many times a lying piece's area (more than one piece, less than ``COPIES_RATIO``) is
#: split once more without the shading rule of ``_group_peaks`` (unlike colours joined by shading).
RESPLIT_RATIO = 1.2
#: Largest convex hull (times the largest calibrated piece) that ``_complete`` fills.
HULL_MAX = 1.15
#: Largest chroma (log, per channel, brightness taken out) of a shadow: the floor's own colour, darker.
SHADOW_CHROMA = 0.1
#: Deepest shadow (log brightness below the floor); darker neutral regions are black pieces.
SHADOW_DEPTH = 1.6
#: A shadow-coloured region this wide (times a piece's radius, distance transform) is a gray piece.
SHADOW_SOLID = 0.8
#: A part of a split blob narrower than this (distance transform, times a piece's radius) that has the
#: floor's colour, darker, is a cast shadow (``Detector._cast_shadow``): a piece is about a radius wide.
SHADOW_THIN = 0.5
#: Deepest cast shadow (log brightness below the floor, a part's median); a black piece is about 3.4.
CAST_SHADOW_DEPTH = 2.4
#: Faintest cast shadow (log brightness below the floor, a part's median): a lamp's shadow is deep; a
#: thin part barely darker than the floor is a pale piece's shaded edge, cut off by the split.
SHADOW_DIM = 0.5
#: A segment whose colour (log, brightness taken out) is this far from grey is a coloured paint, whose
#: colour is read without the shadow it casts (``Detector._piece_colour``); a gray piece under coloured
#: light can drift to 0.2 and its shaded side looks like a shadow.
PAINT_CHROMA = 0.3
#: Share of a coloured segment that must look like shadow before its colour is read without it.
SHADOW_SHARE = 0.1
#: A segment counted as several pieces names their colour only when it is uniform (``_uniform``): this
#: share of its pixels within ``UNIFORM_CHROMA`` (log, brightness taken out) and ``UNIFORM_BRIGHTNESS``
#: of its median colour.
UNIFORM_SHARE = 0.5
UNIFORM_CHROMA = 0.15
UNIFORM_BRIGHTNESS = 0.6
#: Frame codes at or below this are clipped at black (a channel pushed below the camera's black level).
DARK_CODE = 3
#: With the colour matrix, a channel near black on a piece (half its pixels at or below this code) says
#: its paint shows (nearly) nothing there: a colour that at the piece's brightness would show more there
#: is set apart (``Detector._dim_mismatch``) by the log of its excess over the piece's level plus
#: ``DIM_NOISE`` (linear light, ``LINEAR_SCALE`` units: code 8), in units of ``DIM_SPREAD``.
DIM_CODE = 8
DIM_NOISE = float(features.SRGB_TO_LINEAR[DIM_CODE])
DIM_SPREAD = 0.5
#: ``Detector._dim_mismatch`` decides only between colours whose distances differ by less than this (d²): the
#: frame's near-black channels break a tie (a red lit brighter lies near a dim orange), and do not overturn a
#: clear nearest colour: under tungsten a perturbed matrix's red model shows blue where the frame's red is
#: black, and standing reds nearest to red by 6 (d² 1.2 against 7.5 to orange) were made unknown.
DIM_TIE = 2.0
#: A segment with fewer of its pixels off the floor in colour is clipped floor, not a piece (``_off_the_floor``).
OFF_FLOOR_SHARE = 0.1
#: Holes inside a blob smaller than this share of the smallest calibrated piece are part of the piece.
HOLE_SHARE = 0.15


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
        self._inverse = features.sensor_matrix(calibration.camera.colour_matrix)
        self._inverse64 = self._inverse.astype(np.float64)
        self._forward = np.linalg.inv(self._inverse64)  # sensor signal -> the frame's linear sRGB (BGR)
        # in linear light, shading spreads log ratios about 2.4 times wider than in 8-bit codes
        self._brightness_step = LINEAR_BRIGHTNESS_STEP
        self._brightness_spread = BRIGHTNESS_SPREAD
        self._names = list(calibration.colours)
        self._means = np.array([calibration.colours[c].mean for c in self._names], dtype=np.float32)
        self._covariance = np.asarray(calibration.covariance, dtype=np.float64)
        size = calibration.size_prior
        self._min_area = 0.3 * size.area_min
        self._resplit_area = RESPLIT_RATIO * size.area_large
        self._copies_area = COPIES_RATIO * size.area_large
        self._peak_min = 0.4 * size.radius
        refs = np.maximum(np.exp(self._means.astype(np.float64)), SPREAD_FLOOR)
        chroma = np.linalg.norm(refs - refs.mean(axis=1, keepdims=True), axis=1, keepdims=True)
        with_matrix = calibration.camera.colour_matrix is not None
        self._linear_srgb = not with_matrix
        self._peak_noise = PEAK_NOISE if self._linear_srgb else 0.0
        # with the matrix a lying white keeps its shaded edge, and the lower saddle joined standing grays
        self._ridge = RIDGE if self._linear_srgb else 0.0
        #: per colour and channel, the log drift per unit of a floor-pinned 3x3 light change
        self._drift = np.zeros_like(refs) if with_matrix else chroma / refs
        self._channel_noise = np.zeros_like(refs) if with_matrix else CHANNEL_NOISE / refs
        # a square window: OpenCV dilates with a rectangle in two 1-D passes, many times faster than a disc
        self._peak_kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (int(size.radius) | 1,) * 2)

    def detect(self, frame: npt.NDArray[np.uint8]) -> Detection:
        """Count the pieces in one BGR uint8 frame of the calibrated size."""
        self._check(frame)
        signal = features.sensor_signal(frame, self._inverse)
        camera_small = features.coarse(frame)
        log_ratio_small = features.floor_log_ratio(features.coarse(signal), self._floor_small)
        light_gain, known = features.light_gain(log_ratio_small, camera_small)
        field = features.light_field(log_ratio_small, light_gain, known)
        # the floor as this frame's light shows it: one full-size image instead of floor and gain apart
        log_floor = features.log_lit_floor(self._floor_small, field, self.calibration.width, self.calibration.height)
        refl = features.log_reflectance(signal, log_floor)
        # without a matrix the floor model is the camera's own linear sRGB, comparable with its codes;
        # in a sensor's space it is not: there clipping shows through ``known`` only
        blind = features.saturated_floor(frame, log_floor) if self._linear_srgb else np.zeros(frame.shape, bool)
        blind[:, :, ~known] = True  # a channel whose floor clips tells nothing anywhere in this frame
        seen = frame  # as the camera gave it: a piece clipped over a clipped floor is still clipped
        if blind.any():
            refl[blind] = 0.0
            frame = np.where(blind, np.uint8(0), frame)
        shift = _colour_shift(light_gain)
        covariance = self._covariances(shift)
        mask = foreground(refl, self.calibration.threshold, frame)
        found = []
        for (x0, y0), segment, split_off in self._segments(frame, refl, mask):
            h, w = segment.shape
            crop = (slice(y0, y0 + h), slice(x0, x0 + w))
            if not _off_the_floor(refl[crop], segment, self.calibration.threshold):
                continue  # floor whose clipping alone made it foreground: no piece is there
            value = self._piece_colour(refl[crop], segment)
            if split_off and self._cast_shadow(value, segment):  # a piece's shadow, split off: not a piece
                continue
            # a channel is clipped on this piece when at least half its pixels clip (the median would),
            # at the top (``clipped``) or at black (``dark``)
            codes = seen[crop][segment][::4]
            clipped = (codes >= features.CLIPPED).mean(axis=0) >= 0.5
            dark = (codes <= DARK_CODE).mean(axis=0) >= 0.5
            dim = (codes <= DIM_CODE).mean(axis=0) >= 0.5
            uniform = segment.sum() <= self._copies_area or _uniform(refl[crop], segment, value)
            centre = log_floor[y0 + h // 2, x0 + w // 2]
            found.append((value, Clipping(clipped, dark, centre, dim), segment, (x0, y0), uniform))
        means = self._means
        if shift > ADAPT_SHIFT and known.all():
            means = self._adapt(*self._teachers(found), covariance)
        pieces: list[Piece] = []
        inv_cov = np.asarray(np.linalg.inv(covariance), np.float64)
        for value, clipping, segment, origin, uniform in found:
            pieces.extend(self._classify(value, clipping, segment, origin, known, covariance, inv_cov, means, uniform))
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
            raise FrameSizeMismatch(
                f"frame is {frame.shape[1]}x{frame.shape[0]} but the calibration is {cal.width}x{cal.height}",
                (frame.shape[1], frame.shape[0]), (cal.width, cal.height)
            )

    def _segments(
        self, frame: npt.NDArray[np.uint8], refl: features.FloatImage, mask: npt.NDArray[np.uint8]
    ) -> list[tuple[tuple[int, int], npt.NDArray[np.bool_], bool]]:
        """Split the foreground into one mask per piece: ``((x0, y0), mask of the crop at x0, y0, split_off)``;
        ``split_off``: one of several parts its blob split into (``_cast_shadow`` may drop it)."""
        # Grana's block-based labelling: same labels as the default, at less than half the time here
        count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
        segments: list[tuple[tuple[int, int], npt.NDArray[np.bool_], bool]] = []
        pad = 4
        for index in range(1, count):
            x, y, w, h, area = stats[index]
            if area < self._min_area:
                continue
            x0, y0 = max(0, x - pad), max(0, y - pad)
            x1, y1 = min(frame.shape[1], x + w + pad), min(frame.shape[0], y + h + pad)
            raw = (labels[y0:y1, x0:x1] == index).astype(np.uint8)
            blob = self._complete(raw)
            crop, crop_refl = frame[y0:y1, x0:x1], refl[y0:y1, x0:x1]
            parts = self._split(crop, crop_refl, blob, self._brightness_step, raw)
            for part in parts:
                if self._brightness_step and part.sum() > self._resplit_area:
                    # several pieces left in one: shading let unlike colours join; try without that rule
                    finer = self._split(crop, crop_refl, part.astype(np.uint8), 0.0)
                    if len(finer) > 1:
                        segments.extend(((int(x0), int(y0)), piece, False) for piece in finer)
                        continue
                segments.append(((int(x0), int(y0)), part, len(parts) > 1))
        return segments

    def _complete(self, blob: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """Fill a ragged blob no larger than one piece with its convex hull.

        A white piece on a light floor shows some facets at almost the floor's brightness, so only
        parts of it pass the threshold; its hull is the piece. Larger blobs (touching pieces) are
        left alone, since their hull would bridge the gaps between pieces.
        """
        blob = self._fill_holes(blob)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.vstack(contours))
        hull_area = cv2.contourArea(hull)
        if hull_area > self.calibration.size_prior.area_max * HULL_MAX or blob.sum() > 0.85 * hull_area:
            return blob
        filled = blob.copy()
        cv2.fillPoly(filled, [hull], 1)
        return filled

    def _fill_holes(self, blob: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """Fill the holes of a blob smaller than ``HOLE_SHARE`` of the smallest calibrated piece.

        A pale piece's top faces can match the floor in every channel, leaving holes inside its
        outline; the distance transform then peaks on the ring around each hole, the piece splits
        into slivers and is lost or counted twice. A gap enclosed by several touching pieces is floor,
        but it is rarely so small, and it is left alone when it is larger.
        """
        background = (blob == 0).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
            background, 4, cv2.CV_32S, cv2.CCL_GRANA
        )
        if count <= 2:  # only the surrounding floor: no holes (most blobs)
            return blob
        h, w = blob.shape
        x, y, bw, bh, area = stats[1:].T
        small = area < HOLE_SHARE * self.calibration.size_prior.area_min
        inner = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & small
        holes = np.flatnonzero(inner) + 1
        if not holes.size:
            return blob
        return np.asarray(blob | np.isin(labels, holes), np.uint8)

    def _cast_shadow(self, value: npt.NDArray[np.float32], part: npt.NDArray[np.bool_]) -> bool:
        """Whether one part of a split blob, of colour ``value``, is a shadow on the floor, not a piece.

        Under a room lamp a standing pale piece's shadow is deep and dark beside it; the split gave the
        shadow a part of its own, and it was counted as a gray piece (a white read as gray and white).
        A shadow is the floor's colour (``SHADOW_CHROMA``), clearly darker (``SHADOW_DIM``) but not as
        dark as a black piece (``CAST_SHADOW_DEPTH``), and a crescent: narrower than ``SHADOW_THIN`` of a
        piece's radius, where a gray piece's part is about a piece wide.
        """
        brightness = float(value.mean())
        neutral = float(np.abs(value - brightness).max()) < SHADOW_CHROMA
        if not neutral or not -CAST_SHADOW_DEPTH < brightness < -SHADOW_DIM:
            return False
        width = float(cv2.distanceTransform(part.astype(np.uint8), cv2.DIST_L2, 5).max())
        return width < SHADOW_THIN * self.calibration.size_prior.radius

    def _piece_colour(self, refl: features.FloatImage, segment: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
        """A segment's colour (``piece_feature``), read without the shadow it casts when it is a coloured piece.

        Under a room lamp off to one side a standing piece casts a long shadow that touches it and joins
        its segment; the median of piece and shadow lies between the paint and the floor's colour, far
        from every colour (standing reds and oranges were reported unknown). A shadow is the floor's
        colour, darker (``SHADOW_CHROMA``, ``SHADOW_DEPTH``); a coloured piece (``PAINT_CHROMA``) is not,
        so when at least ``SHADOW_SHARE`` of its segment looks like shadow its colour is read from the
        rest, if that still covers ``_min_area`` (0.3 of the smallest calibrated piece). A neutral piece
        (gray, white) keeps every pixel: its own shaded side looks like a shadow.
        """
        value = piece_feature(refl, segment)
        if float(np.abs(value - value.mean()).max()) < PAINT_CHROMA:
            return value
        shade = _shade(refl[segment])  # the segment's pixels only, not its whole crop
        lit_area = len(shade) - int(shade.sum())
        if lit_area > (1 - SHADOW_SHARE) * len(shade) or lit_area < self._min_area:
            return value
        lit = segment.copy()
        lit[segment] = ~shade
        return piece_feature(refl, lit)

    def _solid(self, refl: features.FloatImage, blob: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The blob without its shadows: where the markers of its pieces belong.

        A shadow is the floor, darker: the floor's colour (no chroma, ``SHADOW_CHROMA``) at a lower
        brightness (``SHADOW_DEPTH``). Shadows pool between touching pieces, where the distance
        transform of the whole blob then peaks, a marker lands in the shadow and one of the pieces
        around it is lost. A gray piece is the floor's colour and darker too, but shaped like a
        piece, not a crescent: a shadow-coloured region whose distance transform reaches
        ``SHADOW_SOLID`` of a piece's radius stays.
        """
        shade = (blob > 0) & _shade(refl)
        if not shade.any():
            return blob
        shade_u8 = shade.astype(np.uint8)
        _, labels = cv2.connectedComponents(shade_u8)
        reach = np.asarray(cv2.distanceTransform(shade_u8, cv2.DIST_L2, 5), np.float32)
        solid = blob & ~shade_u8
        # the shadow-coloured regions reaching a gray piece's width: the labels found where it is that deep
        wide = np.unique(labels[reach >= SHADOW_SOLID * self.calibration.size_prior.radius])
        if wide.size:
            solid[np.isin(labels, wide[wide > 0])] = 1
        opened = np.asarray(cv2.morphologyEx(solid, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
        return self._fill_holes(opened)

    def _peaks(self, dist: features.FloatImage) -> list[tuple[int, int]]:
        """The local maxima of a distance transform at least ``_peak_min`` from the edge, one per plateau."""
        local_max = ((dist >= cv2.dilate(dist, self._peak_kernel)) & (dist >= self._peak_min)).astype(np.uint8)
        # a plateau or ridge of equal maxima is one candidate: keep its pixel farthest from the edge
        _, plateau = cv2.connectedComponents(local_max)
        ys, xs = np.nonzero(local_max)
        if not len(xs):
            return []
        labels = plateau[ys, xs]
        # per plateau its highest pixel, the first in raster order among equals (a stable sort keeps it)
        order = np.lexsort((-dist[ys, xs], labels))
        first = order[np.r_[True, labels[order][1:] != labels[order][:-1]]]
        return [(int(xs[i]), int(ys[i])) for i in first]

    def _split(
        self,
        crop: npt.NDArray[np.uint8],
        refl: features.FloatImage,
        blob: npt.NDArray[np.uint8],
        brightness_step: float,
        raw: npt.NDArray[np.uint8] | None = None,
    ) -> list[npt.NDArray[np.bool_]]:
        """Split one blob at the saddles of its distance transform (one marker per piece), by watershed;
        ``brightness_step`` as in ``_group_peaks``. A blob of several pieces (larger than
        ``RESPLIT_RATIO`` of a lying piece) takes its markers from the blob cut along its edges
        (``_edge_cut``, ``EDGE_CUT``) when any at least ``MARK`` deep are found there, plus the whole
        blob's own that lie farther than a piece's radius from all of them (a part the cut lost: a white
        clipped in the lit frame of a pair shows an edge across itself), and also gets the peaks of its
        shadow-free part (``_solid``) that lie far from every other peak. ``raw``: the blob before
        ``_complete`` filled its holes; the cut, the whole blob's markers and the shadow-free part keep a
        gap enclosed by touching pieces open, where the filled blob's distance would peak."""
        dist = np.asarray(cv2.distanceTransform(blob, cv2.DIST_L2, 5), np.float32)
        radius = self.calibration.size_prior.radius
        peaks = self._peaks(dist)
        cut = solid = None
        if blob.sum() > self._resplit_area:
            open_blob = blob if raw is None else blob & raw
            # the cut's own small holes (a pale piece's facets, a lying piece's seam) are filled again
            cut = np.asarray(
                cv2.distanceTransform(self._fill_holes(_edge_cut(crop, open_blob)), cv2.DIST_L2, 5), np.float32
            )
            cut_peaks = [(x, y) for x, y in self._peaks(cut) if cut[y, x] >= MARK * radius]
            if cut_peaks:
                whole = np.asarray(cv2.distanceTransform(open_blob, cv2.DIST_L2, 5), np.float32)
                peaks = cut_peaks + [(x, y) for x, y in self._peaks(whole)
                                     if all((x - px) ** 2 + (y - py) ** 2 > radius**2 for px, py in cut_peaks)]
            solid = np.asarray(cv2.distanceTransform(self._solid(refl, blob) & open_blob, cv2.DIST_L2, 5), np.float32)
            reach = radius
            for x, y in self._peaks(solid):
                if all((x - px) ** 2 + (y - py) ** 2 > reach**2 for px, py in peaks):
                    peaks.append((x, y))
        if len(peaks) <= 1:  # most blobs: one piece, nothing to group or split
            return [blob.astype(bool)]
        groups = _group_peaks(
            dist, refl, peaks, brightness_step, NEAR_PEAKS * radius, solid, APART * radius, self._peak_noise,
            self._ridge * radius, cut, CORE * radius,
        )
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
        kept = [p for p in parts if p.sum() >= self._min_area]
        kept.extend(self._unclaimed(refl, blob, markers == 1))
        # slivers are dropped, but never the whole blob: something is there even if it split badly
        return kept or [blob.astype(bool)]

    def _unclaimed(
        self, refl: features.FloatImage, blob: npt.NDArray[np.uint8], floor: npt.NDArray[np.bool_]
    ) -> list[npt.NDArray[np.bool_]]:
        """The pieces of a split blob that the watershed gave to the floor (``floor``): each region of the
        blob left to the floor that, without its shadows (``_solid``), is as wide as a gray piece
        (``SHADOW_SOLID`` of a piece's radius).

        The watershed floods from the floor around the blob too, so that shadows go to the floor; but under
        a warm lamp a beige's or a gray's colour is near the floor's, or its shadow's, and with no marker
        of its own (no distance peak: a cluster of touching pieces peaks between them) the whole piece went
        to the floor and was lost. Shadows are crescents, narrower than a piece.
        """
        left = ((blob > 0) & floor).astype(np.uint8)
        wide = SHADOW_SOLID * self.calibration.size_prior.radius
        reach = np.asarray(cv2.distanceTransform(left, cv2.DIST_L2, 5), np.float32)
        if float(reach.max()) < wide:
            return []  # nearly always: only shadows and edges went to the floor
        _, labels = cv2.connectedComponents(left, connectivity=4)
        found = np.unique(labels[reach >= wide])
        pieces = []
        for label in found[found > 0]:
            region = (labels == label).astype(np.uint8)
            # without the shadows it took along, when the piece is still as wide: its centre is the piece's
            solid = self._solid(refl, region)
            if float(cv2.distanceTransform(solid, cv2.DIST_L2, 5).max()) >= wide:
                region = solid
            if region.sum() >= self._min_area:
                pieces.append(region.astype(bool))
        return pieces

    def _covariances(self, shift: float) -> npt.NDArray[np.float64]:
        """Per colour, the 3x3 covariance of its model under light ``shift`` away from the calibration
        light: the pooled calibration scatter, an even widening (``LIGHT_SPREAD``), brightness alone
        (``BRIGHTNESS_SPREAD``, along (1, 1, 1)) and, without a colour matrix, the colour's own drift
        and channel noise (``DRIFT_SPREAD``, ``CHANNEL_NOISE``). The drift is taken in log terms as
        ``log(1 + s)`` of its linear estimate ``s``: a paint's channel moves by ``E @ r``, an amount added
        to its linear response, so a dark channel's log can rise a long way but not without bound (as
        ``s`` alone said: a yellow's blue, at black under the calibration light on some cameras, then
        spread so wide that the channel said nothing, and beiges read yellow and pinks orange)."""
        shared = self._covariance + np.eye(3) * (LIGHT_SPREAD * shift) ** 2 + self._brightness_spread**2
        own = np.log1p(DRIFT_SPREAD * shift * self._drift) ** 2 + self._channel_noise**2
        return np.asarray(shared[None, :, :] + own[:, :, None] * np.eye(3)[None, :, :], np.float64)

    def _teachers(
        self, found: list[tuple[npt.NDArray[np.float32], Clipping, Any, Any, Any]]
    ) -> tuple[list[npt.NDArray[np.float32]], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """The pieces that may teach ``_adapt`` this frame's light: their colours, and per channel whether it
        only says "at least this" (clipped at white) or "at most this" (near black, ``Clipping.dim``).

        Without a matrix the frame's channels are the models': a standing pink whose red clipped at a warm
        lamp still shows how its blue fell, and a yellow's blue near black (a few codes of noise and black
        level) may not teach that blue rose, but keeps it from rising; taken as seen, it held every blue
        where it was, and beiges whose blue fell read yellow. With a matrix a clipped frame channel moves
        every sensor channel, so a piece clipped anywhere (at white or at black) does not teach at all
        (teaching the other channels as bounds named 11 reds, yellows and pinks wrong under tungsten on a
        tuning tower).
        """
        if not self._linear_srgb:
            values = [value for value, clipping, *_ in found if not clipping.at_black_or_white()]
            unbounded = np.zeros((len(values), 3), bool)
            return values, unbounded, unbounded
        at_least = np.array([clipping.clipped for _, clipping, *_ in found], bool).reshape(-1, 3)
        at_most = np.array([clipping.dim for _, clipping, *_ in found], bool).reshape(-1, 3)
        return [value for value, *_ in found], at_least, at_most

    def _adapt(
        self,
        values: list[npt.NDArray[np.float32]],
        at_least: npt.NDArray[np.bool_],
        at_most: npt.NDArray[np.bool_],
        covariance: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float32]:
        """The 12 colour means as this frame's light shows them, learned from the pieces in the frame.

        Under light of another colour a gain per sensor channel (``features.light_gain``) is only the
        first step: for broadband sensors, light and paint mix across channels, which a 3x3 matrix on
        the linear sensor signal describes well (a surface's response under the new light is about
        ``T @`` its response under the old one). The floor pins ``T @ 1 = 1`` (rows sum to 1, six free
        entries); the pieces named confidently (``ADAPT_CONFIDENCE``) give the rest, by least squares
        on relative residuals (a red's dim blue counts as much as a white's; plain residuals let the
        bright pieces decide and threw the dark saturated colours far off) pulled firmly toward the
        identity (``ADAPT_RIDGE``: a frame's few pieces cannot drag it far; on the tuning scenes a
        light pull let noise in the pieces move colours more than the light did). A piece's channel
        marked ``at_least`` (clipped at white) or ``at_most`` (near black) only bounds the fit
        (``_fit_row``, ``_teachers``). Two rounds: name, fit ``T``, name again with the moved means.
        """
        means = self._means
        if len(values) < 2:
            return means
        refs = np.exp(self._means.astype(np.float64))  # linear responses relative to the floor
        # a moved mean goes no lower than ``DARK_FLOOR`` (or its calibrated response, if lower): a dark
        # channel the fit drove below black (a yellow's blue to 1e-4, log -9.2, under warm light) was
        # read, in log terms, as far from the frame's yellows as from anything, and they went orange
        floor = np.minimum(refs, DARK_FLOOR)
        observed = np.exp(np.asarray(values, np.float64))
        inv_cov = np.linalg.inv(covariance)
        for _ in range(2):
            delta = means[None, :, :] - np.asarray(values, np.float32)[:, None, :]
            d2 = np.einsum("nki,kij,nkj->nk", delta, inv_cov, delta)
            best = np.argmin(d2, axis=1)
            sure = np.array([_confidence(row) for row in d2]) >= ADAPT_CONFIDENCE
            if sure.sum() < 2:
                break
            x, y = refs[best[sure]], observed[sure]
            design = np.column_stack([x[:, 0] - x[:, 2], x[:, 1] - x[:, 2]])
            transform = np.eye(3)
            for row in range(3):
                bounds = at_least[sure, row], at_most[sure, row] & ~at_least[sure, row]
                transform[row] += _fit_row(design, x[:, row], y[:, row], *bounds)
            means = np.log(np.maximum(refs @ transform.T, floor)).astype(np.float32)
        return means

    def _as_the_camera_clips(
        self, means: npt.NDArray[np.float32], log_floor: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """The colour ``means`` as the camera shows them, clipped at black and white (``log_floor``: the
        lit floor's log signal at the piece, which says where black and white are).

        Under a warm or cool lamp a saturated paint's weakest channel can fall below the camera's black
        level (a yellow's blue, a red's green under tungsten: the camera's colour matrix makes them
        negative) while its strongest clips at white, and the frame holds 0 and 255 there; with the
        matrix undone those errors are mixed into every sensor channel, and a yellow read as beige. So
        the means go the same way as the frame: to the frame's linear sRGB (the camera's matrix,
        ``_forward``), clipped, back through the inverse and held at the signal's own floor of 1.
        Without a matrix that is each mean held between black and white.
        """
        floor = np.exp(log_floor.astype(np.float64))
        frame = self._in_the_frame(means, floor)
        signal = np.maximum(np.clip(frame, 0.0, features.LINEAR_SCALE) @ self._inverse64.T, 1.0)
        return np.asarray(np.log(signal / floor), np.float32)

    def _in_the_frame(
        self, colours: npt.NDArray[np.float32], floor: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """``colours`` (log reflectance, the last axis its channels) as the frame's linear sRGB where the lit
        floor's signal is ``floor``: through the camera's colour matrix (``_forward``), before any clipping."""
        return np.asarray((np.exp(colours.astype(np.float64)) * floor) @ self._forward.T, np.float64)

    def _classify(
        self,
        value: npt.NDArray[np.float32],
        clipping: Clipping,
        segment: npt.NDArray[np.bool_],
        origin: tuple[int, int],
        known: npt.NDArray[np.bool_],
        covariance: npt.NDArray[np.float64],
        frame_inverse: npt.NDArray[np.float64],
        means: npt.NDArray[np.float32],
        uniform: bool,
    ) -> list[Piece]:
        """Name one segment's colour (or unknown) from its log reflectance ``value``; a segment the size
        of several lying pieces repeats: its colour when it is ``uniform`` in colour, else the first copy
        has its colour and the others are unknown (pieces of several colours that could not be split:
        one name for all of them would be a guess).
        ``clipping``: the frame's channels clipped on this piece, at the top or at black."""
        ys, xs = np.nonzero(segment)
        area = len(xs)
        clipped, dark, log_floor, _ = clipping
        # with a matrix for every piece, since a clipped channel of the frame moves all three sensor
        # channels (and a piece's own pixels need not be half clipped for its colour's model to be);
        # without one only for a piece clipped at black (for every piece it cost accuracy on a tuning tower)
        as_the_camera = bool(not self._linear_srgb or dark.any())
        if clipped.any():
            d2 = self._lit_distances(value, clipping, means, known, covariance, as_the_camera)
        else:
            seen = self._as_the_camera_clips(means, log_floor) if as_the_camera else means
            delta = seen - value
            if not known.all():  # channels whose light gain is unknown (clipped floor) cannot compare colours
                delta = delta[:, known]
                covariance = covariance[:, known][:, :, known]
            # the frame's inverse serves every piece with all channels compared in full
            inv_cov = np.linalg.inv(covariance) if not known.all() else frame_inverse
            d2 = np.einsum("ki,kij,kj->k", delta, inv_cov, delta)
        if not self._linear_srgb and clipping.dim.any() and _margin(d2) < DIM_TIE:
            d2 = d2 + self._dim_mismatch(value, clipping, means)
        best = int(np.argmin(d2))
        confidence = _confidence(d2)
        colour = self._names[best] if confidence >= MIN_CONFIDENCE else "unknown"
        contours, _ = cv2.findContours(segment.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        points = max(contours, key=cv2.contourArea).reshape(-1, 2) + np.array(origin)
        outline = list(map(tuple, points.tolist()))
        copies = int(round(area / self.calibration.size_prior.area_large)) if area > self._copies_area else 1
        x, y = float(xs.mean()) + origin[0], float(ys.mean()) + origin[1]
        first = Piece(colour, confidence, x, y, outline)
        if uniform:
            return [first] * copies
        # pieces of several colours that could not be split: the median's colour is one of them
        return [first] + [Piece("unknown", FAR_CONFIDENCE, x, y, outline)] * (copies - 1)

    def _lit_distances(
        self,
        value: npt.NDArray[np.float32],
        clipping: Clipping,
        means: npt.NDArray[np.float32],
        known: npt.NDArray[np.bool_],
        covariance: npt.NDArray[np.float64],
        as_the_camera: bool,
    ) -> npt.NDArray[np.float64]:
        """Squared distances of a piece with a channel clipped at white to the 12 colours, each colour lit
        as brightly as explains the piece best (``LIT_LIFT``, penalised as ``BRIGHTNESS_SPREAD`` says) and
        only then clipped as the camera clips (``as_the_camera``); without the camera's colour matrix no lift.

        A clipped channel only says "at least this bright", and a piece that bright is lit, not shaded:
        a brightness spread in both directions let a clipped white pass for a gray. But with none, a
        standing pink whose head near a warm lamp clipped its red read beige: its other channels were
        0.45 above its calibrated pink, a brightness the model no longer allowed. So each colour may be
        brightened, never darkened, and is clipped after that, as the frame was.
        """
        clipped = clipping.clipped
        covariance = covariance - self._brightness_spread**2
        if not known.all():  # channels whose light gain is unknown (clipped floor) cannot compare colours
            covariance = covariance[:, known][:, :, known]
        inv_cov = np.linalg.inv(covariance)
        # without a matrix no lift: on a tuning tower it named a few more pieces wrong there
        lifts = np.linspace(0.0, LIT_LIFT, LIT_STEPS) if not self._linear_srgb else np.zeros(1)
        lit = means[None, :, :] + lifts[:, None, None].astype(np.float32)  # every lift at once
        if as_the_camera:
            lit = self._as_the_camera_clips(lit, clipping.log_floor)
        delta = lit - value
        delta[:, :, clipped] = np.minimum(delta[:, :, clipped], 0.0)
        delta = delta[:, :, known]
        d2 = np.einsum("lki,kij,lkj->lk", delta, inv_cov, delta) + (lifts[:, None] / self._brightness_spread) ** 2
        return np.asarray(d2.min(axis=0), np.float64)

    def _dim_mismatch(
        self, value: npt.NDArray[np.float32], clipping: Clipping, means: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float64]:
        """Per colour, how far what it would show in the frame's channels that are near black on this piece
        (``Clipping.dim``) exceeds what the piece shows there, squared, in ``DIM_SPREAD`` units of log
        (with the camera's colour matrix only).

        Under a warm lamp a red's green and blue fall below the camera's black and only its red is left:
        undoing the matrix spreads that one channel into all three sensor channels, where a bright red
        and a dim orange lie almost on one line, and standing reds whose heads were lit brighter read
        orange. The frame still told them apart: the red showed black in green where an orange shows
        code 60-70. So each colour is taken to the frame's linear sRGB (``_forward``), scaled to the
        piece's brightness in its brightest channel that is neither near black nor clipped, and what it
        shows in the piece's channels near black is compared with the piece's own level there, plus the
        noise near black (``DIM_NOISE``): only an excess counts, since a colour darker there than black
        looks black too. When no colour explains the black (every one in excess), the channel says
        nothing: through a perturbed matrix under a cool lamp a yellow's frame blue is a small difference
        of large sensor terms, and every model showed code 70 where the yellows showed 5 (they went
        unknown).
        """
        floor = np.exp(clipping.log_floor.astype(np.float64))
        piece, models = self._in_the_frame(value, floor), self._in_the_frame(means, floor)
        lit = np.flatnonzero(~clipping.dim & ~clipping.clipped)
        if not lit.size:
            return np.zeros(len(means))
        reference = int(lit[np.argmax(piece[lit])])
        scale = piece[reference] / np.maximum(models[:, reference], 1e-6)  # each colour as bright as the piece
        shown = np.maximum(models[:, clipping.dim], 0.0) * scale[:, None]
        level = np.maximum(piece[clipping.dim], 0.0)
        excess = np.maximum(np.log((shown + DIM_NOISE) / (level + DIM_NOISE)), 0.0)
        mismatch = ((excess / DIM_SPREAD) ** 2).sum(axis=1)
        if mismatch.min() > 1.0:  # no colour explains the black
            return np.zeros(len(means))
        return np.asarray(mismatch, np.float64)


class Clipping(NamedTuple):
    """The frame's channels (B, G, R) clipped on one piece: at the top of the range, and at black; and the
    floor's level there, which says where black is."""

    clipped: npt.NDArray[np.bool_]
    dark: npt.NDArray[np.bool_]
    log_floor: npt.NDArray[np.float32]
    """``log`` of the lit floor's signal at the piece (``features.log_lit_floor``)."""
    dim: npt.NDArray[np.bool_]
    """The channels near black on the piece (``DIM_CODE``), where a colour's excess is weighed
    (``Detector._dim_mismatch``)."""

    def at_black_or_white(self) -> bool:
        """Whether any channel is clipped at the top or at black (with a matrix such a piece does not teach
        ``Detector._adapt``)."""
        return bool((self.clipped | self.dark).any())


def _fit_row(
    design: npt.NDArray[np.float64],
    before: npt.NDArray[np.float64],
    after: npt.NDArray[np.float64],
    at_least: npt.NDArray[np.bool_],
    at_most: npt.NDArray[np.bool_],
) -> npt.NDArray[np.float64]:
    """One row of ``Detector._adapt``'s colour transform as ``(e0, e1, -e0 - e1)``: the change that takes the
    pieces' channel from ``before`` (calibrated response) to ``after`` (this frame's), by ridge least squares
    on relative residuals (``ADAPT_RIDGE``: a dark channel, a red's blue, weighs as much as a bright one).

    A piece whose channel is clipped at white (``at_least``) or near black (``at_most``) only bounds it: it
    is left out of the fit unless the fit breaks its bound, and then fitted again with it.
    """
    weight = 1.0 / np.maximum(after, 1e-3)
    weighted, residual = design * weight[:, None], (after - before) * weight

    def solve(taught: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        rows = weighted[taught]
        return np.asarray(np.linalg.solve(rows.T @ rows + ADAPT_RIDGE * np.eye(2), rows.T @ residual[taught]))

    free = ~(at_least | at_most)
    change = solve(free)
    predicted = before + design @ change
    broken = (at_least & (predicted < after)) | (at_most & (predicted > after))
    if broken.any():
        change = solve(free | broken)
    return np.array([change[0], change[1], -change[0] - change[1]])


def _margin(d2: npt.NDArray[np.float64]) -> float:
    """How much farther the second nearest colour is than the nearest (squared distances ``d2``; infinite
    when only one colour is calibrated)."""
    if d2.size < 2:
        return float("inf")
    nearest, second = np.partition(d2, 1)[:2]
    return float(second - nearest)


def _confidence(d2: npt.NDArray[np.float64]) -> float:
    """Probability that the nearest colour is the piece's colour, from its Mahalanobis distances ``d2``.

    Two things make a name doubtful: a second colour nearly as near (small margin), and no colour
    near at all (an unfamiliar paint, a shadow, two pieces read as one; beyond ``MAX_DISTANCE`` the
    piece is unknown with ``FAR_CONFIDENCE``). A logistic model on
    ``sqrt(margin)`` and ``log(1 + nearest)`` turns them into a probability; its coefficients were
    fitted on the tuning split of ``vision.physical`` (``python -m vision.physical.fit_confidence``),
    never on the held-out split, so that a piece reported at 0.9 is right about 90 % of the time.
    """
    nearest = float(d2.min())
    if nearest > MAX_DISTANCE**2:  # the tuning scenes hold no unfamiliar paints to learn this from
        return FAR_CONFIDENCE
    margin = min(_margin(d2), MARGIN_CAP)
    logit = CONFIDENCE_MODEL[0] + CONFIDENCE_MODEL[1] * np.sqrt(margin) + CONFIDENCE_MODEL[2] * np.log1p(nearest)
    return float(1.0 / (1.0 + np.exp(-logit)))


def _shade(colours: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which colours (log reflectance, the last axis its channels) look like a shadow: the floor's colour
    (no chroma, ``SHADOW_CHROMA``) at a lower brightness, down to ``SHADOW_DEPTH``."""
    # channel by channel rather than reductions over a last axis of 3, which numpy runs 3-9 times slower;
    # the same sum in the same order, so the same bits as ``colours.mean(axis=-1)``
    blue, green, red = colours[..., 0], colours[..., 1], colours[..., 2]
    brightness = (blue + green + red) / np.float32(3)
    chroma = np.maximum(np.maximum(np.abs(blue - brightness), np.abs(green - brightness)), np.abs(red - brightness))
    return np.asarray((chroma < SHADOW_CHROMA) & (brightness > -SHADOW_DEPTH) & (brightness < 0))


def _uniform(refl: features.FloatImage, segment: npt.NDArray[np.bool_], value: npt.NDArray[np.float32]) -> bool:
    """Whether most of a segment (``UNIFORM_SHARE`` of its pixels) has the colour ``value`` of its
    median: the same hue and saturation (``UNIFORM_CHROMA``), and a brightness within
    ``UNIFORM_BRIGHTNESS`` (shading spreads it)."""
    delta = refl[segment][::2] - value
    chroma = np.abs(delta - delta.mean(axis=1, keepdims=True)).max(axis=1)
    alike = (chroma < UNIFORM_CHROMA) & (np.abs(delta.mean(axis=1)) < UNIFORM_BRIGHTNESS)
    return bool(alike.mean() >= UNIFORM_SHARE)


def _off_the_floor(refl: features.FloatImage, segment: npt.NDArray[np.bool_], threshold: float) -> bool:
    """Whether at least ``OFF_FLOOR_SHARE`` of a segment's pixels differ from the floor in colour (any
    channel's log reflectance beyond the foreground ``threshold``), not only by clipping.

    Under a warm lamp the floor's red can lie a few codes below white where the lamp is near; noise
    then clips scattered floor pixels there, the foreground's rule for clipped highlights takes them,
    and closing joins them into blobs the size of a piece, read as beige pieces that were not there.
    Their colour is the floor's everywhere; every piece has a third or more of its pixels off it (the
    least on the tuning towers under warm light: a standing beige, 36 %).
    """
    pixels = refl[segment][::2]
    off = (np.abs(pixels[:, 0]) > threshold) | (np.abs(pixels[:, 1]) > threshold) | (np.abs(pixels[:, 2]) > threshold)
    return bool(off.mean() >= OFF_FLOOR_SHARE)


def _colour_shift(gain: npt.NDArray[np.float32]) -> float:
    """How far this frame's light is from the calibration light in colour (not brightness): the largest
    per-channel log gain once the mean (brightness) is taken out."""
    return float(np.abs(gain - gain.mean()).max())


def _edge_cut(crop: npt.NDArray[np.uint8], blob: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``blob`` without its edges: the pixels where the frame's gradient (3x3 Gaussian, then Sobel, summed
    over the channels) is at least ``EDGE_CUT`` of the blob's 99th percentile, opened by 3x3 so that thin
    bridges go too. Each piece's outline is such an edge, so touching pieces fall apart into their cores."""
    frame = cv2.GaussianBlur(crop.astype(np.float32), (3, 3), 0)
    gx = cv2.Sobel(frame, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(frame, cv2.CV_32F, 0, 1, ksize=3)
    gradient = np.sqrt((gx**2 + gy**2).sum(axis=2))
    inside = blob > 0
    cut = (inside & (gradient < EDGE_CUT * np.percentile(gradient[inside], 99))).astype(np.uint8)
    return np.asarray(cv2.morphologyEx(cut, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)


def _group_peaks(
    dist: features.FloatImage,
    refl: features.FloatImage,
    peaks: list[tuple[int, int]],
    brightness_step: float,
    near: float,
    solid: features.FloatImage | None = None,
    apart: float = np.inf,
    noise: float = 0.0,
    ridge: float = 0.0,
    cut: features.FloatImage | None = None,
    core: float = 0.0,
) -> list[list[tuple[int, int]]]:
    """Group distance-transform maxima that lie on one piece: same colour and no saddle between them.

    Two maxima belong to the same piece when the distance never drops below ``SADDLE`` of the lower
    peak along the straight line between them (a lying piece's ridge; two touching pieces have a
    narrow neck there) and their surroundings have the same colour (touching pieces of two colours
    can meet along a wide edge): within ``COLOUR_STEP``, or of the same hue and saturation
    (``COLOUR_STEP`` on the log reflectance minus its mean) and within ``brightness_step`` in
    brightness, since shading across one piece moves its log reflectance a long way, most of all in
    linear sensor signal (``brightness_step`` 0 turns this last rule off, as for 8-bit frames).
    Maxima closer than ``near`` (``NEAR_PEAKS`` of a piece's radius) with no saddle between them are
    one piece whatever their colours say: two pieces' centres lie a piece's width apart, while on a
    black piece the log of a signal near zero makes hue noise. Maxima at least ``apart`` from each other,
    not both grey and dark (a gray piece, a shadow), must also have no saddle (``SOLID_SADDLE``) in
    ``solid``, the distance transform of the blob's shadow-free part, when it is given: shadows can fill
    the neck between two touching pieces of one colour. Two groups are not joined when a maximum of
    one and a maximum of the other differ in colour and have a saddle between them: a maximum in the
    shadow between a beige and a pink standing together was alike to each, and the two read as one
    pink (not asked of maxima darker than ``DARK_HUE``: a black piece's hue is noise). Colours (but not
    brightness) are compared with ``noise`` (linear, ``PEAK_NOISE``) added to each channel and a channel
    below ``HUE_FLOOR`` of the brightest held there (``_with_noise``), without the camera's matrix: there
    a saturated paint's dark channel is near black, and its noise is not. Maxima of one colour closer
    than ``ridge`` (``RIDGE`` of a piece's radius, without the matrix) may have a lower saddle
    (``RIDGE_SADDLE``): a lying white's blob can be waisted where its shaded edge went to the floor.
    With ``cut``, the distance transform of the blob cut along its edges (``_edge_cut``), two maxima with
    a saddle in it also stay apart when both lie ``core`` or more inside the cut (two whole pieces of one
    colour), or when one does and they differ in shade (``COLOUR_STEP`` in some channel, brightness
    included); two thin parts of another shade each are a lying piece's lit and shaded faces.
    """
    colours = _patch_colours(refl, peaks)
    chroma = colours - colours.mean(axis=1, keepdims=True)
    brightness = colours.mean(axis=1)
    # per pair of maxima (all at once): alike in colour, or near enough to be one piece whatever it says
    # the noise blurs hue, not brightness: a black beside a gray stays darker by as much as it was
    compared = _with_noise(colours, noise) if noise else colours
    same_colour = _alike(compared, brightness, brightness_step)
    same_shade = _alike(compared, brightness, 0.0)  # within ``COLOUR_STEP`` in every channel, brightness too
    # with ``cut``: both maxima whole pieces' cores, or one is and they differ in shade
    cores = np.array([cut is not None and float(cut[y, x]) >= core for x, y in peaks])
    either_core = cores[:, None] | cores[None, :]
    apart_in_cut = (cores[:, None] & cores[None, :]) | (either_core & ~same_shade)
    xy = np.asarray(peaks, np.int64)
    squared = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2)
    close = squared < near**2
    # one colour, a lying piece's length apart: one piece unless the distance falls below ``RIDGE_SADDLE``
    share = np.where(same_colour & (squared < ridge**2), RIDGE_SADDLE, SADDLE)
    # a gray piece or a shadow: about grey (``PAINT_CHROMA``) and darker than the floor
    dim_grey = (np.abs(chroma).max(axis=1) < PAINT_CHROMA) & (brightness < 0)
    shadow_free = (squared >= apart**2) & ~(dim_grey[:, None] & dim_grey[None, :])
    group = list(range(len(peaks)))  # each maximum's group, by one of its members
    members = {i: [i] for i in range(len(peaks))}
    hue = brightness > -DARK_HUE

    def saddle(i: int, j: int, image: features.FloatImage = dist, share: float = SADDLE) -> bool:
        """Whether ``image`` falls below ``share`` of the lower of maxima ``i`` and ``j`` on the line between them."""
        (xa, ya), (xb, yb) = peaks[i], peaks[j]
        steps = max(abs(xb - xa), abs(yb - ya)) + 1
        t = np.arange(steps) / max(1, steps - 1)
        line_y, line_x = np.rint(ya + (yb - ya) * t).astype(np.intp), np.rint(xa + (xb - xa) * t).astype(np.intp)
        return float(image[line_y, line_x].min()) < share * min(float(image[ya, xa]), float(image[yb, xb]))

    for i in range(len(peaks)):
        for j in range(i + 1, len(peaks)):
            if group[i] == group[j] or not (same_colour[i, j] or close[i, j]) or saddle(i, j, dist, share[i, j]):
                continue
            if solid is not None and shadow_free[i, j] and saddle(i, j, solid, SOLID_SADDLE):
                continue
            if cut is not None and apart_in_cut[i, j] and saddle(i, j, cut):
                continue
            kept, joined = group[i], group[j]
            # two pieces of two colours with a neck between them stay two, though a maximum in the shadow
            # between them is alike to each
            if any(
                not (same_colour[p, q] or close[p, q]) and hue[p] and hue[q] and saddle(p, q)
                for p in members[kept]
                for q in members[joined]
            ):
                continue
            for q in members[joined]:
                group[q] = kept
            members[kept].extend(members.pop(joined))
    return [[peaks[i] for i in sorted(m)] for m in sorted(members.values(), key=min)]


def _alike(
    colours: npt.NDArray[np.float32], brightness: npt.NDArray[np.float32], brightness_step: float
) -> npt.NDArray[np.bool_]:
    """Per pair of ``colours`` (log), whether they may be one piece's: within ``COLOUR_STEP`` in every
    channel, or of the same hue and saturation and within ``brightness_step`` in ``brightness`` (shading)."""
    chroma = colours - colours.mean(axis=1, keepdims=True)
    step = np.abs(colours[:, None, :] - colours[None, :, :]).max(axis=2)
    chroma_step = np.abs(chroma[:, None, :] - chroma[None, :, :]).max(axis=2)
    return np.asarray(
        (step < COLOUR_STEP)
        | ((chroma_step < COLOUR_STEP) & (np.abs(brightness[:, None] - brightness[None, :]) < brightness_step))
    )


def _with_noise(colours: npt.NDArray[np.float32], noise: float) -> npt.NDArray[np.float32]:
    """``colours`` (log reflectance) with each channel held at ``HUE_FLOOR`` of its colour's brightest one
    or more, and ``noise`` (linear, relative to the floor: ``PEAK_NOISE``) added to every channel: a channel
    that dark says little, and its noise no longer moves its log far. (A pale colour has no channel that
    far below its brightest: the floor leaves it as it was.)"""
    linear = np.exp(colours.astype(np.float64))
    linear = np.maximum(linear, HUE_FLOOR * linear.max(axis=1, keepdims=True))
    return np.asarray(np.log(linear + noise), np.float32)


def _patch_colours(refl: features.FloatImage, peaks: list[tuple[int, int]]) -> npt.NDArray[np.float32]:
    """Per maximum, the median log reflectance of the 7x7 patch around it (clipped at the crop's edge):
    one median over all patches at once when none is clipped (nearly always), else one per patch."""
    h, w = refl.shape[:2]
    if all(3 <= x < w - 3 and 3 <= y < h - 3 for x, y in peaks):
        patches = np.stack([refl[y - 3 : y + 4, x - 3 : x + 4].reshape(-1, 3) for x, y in peaks])
        return np.asarray(np.median(patches, axis=1), np.float32)
    return np.asarray(
        [np.median(refl[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4].reshape(-1, 3), axis=0) for x, y in peaks],
        np.float32,
    )


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
