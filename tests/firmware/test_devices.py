"""The tower's gpiozero devices on MockFactory: beam aliases, emitter self-test, light, button, pins."""

from __future__ import annotations

import random

import pytest

from companion.cli import main
from firmware.errors import FirmwareError, PinMapError
from firmware.mockpins import EmitterMockPin
from firmware.pins import PinMap
from firmware.rig import TowerRig
from firmware.simulated import BeamPlayer, beam_edges
from tests.firmware.conftest import receiver


def test_beam_callbacks_use_domain_names(rig: TowerRig) -> None:
    seen: list[str] = []
    rig.beam.when_beam_broken = lambda: seen.append("broken")
    rig.beam.when_beam_restored = lambda: seen.append("restored")
    pin = receiver(rig)
    pin.drive_low()
    pin.drive_high()
    assert seen == ["broken", "restored"]
    assert [edge.blocked for edge in rig.beam.drain()] == [True, False]


def test_emitter_self_test_passes_when_the_receiver_follows(linked_rig: TowerRig) -> None:
    assert linked_rig.emitter.self_test(linked_rig.beam, lambda _s: None) is None
    assert linked_rig.emitter.is_active  # the beam is back on


def test_emitter_self_test_names_a_disconnected_receiver(linked_rig: TowerRig) -> None:
    emitter_pin = linked_rig.factory.pin(linked_rig.pins.emitter)
    assert isinstance(emitter_pin, EmitterMockPin)
    emitter_pin.disconnected = True
    problem = linked_rig.emitter.self_test(linked_rig.beam, lambda _s: None)
    assert problem is not None and "disconnected" in problem


def test_emitter_self_test_names_an_obstructed_beam(linked_rig: TowerRig) -> None:
    BeamPlayer(linked_rig).inject("stuck")
    problem = linked_rig.emitter.self_test(linked_rig.beam, lambda _s: None)
    assert problem is not None and "blocked" in problem


def test_light_is_full_for_a_capture_then_dims_back(rig: TowerRig) -> None:
    pin = rig.factory.pin(rig.pins.light)
    assert pin.state == pytest.approx(rig.light.idle_level)
    with rig.light.for_capture():
        assert pin.state == 1.0
    assert pin.state == pytest.approx(rig.light.idle_level)
    with pytest.raises(RuntimeError), rig.light.for_capture():
        raise RuntimeError("camera failed")
    assert pin.state == pytest.approx(rig.light.idle_level)


def test_toss_button_press_requests_a_toss(rig: TowerRig) -> None:
    pressed: list[bool] = []
    assert rig.button is not None
    rig.button.when_toss_requested = lambda: pressed.append(True)
    pin = rig.factory.pin(rig.pins.button)
    pin.drive_low()
    pin.drive_high()
    assert pressed == [True]


def test_closing_a_rig_frees_its_pins(factory: object) -> None:
    first = TowerRig(pin_factory=factory)
    first.close()
    second = TowerRig(pin_factory=factory)  # would raise GPIOPinInUse if a pin were still held
    second.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"beam": 40}, "beam pin must be a BCM GPIO"), ({"light": 17}, "GPIO17 is assigned twice")],
)
def test_bad_pin_maps_are_rejected(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(PinMapError, match=message):
        PinMap(**kwargs)


def test_simulated_edges_merge_pieces_falling_together() -> None:
    rng = random.Random(3)
    edges = beam_edges([100.0, 200.0, 300.0], rng, together_p=1.0, chatter_p=0.0)
    assert [e.blocked for e in edges] == [True, False]  # all three overlapped into one block
    times = [e.t_ms for e in beam_edges([100.0 + 40 * i for i in range(50)], rng, chatter_p=0.5)]
    assert times == sorted(times)


def test_pintest_mock_prints_each_drop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tower", "pintest", "--mock", "--seconds", "3"]) == 0
    out = capsys.readouterr().out
    assert "beam self-test: ok" in out
    drops = [line for line in out.splitlines() if line.startswith("drop ")]
    assert f"settled: {len(drops)} drops" in out and len(drops) >= 3


def test_pintest_off_the_pi_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tower", "pintest", "--seconds", "0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Raspberry Pi" in err[0]


def test_pintest_bad_pin_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tower", "pintest", "--mock", "--light-pin", "17"]) == 2
    assert capsys.readouterr().err.strip() == "keshi: error: GPIO17 is assigned twice (beam and light)"


def test_a_pin_already_in_use_is_a_firmware_error(rig: TowerRig) -> None:
    with pytest.raises(FirmwareError, match="GPIO17"):
        TowerRig(pin_factory=rig.factory)
