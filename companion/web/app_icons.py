"""The dashboard's icons (favicon, home-screen icons), drawn with OpenCV and committed as PNGs.

Run ``python -m companion.web.app_icons`` after changing the drawing; it rewrites the files in
``companion/web/static/icons/``. The drawing: the dashboard's dark background, the tower in the
accent colour, and three keshis (green, pink, turquoise from the palette) falling out of it. The
maskable icon keeps everything inside the central 80 % a phone may crop to a circle.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.web.icon_files import ACCENT, BACKGROUND, ICON_DIR, ICONS
from companion.web.palette import PALETTE


def _bgr(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return b, g, r


def draw(size: int, fill: float) -> np.ndarray:
    """One icon: ``size`` pixels square, the drawing within ``fill`` of the side, centred."""
    scale = 4  # drawn large and shrunk, for smooth edges at 32 px too
    side = size * scale
    image = np.full((side, side, 3), _bgr(BACKGROUND), dtype=np.uint8)
    box = side * fill
    left = (side - box) / 2

    def at(x: float, y: float) -> tuple[int, int]:
        return int(left + x * box), int(left + y * box)

    tower = np.array([at(0.30, 0.16), at(0.70, 0.16), at(0.80, 0.66), at(0.20, 0.66)], dtype=np.int32)
    cv2.fillPoly(image, [tower], _bgr(ACCENT), lineType=cv2.LINE_AA)
    for x in (0.27, 0.45, 0.63):  # battlements
        cv2.rectangle(image, at(x, 0.04), at(x + 0.10, 0.17), _bgr(ACCENT), -1, lineType=cv2.LINE_AA)
    mouth = np.array([at(0.40, 0.50), at(0.60, 0.50), at(0.62, 0.66), at(0.38, 0.66)], dtype=np.int32)
    cv2.fillPoly(image, [mouth], _bgr(BACKGROUND), lineType=cv2.LINE_AA)
    for x, colour in ((0.28, "green"), (0.50, "pink"), (0.72, "turquoise")):
        centre = at(x, 0.84)
        radius = int(box * 0.105)
        cv2.circle(image, centre, radius, _bgr(PALETTE[colour][0]), -1, lineType=cv2.LINE_AA)
    return cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)


def write_icons(folder: Path = ICON_DIR) -> list[Path]:
    """Draw every icon into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, fill) in ICONS.items():
        path = folder / name
        if not cv2.imwrite(str(path), draw(size, fill), [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            raise OSError(f"could not write {path}")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_icons():
        print(written_path)
