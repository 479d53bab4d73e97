"""The dashboard's icon files and colours: what the manifest names (``installable``) and what
``app_icons`` draws. Kept apart from the drawing so serving the icons never loads OpenCV or numpy."""

from __future__ import annotations

from pathlib import Path

ICON_DIR = Path(__file__).parent / "static" / "icons"
BACKGROUND = "#14161a"
ACCENT = "#f2b33d"
#: file name -> (size in pixels, fraction of the side the drawing may use)
ICONS: dict[str, tuple[int, float]] = {
    "favicon-32.png": (32, 1.0),
    "apple-touch-icon.png": (180, 0.9),
    "icon-192.png": (192, 0.95),
    "icon-512.png": (512, 0.95),
    "icon-maskable-512.png": (512, 0.72),
}
