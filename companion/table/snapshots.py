"""The tray camera's snapshot of each toss, where it is found in the instance folder, and per-colour confidence.

The tower service saves the frame it counted as ``<instance>/snapshots/<toss_id>.jpg`` and names it
in its ``toss.result`` (``snapshot: "snapshots/<toss_id>.jpg"``, relative to the instance folder),
with the detector's pieces (``pieces: [{colour, confidence, x, y}]``, ``vision.detect.Piece``).
The tower-result screen shows that image (served by ``companion.web.snapshots``) and, per colour, how
sure the camera was.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SNAPSHOT_DIR = "snapshots"
TOSS_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")


def snapshot_url(instance: Path | None, toss_id: str, reported: Any) -> str | None:
    """The URL of ``toss_id``'s snapshot, if the tower reported one or saved it where it belongs."""
    if instance is None or not TOSS_ID.fullmatch(toss_id):
        return None
    expected = f"{SNAPSHOT_DIR}/{toss_id}.jpg"
    if reported == expected or (instance / expected).is_file():
        return "/" + expected
    return None


def colour_confidence(pieces: Any) -> dict[str, dict[str, float | int]] | None:
    """Per detected colour: ``{count, mean, lowest}`` of its pieces' confidences (None without pieces)."""
    if not isinstance(pieces, list) or not pieces:
        return None
    grouped: dict[str, list[float]] = {}
    for piece in pieces:
        if isinstance(piece, dict) and isinstance(piece.get("confidence"), (int, float)):
            grouped.setdefault(str(piece.get("colour", "unknown")), []).append(float(piece["confidence"]))
    return {colour: {"count": len(values), "mean": round(sum(values) / len(values), 3),
                     "lowest": round(min(values), 3)} for colour, values in grouped.items()}
