"""Scenes: 3-D keshis on a tray, lit by one or more spectral lights, photographed by a simulated camera.

Geometry is a height field over the 640x480 image (orthographic top-down view, units px; a piece is
about 44 px wide): standing pieces are round-topped cylinders with a head bump, lying pieces are
rounded bodies with a waist. Normals come from the height field. Each light is a point source with
a spectrum, a position (overhead near the lens for the tower LED, higher and off to the side for
room lamps) and an intensity; the surface gets Lambert shading, a weak specular highlight in the
light's own colour, a cast shadow traced through the height field, and soft sky/bounce light.

Camera: lens falloff (cos^4 plus a module-specific term) and blur, then an RGGB Bayer mosaic with
shot and read noise at 12 bits, OpenCV demosaicing, locked white balance and colour matrix
(``spectra.processing``), the sRGB curve, 8 bits and JPEG (quality 85-92).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion import COLOURS
from vision.physical import spectra

WIDTH, HEIGHT = 640, 480
Image = npt.NDArray[np.float32]
#: Camera height above the tray and of the tower LED ring (px at tray scale; ~40 cm).
CAMERA_Z = 900.0
#: Linear output level of the floor at the frame centre under the calibration light (exposure lock).
FLOOR_LEVEL = 0.42
#: Raw signal (0-1) of a full pixel well in electrons: sets the shot noise.
FULL_WELL = 2500.0
READ_NOISE = 0.0025


@dataclass(frozen=True)
class Lamp:
    """One light: spectrum name, position (x, y, z px), intensity, and the tower wall's shadow of it."""

    spectrum: str
    x: float
    y: float
    z: float
    intensity: float = 1.0
    wall_edge: float | None = None
    """Where the tower wall's shadow of this lamp begins (px from the tray centre toward the lamp); None: none."""
    tower: bool = False
    """The tower's own LED ring (the one a light-on/off frame pair switches)."""


@dataclass(frozen=True)
class Tray:
    """One simulated tower: its tray texture and stains, and its lens falloff."""

    seed: int
    falloff: float = 0.25
    stains: int = 3
    camera: str = spectra.CAMERA
    """Whose spectral sensitivities the tower's camera has (``spectra.CAMERAS``)."""
    tuning_seed: int = 0
    """Non-zero: the camera's colour matrix is perturbed (``spectra.processing``)."""

    def processing(self) -> spectra.CameraProcessing:
        """This tower's camera processing (white balance and colour matrix, locked at calibration)."""
        return spectra.processing("led-5100", self.camera, self.tuning_seed)


@dataclass(frozen=True)
class Piece:
    """One keshi: colour, pose, centre (px), angle (deg), plus its own paint variation."""

    colour: str
    pose: str
    x: float
    y: float
    angle: float
    tint: float = 0.0
    shade: float = 1.0

    def footprint(self) -> npt.NDArray[np.int32]:
        """Outline on the tray (polygon, px)."""
        if self.pose == "standing":
            pts = [(22.0 * math.cos(t), 22.0 * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 32, endpoint=False)]
        else:
            pts = []
            for t in np.linspace(0, 2 * math.pi, 48, endpoint=False):  # a superellipse 68 x 44
                c, s = math.cos(t), math.sin(t)
                pts.append((34.0 * math.copysign(abs(c) ** 0.5, c), 22.0 * math.copysign(abs(s) ** 0.5, s)))
        a = math.radians(self.angle)
        rot = [(px * math.cos(a) - py * math.sin(a), px * math.sin(a) + py * math.cos(a)) for px, py in pts]
        return np.array([(self.x + px, self.y + py) for px, py in rot], dtype=np.float32).round().astype(np.int32)


@dataclass
class Scene:
    """Pieces on a tray under some lamps; ``render`` photographs it."""

    pieces: list[Piece]
    lamps: list[Lamp]
    jpeg_quality: int = 90
    noise_seed: int = 0

    def counts(self) -> dict[str, int]:
        """How many pieces of each of the 12 colours lie in the tray."""
        out = dict.fromkeys(COLOURS, 0)
        for piece in self.pieces:
            out[piece.colour] += 1
        return out


def _grid() -> tuple[Image, Image]:
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    return xx, yy


def tray_albedo(tray: Tray) -> Image:
    """Relative albedo of the tray floor: card grain, low-frequency unevenness and a few darker stains."""
    rng = np.random.default_rng(tray.seed)
    low = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 0.8)
    albedo = 1.0 + 0.03 * low + 0.02 * grain
    xx, yy = _grid()
    for _ in range(tray.stains):
        cx, cy = rng.uniform(60, WIDTH - 60), rng.uniform(60, HEIGHT - 60)
        radius, depth = rng.uniform(10, 30), rng.uniform(0.15, 0.35)
        albedo *= 1 - depth * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2))
    return np.asarray(albedo, dtype=np.float32)


