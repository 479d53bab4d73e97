"""On the Pi with the tower wired (KESHI_HARDWARE_TESTS=1): the real beam, emitter and light.

The emitter is on a GPIO, so these tests make their own beam events by switching it: no one has to
drop pieces. Run on the Pi with ``KESHI_HARDWARE_TESTS=1 .venv/bin/python -m pytest -m hardware``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.rig import TowerRig
from firmware.timing import Drop, DropTimer

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(os.environ.get("KESHI_HARDWARE_TESTS") != "1", reason="set KESHI_HARDWARE_TESTS=1 on the Pi"),
]


@pytest.fixture
def pi_rig() -> Iterator[TowerRig]:
    rig = TowerRig()
    yield rig
    rig.close()


def test_the_receiver_follows_the_emitter(pi_rig: TowerRig) -> None:
    assert pi_rig.emitter.self_test(pi_rig.beam, time.sleep) is None


def test_edges_are_stamped_on_the_factory_clock(pi_rig: TowerRig) -> None:
    before = pi_rig.ticks()
    pi_rig.emitter.off()
    time.sleep(0.02)
    pi_rig.emitter.on()
    time.sleep(0.02)
    edges = list(pi_rig.beam.drain())
    assert [e.blocked for e in edges][:2] == [True, False]
    assert before <= edges[0].ticks <= before + 0.02
    blocked_ms = pi_rig.beam.last_blocked_ms
    assert blocked_ms is not None and 10.0 <= blocked_ms <= 30.0


def test_forty_emitter_pulses_become_forty_drops(pi_rig: TowerRig) -> None:
    timer = DropTimer()
    drops: list[Drop] = []
    for _ in range(40):
        pi_rig.emitter.off()
        time.sleep(0.005)
        pi_rig.emitter.on()
        time.sleep(0.01)
        for edge in pi_rig.beam.drain():
            drops += [e for e in timer.edge(edge.ticks, edge.blocked) if isinstance(e, Drop)]
    drops += [e for e in timer.poll(pi_rig.ticks() + 1.0) if isinstance(e, Drop)]
    assert len(drops) == 40
    assert all(3.0 <= d.blocked_ms <= 12.0 for d in drops)


def test_the_light_dims_and_goes_full_for_capture(pi_rig: TowerRig) -> None:
    pi_rig.light.value = 0.5
    with pi_rig.light.for_capture():
        assert pi_rig.light.value == 1.0
    assert pi_rig.light.value == pytest.approx(pi_rig.light.idle_level)


def test_the_tray_camera_counts_an_empty_tray_as_empty() -> None:
    """Needs the instance's camera calibration (KESHI_INSTANCE, default ./instance) and an empty tray."""
    from pathlib import Path

    from firmware.tray_camera import CALIBRATION_FILENAME, hardware_camera

    instance = Path(os.environ.get("KESHI_INSTANCE", "instance"))
    if not (instance / CALIBRATION_FILENAME).exists():
        pytest.skip(f"no {CALIBRATION_FILENAME} in {instance}: calibrate the camera first")
    camera = hardware_camera(instance)
    try:
        frame = camera.capture()
        assert frame.ndim == 3 and frame.shape[2] == 3
        assert camera.count(frame).total == 0
    finally:
        camera.close()


def test_without_a_calibration_the_pi_camera_photographs_but_does_not_count(tmp_path: Path) -> None:
    """What the calibration wizard relies on: photos before any calibration exists."""
    from firmware.tray_camera import CameraUnavailableError, hardware_camera

    camera = hardware_camera(tmp_path)  # no calibration.json here
    try:
        frame = camera.capture()
        assert frame.shape == (480, 640, 3) and not camera.calibrated
        with pytest.raises(CameraUnavailableError, match="no calibration"):
            camera.count(frame)
    finally:
        camera.close()


def test_the_pi_camera_settles_and_reports_the_settings_to_lock(tmp_path: Path) -> None:
    """The calibration wizard's first step: exposure and white balance settle, then are locked."""
    from firmware.tray_camera import hardware_camera

    camera = hardware_camera(tmp_path)
    try:
        settings = camera.settle()
        assert settings.exposure_time_us > 0 and settings.analogue_gain >= 1.0
        assert settings.colour_gains is not None and all(g > 0 for g in settings.colour_gains)
    finally:
        camera.close()
