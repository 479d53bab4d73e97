"""``vision.chart`` and ``keshi vision chart-matrix``: a colour matrix fitted from one photo of a colour chart.

The chart is rendered with the physical simulator: the 24 ColorChecker patches' spectra (BabelColor's
average of measured charts, not the X-Rite values the fit is given) through a simulated camera's
sensitivities, white balance and (perturbed) colour matrix under the tower's LED, encoded to 8-bit sRGB,
laid out as the 4x6 grid with dark gaps, plus sensor-like noise.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("colour")

import colour  # noqa: E402

from companion.cli import main  # noqa: E402
from vision import chart  # noqa: E402
from vision.calibrate import Calibration  # noqa: E402
from vision.errors import ChartRefused, ColourMatrixRefused  # noqa: E402
from vision.physical import spectra  # noqa: E402
from vision.physical.scene import FLOOR_LEVEL, Tray  # noqa: E402
from vision.sources import write_image  # noqa: E402

#: A perturbed maker's matrix (``spectra.processing``'s ``tuning_seed``): off-diagonals moved up to 0.15.
PERTURBED = 15
#: How far (linear sRGB, the chart's white = 1 in each channel) the corrected patches may lie from the chart's
#: published colours. A 3x3 matrix cannot do better: the simulated camera's sensitivities are not a linear
#: mix of the eye's, and the rendered dyes are BabelColor's average, not X-Rite's values the fit is given
#: (fitting the unperturbed camera leaves 0.034 at worst, on orange). Uncorrected, the perturbed camera is
#: 0.08-0.11 off at worst.
TOLERANCE = 0.04


def render_chart(
    tuning_seed: int = PERTURBED, exposure: float = 1.0, camera: str = spectra.CAMERA, light: str = "led-5100",
    cell: int = 40, seed: int = 0,
) -> npt.NDArray[np.uint8]:
    """A BGR photo of the chart taken by ``camera`` (its matrix perturbed by ``tuning_seed``) under ``light``,
    cropped to the grid; ``exposure`` 1 is the tower's locked exposure (the floor at ``FLOOR_LEVEL``)."""
    linear = chart_linear(tuning_seed, camera, light) * exposure
    encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(np.clip(linear, 0, None), 1 / 2.4) - 0.055)
    photo = np.full((chart.ROWS * cell, chart.COLUMNS * cell, 3), 15.0)
    gap = cell // 10
    for index, code in enumerate(np.clip(encoded * 255, 0, 255)):
        row, column = divmod(index, chart.COLUMNS)
        photo[row * cell + gap:(row + 1) * cell - gap, column * cell + gap:(column + 1) * cell - gap] = code
    photo += np.random.default_rng(seed).normal(0, 1.5, photo.shape)
    return np.ascontiguousarray(np.clip(photo.round(), 0, 255).astype(np.uint8)[:, :, ::-1])


def chart_linear(tuning_seed: int, camera: str = spectra.CAMERA, light: str = "led-5100") -> npt.NDArray[np.float64]:
    """The camera's linear sRGB of the 24 patches, exposed as the tower locks it."""
    processing = Tray(seed=1, camera=camera, tuning_seed=tuning_seed).processing()
    spectrum = spectra.light(light, camera)
    patches = colour.SDS_COLOURCHECKERS["BabelColor Average"].values()
    raw = np.array([spectra.raw(np.asarray(sd.copy().align(spectra.SHAPE).values), spectrum, camera) for sd in patches])
    floor = spectra.raw(spectra.reflectance(spectra.FLOOR_SRGB), spectra.light("led-5100", camera), camera)
    exposure = FLOOR_LEVEL / float(processing.apply(floor.astype(np.float32)[None, :])[0, 1])
    return np.asarray(processing.apply(raw.astype(np.float32)), np.float64) * exposure