def _height_and_ids(pieces: list[Piece]) -> tuple[Image, npt.NDArray[np.int16]]:
    """Height field (px) and piece index per pixel (-1 = floor)."""
    height = np.zeros((HEIGHT, WIDTH), np.float32)
    ids = np.full((HEIGHT, WIDTH), -1, np.int16)
    xx, yy = _grid()
    for index, piece in enumerate(pieces):
        mask = np.zeros((HEIGHT, WIDTH), np.uint8)
        cv2.fillPoly(mask, [piece.footprint()], 1)
        ys, xs = np.nonzero(mask)
        if xs.size == 0:
            continue
        x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
        sub = mask[y0:y1, x0:x1] > 0
        dx, dy = xx[y0:y1, x0:x1] - piece.x, yy[y0:y1, x0:x1] - piece.y
        a = math.radians(piece.angle)
        u = dx * math.cos(a) + dy * math.sin(a)  # along the body
        v = -dx * math.sin(a) + dy * math.cos(a)  # across
        if piece.pose == "standing":
            r = np.hypot(dx, dy) / 22.0
            head = 6.0 * np.exp(-(r**2) / 0.18)
            z = 52.0 + head + 6.0 * np.sqrt(np.clip(1 - r**6, 0, 1)) - 4.0 * r**2
        else:
            across = np.clip(1 - (v / 22.0) ** 2, 0, 1)
            waist = 1 - 0.12 * np.exp(-((u - 8.0) ** 2) / 20.0)
            ends = np.sqrt(np.clip(1 - (np.abs(u) / 34.0) ** 6, 0, 1))
            z = 22.0 * np.sqrt(across) * waist * ends + 1.0
        height[y0:y1, x0:x1] = np.where(sub, z, height[y0:y1, x0:x1])
        ids[y0:y1, x0:x1] = np.where(sub, index, ids[y0:y1, x0:x1])
    return height, ids


def _normals(height: Image) -> tuple[Image, Image, Image]:
    gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    norm = np.sqrt(gx**2 + gy**2 + 1.0)
    return -gx / norm, -gy / norm, 1.0 / norm


def _cast_shadow(height: Image, lamp: Lamp) -> Image:
    """Visibility of ``lamp`` (0-1) per pixel: traced through the height field toward the lamp, softened."""
    dx, dy, dz = lamp.x - WIDTH / 2, lamp.y - HEIGHT / 2, lamp.z
    horizontal = math.hypot(dx, dy)
    lit = np.ones((HEIGHT, WIDTH), np.float32)
    if horizontal < 1e-3 or height.max() <= 0:
        return lit
    ux, uy, rise = dx / horizontal, dy / horizontal, dz / horizontal
    reach = int(min(float(height.max()) / rise, 220.0))
    blocker = np.zeros_like(height)
    for step in range(2, reach + 2, 2):
        shift = np.array([[1, 0, -ux * step], [0, 1, -uy * step]], np.float32)
        moved = cv2.warpAffine(height, shift, (WIDTH, HEIGHT), flags=cv2.INTER_NEAREST)
        np.maximum(blocker, moved - rise * step, out=blocker)
    lit[blocker > height + 0.5] = 0.0
    return np.asarray(cv2.GaussianBlur(lit, (0, 0), 1.5 + 0.01 * reach), np.float32)


def _wall(lamp: Lamp, edge: float) -> Image:
    """Where the tower wall lets a side lamp's light through: beyond ``edge`` toward the lamp it is shaded."""
    xx, yy = _grid()
    dx, dy = lamp.x - WIDTH / 2, lamp.y - HEIGHT / 2
    norm = math.hypot(dx, dy) or 1.0
    along = ((xx - WIDTH / 2) * dx + (yy - HEIGHT / 2) * dy) / norm
    return np.asarray(along < edge, np.float32)


