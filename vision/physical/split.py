"""The scene sets: lights, random scenes, a tower's calibration frames, and the tuning / held-out splits.

Two simulated towers, each with its own tray (texture, stains, lens falloff) and its own calibration
made the way the calibration wizard makes one (empty tray plus 4 separated pieces per colour, under
the tower LED). The *tuning* split is what the detector may be adjusted on; the *held-out* split
(another tower, another seed) is only measured, by ``make bench-vision``; the *first* and *second
held-out* splits were the held-out splits of the first and second rounds of work and have since been
looked at (tuning data now, kept to show how later rounds did on them). A scene is fully
determined by (split seed, light name, index), so nothing needs to be stored.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from companion import COLOURS
from vision.calibrate import CameraSettings
from vision.frame_pair import tower_light_only
from vision.physical import spectra
from vision.physical.scene import CAMERA_Z, HEIGHT, WIDTH, Lamp, Piece, Scene, Tray, render

#: The tower LED ring sits beside the lens, slightly off the optical axis.
TOWER_LED = Lamp("led-5100", WIDTH / 2 + 20, HEIGHT / 2 + 12, CAMERA_Z, tower=True)
#: The ring's idle level (``firmware.devices.TowerLight``): the "off" frame of a pair.
IDLE_LEVEL = 0.15


def _ring(intensity: float) -> Lamp:
    return Lamp(TOWER_LED.spectrum, TOWER_LED.x, TOWER_LED.y, TOWER_LED.z, intensity, tower=True)


def _tower(intensity: float) -> Callable[[np.random.Generator], list[Lamp]]:
    def lamps(rng: np.random.Generator) -> list[Lamp]:
        return [_ring(intensity)]

    return lamps


def _room(spectrum: str, offset: tuple[float, float] = (0, 350)) -> Callable[[np.random.Generator], list[Lamp]]:
    """A room lamp instead of the tower LED: above the tray but off-centre (``offset`` px from the
    centre, drawn between the two), of similar brightness."""

    def lamps(rng: np.random.Generator) -> list[Lamp]:
        angle, offset_px = rng.uniform(0, 2 * math.pi), rng.uniform(*offset)
        return [
            Lamp(
                spectrum,
                WIDTH / 2 + offset_px * math.cos(angle),
                HEIGHT / 2 + offset_px * math.sin(angle),
                float(rng.uniform(900, 1500)),
                float(rng.uniform(0.7, 1.0)),
            )
        ]

    return lamps


def _side_lamp(spectrum: str, low: float, high: float) -> Callable[[np.random.Generator], list[Lamp]]:
    """The tower LED plus a room lamp low at one side, whose light the tower wall partly blocks."""

    def lamps(rng: np.random.Generator) -> list[Lamp]:
        angle = rng.uniform(0, 2 * math.pi)
        lamp = Lamp(
            spectrum,
            WIDTH / 2 + 1400 * math.cos(angle),
            HEIGHT / 2 + 1400 * math.sin(angle),
            float(rng.uniform(800, 1400)),
            float(rng.uniform(low, high)),
            wall_edge=float(rng.uniform(60, 200)),
        )
        return [_ring(float(rng.uniform(0.5, 0.7))), lamp]

    return lamps


#: The lights of the benchmark table (the issue's five, tungsten 2700 K, fluorescent F11), single frames.
LIGHTS: dict[str, Callable[[np.random.Generator], list[Lamp]]] = {
    "calibration light (LED 5100 K)": _tower(1.0),
    "65 % brightness": _tower(0.65),
    "135 % brightness": _tower(1.35),
    "warm LED 3000 K": _room("led-3000"),
    "cool LED 6600 K": _room("led-6600"),
    "tungsten 2700 K": _room("tungsten-2700"),
    "fluorescent F11": _room("fluorescent-f11"),
    "off-centre lamp (LED 5100 K)": _room("led-5100", offset=(250, 400)),
}
#: The tower LED mixed with a side lamp (and the wall's shadow of it): measured with light-on/off
#: frame pairs, the tower's answer to mixed light; single frames of them only for contrast.
PAIR_LIGHTS: dict[str, Callable[[np.random.Generator], list[Lamp]]] = {
    "tower LED + warm lamp": _side_lamp("incandescent-a", 0.9, 1.6),
    "tower LED + fluorescent lamp": _side_lamp("fluorescent-f11", 0.6, 1.2),
}
CALIBRATION_LIGHT = "calibration light (LED 5100 K)"


@dataclass(frozen=True)
class Split:
    """A named scene set: its seed and the tower (tray) it is photographed on."""

    name: str
    seed: int
    tray: Tray


def drawn_split(name: str, seed: int) -> Split:
    """A held-out split drawn from one seed: its scenes and its tower's tray (the seed's last five digits)."""
    return Split(name, seed=seed, tray=Tray(seed=seed % 100_000, falloff=0.35, stains=4))


TUNING = Split("tuning", seed=1, tray=Tray(seed=11, falloff=0.25, stains=3))
#: The first held-out split: measured once after the first round of work (issue 12), then looked at to
#: decide the second round, so no longer unseen; kept to report how the second round did on it.
FIRST_HELD_OUT = Split("first-held-out", seed=20261123, tray=Tray(seed=977, falloff=0.35, stains=4))
#: The second held-out split: drawn for the second round (2026-11-23), measured once at its end, then its
#: failures (cool LED whites, touching pieces joined by shadows) were read to decide the third round.
SECOND_HELD_OUT = Split("second-held-out", seed=88305117, tray=Tray(seed=5521, falloff=0.35, stains=4))
#: Seed drawn from ``os.urandom`` once the third round's code was final (2026-11-23), never used while
#: tuning; its tower's tray comes from the same seed. The benchmark's default.
HELD_OUT_SEED = 327608561
HELD_OUT = drawn_split("held-out", HELD_OUT_SEED)
#: Issue 26 (cameras without a known colour matrix): seed drawn from ``os.urandom`` once that code was
#: final (2026-11-26, 23:17 UTC), measured once across four towers' cameras (``towers``); its results
#: (3000 K with the matrix, wrong colours) were read for the next round, so it is no longer unseen.
ACROSS_CAMERAS_SEED = 956862673
ACROSS_CAMERAS = drawn_split("across-cameras-held-out", ACROSS_CAMERAS_SEED)
#: Issue 26, second round (the noise-gain refusal, faster detection): seed drawn from ``os.urandom`` once
#: that code was final (2026-11-27, 02:25 UTC), measured once across four towers' cameras and reported;
#: never used again for tuning or reporting.
ACROSS_CAMERAS_2_SEED = 586977591
ACROSS_CAMERAS_2 = drawn_split("across-cameras-held-out-2", ACROSS_CAMERAS_2_SEED)
#: Issue 26, third round (cheaper image-wide passes): seed drawn from ``os.urandom`` once that code was
#: final (2026-11-27, 04:49 UTC), measured once across four towers' cameras and reported; never used
#: again for tuning or reporting.
ACROSS_CAMERAS_3_SEED = 912572419
ACROSS_CAMERAS_3 = drawn_split("across-cameras-held-out-3", ACROSS_CAMERAS_3_SEED)
#: Issue 26, fourth round (a piece's cast shadow neither joins its colour nor counts as a piece): seed
#: drawn from ``os.urandom`` once that code was final (2026-11-27, 07:36 UTC), measured once across four
#: towers' cameras and reported; never used again for tuning or reporting.
ACROSS_CAMERAS_4_SEED = 525197917
ACROSS_CAMERAS_4 = drawn_split("across-cameras-held-out-4", ACROSS_CAMERAS_4_SEED)
#: Issue 26, fifth round (colour models clipped at black and white as the camera clips, a bounded drift):
#: seed drawn from ``os.urandom`` once that code was final (2026-11-27, 10:16 UTC), measured once across
#: four towers' cameras and reported; its frames were read for the seventh round (tuning data now).
ACROSS_CAMERAS_5_SEED = 544136160
ACROSS_CAMERAS_5 = drawn_split("across-cameras-held-out-5", ACROSS_CAMERAS_5_SEED)
#: Issue 26, seventh round (touching pieces under a warm lamp, a red at black in green, clipped floor):
#: seed drawn from ``os.urandom`` once that code was final (2026-11-27, 13:54 UTC), measured once across
#: four towers' cameras, 60 scenes a light, and reported; then its frames were read (a regression found
#: there was fixed), so it is tuning data now.
ACROSS_CAMERAS_6_SEED = 346145203
ACROSS_CAMERAS_6 = drawn_split("across-cameras-held-out-6", ACROSS_CAMERAS_6_SEED)
#: Issue 26, eighth round (without the matrix: a warm lamp's bounded light fit, lying pieces kept whole):
#: seed drawn from ``os.urandom`` once that code was final (2026-11-27, 16:18 UTC), measured once across
#: four towers' cameras, 60 scenes a light, and reported; then its frames were read (its misses were the
#: ninth round's tuning data).
ACROSS_CAMERAS_7_SEED = 219272956
ACROSS_CAMERAS_7 = drawn_split("across-cameras-held-out-7", ACROSS_CAMERAS_7_SEED)
#: Issue 26, ninth round (a blob of several pieces cut along its edges for its markers): seed drawn from
#: ``os.urandom`` once that code was final (2026-11-27, 19:09 UTC), measured once across four towers'
#: cameras, 60 scenes a light. The benchmark's default.
ACROSS_CAMERAS_8_SEED = 350346727
ACROSS_CAMERAS_8 = drawn_split("across-cameras-held-out-8", ACROSS_CAMERAS_8_SEED)
SPLITS = {
    split.name: split
    for split in (
        TUNING, FIRST_HELD_OUT, SECOND_HELD_OUT, HELD_OUT, ACROSS_CAMERAS, ACROSS_CAMERAS_2, ACROSS_CAMERAS_3,
        ACROSS_CAMERAS_4, ACROSS_CAMERAS_5, ACROSS_CAMERAS_6, ACROSS_CAMERAS_7, ACROSS_CAMERAS_8,
    )
}


def towers(split: Split) -> list[tuple[str, Split]]:
    """``split`` photographed by four towers' cameras (issue 26): each camera colour-science ships with
    the matrix fitted to it, and each with a perturbed matrix (``spectra.processing``'s
    ``tuning_seed``, drawn from the split's seed). Labels name camera and matrix."""
    out = []
    for index, camera in enumerate(spectra.CAMERAS):
        for perturbed in (False, True):
            tuning = (split.seed * 7 + index * 2 + 1) % 1_000_003 if perturbed else 0
            tray = replace(split.tray, camera=camera, tuning_seed=tuning)
            label = f"{camera.split(' (')[0]}{', perturbed matrix' if perturbed else ''}"
            out.append((label, replace(split, tray=tray)))
    return out


def _touches(occupied: npt.NDArray[np.uint8], shape: npt.NDArray[np.uint8]) -> tuple[bool, bool]:
    """(overlaps, touches within 2 px) of ``shape`` against what is already placed."""
    overlap = bool((occupied & shape).any())
    near = np.asarray(cv2.dilate(shape, np.ones((5, 5), np.uint8)), np.uint8)
    return overlap, bool((occupied & near).any())


def _mask(piece: Piece) -> npt.NDArray[np.uint8]:
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.fillPoly(mask, [piece.footprint()], 1)
    return mask


def place(rng: np.random.Generator, colours: list[str], touching: float = 0.4, spacing: int = 0) -> list[Piece]:
    """Lay ``colours`` pieces on the tray without overlap; about ``touching`` of them pushed against another."""
    occupied = np.zeros((HEIGHT, WIDTH), np.uint8)
    placed: list[Piece] = []
    for colour in colours:
        pose = "lying" if rng.random() < 0.5 else "standing"
        angle, tint, shade = float(rng.uniform(0, 180)), float(rng.normal(0, 0.04)), float(rng.lognormal(0, 0.05))
        for _attempt in range(300):
            if placed and rng.random() < touching:
                anchor = placed[int(rng.integers(len(placed)))]
                direction = rng.uniform(0, 2 * math.pi)
                candidate = None
                for gap in range(80, 20, -2):  # slide toward the anchor until the two touch
                    x, y = anchor.x + gap * math.cos(direction), anchor.y + gap * math.sin(direction)
                    piece = Piece(colour, pose, float(x), float(y), angle, tint, shade)
                    overlap, near = _touches(occupied, _mask(piece))
                    if overlap:
                        break
                    candidate = piece if near else candidate
                    if near:
                        break
                if candidate is None:
                    continue
                piece = candidate
            else:
                piece = Piece(colour, pose, float(rng.uniform(45, WIDTH - 45)), float(rng.uniform(45, HEIGHT - 45)),
                              angle, tint, shade)
            if not (40 <= piece.x <= WIDTH - 40 and 40 <= piece.y <= HEIGHT - 40):
                continue
            shape = _mask(piece)
            kernel = np.ones((2 * spacing + 1,) * 2, np.uint8)
            grown = np.asarray(cv2.dilate(shape, kernel), np.uint8) if spacing else shape
            if not (occupied & grown).any():
                occupied |= shape
                placed.append(piece)
                break
    return placed


def scene_rng(split: Split, light: str, index: int) -> np.random.Generator:
    """The random stream of one scene: fixed by the split's seed, the light's name and the index."""
    return np.random.default_rng([split.seed, zlib.crc32(light.encode()), index])


def make_scene(split: Split, light: str, index: int) -> Scene:
    """Scene ``index`` of ``light`` in ``split``: 1-20 random pieces, touching, under that light."""
    rng = scene_rng(split, light, index)
    count = int(rng.integers(1, 21))
    colours = [COLOURS[int(i)] for i in rng.integers(0, len(COLOURS), count)]
    pieces = place(rng, colours)
    lamps = {**LIGHTS, **PAIR_LIGHTS}[light](rng)
    return Scene(pieces, lamps, int(rng.integers(85, 93)), int(rng.integers(2**31)))


def unlit(scene: Scene) -> Scene:
    """The same scene a moment later with the tower's ring at its idle level (fresh sensor noise)."""
    lamps = [replace(lamp, intensity=lamp.intensity * IDLE_LEVEL) if lamp.tower else lamp for lamp in scene.lamps]
    return Scene(scene.pieces, lamps, scene.jpeg_quality, scene.noise_seed + 1)


def render_pair(scene: Scene, tray: Tray) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The light-on and light-off frames of ``scene``."""
    return render(scene, tray), render(unlit(scene), tray)


def scenes(split: Split, light: str, count: int) -> Iterator[tuple[npt.NDArray[np.uint8], Scene]]:
    """``count`` rendered scenes of ``light`` in ``split``: (BGR frame, the scene with its true pieces)."""
    for index in range(count):
        scene = make_scene(split, light, index)
        yield render(scene, split.tray), scene


def calibration_frames(
    split: Split, pairs: bool = False
) -> tuple[npt.NDArray[np.uint8], dict[str, list[npt.NDArray[np.uint8]]]]:
    """What the calibration wizard photographs on this split's tower: the empty tray, 4 pieces per colour.

    With ``pairs`` each frame is a light-on/off difference (``vision.frame_pair``), as a tower that
    counts on pairs also calibrates on them.
    """
    rng = np.random.default_rng([split.seed, 0])
    lamps = LIGHTS[CALIBRATION_LIGHT](rng)

    def shoot(pieces: list[Piece]) -> npt.NDArray[np.uint8]:
        scene = Scene(pieces, lamps, 92, int(rng.integers(2**31)))
        return tower_light_only(*render_pair(scene, split.tray), srgb=True) if pairs else render(scene, split.tray)

    empty = shoot([])
    frames = {colour: [shoot(place(rng, [colour] * 4, touching=0.0, spacing=12))] for colour in COLOURS}
    return empty, frames


def camera_settings(tray: Tray | None = None) -> CameraSettings:
    """What the simulated camera (of ``tray``'s tower; default: the default camera) reports when the
    calibration locks it: its colour matrix (as a Pi camera's ``ColourCorrectionMatrix`` metadata does)."""
    processing = spectra.processing() if tray is None else tray.processing()
    return CameraSettings(colour_matrix=processing.matrix.round(6).tolist())
