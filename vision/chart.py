"""A colour matrix measured at the table: fitted from one photo of a printed colour chart.

A camera that reports no colour matrix (a USB webcam, a folder of photos) or whose maker's matrix is off
can still be given one measured where it stands: photograph an X-Rite ColorChecker Classic (24 patches,
4 rows x 6 columns) in the tray under the tower's own light, with the exposure and white balance locked
as for calibration, and crop the photo so the patch grid fills it. Upright means dark skin top left,
white bottom left, black bottom right (the neutral row at the bottom, white first, as the chart is
printed); a photo turned 180 degrees is recognised by its neutral row lying at the top.

The middle of each cell is sampled (a median, so the gaps between patches and a stray glint do not
count), the sRGB curve undone, and patches with a channel clipped at white or near black left out. The
neutral row fixes one gain per channel that makes its greys grey (a white balance that is not quite the
chart's; a light matter, not the matrix's), then ``observed ~= M @ reference`` is fitted by least
squares with each row of ``M`` summing to 1 (grey stays grey): the two free entries of each row, as
``vision.physical.spectra.processing`` fits a camera's matrix. ``M`` is the convention of
``vision.colour_matrix``: it maps the space the detector is to work in (here the chart's true linear
sRGB) to the camera's linear sRGB, so the detector's ``M^-1`` brings a frame to true colour, undoing a
maker's matrix that mixes the channels wrongly.

Refused, with the reason: a photo too small to hold 24 cells, too few usable patches (an over- or
underexposed chart), a photo that is not the chart (the fit's median patch error over ``MAX_MEDIAN_ERROR``),
and a matrix ``vision.colour_matrix.validate`` refuses (not invertible, noise gain too high).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision import colour_matrix, features
from vision.errors import ChartRefused

ROWS, COLUMNS = 4, 6
#: Linear sRGB (D65, 0-1) of the ColorChecker Classic's 24 patches, row by row from dark skin to black:
#: X-Rite's published CIE xyY (D50) for charts made after November 2014, as colour-science ships them
#: (``colour.CCS_COLOURCHECKERS["ColorChecker24 - After November 2014"]``), Bradford-adapted to D65 and
#: converted to linear sRGB (``colour.XYZ_to_RGB(..., "sRGB")``), 4 decimals. Embedded so the runtime needs no
#: colour-science. The cyan patch lies just outside sRGB (its red is negative); that is its true value.
REFERENCE_LINEAR_SRGB = np.array(
    [
        (0.1737, 0.0788, 0.0529),  # dark skin
        (0.5598, 0.2774, 0.2109),  # light skin
        (0.1042, 0.1889, 0.3289),  # blue sky
        (0.1057, 0.1508, 0.0508),  # foliage
        (0.2274, 0.2124, 0.4264),  # blue flower
        (0.1153, 0.5074, 0.4111),  # bluish green
        (0.7459, 0.2021, 0.0299),  # orange
        (0.0587, 0.1012, 0.3877),  # purplish blue
        (0.5601, 0.0802, 0.1146),  # moderate red
        (0.1092, 0.0420, 0.1381),  # purple
        (0.3328, 0.4974, 0.0426),  # yellow green
        (0.7710, 0.3579, 0.0204),  # orange yellow
        (0.0210, 0.0475, 0.2841),  # blue
        (0.0461, 0.2920, 0.0615),  # green
        (0.4462, 0.0364, 0.0406),  # red
        (0.8417, 0.5744, 0.0047),  # yellow
        (0.5223, 0.0778, 0.2893),  # magenta
        (-0.0439, 0.2337, 0.3772),  # cyan
        (0.8795, 0.8850, 0.8342),  # white 9.5
        (0.5845, 0.5922, 0.5845),  # neutral 8
        (0.3577, 0.3671, 0.3653),  # neutral 6.5
        (0.1901, 0.1909, 0.1898),  # neutral 5
        (0.0859, 0.0887, 0.0898),  # neutral 3.5
        (0.0314, 0.0315, 0.0323),  # black 2
    ],
    dtype=np.float64,
)
#: The patches of the bottom (neutral) row of an upright chart, white first.
NEUTRAL = tuple(range(18, 24))
#: Share of a cell's width and height sampled around its middle (the rest may hold gaps and edges).
SAMPLED_SHARE = 0.5
#: Smallest photo (px) with cells big enough to sample: 8 px a cell side.
MIN_WIDTH, MIN_HEIGHT = COLUMNS * 8, ROWS * 8
#: A patch whose median 8-bit code reaches this in any channel is clipped at white and left out.
CLIPPED_HIGH = features.CLIPPED
#: A patch whose median 8-bit code is at or below this in any channel is lost in black and left out.
CLIPPED_LOW = 3
#: Fewest usable patches to fit from: 6 unknowns plus the gains; 12 keeps a bad patch from steering the fit.
MIN_PATCHES = 12
#: Fewest usable neutral patches to set the gains from.
MIN_NEUTRAL = 2
#: Largest median patch error (linear sRGB, the chart's white = 0.88) a chart's fit may leave. Simulated
#: charts (``tests/vision/test_colour_chart.py``) leave about 0.005 (the printed chart's values are not the
#: simulated dyes'); a flat grey photo or an empty tray leaves 0.1 or more.
MAX_MEDIAN_ERROR = 0.03


@dataclass(frozen=True)
class ChartFit:
    """A matrix fitted from a chart photo, and how well the chart agreed with it."""

    matrix: list[list[float]]
    """3x3, rows summing to 1: true linear sRGB -> the camera's linear sRGB (``vision.colour_matrix``'s
    convention), validated."""
    patches: int
    """How many of the 24 patches were used (the others were clipped)."""
    rotated: bool
    """The photo was upside down (neutral row at the top) and was read turned 180 degrees."""
    median_error: float
    """Median over the used patches of the distance (linear sRGB, white = 0.88) between what the camera
    saw, white-balanced and scaled to the chart, and what the matrix predicts from the chart's values."""
    max_error: float
    """Largest such distance: one patch far off (a glare, a smudge) shows here first."""


