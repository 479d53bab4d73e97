"""The tower's default wiring (BCM GPIO numbers); hardware/pinmap.md and wiring.svg match these.

GPIO18 carries the tray light because it is one of the Pi's PWM-capable pins (PWM0), should a
hardware-PWM pin factory be used; the others are plain GPIOs away from I2C/SPI/UART so a HAT or a
serial console can share the header.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from firmware.errors import PinMapError

#: Header pin (physical) of each default BCM GPIO, for the docs and ``pintest`` output.
HEADER_PIN = {17: 11, 27: 13, 22: 15, 18: 12}


@dataclass(frozen=True)
class PinMap:
    """Which BCM GPIO each part of the tower is wired to."""

    beam: int = 17  # IR receiver signal (open collector, internal pull-up; low = blocked)
    emitter: int = 27  # IR emitter supply, switched so the receiver can be self-tested
    light: int = 18  # gate of the MOSFET driving the LED ring (PWM dimmed)
    button: int | None = 22  # optional toss button to GND (internal pull-up)

    def __post_init__(self) -> None:
        used = [(name, pin) for name, pin in asdict(self).items() if pin is not None]
        for name, pin in used:
            if not isinstance(pin, int) or not 0 <= pin <= 27:
                raise PinMapError(f"{name} pin must be a BCM GPIO number 0-27, not {pin!r}")
        pins = [pin for _, pin in used]
        duplicated = sorted({pin for pin in pins if pins.count(pin) > 1})
        if duplicated:
            names = [name for name, pin in used if pin in duplicated]
            raise PinMapError(f"GPIO{duplicated[0]} is assigned twice ({' and '.join(names)})")

    def describe(self) -> str:
        """One line naming each GPIO and its header pin, e.g. for ``pintest``."""
        parts = []
        for name, pin in asdict(self).items():
            if pin is not None:
                header = f" (pin {HEADER_PIN[pin]})" if pin in HEADER_PIN else ""
                parts.append(f"{name}=GPIO{pin}{header}")
        return ", ".join(parts)