def gain_free(rgb: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Linear RGB of the 24 patches scaled per channel so the chart's white reads 1 in each."""
    return rgb / rgb[18]


def test_the_fitted_matrix_brings_a_perturbed_camera_to_the_charts_true_colours() -> None:
    """``M^-1`` of the camera's linear sRGB is the chart's true linear sRGB, up to one gain per channel (the
    detector divides by the floor, so such a gain never matters).

    Not the camera's colours with its maker's own fitted matrix (``tuning_seed=0``): those miss the chart's
    true colours by up to 0.08 (orange, fitted under the LED rather than D65), more than the perturbation
    moves them, and no chart can tell that matrix from the truth.
    """
    fitted = chart.fit(render_chart())
    observed = chart_linear(PERTURBED)
    truth = gain_free(chart.REFERENCE_LINEAR_SRGB)
    corrected = np.abs(gain_free(observed @ np.linalg.inv(np.array(fitted.matrix)).T) - truth)
    assert float(np.abs(gain_free(observed) - truth).max()) > 2 * TOLERANCE  # the perturbation is worth undoing
    assert float(corrected.max()) < TOLERANCE and float(np.median(corrected)) < TOLERANCE / 4
    assert fitted.patches == 24 and not fitted.rotated
    assert np.allclose(np.sum(fitted.matrix, axis=1), 1.0, atol=1e-5)


def test_two_matrices_of_one_camera_are_measured_as_they_differ() -> None:
    """The same sensor with its maker's matrix and with a perturbed one: each fitted matrix undoes its own,
    so both cameras' corrected colours agree far better than their raw outputs do."""
    own, perturbed = chart.fit(render_chart(tuning_seed=0)), chart.fit(render_chart())
    corrected_own = gain_free(chart_linear(0) @ np.linalg.inv(np.array(own.matrix)).T)
    corrected_perturbed = gain_free(chart_linear(PERTURBED) @ np.linalg.inv(np.array(perturbed.matrix)).T)
    before = float(np.abs(gain_free(chart_linear(0)) - gain_free(chart_linear(PERTURBED))).max())
    assert float(np.abs(corrected_own - corrected_perturbed).max()) < before / 3


def test_a_photo_turned_180_degrees_gives_the_same_matrix() -> None:
    photo = render_chart()
    upright, turned = chart.fit(photo), chart.fit(np.ascontiguousarray(photo[::-1, ::-1]))
    assert turned.rotated
    assert np.allclose(turned.matrix, upright.matrix)


def test_a_flat_grey_photo_is_not_a_chart() -> None:
    with pytest.raises(ChartRefused, match=r"does not look like the colour chart.*median patch error") as caught:
        chart.fit(np.full((160, 240, 3), 128, np.uint8))
    assert caught.value.reason == ChartRefused.NOT_A_CHART
    assert caught.value.median_error is not None and caught.value.median_error > chart.MAX_MEDIAN_ERROR


def test_the_empty_tray_is_not_a_chart(cal_dir: Path) -> None:
    from vision.sources import read_image

    with pytest.raises(ChartRefused) as caught:
        chart.fit(read_image(cal_dir / "empty.png"))
    assert caught.value.reason == ChartRefused.NOT_A_CHART


def test_an_overexposed_chart_is_refused_for_its_clipped_patches() -> None:
    with pytest.raises(ChartRefused, match=r"only \d+ of the chart's 24 patches are usable") as caught:
        chart.fit(render_chart(exposure=4.0))
    assert caught.value.reason == ChartRefused.TOO_FEW_PATCHES


def test_a_photo_too_small_for_the_grid_is_refused() -> None:
    with pytest.raises(ChartRefused, match="too small"):
        chart.fit(np.full((20, 30, 3), 128, np.uint8))


def test_a_fitted_matrix_that_validate_refuses_is_not_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chart fit whose matrix multiplies noise beyond ``MAX_NOISE_GAIN`` is refused as a file's would be."""
    monkeypatch.setattr("vision.colour_matrix.MAX_NOISE_GAIN", 1.0)
    with pytest.raises(ColourMatrixRefused, match="fitted from the chart.*multiplies sensor noise") as caught:
        chart.fit(render_chart())
    assert caught.value.reason == ColourMatrixRefused.NOISE_GAIN


def test_the_cli_writes_a_matrix_calibrate_accepts(
    cal_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo, matrix = tmp_path / "chart.png", tmp_path / "m.json"
    write_image(photo, render_chart())
    assert main(["vision", "chart-matrix", str(photo), "--out", str(matrix)]) == 0
    printed = capsys.readouterr().out
    assert "24 of 24 patches" in printed and "median patch error" in printed
    written = json.loads(matrix.read_text(encoding="utf-8"))
    assert written == chart.fit(render_chart()).matrix
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(cal_dir), "--out", str(out), "--colour-matrix", str(matrix)]) == 0
    assert Calibration.load(out).camera.colour_matrix == written


def test_the_cli_refuses_a_grey_photo_in_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo, matrix = tmp_path / "grey.png", tmp_path / "m.json"
    write_image(photo, np.full((160, 240, 3), 128, np.uint8))
    assert main(["vision", "chart-matrix", str(photo), "--out", str(matrix)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("keshi: error: ") and "does not look like the colour chart" in err and err.count("\n") == 1
    assert not matrix.exists()
