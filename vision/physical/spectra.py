"""Spectral materials, light sources and the camera (spectral sensitivities, locked WB and colour matrix).

All spectra are sampled 400-700 nm in 10 nm steps. A surface of reflectance ``r`` under a light of
spectral power ``E`` gives the camera raw response ``S.T @ (r * E)`` (``S``: the camera's three
sensitivity curves). The camera's processing is fixed once under the calibration light, as a Pi
camera is after ``settle()``: white-balance gains that make the tray floor neutral, and a 3x3 colour
matrix fitted on the 24 ColorChecker patches from white-balanced raw to linear sRGB.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import colour
import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float64]

SHAPE = colour.SpectralShape(400, 700, 10)
WAVELENGTHS = np.arange(400, 701, 10, dtype=np.float64)
CAMERA = "Nikon 5100 (NPL)"
#: The cameras whose sensitivities colour-science ships: scenes are drawn across both.
CAMERAS = ("Nikon 5100 (NPL)", "Sigma SDMerill (NPL)")

#: How the painted keshis look in daylight (sRGB, 0-255): the target their spectra are recovered from.
PAINT_SRGB: dict[str, tuple[int, int, int]] = {
    "yellow": (236, 196, 32),
    "orange": (228, 112, 36),
    "purple": (104, 52, 128),
    "pink": (232, 132, 168),
    "beige": (222, 198, 158),
    "red": (184, 32, 40),
    "brown": (108, 64, 38),
    "green": (44, 128, 62),
    "gray": (128, 128, 126),
    "white": (236, 234, 228),
    "black": (38, 36, 36),
    "turquoise": (38, 166, 176),
}

#: The tray: a light warm-grey card.
FLOOR_SRGB = (190, 186, 176)


def _aligned(sd: colour.SpectralDistribution) -> Vector:
    """Values of ``sd`` on ``WAVELENGTHS`` (interpolated/extrapolated as colour-science does)."""
    return np.asarray(sd.copy().align(SHAPE).values, dtype=np.float64)


@lru_cache(maxsize=64)
def reflectance(srgb: tuple[int, int, int]) -> Vector:
    """A smooth, physically plausible reflectance whose colour in daylight is ``srgb`` (Otsu et al. 2018)."""
    xyz = colour.sRGB_to_XYZ(np.asarray(srgb, dtype=np.float64) / 255.0)
    sd = colour.XYZ_to_sd(xyz, method="Otsu 2018")
    return np.clip(_aligned(sd), 0.005, 0.98)


def _blackbody(kelvin: float) -> Vector:
    return _aligned(colour.sd_blackbody(kelvin, colour.SpectralShape(360, 780, 5)))


#: Named light spectra (relative power; each is normalised in ``light``).
_SOURCES = {
    "led-5100": lambda: _aligned(colour.SDS_ILLUMINANTS["LED-B4"]),
    "led-3000": lambda: _aligned(colour.SDS_ILLUMINANTS["LED-B2"]),
    "led-4100": lambda: _aligned(colour.SDS_ILLUMINANTS["LED-B3"]),
    "led-6600": lambda: _aligned(colour.SDS_ILLUMINANTS["LED-B5"]),
    "tungsten-2700": lambda: _blackbody(2700),
    "incandescent-a": lambda: _aligned(colour.SDS_ILLUMINANTS["A"]),
    "fluorescent-f11": lambda: _aligned(colour.SDS_ILLUMINANTS["FL11"]),
    "fluorescent-f2": lambda: _aligned(colour.SDS_ILLUMINANTS["FL2"]),
}
LIGHT_NAMES = tuple(_SOURCES)


@lru_cache(maxsize=16)
def sensitivities(camera: str = CAMERA) -> npt.NDArray[np.float64]:
    """The camera's spectral sensitivities, ``(31, 3)`` R, G, B."""
    msds = colour.MSDS_CAMERA_SENSITIVITIES[camera].copy().align(SHAPE)
    return np.asarray(msds.values, dtype=np.float64)


@lru_cache(maxsize=16)
def light(name: str, camera: str = CAMERA) -> Vector:
    """Spectrum ``name`` scaled so a perfect white reflector gives raw green 1.0 (equal exposure)."""
    if name not in _SOURCES:
        raise ValueError(f"unknown light {name!r}; known: {', '.join(LIGHT_NAMES)}")
    spectrum = _SOURCES[name]()
    return spectrum / float(sensitivities(camera)[:, 1] @ spectrum)


def raw(refl: Vector, spectrum: Vector, camera: str = CAMERA) -> Vector:
    """Camera raw R, G, B of reflectance ``refl`` under ``spectrum``."""
    return np.asarray(sensitivities(camera).T @ (refl * spectrum), dtype=np.float64)


@dataclass(frozen=True)
class CameraProcessing:
    """What the camera does after the sensor, locked under the calibration light."""

    wb_gains: Vector
    """Per raw channel (R, G, B) gains making the floor neutral under the calibration light."""
    matrix: npt.NDArray[np.float64]
    """3x3 colour matrix, white-balanced raw -> linear sRGB (rows sum to 1: white stays white)."""

    def apply(self, raw_rgb: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``(..., 3)`` raw RGB -> linear sRGB (unclipped)."""
        out = (raw_rgb * self.wb_gains.astype(np.float32)) @ self.matrix.T.astype(np.float32)
        return np.asarray(out, dtype=np.float32)


@lru_cache(maxsize=8)
def processing(calibration_light: str = "led-5100", camera: str = CAMERA, tuning_seed: int = 0) -> CameraProcessing:
    """Lock WB on the floor and fit the colour matrix on a ColorChecker, both under ``calibration_light``.

    ``tuning_seed`` other than 0 perturbs the fitted matrix (each off-diagonal entry by up to +-0.15,
    rows still summing to 1): a camera whose tuning file holds a matrix of its own maker's choosing.
    """
    spectrum = light(calibration_light, camera)
    floor = raw(reflectance(FLOOR_SRGB), spectrum, camera)
    gains = floor[1] / floor
    patches = colour.SDS_COLOURCHECKERS["BabelColor Average"]
    cam = np.array([raw(_aligned(sd), spectrum, camera) * gains for sd in patches.values()])
    cmfs = colour.MSDS_CMFS["CIE 1931 2 Degree Standard Observer"].copy().align(SHAPE).values
    xyz = np.array([cmfs.T @ (_aligned(sd) * spectrum) for sd in patches.values()])
    white_xyz = cmfs.T @ spectrum
    # adapt the light's white to D65 (what sRGB calls white), then to linear sRGB
    d65 = colour.xy_to_XYZ(colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"])
    white = white_xyz / white_xyz[1]
    adapted = colour.adaptation.chromatic_adaptation_VonKries(xyz / white_xyz[1], white, d65, "CAT02")
    target = colour.XYZ_to_RGB(adapted, "sRGB")
    # least squares with each row summing to one: solve for the two free entries of each row
    basis = cam[:, :2] - cam[:, 2:3]
    matrix = np.empty((3, 3))
    for row in range(3):
        coef, *_ = np.linalg.lstsq(basis, target[:, row] - cam[:, 2], rcond=None)
        matrix[row] = [coef[0], coef[1], 1.0 - coef[0] - coef[1]]
    if tuning_seed:
        jitter = np.random.default_rng(tuning_seed).uniform(-0.15, 0.15, (3, 3)) * (1 - np.eye(3))
        matrix = matrix + jitter - np.diag(jitter.sum(axis=1))
    return CameraProcessing(wb_gains=gains, matrix=matrix)
