"""The simulated tower's beam: what the exit beam of a ~20 cm tower sees, played on MockFactory pins.

``drop_times_ms`` says when the pieces of a toss cross the exit of a ~20 cm tower (the simulated tower
and ``keshi tower pintest --mock`` both use it): the first at ``FIRST_DROP_MS`` + 0–60 ms, each next
one ``MIN_GAP_MS`` + an exponential gap of mean ``MEAN_GAP_MS`` later, so separate pieces never
overlap at the beam. ``beam_edges`` turns those drop times into the receiver's edges, and its
assumption is the one the count cross-check (``firmware.crosscheck``) is weighed against:

- each keshi blocks the beam for ``SINGLE_BLOCK_MS`` (3–6 ms, uniform);
- each piece after the first leaves *together* with the one before with probability ``together_p``
  (``TOGETHER_P`` = 2 % by default; ``CLUMPY_TOGETHER_P`` = 10 % is the harsher tower the benchmark
  also runs): it starts ``TOGETHER_OFFSET_MS`` (0.5–5 ms, uniform) after the start of the block
  before, so the beam sees one longer block (three or more pieces chain the same way). About three
  in four such blocks are longer than any single piece; the rest look like one piece, and the beam
  undercounts them;
- now and then (``chatter_p``, 10 % of blocks) an edge chatters for ``CHATTER_GAP_MS``, a fraction of
  a millisecond, which the drop timer must bridge as bounce.

``BeamPlayer`` drives those edges on the rig's receiver pin at their scheduled times (``drive_at``),
so gpiozero's callback path and ``BreakBeam`` run as on a Pi, and can inject the beam faults a
real tower has (``FAULTS``).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from firmware.errors import TimingConfigError
from firmware.mockpins import EmitterMockPin, ScaledMockFactory, TimedMockPin
from firmware.rig import TowerRig

SINGLE_BLOCK_MS = (3.0, 6.0)
TOGETHER_OFFSET_MS = (0.5, 5.0)
CHATTER_GAP_MS = (0.1, 0.4)
#: How often a piece leaves the tower together with the one before: the simulated tower's default,
#: and a harsher, clumpier tower (e.g. a tighter exit) the cross-check is also measured against.
TOGETHER_P = 0.02
CLUMPY_TOGETHER_P = 0.10

#: Faults ``BeamPlayer.inject`` can simulate: a piece lodged in the exit, an unplugged receiver, a
#: beam that works (passes its self-test) but no longer crosses the pieces' path.
FAULTS = ("stuck", "disconnected", "blind")

#: Drop timing of a tower about 20 cm tall: free fall through the tower takes ~200 ms, pieces
#: that bounce off the layer arrive later, and a burst rarely lasts more than ~1.5 s.
FIRST_DROP_MS = 180.0
MEAN_GAP_MS = 70.0
MIN_GAP_MS = 8.0


def drop_times_ms(n: int, rng: random.Random) -> list[float]:
    """Plausible times (ms since the toss) at which ``n`` pieces cross the tower exit, ascending."""
    times: list[float] = []
    t = FIRST_DROP_MS + rng.uniform(0.0, 60.0)
    for _ in range(n):
        times.append(round(t, 3))
        t += MIN_GAP_MS + rng.expovariate(1.0 / MEAN_GAP_MS)
    return times


@dataclass(frozen=True)
class BeamEdge:
    """A scheduled receiver edge: ms since the toss and whether the beam is blocked after it."""

    t_ms: float
    blocked: bool


def beam_edges(
    drop_times: list[float], rng: random.Random, *, together_p: float = TOGETHER_P, chatter_p: float = 0.1
) -> list[BeamEdge]:
    """The receiver edges for pieces crossing at ``drop_times`` (ms), ascending, blocks merged."""
    blocks: list[list[float]] = []
    for i, t in enumerate(drop_times):
        start = t
        if i > 0 and rng.random() < together_p:
            start = blocks[-1][0] + rng.uniform(*TOGETHER_OFFSET_MS)
        end = start + rng.uniform(*SINGLE_BLOCK_MS)
        if blocks and start <= blocks[-1][1]:
            blocks[-1][1] = max(blocks[-1][1], end)  # overlapping pieces: one longer block
        else:
            blocks.append([start, end])
    edges: list[BeamEdge] = []
    for start, end in blocks:
        edges.append(BeamEdge(round(start, 4), True))
        if rng.random() < chatter_p:
            cut = rng.uniform(start + 0.5, end - 1.0)
            resume = cut + rng.uniform(*CHATTER_GAP_MS)
            edges += [BeamEdge(round(cut, 4), False), BeamEdge(round(resume, 4), True)]
        edges.append(BeamEdge(round(end, 4), False))
    return edges


class BeamPlayer:
    """Plays scheduled edges on a simulated rig's receiver pin, in the rig's (scaled) time."""

    def __init__(self, rig: TowerRig) -> None:
        if not isinstance(rig.factory, ScaledMockFactory):
            raise TimingConfigError("BeamPlayer needs a rig made by simulated_rig (a ScaledMockFactory)")
        self.factory: ScaledMockFactory = rig.factory
        receiver = self.factory.pin(rig.pins.beam)
        emitter = self.factory.pin(rig.pins.emitter)
        assert isinstance(receiver, TimedMockPin) and isinstance(emitter, EmitterMockPin)
        self.receiver = receiver
        self.emitter = emitter
        self.fault: str | None = None

    def inject(self, fault: str | None) -> None:
        """Simulate a beam fault from now on (one of ``FAULTS``), or None to repair it."""
        if fault is not None and fault not in FAULTS:
            raise TimingConfigError(f"unknown beam fault {fault!r}; expected one of {', '.join(FAULTS)}")
        self.fault = fault
        self.emitter.disconnected = fault == "disconnected"
        self.emitter.obstructed = fault == "stuck"
        now = self.factory.ticks()
        if fault == "stuck":
            self.receiver.drive_at(now, False)  # a piece lodged in the exit: blocked (low)
        else:
            self.receiver.drive_at(now, True)  # clear, or (disconnected) held high by the pull-up

    def play(self, edges: list[BeamEdge], start_ticks: float, stop: threading.Event) -> bool:
        """Drive ``edges`` at ``start_ticks`` + their times; False if ``stop`` was set first.

        Waits in real time scaled by the factory, but stamps each edge with its exact scheduled
        time, so timing never depends on how late this thread woke up. A faulty beam sees nothing.
        """
        for edge in edges:
            at = start_ticks + edge.t_ms / 1000.0
            delay = self.factory.real_delay(at - self.factory.ticks())
            if delay > 0 and stop.wait(delay):
                return False
            if self.fault is None:
                self.receiver.drive_at(at, not edge.blocked)  # low = blocked
        return not stop.is_set()
