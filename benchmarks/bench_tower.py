"""Tower benchmarks: beam edges per second through the drop pipeline, and "settled" -> counts delay.

Run: ``.venv/bin/python benchmarks/bench_tower.py`` (add ``--quick`` for a short run).

1. Edge throughput: a burst of drops is driven on the simulated rig's receiver pin (gpiozero
   MockFactory, the real ``BreakBeam`` callback, queue, worker, ``DropTimer``, event bus). Each drop
   is a 4 ms block then a 10 ms gap, stamped in the recent past so no real time has to pass; the
   figure is edges per second from the first edge driven to the last ``toss.drop`` on the bus, and
   every drop must arrive, in order (targets: >= 2,000 edges/s, none lost). Also run paced at fixed
   rates to show the pipeline keeps up with a steady stream.
2. Settled -> counts: full simulated tosses (``TowerService``), measuring from the ``toss.settled``
   event to the ``toss.result`` event: light, hand-over of the 640x480 tray frame (rendered while
   the pieces fell, as a real tray fills), ``vision.detect`` on it, cross-check, SQLite commit,
   publish (target <= 150 ms). The detector's own time on the same frames is printed beside it.
   The tower runs at half its real speed (``time_scale=0.5``, ~1 s a toss) so the frame's rendering
   has finished by "settled", as a real tray has; much faster and the renderer is still running.
3. The count cross-check (``benchmarks/count_check.py``): 2,000 simulated tosses of a tower at the
   default and at a clumpier setting, each tower calibrated from its own earlier tosses, with injected
   camera errors; today's rule (any difference) beside the weighed one: right results flagged
   (target <= 3 %), wrong results not flagged (target <= 0.5 % of tosses, and none where the camera
   saw fewer pieces than the beam's certain ones). Reported on a held-out seed: the rule's margins
   were chosen on another (``count_check.TUNING_SEED``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from count_check import report as count_check_report  # noqa: E402

from companion.events import EventBus  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.tower.service import TowerService  # noqa: E402
from firmware.mockpins import TimedMockPin  # noqa: E402
from firmware.timing import TimingConfig  # noqa: E402

BLOCK_S = 0.004
GAP_S = 0.010
#: The burst is stamped in the past (so no real time has to pass), which would look like a beam
#: blocked for seconds whenever the worker catches up between a block's two edges: long quiet,
#: dead and stuck intervals keep it one toss, so every drop must come out of it.
BURST_TIMING = TimingConfig(settle_ms=3_600_000, dead_s=3600, stuck_s=3600)


def edge_burst(drops: int, pace_edges_per_s: float | None) -> tuple[float, int, bool]:
    """Drive ``drops`` drops; return (edges/s achieved end to end, drops received, all in order)."""
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite3") as store:
        bus = EventBus(history=10)
        service = TowerService(bus, store, instance_dir=Path(tmp), timing=BURST_TIMING)
        service.start()
        assert service.rig is not None
        pin = service.rig.factory.pin(service.pins.beam)
        assert isinstance(pin, TimedMockPin)
        subscription = bus.subscribe()
        period = BLOCK_S + GAP_S
        base = service.rig.ticks() - drops * period - 1.0  # all in the past: nothing waits for the clock
        began = time.perf_counter()
        for i in range(drops):
            t = base + i * period
            pin.drive_at(t, False)
            pin.drive_at(t + BLOCK_S, True)
            if pace_edges_per_s is not None:
                while time.perf_counter() - began < (2 * i + 2) / pace_edges_per_s:
                    pass
        indexes: list[int] = []
        deadline = time.perf_counter() + 30
        while len(indexes) < drops and time.perf_counter() < deadline:
            event = subscription.get(timeout=1.0)
            if event is not None and event.topic == "toss.drop":
                indexes.append(event.data["index"])
        elapsed = time.perf_counter() - began
        service.stop()
        return 2 * drops / elapsed, len(indexes), indexes == list(range(drops))


def settle_to_counts(tosses: int) -> tuple[list[float], list[float], str, int]:
    """Milliseconds from ``toss.settled`` to ``toss.result`` (and of detection alone) over ``tosses``."""
    delays: list[float] = []
    detect_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite3") as store:
        bus = EventBus()
        service = TowerService(bus, store, instance_dir=Path(tmp), seed=3, time_scale=0.5)
        service.start()
        service.camera_ready.wait(120)  # the simulated camera computes its calibration once
        camera = service.status()["camera"]
        if service.camera is not None:
            count = service.camera.count

            def timed_count(frame: Any) -> Any:
                began = time.perf_counter()
                try:
                    return count(frame)
                finally:
                    detect_ms.append((time.perf_counter() - began) * 1000)

            service.camera.count = timed_count  # type: ignore[method-assign]
        flagged = 0
        with bus.subscribe() as subscription:
            for _ in range(tosses):
                service.toss()
                settled_at = None
                while True:
                    event = subscription.get(timeout=10)
                    if event is None:
                        raise RuntimeError("a toss did not finish within 10 s")
                    if event.topic == "toss.settled":
                        settled_at = time.perf_counter()
                    elif event.topic == "toss.result":
                        assert settled_at is not None
                        delays.append((time.perf_counter() - settled_at) * 1000)
                        flagged += bool(event.data["flagged"])
                        break
        service.stop()
    return delays, detect_ms, camera, flagged


def summary(values: list[float]) -> str:
    """Median, p95 and max of some milliseconds."""
    ordered = sorted(values)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test of the benchmark)")
    args = parser.parse_args()
    drops = 2_000 if args.quick else 20_000
    tosses = 10 if args.quick else 30

    print("== beam edges through the drop pipeline (MockFactory, simulated rig) ==")
    rate, received, in_order = edge_burst(drops, None)
    print(f"burst: {2 * drops} edges, {received}/{drops} drops received in order={in_order}: {rate:,.0f} edges/s")
    for pace in (2_000, 10_000):
        count = min(drops, int(pace * 2))  # about a second's worth at the paced rate
        achieved, got, ordered = edge_burst(count // 2, float(pace))
        lost = count // 2 - got
        print(f"paced {pace:,} edges/s: achieved {achieved:,.0f} edges/s, lost {lost} drops, in order={ordered}")

    print("== settled -> counts on the bus (simulated toss, 640x480 frame, vision detector) ==")
    delays, detect_ms, camera, flagged = settle_to_counts(tosses)
    print(f"camera={camera}: {len(delays)} tosses, settled -> result {summary(delays)}; flagged {flagged}")
    if detect_ms:
        print(f"  of which vision.detect alone: {summary(detect_ms)}")

    print("== the count cross-check: today's rule beside the weighed one (simulated beam, injected camera errors) ==")
    for line in count_check_report(500 if args.quick else 2_000):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
