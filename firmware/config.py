"""The instance's ``tower.json``: pin numbers, drop-timing thresholds and the beam's calibration.

Optional; every key may be left out. Example::

    {"pins": {"beam": 17, "emitter": 27, "light": 18, "button": null},
     "timing": {"double_ms": 10.5, "settle_ms": 700},
     "beam": {"single_block_ms": 4.4, "single_block_max_ms": 6.1, "hidden_allowance": 1}}

``beam`` is how long one piece blocks this tower's beam and how many pieces it may hide
(``firmware.crosscheck.BeamCalibration``), written by the tower service as it learns them from its
tosses (``firmware.crosscheck.BeamLearner``).

Unknown keys are errors naming the key, so a typo never silently keeps the default.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from firmware.crosscheck import BeamCalibration
from firmware.pins import PinMap
from firmware.timing import TimingConfig

TOWER_CONFIG_FILENAME = "tower.json"


def load_tower_config(instance_dir: Path | None) -> tuple[PinMap, TimingConfig]:
    """Pins and timing from ``instance_dir/tower.json``, defaults for whatever it leaves out."""
    data, path = _read(instance_dir)
    pins: dict[str, Any] = data.get("pins") or {}
    timing: dict[str, Any] = data.get("timing") or {}
    _check_keys(path, "pins.", pins, {f.name for f in fields(PinMap)})
    _check_keys(path, "timing.", timing, {f.name for f in fields(TimingConfig)})
    return PinMap(**pins), TimingConfig(**timing)


def load_beam_calibration(instance_dir: Path | None) -> BeamCalibration | None:
    """The beam's calibration from ``tower.json``, or None when the tower has not been calibrated."""
    data, path = _read(instance_dir)
    if "beam" not in data:
        return None
    beam: dict[str, Any] = data["beam"] or {}
    _check_keys(path, "beam.", beam, {f.name for f in fields(BeamCalibration)})
    return BeamCalibration(**beam)


def save_beam_calibration(instance_dir: Path, calibration: BeamCalibration) -> None:
    """Write ``calibration`` as ``tower.json``'s ``beam``, keeping everything else the file says."""
    data, path = _read(instance_dir)
    data["beam"] = {f.name: getattr(calibration, f.name) for f in fields(BeamCalibration)}
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    temporary.replace(path)


def _read(instance_dir: Path | None) -> tuple[dict[str, Any], Path]:
    """``tower.json`` as a dict (empty when there is none) and its path, its top-level keys checked."""
    path = (instance_dir or Path(".")) / TOWER_CONFIG_FILENAME
    if instance_dir is None or not path.exists():
        return {}, path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object with 'pins', 'timing' and/or 'beam'")
    _check_keys(path, "", data, {"pins", "timing", "beam"})
    return data, path


def _check_keys(path: Path, prefix: str, section: Any, allowed: set[str]) -> None:
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: {prefix.rstrip('.')} must be a JSON object")
    unknown = sorted(set(section) - allowed)
    if unknown:
        raise ConfigError(
            f"{path}: unknown setting {prefix}{unknown[0]}; expected one of {', '.join(sorted(allowed))}"
        )
