"""hardware/: the pin map, the wiring diagram and the firmware's default pins agree; the BOM adds up;
the mount's OpenSCAD source renders (where OpenSCAD is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import asdict
from pathlib import Path

import pytest

from firmware.pins import HEADER_PIN, PinMap

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"


def default_pins() -> dict[str, int]:
    return {name: pin for name, pin in asdict(PinMap()).items() if pin is not None}


def test_wiring_svg_labels_the_default_pins() -> None:
    root = ET.parse(HARDWARE / "wiring.svg").getroot()
    labels = {el.get("id"): el.text for el in root.iter(f"{SVG}text") if el.get("id")}
    for part, pin in default_pins().items():
        assert labels[f"pin-{part}"] == f"GPIO{pin} (pin {HEADER_PIN[pin]})"


def test_pinmap_table_matches_the_firmware() -> None:
    rows = {}
    for line in (HARDWARE / "pinmap.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 3:
            rows[cells[0]] = cells
    for part, pin in default_pins().items():
        assert rows[part][1:3] == [f"GPIO{pin}", str(HEADER_PIN[pin])], part


def test_bom_totals_add_up() -> None:
    columns: list[list[float]] = [[], []]
    totals: list[float] = []
    for line in (HARDWARE / "BOM.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6:
            continue
        if cells[1] == "**Total**":
            totals = [float(c.strip("*")) for c in cells[3:5]]
        elif re.fullmatch(r"\d+b?", cells[0]):
            for i, cell in enumerate(cells[3:5]):
                columns[i].append(0.0 if cell == "—" else float(cell))
    assert totals == [pytest.approx(sum(col)) for col in columns]


@pytest.mark.skipif(shutil.which("openscad") is None, reason="OpenSCAD is not installed")
@pytest.mark.parametrize("part", ["cradle", "beam_clip"])
def test_the_mount_renders(part: str, tmp_path: Path) -> None:
    out = tmp_path / f"{part}.stl"
    run = subprocess.run(
        ["openscad", "-D", f'part="{part}"', "-D", "$fn=24", "-o", str(out), str(HARDWARE / "mount.scad")],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr and out.stat().st_size > 10_000
