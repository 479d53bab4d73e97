"""The instance's ``tower.json``: pin numbers and drop-timing thresholds found while calibrating.

Optional; every key may be left out. Example::

    {"pins": {"beam": 17, "emitter": 27, "light": 18, "button": null},
     "timing": {"double_ms": 10.5, "settle_ms": 700}}

Unknown keys are errors naming the key, so a typo never silently keeps the default.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from firmware.pins import PinMap
from firmware.timing import TimingConfig

TOWER_CONFIG_FILENAME = "tower.json"


def load_tower_config(instance_dir: Path | None) -> tuple[PinMap, TimingConfig]:
    """Pins and timing from ``instance_dir/tower.json``, defaults for whatever it leaves out."""
    path = instance_dir / TOWER_CONFIG_FILENAME if instance_dir is not None else None
    if path is None or not path.exists():
        return PinMap(), TimingConfig()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object with 'pins' and/or 'timing'")
    _check_keys(path, "", data, {"pins", "timing"})
    pins: dict[str, Any] = data.get("pins") or {}
    timing: dict[str, Any] = data.get("timing") or {}
    _check_keys(path, "pins.", pins, {f.name for f in fields(PinMap)})
    _check_keys(path, "timing.", timing, {f.name for f in fields(TimingConfig)})
    return PinMap(**pins), TimingConfig(**timing)


def _check_keys(path: Path, prefix: str, section: Any, allowed: set[str]) -> None:
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: {prefix.rstrip('.')} must be a JSON object")
    unknown = sorted(set(section) - allowed)
    if unknown:
        raise ConfigError(
            f"{path}: unknown setting {prefix}{unknown[0]}; expected one of {', '.join(sorted(allowed))}"
        )
