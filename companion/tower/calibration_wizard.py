"""The camera calibration wizard (Setup → Calibrate camera): empty tray, then each of the 12 colours, then a test.

Each step takes one photo through the tower service (``TowerService.capture_frame``: the tower
owns its camera and light, so the wizard never opens the Pi camera itself; in simulated mode the
wizard first lays out what the step asks for in the simulated tray with ``place_in_tray``) and keeps
it as a PNG in ``<instance>/calibration-wizard/`` so the table can look at it, retake it, or come
back after a restart. ``finish`` runs ``vision.calibrate.calibrate`` on the 13 frames, saves the
result as the tower's calibration (``<instance>/calibration.json``) and has the tower reload it, so
the next toss counts with it; ``test`` counts a fresh frame with it. Frames are PNG, not JPEG:
calibration learns exact colours. The dashboard's routes (``companion.web.calibration``) call it and
serve its frames. numpy and OpenCV (``vision.calibrate``, ``vision.detect``, ``vision.sources``) load
when a step runs, not with the dashboard that imports this module (issue 23: the server's memory).
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion import COLOURS
from companion.errors import KeshiError
from companion.i18n import Msg, colour_name
from firmware.tray_camera import CALIBRATION_FILENAME, TrayScene
from vision.errors import VisionError

if TYPE_CHECKING:
    from vision.calibrate import CameraSettings
    from vision.sources import Frame

WIZARD_DIR = "calibration-wizard"
#: The exposure, gain and white balance the camera locked on the empty tray (kept until ``finish``).
CAMERA_SETTINGS_FILE = "camera.json"
EMPTY = "empty"
TEST = "test"
STEPS: tuple[str, ...] = (EMPTY, *COLOURS)
#: Pieces the wizard asks for per colour (apart from each other); the synthetic tray shows as many.
PIECES_PER_COLOUR = 4


def step_names(steps: list[str] | tuple[str, ...]) -> list[Msg | str]:
    """Steps as the wizard's screens name them, in the reader's language ("the empty tray", "turquoise")."""
    return [Msg("the empty tray") if step == EMPTY else colour_name(step) for step in steps]


class CalibrationStepError(KeshiError, ValueError):
    """A wizard request names no step, or a step whose frames are missing."""


class WizardTower(Protocol):
    """What the wizard needs of the tower service (``companion.tower.service.TowerService``)."""

    mode: str

    def capture_frame(self) -> Frame: ...

    def settle_camera(self) -> Any: ...

    def place_in_tray(self, scene: TrayScene) -> None: ...

    def reload_calibration(self) -> None: ...


class TowerStepCamera:
    """Each step's photo from the tower's camera.

    On the simulated tower it first lays out what the step asks the table to put in (4 separated
    pieces of the colour, nothing, or a random handful for the test) and returns those counts with
    the frame, so the test step can say what was really there. On the Pi the table has done that.
    """

    def __init__(self, tower: WizardTower, seed: int = 0) -> None:
        self.tower = tower
        self._seed = seed
        self._rng: Any = None  # numpy's generator, made at the first simulated step (numpy loads then)

    def capture(self, step: str) -> tuple[Frame, dict[str, int] | None]:
        truth = None
        if self.tower.mode == "simulated":
            scene = self._scene(step)
            self.tower.place_in_tray(scene)
            truth = dict.fromkeys(COLOURS, 0)
            for piece in scene:
                truth[piece.colour] += 1
        return self.tower.capture_frame(), truth

    def _scene(self, step: str) -> list[Any]:
        import numpy as np

        from vision.synthetic import place_pieces, random_counts

        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        if step == EMPTY:
            return []
        if step == TEST:
            return place_pieces(random_counts(self._rng, low=4, high=12), self._rng)
        return place_pieces({step: PIECES_PER_COLOUR}, self._rng, touching=0.0, spacing=12)


@dataclass
class CalibrationWizard:
    """The wizard's frames on disk, the camera that takes them, and the calibration they make."""

    instance: Path
    tower: WizardTower
    seed: int = 0

    def __post_init__(self) -> None:
        self.camera = TowerStepCamera(self.tower, self.seed)
        self.simulated = self.tower.mode == "simulated"
        self.folder = self.instance / WIZARD_DIR
        self.lock = threading.Lock()
        self.last_test: dict[str, Any] | None = None

    @property
    def calibration_path(self) -> Path:
        return self.instance / CALIBRATION_FILENAME

    def frame_path(self, step: str) -> Path:
        return self.folder / f"{step}.png"

    def status(self) -> dict[str, Any]:
        """Every step (captured or not, with its image URL), and the saved calibration's summary."""
        steps = []
        for step in STEPS:
            path = self.frame_path(step)
            entry: dict[str, Any] = {"step": step, "captured": path.is_file()}
            if entry["captured"]:
                entry["image_url"] = f"/api/calibration/frames/{step}.png?v={path.stat().st_mtime_ns}"
            steps.append(entry)
        return {"steps": steps, "calibration": self.summary(), "test": self.last_test, "simulated": self.simulated}

    def capture(self, step: str) -> dict[str, Any]:
        """Take the frame of ``step`` (replacing an earlier one)."""
        if step not in STEPS:
            raise CalibrationStepError(Msg("unknown calibration step {step!r}; the steps are {steps}", step=step,
                                           steps=step_names(STEPS)))
        from vision.sources import write_image

        settled = self.tower.settle_camera() if step == EMPTY else None
        frame, _truth = self.camera.capture(step)
        with self.lock:
            self.folder.mkdir(exist_ok=True)
            write_image(self.frame_path(step), frame)
            if step == EMPTY:
                self._save_camera_settings(settled)
        return self.status()

    def _save_camera_settings(self, settled: CameraSettings | None) -> None:
        """Keep the settings the camera locked on the empty tray for ``finish`` (or forget old ones)."""
        path = self.folder / CAMERA_SETTINGS_FILE
        if settled is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(json.dumps(asdict(settled)))

    def _camera_settings(self) -> CameraSettings | None:
        from vision.calibrate import CameraSettings

        path = self.folder / CAMERA_SETTINGS_FILE
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text())
            if data.get("colour_gains") is not None:
                data["colour_gains"] = tuple(data["colour_gains"])
            return CameraSettings(**data)
        except (ValueError, TypeError, AttributeError) as exc:  # not JSON, not an object, or unknown fields
            raise CalibrationStepError(Msg("The camera settings kept with the empty tray's photo are damaged: "
                                           "take the empty tray's photo again")) from exc

    def finish(self) -> dict[str, Any]:
        """Calibrate from the captured frames, save the result as the tower's calibration, and have the
        tower count with it from now on."""
        from vision.calibrate import calibrate
        from vision.sources import read_image

        missing = [s for s in STEPS if not self.frame_path(s).is_file()]
        if missing:
            raise CalibrationStepError(Msg("Take the photo of these steps first: {steps}", steps=step_names(missing)))
        with self.lock:
            empty = read_image(self.frame_path(EMPTY))
            frames = {c: [read_image(self.frame_path(c))] for c in COLOURS}
            result = calibrate(empty, frames, camera=self._camera_settings())
            result.save(self.calibration_path)
            self.last_test = None
        self.tower.reload_calibration()
        return self.status()

    def summary(self) -> dict[str, Any] | None:
        """The saved calibration: pieces learnt per colour, frame size, threshold (None if none saved)."""
        if not self.calibration_path.is_file():
            return None
        from vision.calibrate import Calibration

        try:
            saved = Calibration.load(self.calibration_path)
        except VisionError as exc:
            return {"error": str(exc)}
        return {"path": CALIBRATION_FILENAME, "width": saved.width, "height": saved.height,
                "threshold": saved.threshold, "pieces": {c: m.pieces for c, m in saved.colours.items()}}

    def test(self) -> dict[str, Any]:
        """Count a fresh frame with the saved calibration: counts, unknown pieces, each piece's confidence."""
        from vision.calibrate import Calibration
        from vision.detect import Detector
        from vision.sources import write_image

        saved = Calibration.load(self.calibration_path)
        frame, truth = self.camera.capture(TEST)
        detection = Detector(saved).detect(frame)
        with self.lock:
            self.folder.mkdir(exist_ok=True)
            write_image(self.frame_path(TEST), frame)
            version = self.frame_path(TEST).stat().st_mtime_ns
            self.last_test = {**detection.to_json(), "truth": truth,
                              "image_url": f"/api/calibration/frames/{TEST}.png?v={version}"}
        return self.status()
