"""Calibration: learn the tray floor, the 12 colour models and the piece size from a few frames.

Input: one frame of the empty tray plus, per colour, one or more frames showing 1–6 separated
pieces of that colour, all under the light the tower will use (camera exposure and white balance
then locked). Output: a versioned ``Calibration`` saved as JSON. A file of another version is
refused with a clear error rather than misread.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion import COLOURS
from vision import features
from vision.colour_matrix import read_sidecar, validate
from vision.errors import (
    CalibrationError,
    CalibrationFileDamaged,
    CalibrationFileMissing,
    FrameSizeMismatch,
    PieceNotFound,
)

CALIBRATION_VERSION = 2
"""Bumped whenever the meaning of a field changes; ``Calibration.load`` refuses other versions. Version
2 (issue 26): the floor and colours are in linear light even without a colour matrix."""

#: Smallest foreground threshold (log ratio) whatever the empty tray's noise says.
MIN_THRESHOLD = 0.05
#: Spread (log ratio) below which no colour model's covariance may shrink: calibration sees few pieces.
MIN_SIGMA = 0.05


@dataclass(frozen=True)
class SizePrior:
    """Piece size learned from the calibration frames (single, separated pieces)."""

    area_median: float
    area_min: float
    area_max: float
    area_large: float
    """75th percentile of the single-piece areas: about one lying piece with its shadow."""
    radius: float
    """Median of each piece's largest inscribed radius (half a piece's width), in px."""


@dataclass(frozen=True)
class ColourModel:
    """One colour: mean log reflectance (B, G, R relative to the floor) and how many pieces taught it."""

    mean: list[float]
    pieces: int


@dataclass(frozen=True)
class CameraSettings:
    """Camera controls to lock for this calibration (Picamera2 names); ``None`` when unknown (files)."""

    exposure_time_us: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple[float, float] | None = None
    lens_position: float | None = None
    colour_matrix: list[list[float]] | None = None
    """The camera's locked 3x3 colour correction matrix (sensor RGB -> sRGB, Picamera2's
    ``ColourCorrectionMatrix`` metadata). With it the detector undoes the sRGB curve and this matrix,
    and compares colours in the sensor's own linear space, where a change of light scales each channel
    (see ``features.sensor_signal``). ``None`` (image files, a camera that reports none): frames are
    compared in the camera's linear sRGB, with a full 3x3 light change (``features.sensor_matrix``)."""


@dataclass(frozen=True)
class Calibration:
    """Everything the detector needs for one tower: floor model, colours, sizes, thresholds, camera."""

    width: int
    height: int
    floor: list[list[list[float]]]
    """Coarse floor model (``features.GRID``-px cells, BGR), light-normalised by the detector."""
    colours: dict[str, ColourModel]
    covariance: list[list[float]]
    """Pooled within-colour covariance of the log reflectance (3x3)."""
    threshold: float
    """Foreground threshold on the largest per-channel |log reflectance|."""
    size_prior: SizePrior
    camera: CameraSettings = field(default_factory=CameraSettings)
    version: int = CALIBRATION_VERSION

    def floor_array(self) -> features.FloatImage:
        """The coarse floor model as a float32 array."""
        return np.asarray(self.floor, dtype=np.float32)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the on-disk form)."""
        return asdict(self)

    def save(self, path: Path) -> None:
        """Write the calibration as JSON to ``path``."""
        path.write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any, source: str = "calibration") -> Calibration:
        """Rebuild a calibration from its JSON dict; refuse another version or a malformed file."""
        if not isinstance(data, dict):
            raise CalibrationFileDamaged(f"{source}: not a keshi vision calibration (expected a JSON object)")
        version = data.get("version")
        if version != CALIBRATION_VERSION:
            raise CalibrationFileDamaged(
                f"{source}: calibration version {version!r} is not supported (this keshi reads version "
                f"{CALIBRATION_VERSION}); run 'keshi vision calibrate' again", version
            )
        try:
            colours = {name: ColourModel(**model) for name, model in data["colours"].items()}
            camera = data.get("camera") or {}
            if camera.get("colour_gains") is not None:
                camera["colour_gains"] = tuple(camera["colour_gains"])
            calibration = cls(
                width=int(data["width"]),
                height=int(data["height"]),
                floor=data["floor"],
                colours=colours,
                covariance=data["covariance"],
                threshold=float(data["threshold"]),
                size_prior=SizePrior(**data["size_prior"]),
                camera=CameraSettings(**camera),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationFileDamaged(f"{source}: malformed calibration ({exc})") from None
        missing = [c for c in COLOURS if c not in colours]
        if missing:
            raise CalibrationFileDamaged(f"{source}: calibration lacks colours {', '.join(missing)}")
        return calibration

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """Read a calibration file; a missing, non-JSON or other-version file is a ``CalibrationError``."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationFileMissing(f"{path}: calibration file not found", path) from None
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CalibrationFileDamaged(f"{path}: not a JSON calibration file ({exc})") from None
        return cls.from_json(data, str(path))