def render(scene: Scene, tray: Tray) -> npt.NDArray[np.uint8]:
    """Photograph ``scene`` on ``tray``: a 640x480 BGR uint8 frame (JPEG-decoded)."""
    rng = np.random.default_rng(scene.noise_seed)
    height, ids = _height_and_ids(scene.pieces)
    nx, ny, nz = _normals(height)
    xx, yy = _grid()
    albedo = tray_albedo(tray)
    floor_refl = spectra.reflectance(spectra.FLOOR_SRGB)
    paints = []
    for piece in scene.pieces:
        base = spectra.reflectance(spectra.PAINT_SRGB[piece.colour])
        tilt = 1.0 + piece.tint * (spectra.WAVELENGTHS - 550.0) / 150.0
        paints.append(np.clip(base * tilt * piece.shade, 0.003, 0.98))
    rawimg = np.zeros((HEIGHT, WIDTH, 3), np.float32)
    on_piece = ids >= 0
    for lamp in scene.lamps:
        spectrum = spectra.light(lamp.spectrum, tray.camera) * lamp.intensity
        lx, ly, lz = lamp.x - xx, lamp.y - yy, lamp.z - height
        dist = np.sqrt(lx**2 + ly**2 + lz**2)
        lx, ly, lz = lx / dist, ly / dist, lz / dist
        falloff = (lamp.z / dist) ** 2  # inverse square, 1 below the lamp
        lambert = np.clip(nx * lx + ny * ly + nz * lz, 0, None)
        visible = _cast_shadow(height, lamp)
        if lamp.wall_edge is not None:
            visible *= np.asarray(cv2.GaussianBlur(_wall(lamp, lamp.wall_edge), (0, 0), 14), np.float32)
        sky = 0.12 * (0.5 + 0.5 * nz)  # light bounced from the tower walls and the room
        direct = (lambert * visible * falloff + sky).astype(np.float32)
        # specular (Blinn-Phong) toward the camera, in the lamp's own colour
        vx, vy, vz = WIDTH / 2 - xx, HEIGHT / 2 - yy, CAMERA_Z - height
        vn = np.sqrt(vx**2 + vy**2 + vz**2)
        hx, hy, hz = lx + vx / vn, ly + vy / vn, lz + vz / vn
        hn = np.sqrt(hx**2 + hy**2 + hz**2)
        spec = 0.05 * np.clip((nx * hx + ny * hy + nz * hz) / hn, 0, 1) ** 30 * visible * on_piece
        floor_rgb = spectra.raw(floor_refl, spectrum, tray.camera).astype(np.float32)
        colour_map = albedo[:, :, None] * floor_rgb
        for index, paint in enumerate(paints):
            sel = ids == index
            colour_map[sel] = spectra.raw(paint, spectrum, tray.camera).astype(np.float32)
        white = spectra.raw(np.ones_like(floor_refl), spectrum, tray.camera).astype(np.float32)
        rawimg += colour_map * direct[:, :, None] + spec[:, :, None] * white
    return _camera(rawimg, tray, rng, scene.jpeg_quality)


def _exposure(tray: Tray) -> float:
    """Locked exposure: the floor at the centre, straight under the tower LED, reads ``FLOOR_LEVEL``."""
    spectrum = spectra.light("led-5100", tray.camera)
    floor = spectra.raw(spectra.reflectance(spectra.FLOOR_SRGB), spectrum, tray.camera)
    out = tray.processing().apply(floor.astype(np.float32)[None, :])[0]
    return FLOOR_LEVEL / float(out[1])


def _camera(rawimg: Image, tray: Tray, rng: np.random.Generator, quality: int) -> npt.NDArray[np.uint8]:
    xx, yy = _grid()
    r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / (CAMERA_Z**2)
    vignette = (1.0 / (1.0 + r2)) ** 2 * (1 - tray.falloff * r2 * 2.0)
    signal = rawimg * (vignette * _exposure(tray))[:, :, None]
    signal = np.asarray(cv2.GaussianBlur(signal, (0, 0), 0.7), np.float32)
    mosaic = np.empty((HEIGHT, WIDTH), np.float32)  # RGGB
    mosaic[0::2, 0::2] = signal[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = signal[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = signal[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = signal[1::2, 1::2, 2]
    np.clip(mosaic, 0, None, out=mosaic)
    noisy = mosaic + rng.normal(0, 1, mosaic.shape).astype(np.float32) * np.sqrt(mosaic / FULL_WELL + READ_NOISE**2)
    bayer = np.clip(noisy * 4095, 0, 4095).round().astype(np.uint16)
    rgb = cv2.cvtColor(bayer, cv2.COLOR_BayerBG2RGB).astype(np.float32) / 4095.0  # OpenCV names by 2nd row
    linear = np.clip(tray.processing().apply(rgb), 0, 1)
    encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(linear, 1 / 2.4) - 0.055)
    bgr = np.ascontiguousarray((encoded[:, :, ::-1] * 255).round().astype(np.uint8))
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
