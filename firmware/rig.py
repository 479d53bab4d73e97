"""All of one tower's devices on one pin factory: the real Pi's, or a MockFactory for the simulator.

``TowerRig`` is the seam between the tower code and the pins: the service, ``pintest`` and the tests
build one, on the Pi from gpiozero's default factory (lgpio, imported by gpiozero only there), off
the Pi from ``simulated_rig`` — a ``ScaledMockFactory`` whose emitter pin is wired to the receiver pin,
so the same ``BreakBeam``/``DropTimer`` code runs on both.
"""

from __future__ import annotations

import warnings
from typing import Any

from gpiozero import Device
from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

from firmware.devices import BeamEmitter, BreakBeam, TossButton, TowerLight
from firmware.errors import FirmwareError
from firmware.mockpins import EmitterMockPin, ScaledMockFactory, TimedMockPin
from firmware.pins import PinMap


def default_pin_factory() -> Any:
    """gpiozero's own choice of pin factory (lgpio on a Pi); a ``FirmwareError`` where there is none."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)  # the error below says it in one line
            Device.ensure_pin_factory()
    except BadPinFactory as exc:
        raise FirmwareError(
            f"no GPIO pin factory could be loaded ({exc}); the hardware tower needs a Raspberry Pi "
            "with lgpio installed (pip install 'keshi-tower[pi]')"
        ) from exc
    return Device.pin_factory


class TowerRig:
    """The beam, its emitter, the tray light and (optionally) the toss button of one tower."""

    def __init__(self, pins: PinMap | None = None, *, pin_factory: Any = None) -> None:
        self.pins = pins or PinMap()
        self.factory = pin_factory if pin_factory is not None else default_pin_factory()
        made: list[Any] = []
        try:
            self.beam = BreakBeam(self.pins.beam, pin_factory=self.factory)
            made.append(self.beam)
            self.emitter = BeamEmitter(self.pins.emitter, pin_factory=self.factory)
            made.append(self.emitter)
            self.light = TowerLight(self.pins.light, pin_factory=self.factory)
            made.append(self.light)
            button = self.pins.button
            self.button = TossButton(button, pin_factory=self.factory) if button is not None else None
        except Exception as exc:  # gpiozero's errors, and lgpio's own (e.g. "GPIO busy": another process)
            for device in made:
                device.close()
            hint = "" if isinstance(exc, GPIOZeroError) else " (is keshi-tower.service running and holding them?)"
            raise FirmwareError(f"cannot set up the tower's pins ({self.pins.describe()}): {exc}{hint}") from exc

    def ticks(self) -> float:
        """The pin factory's clock (seconds): the clock the beam's edge timestamps are on."""
        return float(self.factory.ticks())

    def close(self) -> None:
        """Release every pin (so another rig, or a test, can use them)."""
        for device in (self.button, self.light, self.emitter, self.beam):
            if device is not None:
                device.close()


def simulated_rig(pins: PinMap | None = None, *, time_scale: float = 1.0) -> TowerRig:
    """A rig on its own ``ScaledMockFactory`` with the emitter pin wired to the receiver pin."""
    pins = pins or PinMap()
    factory = ScaledMockFactory(time_scale)
    receiver = factory.pin(pins.beam)
    assert isinstance(receiver, TimedMockPin)
    factory.pin(pins.emitter, pin_class=EmitterMockPin, receiver=receiver)
    return TowerRig(pins, pin_factory=factory)
