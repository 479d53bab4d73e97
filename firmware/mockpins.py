"""MockFactory pins that change at chosen timestamps, so the simulated tower and the tests can play a
beam sequence with exact edge times through gpiozero's real callback path.

``MockPin`` stamps each change with ``time.monotonic()``; ``TimedMockPin.drive_at`` stamps it with
the time given instead (on the same clock as ``MockFactory.ticks()``). It extends ``MockPWMPin`` so
one factory serves both the beam (input) and the PWM light. ``EmitterMockPin`` is the IR emitter's
supply pin, wired to a receiver pin: switching it off blocks the beam, unless the receiver has been
"disconnected" or the beam "obstructed" (faults the simulator can inject).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

from firmware.errors import TimingConfigError

#: How many recent changes each pin keeps in ``states`` (for ``assert_states`` in tests).
STATE_HISTORY = 1000


class TimedMockPin(MockPWMPin):
    """A ``MockPWMPin`` whose input edges can carry a chosen timestamp."""

    _state: Any
    _last_change: float
    states: deque[PinState]

    def _change_state(self, value: Any, ticks: float | None = None) -> bool:
        if self._state == value:
            return False
        t = self._factory.ticks() if ticks is None else ticks
        self._state = value
        self.states.append(PinState(t - self._last_change, value))
        self._last_change = t
        return True

    def drive_at(self, ticks: float, high: bool) -> None:
        """Drive the input high or low as if the edge happened at ``ticks`` (factory seconds)."""
        assert self._function == "input"
        if self._change_state(high, ticks):
            edges = "rising" if high else "falling"
            if self._edges in ("both", edges) and self._when_changed is not None:
                self._call_when_changed()

    def clear_states(self) -> None:
        """Start a bounded history: a long simulated session must not grow ``states`` forever."""
        self._last_change = self._factory.ticks()
        self.states = deque([PinState(0.0, self._state)], maxlen=STATE_HISTORY)


class EmitterMockPin(TimedMockPin):
    """The emitter's supply pin; while it is off the connected receiver pin reads blocked (low)."""

    def __init__(self, factory: MockFactory, info: Any, receiver: TimedMockPin | None = None) -> None:
        super().__init__(factory, info)
        self.receiver = receiver
        #: Set by fault injection: the receiver no longer follows the emitter (unplugged sensor).
        self.disconnected = False
        #: Set by fault injection: something blocks the beam whether the emitter is on or not.
        self.obstructed = False

    def _change_state(self, value: Any, ticks: float | None = None) -> bool:
        changed = super()._change_state(value, ticks)
        if changed and self.receiver is not None and not self.disconnected and self._function == "output":
            at = self._factory.ticks() if ticks is None else ticks
            self.receiver.drive_at(at, bool(value) and not self.obstructed)
        return changed


class ScaledMockFactory(MockFactory):
    """A MockFactory of ``TimedMockPin``s whose clock (``ticks()``) runs ``1 / time_scale`` times as
    fast as ``time.monotonic()``: with ``time_scale=0.01`` a 600 ms quiet interval passes in 6 ms of
    real time, so tests run real tower timings without sleeping through them.
    """

    def __init__(self, time_scale: float = 1.0) -> None:
        super().__init__(pin_class=TimedMockPin)
        if not time_scale > 0:
            raise TimingConfigError(f"time_scale must be positive, not {time_scale}")
        self.time_scale = time_scale
        self._origin = time.monotonic()

    def ticks(self) -> float:  # an instance method here: the clock depends on the scale
        return self._origin + (time.monotonic() - self._origin) / self.time_scale

    def real_delay(self, ticks_delay: float) -> float:
        """Real seconds to wait for ``ticks_delay`` seconds of this factory's clock to pass."""
        return max(0.0, ticks_delay) * self.time_scale

