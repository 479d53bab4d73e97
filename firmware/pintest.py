"""``keshi tower pintest``: check the wiring — self-test the beam, blink the light, report each drop.

On a Pi it uses the real pins; ``--mock`` rehearses the same run on a simulated rig that drops a
few pieces, so the output can be seen (and tested) anywhere.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable

from firmware.rig import TowerRig
from firmware.simulated import BeamPlayer, beam_edges, drop_times_ms
from firmware.timing import Drop, DropTimer, Fault, Settled, TossStarted

Print = Callable[[str], None]


def run_pintest(
    rig: TowerRig, seconds: float, out: Print, wait: Callable[[float], object] = time.sleep
) -> int:
    """Watch the beam for ``seconds`` while blinking the light; 0 if the beam passed its self-test."""
    out(f"pins: {rig.pins.describe()}")
    problem = rig.emitter.self_test(rig.beam, wait)
    out(f"beam self-test: {'ok' if problem is None else 'FAILED: ' + problem}")
    state = "BLOCKED" if rig.beam.beam_broken else "clear"
    out(f"beam now: {state}; light blinking; drop pieces through the tower")
    if rig.button is not None:
        rig.button.when_toss_requested = lambda: out("button: pressed")
    rig.light.blink(on_time=0.5, off_time=0.5, background=True)
    timer = DropTimer()
    deadline = rig.ticks() + seconds
    try:
        while rig.ticks() < deadline:
            try:
                first = rig.beam.edges.get(timeout=0.02)
            except queue.Empty:  # nothing happened: just let the clock move on
                first = None
            events = timer.edge(first.ticks, first.blocked) if first is not None else []
            for edge in rig.beam.drain():
                events += timer.edge(edge.ticks, edge.blocked)
            events += timer.poll(rig.ticks())
            for event in events:
                out(describe(event))
    finally:
        rig.light.value = rig.light.idle_level
    return 0 if problem is None else 1


def describe(event: TossStarted | Drop | Settled | Fault) -> str:
    """One human line per timing event."""
    if isinstance(event, TossStarted):
        return f"toss started ({event.source})"
    if isinstance(event, Drop):
        double = "  <- likely two pieces together" if event.double else ""
        return (
            f"drop {event.index + 1}: at {event.t_ms:.1f} ms, gap {event.gap_ms:.1f} ms, "
            f"blocked {event.blocked_ms:.2f} ms{double}"
        )
    if isinstance(event, Settled):
        silent = " (beam never saw a piece)" if event.silent else ""
        return f"settled: {len(event.drops)} drops, {event.beam_count} pieces{silent}"
    return f"FAULT {event.kind}: {event.message}"


def rehearse(rig: TowerRig, seconds: float, out: Print, pieces: int = 5, seed: int | None = None) -> int:
    """``pintest`` on a simulated rig, with ``pieces`` keshis dropped shortly after it starts."""
    rng = random.Random(seed)
    player = BeamPlayer(rig)
    stop = threading.Event()
    edges = beam_edges(drop_times_ms(pieces, rng), rng)
    start = rig.ticks() + min(0.5, seconds / 4)
    thread = threading.Thread(target=player.play, args=(edges, start, stop), name="pintest-mock", daemon=True)
    thread.start()
    try:
        return run_pintest(rig, seconds, out, wait=lambda _s: None)
    finally:
        stop.set()
        thread.join(timeout=1.0)
