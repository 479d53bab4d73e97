"""Fixtures: a MockFactory of timed pins installed as gpiozero's default, restored afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device

from firmware.mockpins import ScaledMockFactory, TimedMockPin
from firmware.rig import TowerRig, simulated_rig
from firmware.timing import DropTimer, TimingEvent


@pytest.fixture
def factory() -> Iterator[ScaledMockFactory]:
    """gpiozero's MockFactory (timed pins) as the default factory; the previous one comes back after."""
    previous = Device.pin_factory
    mock = ScaledMockFactory()
    Device.pin_factory = mock
    try:
        yield mock
    finally:
        mock.reset()
        Device.pin_factory = previous


@pytest.fixture
def rig(factory: ScaledMockFactory) -> Iterator[TowerRig]:
    """The tower's devices on the mock factory (no emitter link: tests drive the receiver)."""
    tower = TowerRig(pin_factory=factory)
    yield tower
    tower.close()


@pytest.fixture
def linked_rig() -> Iterator[TowerRig]:
    """A simulated rig: its own factory, emitter wired to receiver."""
    tower = simulated_rig()
    yield tower
    tower.close()
    tower.factory.reset()


def receiver(rig: TowerRig) -> TimedMockPin:
    pin = rig.factory.pin(rig.pins.beam)
    assert isinstance(pin, TimedMockPin)
    return pin


def play(rig: TowerRig, start: float, blocks: list[tuple[float, float]]) -> None:
    """Drive blocks given as (start ms, blocked ms) after ``start`` on the receiver (low = blocked)."""
    pin = receiver(rig)
    for t_ms, blocked_ms in blocks:
        pin.drive_at(start + t_ms / 1000, False)
        pin.drive_at(start + (t_ms + blocked_ms) / 1000, True)


def feed(rig: TowerRig, timer: DropTimer) -> list[TimingEvent]:
    """Every queued beam edge through the timer, in order."""
    events: list[TimingEvent] = []
    for edge in rig.beam.drain():
        events += timer.edge(edge.ticks, edge.blocked)
    return events
