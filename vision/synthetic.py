"""A synthetic tower base: top-down tray frames with keshis, under chosen light, with known truth.

Used by the simulated tower (its frames go through the real detector), by the tests and by the
accuracy benchmark. The model is deliberately simple but has what breaks naive detectors: a
textured floor with lens falloff, standing octagons and lying side views (faceted shading), soft
shadows, pieces touching each other (same colour included), sensor noise and blur, and light that
is brighter/dimmer or warmer/cooler while the camera's white balance stays locked (per-channel gains).

Colours are stored as reflectance relative to the floor (B, G, R), roughly as a light-grey tray
and the painted wooden keshis look through a camera.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion import COLOURS

WIDTH, HEIGHT = 640, 480
FLOOR_BGR = (170.0, 173.0, 173.0)
STANDING_D = 44.0
LYING_L = 68.0

#: Reflectance relative to the floor (B, G, R) of each colour.
REFLECTANCE: dict[str, tuple[float, float, float]] = {
    "yellow": (0.10, 1.00, 1.12),
    "orange": (0.15, 0.64, 1.07),
    "purple": (0.64, 0.30, 0.46),
    "pink": (0.77, 0.60, 1.01),
    "beige": (0.79, 0.96, 1.05),
    "red": (0.21, 0.25, 0.83),
    "brown": (0.20, 0.37, 0.55),
    "green": (0.27, 0.70, 0.34),
    "gray": (0.62, 0.62, 0.62),
    "white": (1.20, 1.20, 1.20),
    "black": (0.17, 0.17, 0.17),
    "turquoise": (0.87, 0.79, 0.38),
}

#: Per-channel (B, G, R) gain of light of a colour temperature, the white balance locked at 5000 K.
_TEMPERATURE_GAINS = {3000: (0.68, 0.93, 1.22), 5000: (1.0, 1.0, 1.0), 6500: (1.14, 1.02, 0.90)}


@dataclass(frozen=True)
class Lighting:
    """The light of one frame: brightness factor and colour temperature (3000, 5000 or 6500 K)."""

    brightness: float = 1.0
    temperature: int = 5000

    def gains(self) -> npt.NDArray[np.float32]:
        """Per-channel (B, G, R) multipliers this light applies to the calibration-light image."""
        if self.temperature not in _TEMPERATURE_GAINS:
            raise ValueError(f"temperature {self.temperature} K not modelled (use 3000, 5000 or 6500)")
        return np.array(_TEMPERATURE_GAINS[self.temperature], dtype=np.float32) * self.brightness


CALIBRATION_LIGHT = Lighting()


@dataclass(frozen=True)
class SceneStyle:
    """How the tray and camera look: floor texture strength, lens falloff, noise, blur, shadow."""

    texture: float = 0.02
    falloff: float = 0.12
    noise: float = 1.5
    blur: float = 0.7
    shadow: float = 0.25


@dataclass(frozen=True)
class PlacedPiece:
    """One piece in a scene: colour, pose (``standing`` or ``lying``), centre (px), angle (deg)."""

    colour: str
    pose: str
    x: float
    y: float
    angle: float

    def polygon(self) -> npt.NDArray[np.int32]:
        """The piece's outline seen from above: an octagon (standing) or a rectangle (lying)."""
        if self.pose == "standing":
            r = STANDING_D / 2 / math.cos(math.pi / 8)
            pts = [(r * math.cos(math.radians(self.angle) + k * math.pi / 4 + math.pi / 8),
                    r * math.sin(math.radians(self.angle) + k * math.pi / 4 + math.pi / 8)) for k in range(8)]
        else:
            box = cv2.boxPoints(((0.0, 0.0), (LYING_L, STANDING_D), self.angle))
            pts = [(float(px), float(py)) for px, py in box]
        return np.array([(self.x + px, self.y + py) for px, py in pts], dtype=np.float32).round().astype(np.int32)