def _pieces(mask: npt.NDArray[np.uint8], min_area: float) -> list[npt.NDArray[np.bool_]]:
    """Connected foreground blobs of at least ``min_area`` px, each as a boolean mask."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [labels == i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= min_area]


def foreground(log_refl: features.FloatImage, threshold: float, frame: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Pixels that differ from the floor (or are clipped where the floor is not), cleaned by morphology.

    Written with OpenCV range tests on all three channels at once rather than numpy reductions, and
    the test for clipped highlights only when something clips: this runs on every pixel of every frame.
    """
    differs = cv2.bitwise_not(cv2.inRange(log_refl, (-threshold,) * 3, (threshold,) * 3))  # 255: off the floor
    unclipped = cv2.inRange(frame, (0, 0, 0), (features.CLIPPED - 1,) * 3)  # 255: no channel clipped
    if cv2.countNonZero(unclipped) < unclipped.size:  # clipped pixels count where lighter than the floor
        not_brighter = cv2.inRange(log_refl, (-np.inf,) * 3, (0.02,) * 3)  # 255: no channel lighter
        differs = cv2.bitwise_or(differs, cv2.bitwise_not(cv2.bitwise_or(unclipped, not_brighter)))
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    opened = cv2.morphologyEx(differs, cv2.MORPH_OPEN, ellipse)
    closed = np.asarray(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, ellipse), np.uint8)
    return np.bitwise_and(closed, 1, out=closed)  # 0 / 1 (a bit test, not numpy's slow division by 255)


#: What ``piece_feature`` erodes a piece by: its edges and the shadow at its foot.
_INTERIOR = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))


