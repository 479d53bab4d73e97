"""The tower service: runs tosses and publishes what happens on the event bus.

The web layer only calls ``toss()`` and reads ``status()``; everything else arrives as events
(``toss.started``, ``toss.drop``, ``toss.settled``, ``toss.result``, ``tower.fault``). Each toss is
stored as a ``TossRecord`` before its result is published, so nothing the table saw is lost.

This first version runs the simulated tower only and takes the counts from the simulator's own
truth (published with ``source="simulator-truth"``).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import COLOURS
from companion.errors import KeshiError
from companion.events import EventBus
from companion.store import Store
from companion.tower.model import SimulatedTower, TowerParams, drop_times_ms
from companion.tower.record import TossRecord, colour_counts, save_toss

SETTLE_QUIET_MS = 400.0


class TowerBusyError(KeshiError, RuntimeError):
    """A toss was asked for while the previous one has not settled yet."""


class TowerService:
    """Runs tosses of one tower (simulated here) and reports them on ``bus``."""

    def __init__(
        self,
        bus: EventBus,
        store: Store,
        *,
        mode: str = "simulated",
        instance_dir: Path | None = None,
        layer: str = "B1",
        tower: str = "default",
        seed: int | None = None,
        time_scale: float = 1.0,
    ) -> None:
        self.bus = bus
        self.store = store
        self.mode = mode
        self.instance_dir = instance_dir
        self.tower_name = tower
        self.rng = random.Random(seed)
        self.tower = SimulatedTower(TowerParams(layer=layer), self.rng)
        self.time_scale = time_scale
        self._busy = threading.Lock()
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None

    def start(self) -> None:
        self._stopping.clear()

    def stop(self) -> None:
        """Stop: an unfinished toss is abandoned at its next step (within one drop gap)."""
        self._stopping.set()
        if self._worker is not None:
            self._worker.join(timeout=1.0)

    def status(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "camera": "simulated",
            "beam": "simulated",
            "layer": self.tower.params.layer,
            "tower": self.tower_name,
        }

    def toss(
        self,
        pieces_in: Mapping[str, int] | None = None,
        *,
        game_id: str | None = None,
        season: int | None = None,
        round: int | None = None,
        source: str = "dashboard",
    ) -> str:
        """Start a toss (a random table's keshis if ``pieces_in`` is None); return its id at once."""
        pieces = colour_counts(pieces_in) if pieces_in is not None else self._random_handful()
        if not self._busy.acquire(blocking=False):
            raise TowerBusyError("the tower is still settling from the previous toss; wait for its result")
        toss_id = uuid.uuid4().hex[:12]
        context = {"game_id": game_id, "season": season, "round": round}
        self._worker = threading.Thread(
            target=self._run, args=(toss_id, pieces, context, source), name=f"toss-{toss_id}", daemon=True
        )
        self._worker.start()
        return toss_id

    def _random_handful(self) -> dict[str, int]:
        pieces = dict.fromkeys(COLOURS, 0)
        for colour in self.rng.choices(COLOURS, k=self.rng.randint(6, 12)):
            pieces[colour] += 1
        return pieces

    def _sleep_until(self, start: float, t_ms: float) -> bool:
        """Sleep until ``t_ms`` (scaled) after ``start``; False if the service is stopping."""
        delay = start + t_ms * self.time_scale / 1000.0 - time.monotonic()
        return not self._stopping.wait(max(0.0, delay))

    def _run(self, toss_id: str, pieces: dict[str, int], context: dict[str, Any], source: str) -> None:
        try:
            started_at = time.time()
            start = time.monotonic()
            outcome = self.tower.toss(pieces)
            released = [c for c in COLOURS for _ in range(outcome.released[c])]
            self.rng.shuffle(released)
            times = drop_times_ms(len(released), self.rng)
            self.bus.publish("toss.started", {"toss_id": toss_id, "pieces_in": pieces, "started_at": started_at,
                                              "source": source})
            previous = 0.0
            for index, t_ms in enumerate(times):
                if not self._sleep_until(start, t_ms):
                    return
                self.bus.publish("toss.drop", {"toss_id": toss_id, "index": index, "t_ms": t_ms,
                                               "gap_ms": round(t_ms - previous, 3), "blocked_ms": 4.0,
                                               "double": False})
                previous = t_ms
            if not self._sleep_until(start, previous + SETTLE_QUIET_MS):
                return
            self.bus.publish("toss.settled", {"toss_id": toss_id, "drops": len(times)})
            record = TossRecord(
                toss_id=toss_id, tower=self.tower_name, layer=self.tower.params.layer, mode=self.mode,
                started_at=started_at, pieces_in=pieces, pieces_out=outcome.released,
                contents_before=outcome.held_before, contents_after=outcome.held_after,
                drop_times_ms=times, beam_count=len(times), camera_count=None,
                counts_source="simulator-truth", **context,
            )
            save_toss(self.store, record)
            self.bus.publish("toss.result", {
                "toss_id": toss_id, "counts": outcome.released, "unknown": 0, "source": "simulator-truth",
                "beam_count": len(times), "camera_count": None, "flagged": False, "record": record.to_dict(),
            })
        finally:
            self._busy.release()