def sample_patches(photo: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """Per cell (row by row from the top left), the median 8-bit R, G, B of its middle ``SAMPLED_SHARE``."""
    height, width = photo.shape[:2]
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        raise ChartRefused(
            f"the chart photo is {width}x{height} px, too small for {ROWS}x{COLUMNS} patches (at least "
            f"{MIN_WIDTH}x{MIN_HEIGHT}); crop it to the patch grid but keep the camera's resolution",
            ChartRefused.TOO_SMALL,
        )
    margin = (1 - SAMPLED_SHARE) / 2
    codes = np.empty((ROWS * COLUMNS, 3))
    for row in range(ROWS):
        for column in range(COLUMNS):
            y0, y1 = (int((row + f) * height / ROWS) for f in (margin, 1 - margin))
            x0, x1 = (int((column + f) * width / COLUMNS) for f in (margin, 1 - margin))
            codes[row * COLUMNS + column] = np.median(photo[y0:y1, x0:x1].reshape(-1, 3), axis=0)[::-1]
    return codes


def _greyness(codes: npt.NDArray[np.float64]) -> float:
    """How far six patches are from grey: their mean spread between channels, relative to their level."""
    return float(np.mean(np.ptp(codes, axis=1) / (codes.mean(axis=1) + 1.0)))


def upright(codes: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], bool]:
    """The 24 cells in the chart's own order, and whether the photo was turned 180 degrees.

    The neutral row is the greyest row: at the bottom the photo is upright; at the top it is upside down,
    and reading the cells backwards turns it (the neutral row then runs white first again).
    """
    bottom, top = codes[18:24], codes[0:6]
    if _greyness(top) < _greyness(bottom):
        return codes[::-1].copy(), True
    return codes, False


def _neutral_gains(observed: npt.NDArray[np.float64], usable: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """One gain per channel bringing the usable neutral patches onto the chart's greys (exposure included)."""
    neutral = [i for i in NEUTRAL if usable[i]]
    if len(neutral) < MIN_NEUTRAL:
        raise ChartRefused(
            f"only {len(neutral)} of the chart's 6 grey patches are usable (need {MIN_NEUTRAL}): the rest are "
            "clipped; lower the light or the exposure, or is the photo upside down and cropped wrong?",
            ChartRefused.TOO_FEW_PATCHES,
        )
    seen, truth = observed[neutral], REFERENCE_LINEAR_SRGB[neutral]
    return np.asarray((seen * truth).sum(axis=0) / (seen * seen).sum(axis=0), np.float64)


def _fit_rows(observed: npt.NDArray[np.float64], reference: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Least squares ``observed ~= M @ reference`` with each row of ``M`` summing to 1: per row, the two
    free entries (``spectra.processing``'s fit, the other way round)."""
    basis = reference[:, :2] - reference[:, 2:3]
    matrix = np.empty((3, 3))
    for row in range(3):
        coef, *_ = np.linalg.lstsq(basis, observed[:, row] - reference[:, 2], rcond=None)
        matrix[row] = [coef[0], coef[1], 1.0 - coef[0] - coef[1]]
    return matrix


def fit(photo: npt.NDArray[np.uint8]) -> ChartFit:
    """Fit the camera's colour matrix from a BGR photo of the chart; ``ChartRefused`` names why not."""
    codes, rotated = upright(sample_patches(photo))
    usable: npt.NDArray[np.bool_] = np.asarray(((codes < CLIPPED_HIGH) & (codes > CLIPPED_LOW)).all(axis=1))
    if int(usable.sum()) < MIN_PATCHES:
        raise ChartRefused(
            f"only {int(usable.sum())} of the chart's 24 patches are usable (need {MIN_PATCHES}): the others are "
            "clipped at white or lost in black; photograph it under the tower's light with the calibration's "
            "exposure, filling the photo with the patch grid",
            ChartRefused.TOO_FEW_PATCHES,
        )
    # a median may fall between two codes (x.5): interpolate the curve rather than round
    observed = np.asarray(np.interp(codes, np.arange(256), features.SRGB_TO_LINEAR), np.float64) / features.LINEAR_SCALE
    balanced = observed * _neutral_gains(observed, usable)
    reference = REFERENCE_LINEAR_SRGB[usable]
    matrix = _fit_rows(balanced[usable], reference)
    errors = np.linalg.norm(balanced[usable] - reference @ matrix.T, axis=1)
    median_error, max_error = float(np.median(errors)), float(errors.max())
    if median_error > MAX_MEDIAN_ERROR:
        raise ChartRefused(
            f"this photo does not look like the colour chart: the fitted matrix leaves a median patch error of "
            f"{median_error:.3f} (linear sRGB; a chart leaves less than {MAX_MEDIAN_ERROR:g}); crop the photo to "
            "the 4x6 patch grid, dark skin top left",
            ChartRefused.NOT_A_CHART,
            median_error,
        )
    validated = colour_matrix.validate(matrix.round(6).tolist(), "the matrix fitted from the chart")
    return ChartFit(validated, int(usable.sum()), rotated, median_error, max_error)