def piece_feature(log_refl: features.FloatImage, piece: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    """A piece's colour: the median log reflectance over its interior (edges and shadows eroded away)."""
    # a boolean mask is 0/1 bytes: viewed as such, OpenCV erodes it with no conversion copy either way
    inner = cv2.erode(piece.view(np.uint8), _INTERIOR)
    use = inner.view(np.bool_) if cv2.countNonZero(inner) >= 20 else piece
    # every 2nd pixel: same median, half the work; channels as contiguous rows sort faster
    return np.median(np.ascontiguousarray(log_refl[use][::2].T), axis=1).astype(np.float32)


def calibrate(
    empty: npt.NDArray[np.uint8],
    colour_frames: dict[str, list[npt.NDArray[np.uint8]]],
    camera: CameraSettings | None = None,
) -> Calibration:
    """Learn a ``Calibration`` from the empty-tray frame and 1+ frames per colour (all 12 required)."""
    missing = [c for c in COLOURS if not colour_frames.get(c)]
    if missing:
        raise CalibrationError(f"calibration frames missing for colours: {', '.join(missing)}")
    if camera is not None and camera.colour_matrix is not None:  # as from a file: never a silent wrong matrix
        validate(camera.colour_matrix, "the camera's colour matrix")
    height, width = empty.shape[:2]
    inverse = features.sensor_matrix(camera.colour_matrix if camera else None)
    floor_small = features.coarse(features.sensor_signal(empty, inverse))
    log_floor = np.log(features.expand(floor_small, width, height))
    empty_refl = features.log_reflectance(features.sensor_signal(empty, inverse), log_floor)
    noise = float(np.percentile(np.abs(empty_refl).max(axis=2), 99.9))
    threshold = max(MIN_THRESHOLD, 2.5 * noise)

    means: dict[str, ColourModel] = {}
    residuals: list[npt.NDArray[np.float32]] = []
    areas: list[float] = []
    radii: list[float] = []
    for colour in COLOURS:
        samples: list[npt.NDArray[np.float32]] = []
        for index, frame in enumerate(colour_frames[colour]):
            if frame.shape != empty.shape:
                raise FrameSizeMismatch(
                    f"{colour} frame {index + 1} is {frame.shape[1]}x{frame.shape[0]}, "
                    f"the empty tray is {width}x{height}", (frame.shape[1], frame.shape[0]), (width, height), colour
                )
            signal = features.sensor_signal(frame, inverse)
            camera_small = features.coarse(frame)
            gain, _ = features.light_gain(features.floor_log_ratio(features.coarse(signal), floor_small), camera_small)
            refl = features.log_reflectance(signal, log_floor + gain)
            for piece in _pieces(foreground(refl, threshold, frame), min_area=400):
                samples.append(piece_feature(refl, piece))
                areas.append(float(piece.sum()))
                dist = cv2.distanceTransform(piece.astype(np.uint8), cv2.DIST_L2, 5)
                radii.append(float(dist.max()))
        if not samples:
            raise PieceNotFound(colour)
        stacked = np.stack(samples)
        mean = stacked.mean(axis=0)
        means[colour] = ColourModel(mean=[round(float(v), 5) for v in mean], pieces=len(samples))
        residuals.extend(stacked - mean)
    scatter = np.cov(np.stack(residuals).T) if len(residuals) > 3 else np.zeros((3, 3))
    covariance = scatter + np.eye(3) * MIN_SIGMA**2
    size = SizePrior(
        area_median=float(np.median(areas)),
        area_min=float(np.min(areas)),
        area_max=float(np.max(areas)),
        area_large=float(np.percentile(areas, 75)),
        radius=float(np.median(radii)),
    )
    return Calibration(
        width=width,
        height=height,
        floor=np.round(floor_small, 2).tolist(),
        colours=means,
        covariance=np.round(covariance, 7).tolist(),
        threshold=round(threshold, 4),
        size_prior=size,
        camera=camera or CameraSettings(),
    )


_FRAME_NAME = re.compile(r"^(?P<colour>[a-z]+)(?:-(?P<n>\d+))?\.(?:png|jpe?g|bmp|tiff?)$", re.IGNORECASE)


def calibrate_folder(cal_dir: Path, colour_matrix: list[list[float]] | None = None) -> Calibration:
    """Calibrate from a folder holding ``empty.png`` and ``<colour>.png`` / ``<colour>-<n>.png`` frames.

    ``colour_matrix`` (already validated, ``vision.colour_matrix``) is the camera's; without it the
    folder's ``camera.json`` sidecar supplies one when present, else the calibration has none.
    """
    from vision.sources import read_image

    if not cal_dir.is_dir():
        raise CalibrationError(f"{cal_dir}: calibration folder not found")
    empty_path = next((p for p in sorted(cal_dir.iterdir()) if p.stem.lower() == "empty"), None)
    if empty_path is None:
        raise CalibrationError(f"{cal_dir}: no empty.png (a frame of the empty tray)")
    frames: dict[str, list[npt.NDArray[np.uint8]]] = {}
    for path in sorted(cal_dir.iterdir()):
        match = _FRAME_NAME.match(path.name)
        if match and match["colour"].lower() in COLOURS:
            frames.setdefault(match["colour"].lower(), []).append(read_image(path))
    missing = [c for c in COLOURS if c not in frames]
    if missing:
        raise CalibrationError(f"{cal_dir}: no frame for colour(s) {', '.join(missing)} (<colour>.png)")
    matrix = colour_matrix if colour_matrix is not None else read_sidecar(cal_dir)
    camera = CameraSettings(colour_matrix=matrix) if matrix is not None else None
    return calibrate(read_image(empty_path), frames, camera)
