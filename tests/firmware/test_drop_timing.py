"""Drop timing on MockFactory pins: edge timestamps, bursts, doubles, settle, faults and bounce."""

from __future__ import annotations

import time

import pytest

from firmware.errors import TimingConfigError
from firmware.rig import TowerRig
from firmware.timing import Drop, DropTimer, Fault, Settled, TimingConfig, TossStarted
from tests.firmware.conftest import feed, play, receiver


def drops_of(events: list) -> list[Drop]:
    return [e for e in events if isinstance(e, Drop)]


def test_drop_times_are_the_driven_edge_times_not_the_processing_time(rig: TowerRig) -> None:
    start = rig.ticks()
    blocks = [(0.0, 4.0), (55.5, 3.2), (131.25, 5.9)]
    play(rig, start, blocks)
    time.sleep(0.02)  # the timer reads the queue later than the edges happened
    timer = DropTimer()
    events = feed(rig, timer) + timer.poll(start + 0.2)
    drops = drops_of(events)
    assert [round(d.t_ms, 6) for d in drops] == pytest.approx([0.0, 55.5, 131.25], abs=1.0)
    for drop, (t_ms, blocked_ms) in zip(drops, blocks, strict=True):
        assert abs(drop.ticks - (start + t_ms / 1000)) < 0.001
        assert abs(drop.blocked_ms - blocked_ms) < 1.0
    assert [d.gap_ms for d in drops] == pytest.approx([0.0, 55.5, 75.75], abs=1.0)
    assert rig.beam.last_blocked_ms == pytest.approx(5.9, abs=0.01)


def test_plain_mockpin_edges_are_stamped_when_they_happen(rig: TowerRig) -> None:
    pin = receiver(rig)
    before = time.monotonic()
    pin.drive_low()
    after = time.monotonic()
    time.sleep(0.01)
    edge = rig.beam.edges.get_nowait()
    assert edge.blocked and before <= edge.ticks <= after
    assert rig.beam.beam_broken


def test_twelve_drops_within_400_ms_are_all_counted(rig: TowerRig) -> None:
    start = rig.ticks()
    blocks = [(i * 33.0, 4.5) for i in range(12)]  # last one ends at 367.5 ms
    play(rig, start, blocks)
    timer = DropTimer()
    events = feed(rig, timer) + timer.poll(start + 0.370) + timer.poll(start + 2.0)
    drops = drops_of(events)
    assert [d.index for d in drops] == list(range(12))
    settled = [e for e in events if isinstance(e, Settled)]
    assert len(settled) == 1 and settled[0].beam_count == 12 and not settled[0].silent
    assert isinstance(events[0], TossStarted) and events[0].source == "beam"


def test_a_block_too_long_for_one_piece_is_flagged_as_double(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (80.0, 11.0)])
    timer = DropTimer()
    events = feed(rig, timer) + timer.poll(start + 1.0)
    drops = drops_of(events)
    assert [d.double for d in drops] == [False, True]
    assert [e for e in events if isinstance(e, Settled)][0].beam_count == 3


def test_settles_only_after_the_quiet_interval(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (100.0, 4.0)])
    timer = DropTimer(TimingConfig(settle_ms=600))
    assert len(drops_of(feed(rig, timer))) == 1  # the second drop completes after the bounce window
    last_clear = start + 0.104
    assert not any(isinstance(e, Settled) for e in timer.poll(last_clear + 0.599))
    assert timer.in_toss
    settled = [e for e in timer.poll(last_clear + 0.601) if isinstance(e, Settled)]
    assert len(settled) == 1 and len(settled[0].drops) == 2
    assert not timer.in_toss


def test_a_beam_blocked_over_two_seconds_is_a_stuck_fault(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0)])
    receiver(rig).drive_at(start + 0.100, False)  # something lodges in the exit
    timer = DropTimer()
    events = feed(rig, timer) + timer.poll(start + 2.0)
    assert not any(isinstance(e, Fault) for e in events)
    events = timer.poll(start + 2.101)
    faults = [e for e in events if isinstance(e, Fault)]
    assert [f.kind for f in faults] == ["beam_stuck"] and "2 s" in faults[0].message
    assert [len(e.drops) for e in events if isinstance(e, Settled)] == [1]  # the toss ends with what it saw
    assert timer.stuck and timer.poll(start + 5.0) == []  # raised once
    receiver(rig).drive_at(start + 6.0, True)
    assert feed(rig, timer) + timer.poll(start + 7.0) == []  # the stuck block is no drop
    assert not timer.stuck


def test_a_started_toss_with_no_beam_event_is_silent(rig: TowerRig) -> None:
    timer = DropTimer(TimingConfig(dead_s=3.0))
    start = rig.ticks()
    assert timer.start(start, "dashboard") == [TossStarted(start, "dashboard")]
    assert timer.start(start + 0.1, "button") == []  # one toss at a time
    assert timer.poll(start + 2.99) == []
    settled = timer.poll(start + 3.0)
    assert len(settled) == 1 and isinstance(settled[0], Settled)
    assert settled[0].silent and settled[0].drops == ()


def test_bounce_inside_a_block_and_glitches_are_filtered(rig: TowerRig) -> None:
    start = rig.ticks()
    pin = receiver(rig)
    chatter = [(0.0, False), (0.2, True), (0.35, False), (4.0, True),  # one piece, chattering edge
               (50.0, False), (50.1, True)]  # a 0.1 ms glitch: not a piece
    for t_ms, high in chatter:
        pin.drive_at(start + t_ms / 1000, high)
    timer = DropTimer()
    events = feed(rig, timer) + timer.poll(start + 1.0)
    drops = drops_of(events)
    assert len(drops) == 1
    assert drops[0].blocked_ms == pytest.approx(4.0, abs=0.01)
    assert drops[0].ticks == pytest.approx(start, abs=1e-6)


def test_a_real_gap_longer_than_bounce_is_two_drops(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 3.0), (4.5, 3.0)])  # 1.5 ms clear between them
    timer = DropTimer(TimingConfig(bounce_ms=1.0))
    assert len(drops_of(feed(rig, timer) + timer.poll(start + 1.0))) == 2


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [({"settle_ms": 0}, "settle_ms"), ({"glitch_ms": 10, "double_ms": 9}, "glitch_ms"),
     ({"stuck_s": 0.001}, "stuck_s")],
)
def test_inconsistent_thresholds_are_rejected(kwargs: dict[str, float], named: str) -> None:
    with pytest.raises(TimingConfigError, match=named):
        TimingConfig(**kwargs)


def test_a_toss_started_while_the_beam_is_stuck_still_settles(rig: TowerRig) -> None:
    start = rig.ticks()
    receiver(rig).drive_at(start, False)
    timer = DropTimer(TimingConfig(stuck_s=2.0, dead_s=3.0))
    feed(rig, timer)
    assert [e.kind for e in timer.poll(start + 2.5) if isinstance(e, Fault)] == ["beam_stuck"]
    timer.start(start + 2.6, "dashboard")
    assert timer.poll(start + 5.5) == []
    (settled,) = timer.poll(start + 5.6)
    assert isinstance(settled, Settled) and settled.silent