def _floor(rng: np.random.Generator, style: SceneStyle) -> npt.NDArray[np.float32]:
    """The empty tray under the calibration light: textured grey with radial lens falloff."""
    coarse_noise = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (WIDTH, HEIGHT),
                              interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 1.5)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / ((WIDTH / 2) ** 2 + (HEIGHT / 2) ** 2)
    shade = (1 - style.falloff * r2) * (1 + style.texture * (coarse_noise + fine))
    return shade[:, :, None] * np.array(FLOOR_BGR, dtype=np.float32)


def _shading(piece: PlacedPiece, mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """Brightness across the piece: facets across a lying piece, a soft dome on a standing top."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    if piece.pose == "lying":
        nx, ny = -math.sin(math.radians(piece.angle)), math.cos(math.radians(piece.angle))
        across = ((xx - piece.x) * nx + (yy - piece.y) * ny) / (STANDING_D / 2)
        facet = np.round(np.clip(across, -1, 1) * 2) / 2
        shade = 0.78 + 0.3 * np.cos(facet * 1.2) + 0.06 * np.cos(across * 9)
    else:
        d = np.hypot(xx - piece.x, yy - piece.y) / (STANDING_D / 2)
        shade = 1.02 - 0.12 * np.clip(d, 0, 1) ** 2
    return np.where(mask > 0, shade, 1.0).astype(np.float32)


def place_pieces(
    counts: dict[str, int],
    rng: np.random.Generator,
    touching: float = 0.4,
    lying: float = 0.5,
    spacing: int = 0,
) -> list[PlacedPiece]:
    """Scatter ``counts`` pieces on the tray without overlap; about ``touching`` of them touch another.

    ``spacing`` (px) keeps every piece at least that far from the others (calibration frames).
    """
    wanted = [c for c in COLOURS for _ in range(counts.get(c, 0))]
    rng.shuffle(wanted)
    occupied = np.zeros((HEIGHT, WIDTH), np.uint8)
    placed: list[PlacedPiece] = []
    for colour in wanted:
        pose = "lying" if rng.random() < lying else "standing"
        for _attempt in range(400):
            if placed and rng.random() < touching:
                anchor = placed[int(rng.integers(len(placed)))]
                direction = rng.uniform(0, 2 * math.pi)
                gap = 52.0 if pose == anchor.pose == "standing" else 60.0
                x, y = anchor.x + gap * math.cos(direction), anchor.y + gap * math.sin(direction)
            else:
                x, y = rng.uniform(45, WIDTH - 45), rng.uniform(45, HEIGHT - 45)
            piece = PlacedPiece(colour, pose, float(x), float(y), float(rng.uniform(0, 180)))
            if not (40 <= x <= WIDTH - 40 and 40 <= y <= HEIGHT - 40):
                continue
            shape = np.zeros_like(occupied)
            cv2.fillPoly(shape, [piece.polygon()], 1)
            if spacing:
                shape = np.asarray(cv2.dilate(shape, np.ones((2 * spacing + 1, 2 * spacing + 1), np.uint8)), np.uint8)
            if not (shape & occupied).any():
                occupied |= shape
                placed.append(piece)
                break
    return placed


def render_scene(
    scene: dict[str, int] | list[PlacedPiece],
    rng: np.random.Generator | int | None = None,
    lighting: Lighting = CALIBRATION_LIGHT,
    style: SceneStyle | None = None,
    tray_seed: int = 0,
    palette: dict[str, tuple[float, float, float]] | None = None,
    ambient: Lighting | None = None,
    tower_level: float = 1.0,
) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
    """Render a 640x480 BGR frame of the tray with ``scene`` (colour counts, or placed pieces).

    Returns the frame and its truth: ``{"counts": all-12 dict, "pieces": [{colour, pose, x, y}]}``.
    ``tray_seed`` fixes the tray texture, so frames of one simulated tower share one floor.
    ``palette`` overrides colours' reflectances (e.g. to paint a piece no calibrated colour has).
    ``ambient`` adds room light to the tower's ``lighting`` (scaled by ``tower_level``: 1 for the lit
    frame of a light-on/off pair, the ring's idle level for the unlit one).
    """
    reflectance = {**REFLECTANCE, **(palette or {})}
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    style = style or SceneStyle()
    pieces = place_pieces(scene, rng) if isinstance(scene, dict) else list(scene)
    image = _floor(np.random.default_rng(tray_seed), style)
    floor_grey = image.copy()
    shadow = np.zeros((HEIGHT, WIDTH), np.float32)
    for piece in pieces:
        cv2.fillPoly(shadow, [piece.polygon() + np.array([4, 5], np.int32)], 1.0)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), 3), np.float32)
    image *= (1 - style.shadow * shadow)[:, :, None]
    for piece in pieces:
        mask = np.zeros((HEIGHT, WIDTH), np.uint8)
        cv2.fillPoly(mask, [piece.polygon()], 1, lineType=cv2.LINE_8)
        colour = np.array(reflectance[piece.colour], np.float32) * floor_grey
        painted = colour * _shading(piece, mask)[:, :, None]
        image = np.where(mask[:, :, None] > 0, painted, image)
    gains = lighting.gains() * tower_level + (ambient.gains() if ambient is not None else 0.0)
    image *= gains.reshape(1, 1, 3)
    if style.blur > 0:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), style.blur), np.float32)
    image += rng.normal(0, style.noise, image.shape).astype(np.float32)
    frame = np.clip(image, 0, 255).round().astype(np.uint8)
    counts = dict.fromkeys(COLOURS, 0)
    for piece in pieces:
        counts[piece.colour] += 1
    truth = {"counts": counts, "pieces": [{"colour": p.colour, "pose": p.pose, "x": p.x, "y": p.y} for p in pieces]}
    return frame, truth


def random_counts(rng: np.random.Generator, low: int = 0, high: int = 20) -> dict[str, int]:
    """Random colour counts summing to between ``low`` and ``high`` pieces."""
    total = int(rng.integers(low, high + 1))
    picks = rng.integers(0, len(COLOURS), total)
    return {c: int((picks == i).sum()) for i, c in enumerate(COLOURS)}


def calibration_set(
    seed: int = 0, tray_seed: int = 0, style: SceneStyle | None = None
) -> tuple[npt.NDArray[np.uint8], dict[str, list[npt.NDArray[np.uint8]]]]:
    """The calibration frames of a simulated tower: the empty tray and 4 separated pieces per colour."""
    rng = np.random.default_rng(seed)
    empty, _ = render_scene([], rng, style=style, tray_seed=tray_seed)
    frames: dict[str, list[npt.NDArray[np.uint8]]] = {}
    for colour in COLOURS:
        pieces = place_pieces({colour: 4}, rng, touching=0.0, spacing=12)
        frames[colour] = [render_scene(pieces, rng, style=style, tray_seed=tray_seed)[0]]
    return empty, frames


#: The simulated tower's calibration (tray 0), computed by ``compute_default_calibration`` and shipped,
#: so a simulated tower opens its camera in milliseconds instead of rendering 13 frames first.
#: ``tests/vision`` checks it still matches what the renderer and calibration produce.
DEFAULT_CALIBRATION_FILE = Path(__file__).with_name("data") / "default_calibration.json"


def compute_default_calibration(tray_seed: int = 0) -> Any:
    """Calibrate from the simulated tower's own calibration frames (slow: renders 13 frames)."""
    from vision.calibrate import calibrate

    empty, frames = calibration_set(seed=tray_seed, tray_seed=tray_seed)
    return calibrate(empty, frames)


@lru_cache(maxsize=4)
def default_calibration(tray_seed: int = 0) -> Any:
    """The calibration of the simulated tower with ``tray_seed`` (the shipped one for tray 0; cached)."""
    from vision.calibrate import Calibration

    if tray_seed == 0 and DEFAULT_CALIBRATION_FILE.is_file():
        return Calibration.load(DEFAULT_CALIBRATION_FILE)
    return compute_default_calibration(tray_seed)
