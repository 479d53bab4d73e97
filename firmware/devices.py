"""The tower's gpiozero devices, with names from the tower's world rather than the pin's.

``BreakBeam`` keeps each edge's own timestamp (the ``ticks`` the pin factory hands to
``_pin_changed``: the kernel's edge time with lgpio, ``time.monotonic()`` on MockFactory) instead of
the time a callback happens to run, and queues every edge so the pin's callback thread never waits
for the drop logic. gpiozero's ``bounce_time`` stays ``None`` on purpose: lgpio's kernel debounce
delays every reported edge by the bounce time and drops pulses shorter than it, and a keshi blocks
the beam for only a few milliseconds; ``firmware.timing`` filters bounce instead, where tests see it.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from gpiozero import PWMLED, Button, DigitalInputDevice, DigitalOutputDevice


class BeamEdge(NamedTuple):
    """One change of the beam: the factory's edge time (seconds) and whether it is now blocked."""

    ticks: float
    blocked: bool


class BreakBeam(DigitalInputDevice):
    """The IR receiver at the tower exit: active (``beam_broken``) while something blocks the beam.

    The receiver's output is open collector, so the pin uses the internal pull-up and reads low
    while the beam is blocked. Every edge is put on ``edges`` (a queue of ``BeamEdge``); the domain
    callbacks ``when_beam_broken`` / ``when_beam_restored`` run as well, and ``last_blocked_ms`` says
    how long the beam stayed blocked, measured between the two edges' own timestamps.
    """

    def __init__(self, pin: int = 17, *, bounce_time: float | None = None, pin_factory: Any = None) -> None:
        self.edges: queue.SimpleQueue[BeamEdge] = queue.SimpleQueue()
        self._blocked_at: float | None = None
        #: How long the beam stayed blocked the last time it was restored (ms), from edge ticks.
        self.last_blocked_ms: float | None = None
        super().__init__(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)

    def _pin_changed(self, ticks: float, state: int) -> None:
        blocked = bool(self._state_to_value(state))
        if blocked:
            self._blocked_at = ticks
        elif self._blocked_at is not None:
            self.last_blocked_ms = (ticks - self._blocked_at) * 1000.0
            self._blocked_at = None
        self.edges.put(BeamEdge(ticks, blocked))
        super()._pin_changed(ticks, state)

    @property
    def beam_broken(self) -> bool:
        """True while something (a piece, a finger, a stuck piece) blocks the beam."""
        return bool(self.is_active)

    def drain(self) -> Iterator[BeamEdge]:
        """Every edge queued so far, oldest first, without waiting."""
        while True:
            try:
                yield self.edges.get_nowait()
            except queue.Empty:
                return

    when_beam_broken = DigitalInputDevice.when_activated
    when_beam_restored = DigitalInputDevice.when_deactivated
    wait_for_break = DigitalInputDevice.wait_for_active
    wait_for_restore = DigitalInputDevice.wait_for_inactive


class BeamEmitter(DigitalOutputDevice):
    """The IR emitter's supply, on a GPIO so the receiver can be tested by switching the beam off.

    A receiver that still reads "clear" while its emitter is dark is not connected (the pull-up
    alone holds the line high), which is how ``self_test`` tells a dead sensor from a quiet tower.
    """

    def __init__(self, pin: int = 27, *, pin_factory: Any = None) -> None:
        super().__init__(pin, initial_value=True, pin_factory=pin_factory)

    def self_test(
        self, beam: BreakBeam, wait: Callable[[float], object], settle_s: float = 0.01
    ) -> str | None:
        """Switch the beam off and on; None if the receiver followed, else what went wrong.

        ``wait(seconds)`` is injected (``time.sleep`` on the Pi; a no-op on MockFactory, whose pins
        change synchronously). The receiver needs ~2 ms to respond; ``settle_s`` leaves margin.
        """
        try:
            self.off()
            wait(settle_s)
            saw_dark = beam.beam_broken
        finally:
            self.on()
        wait(settle_s)
        if not saw_dark:
            return "the receiver did not see the emitter switch off: it is disconnected or unpowered"
        if beam.beam_broken:
            return "the receiver reads blocked with the emitter on: the beam is obstructed or misaligned"
        return None


class TowerLight(PWMLED):
    """The LED ring under the tray, PWM dimmed: dim while idle, full for a capture.

    Captures run at full brightness (duty 1.0, no PWM flicker to band the rolling-shutter frame);
    ``idle_level`` keeps the tray visible to the players without glare.
    """

    def __init__(
        self, pin: int = 18, *, idle_level: float = 0.15, frequency: int = 1000, pin_factory: Any = None
    ) -> None:
        super().__init__(pin, frequency=frequency, initial_value=idle_level, pin_factory=pin_factory)
        self.idle_level = idle_level

    @contextmanager
    def for_capture(self) -> Iterator[None]:
        """Full brightness inside the block, back to ``idle_level`` after (even on error)."""
        self.value = 1.0
        try:
            yield
        finally:
            self.value = self.idle_level


class TossButton(Button):
    """An optional push button to GND that starts a toss; a mechanical switch, so 50 ms debounce."""

    def __init__(self, pin: int = 22, *, bounce_time: float | None = 0.05, pin_factory: Any = None) -> None:
        super().__init__(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)

    when_toss_requested = Button.when_pressed
