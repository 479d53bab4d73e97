"""The count cross-check (``firmware.crosscheck``) in player words: why a toss waits for the table's
look, or why a difference between the beam and the camera is nothing to check.

Each is a ``Msg``, so a phone shows it in its own language (``Msg.to_json`` in the toss's result).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import Msg, colour_name
from firmware.crosscheck import CrossCheck


def flag_words(check: CrossCheck) -> list[Msg]:
    """One message per reason the toss is flagged, in the cross-check's order."""
    said: list[Msg] = []
    for reason in check.reasons:
        if reason == "no_camera":
            said.append(Msg("the camera could not count this toss"))
        elif reason == "fewer":
            said.append(Msg("the camera saw {pieces} pieces, but the beam saw at least {certain} fall",
                            pieces=check.pieces, certain=check.beam.certain))
        elif reason == "more":
            said.append(Msg("the camera saw {pieces} pieces, more than could hide in the beam's {drops} drops",
                            pieces=check.pieces, drops=check.beam.drops))
        elif reason == "beyond":
            said.append(Msg("the camera saw more {colours} than the game expects: look in the tray",
                            colours=[colour_name(c) for c in check.beyond]))
        elif reason == "unknown":
            said.append(Msg("the camera could not tell the colour of {n} piece(s)", n=check.unknown))
        elif reason == "unsure":
            said.append(Msg("the camera was unsure of this colour: {colours}",
                            colours=[colour_name(c) for c in check.unsure]))
    return said


def agreement_words(check: CrossCheck) -> list[Msg]:
    """Why a toss with more pieces than drops is not flagged (nothing to say when they match)."""
    if check.flagged or check.pieces is None or check.pieces <= check.beam.drops:
        return []
    if check.pieces == check.beam.drops + 1:
        return [Msg("the beam saw {drops} drops; two pieces probably fell together", drops=check.beam.drops)]
    return [Msg("the beam saw {drops} drops and the camera {pieces} pieces; some pieces probably fell together",
                drops=check.beam.drops, pieces=check.pieces)]


def check_json(check: CrossCheck) -> dict[str, Any]:
    """The verdict for the toss's result: ``{flagged, reasons, certain, plausible, say: [Msg.to_json()]}``."""
    said = flag_words(check) if check.flagged else agreement_words(check)
    return {"flagged": check.flagged, "reasons": list(check.reasons), "certain": check.beam.certain,
            "plausible": check.beam.plausible, "say": [m.to_json() for m in said]}
