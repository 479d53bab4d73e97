"""The calibration wizard's refusals in a player's words and language (issue 25).

The vision errors say what went wrong in the precise English the CLI prints (a file's path, a matrix's row
sums); a table at the wizard needs to know what to do about it. Each error the wizard can meet carries the
data its sentence needs (``vision.errors``), and ``player_words`` turns it into one sentence in the phone's
language saying what happened and what to do. ``detail`` keeps the original English for the API's answer (the
host's logs), not for the screen.
"""

from __future__ import annotations

from companion.errors import KeshiError
from companion.i18n import Msg, colour_name
from companion.i18n.player_words import without_rule_refs
from companion.tower.calibration_wizard import STEPS, step_names
from firmware.tray_camera import CameraUnavailableError
from vision.errors import (
    CalibrationError,
    CalibrationFileDamaged,
    CalibrationFileMissing,
    CameraError,
    ColourMatrixRefused,
    FrameSizeMismatch,
    PieceNotFound,
    UnreadableImage,
    VisionError,
)

NO_CAMERA = Msg("The tower's camera is not taking photos: check its cable, then restart the companion.")
#: Why a camera's colour settings (its colour matrix) were refused, by ``ColourMatrixRefused.reason``
MATRIX_WORDS = {
    ColourMatrixRefused.UNREADABLE: Msg("The camera's colour settings cannot be read"),
    ColourMatrixRefused.SHAPE: Msg("The camera's colour settings are incomplete"),
    ColourMatrixRefused.NOT_INVERTIBLE: Msg("The camera's colour settings blur colours together"),
    ColourMatrixRefused.ROW_SUMS: Msg("The camera's colour settings turn grey into a colour"),
}


def player_words(exc: KeshiError) -> Msg | str:
    """What the wizard shows for ``exc``: what happened and what the table can do, in the phone's language."""
    if isinstance(exc, VisionError):
        return _vision_words(exc)
    if isinstance(exc, CameraUnavailableError) and not _in_words(exc):
        return NO_CAMERA
    return without_rule_refs(str(exc))  # the wizard's and the tower's own refusals are messages already


def _in_words(exc: KeshiError) -> bool:
    """Whether ``exc`` was raised with a message (words in the reader's language), not developer English."""
    return bool(exc.args) and isinstance(exc.args[0], Msg)


def _vision_words(exc: VisionError) -> Msg:
    if isinstance(exc, PieceNotFound):
        return Msg("No {colour} keshi was found in its photo: put one on the tray and take that photo again",
                   colour=colour_name(exc.colour))
    if isinstance(exc, FrameSizeMismatch):
        return _size_words(exc)
    if isinstance(exc, ColourMatrixRefused):
        if exc.reason == ColourMatrixRefused.NOISE_GAIN:
            return Msg("This camera's colours are too noisy to tell the keshis apart reliably: use another camera, "
                       "such as a Raspberry Pi camera module.")
        return Msg("{problem}, so the keshis could not be told apart: take the empty tray's photo again. If this "
                   "comes back, the companion cannot use this camera.", problem=MATRIX_WORDS[exc.reason])
    if isinstance(exc, CalibrationFileMissing):
        return Msg("No calibration is saved yet: take the 13 photos and calibrate first.")
    if isinstance(exc, CalibrationFileDamaged):
        if exc.version is not None:
            return Msg("The saved calibration was made by another version of the companion: calibrate again "
                       "(13 photos).")
        return Msg("The saved calibration is damaged: calibrate again (13 photos).")
    if isinstance(exc, UnreadableImage):
        step = exc.path.stem
        if step in STEPS:
            return Msg("The photo of {step} cannot be read: take it again.", step=step_names([step])[0])
        return Msg("A photo cannot be read: take it again.")
    if isinstance(exc, CameraError):
        return NO_CAMERA
    if isinstance(exc, CalibrationError):
        return Msg("These photos did not make a calibration: take them again, then calibrate.")
    return Msg("The camera's photo could not be used: take it again.")


def _size_words(exc: FrameSizeMismatch) -> Msg:
    """A photo of another size than its companions: the camera changed between them."""
    (width, height), (expected_width, expected_height) = exc.size, exc.expected
    if exc.colour is not None:
        return Msg("The photo for {colour} is {width}×{height} pixels, the empty tray's {expected_width}×"
                   "{expected_height}: the camera changed between them. Take the empty tray's photo and every "
                   "colour's again.", colour=colour_name(exc.colour), width=width, height=height,
                   expected_width=expected_width, expected_height=expected_height)
    return Msg("The camera's photo is {width}×{height} pixels, the calibration's {expected_width}×{expected_height}: "
               "the camera changed since. Calibrate again (13 photos).", width=width, height=height,
               expected_width=expected_width, expected_height=expected_height)
