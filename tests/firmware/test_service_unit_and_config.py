"""The systemd unit and the instance's tower.json, as installed on the Pi."""

from __future__ import annotations

import configparser
import json
from pathlib import Path

import pytest

from companion.errors import ConfigError
from firmware.config import load_tower_config
from firmware.errors import PinMapError, TimingConfigError
from firmware.pins import PinMap
from firmware.timing import TimingConfig

UNIT = Path(__file__).resolve().parents[2] / "firmware" / "keshi-tower.service"


def test_the_unit_runs_keshi_serve_as_an_ordinary_user_and_restarts_on_failure() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    service = unit["Service"]
    assert service["User"] not in ("root", "") and set(service["SupplementaryGroups"].split()) >= {"gpio", "video"}
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"].split()[1:3] == ["serve", "--port"]
    assert service["WorkingDirectory"] == "/var/lib/" + service["StateDirectory"]  # writable for lgpio
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_no_tower_json_means_the_defaults(tmp_path: Path) -> None:
    assert load_tower_config(tmp_path) == (PinMap(), TimingConfig())
    assert load_tower_config(None) == (PinMap(), TimingConfig())


def test_tower_json_overrides_pins_and_timing(tmp_path: Path) -> None:
    (tmp_path / "tower.json").write_text(json.dumps({"pins": {"button": None}, "timing": {"double_ms": 10.5}}))
    pins, timing = load_tower_config(tmp_path)
    assert pins.button is None and pins.beam == PinMap().beam
    assert timing.double_ms == 10.5 and timing.settle_ms == TimingConfig().settle_ms


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        ({"timing": {"double_ns": 3}}, ConfigError, "unknown setting timing.double_ns"),
        ({"pin": {}}, ConfigError, "unknown setting pin"),
        ({"pins": {"beam": 18}}, PinMapError, "GPIO18 is assigned twice"),
        ({"timing": {"settle_ms": "abc"}}, TimingConfigError, "settle_ms must be a number, not 'abc'"),
        ([1, 2], ConfigError, "must hold a JSON object"),
    ],
)
def test_bad_tower_json_names_the_problem(
    tmp_path: Path, content: object, error: type[Exception], message: str
) -> None:
    (tmp_path / "tower.json").write_text(json.dumps(content))
    with pytest.raises(error, match=message):
        load_tower_config(tmp_path)
