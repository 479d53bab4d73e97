"""The tower's retained ``state`` message: health plus what Home Assistant's sensors show.

Health comes from the tower service's ``status()`` (as ``/healthz`` shows it) and from the event
bus: a ``tower.fault`` event is the tower's fault until a later toss is recorded without one. The
last toss, the keshis held and the toss count are read from the store; the fairness verdict is the
per-table report's, recomputed in the background at most every five minutes (a report over a long log
takes a while, and the verdict moves slowly). Beside the one-word-group verdict the message carries
``verdict_detail``: the headline people read and each question's own answer (``fairness.verdict``:
tossed-in keshis are answered after a few thousand tosses, stickiness several times later), so a
table is told the first answer as soon as it arrives instead of "not enough data yet" until both have.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import COLOURS
from companion.errors import KeshiError
from companion.store import Store

log = logging.getLogger("keshi.publish")

VERDICT_INTERVAL_S = 300.0
EMPTY = dict.fromkeys(COLOURS, 0)
VERDICT_PENDING = "being computed"


class TowerState:
    """Builds the state message of one tower; ``note_event`` feeds it the bus's events."""

    def __init__(
        self,
        store: Store,
        tower: str,
        status: Callable[[], dict[str, Any]] | None = None,
        changed: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.tower = tower
        self.status = status
        self.changed = changed  # called when a background verdict is ready, so the state is re-sent
        self.fault: dict[str, Any] | None = None
        self.verdict = VERDICT_PENDING
        self.verdict_detail: dict[str, str] = {"headline": VERDICT_PENDING}
        self._verdict_at = 0.0
        self._verdict_thread: threading.Thread | None = None

    def note_event(self, topic: str, data: dict[str, Any]) -> bool:
        """Take note of a bus event; True when it changes what the state message says."""
        if topic == "tower.fault":
            self.fault = {"kind": str(data.get("kind", "unknown")), "message": str(data.get("message", ""))}
            if isinstance(data.get("say"), dict):  # the fault as a message: the hub says it in its reader's language
                self.fault["say"] = data["say"]
            return True
        if topic == "toss.result":
            self.fault = None
            return True
        return False

    def message(self) -> dict[str, Any]:
        """The state message now (starting a verdict refresh in the background when it is due)."""
        self._refresh_verdict()
        health = self.status() if self.status is not None else {}
        rows = self.store.query(
            "SELECT toss_id, started_at, pieces_in, COALESCE(correction, pieces_out) AS pieces_out, contents_after,"
            " (SELECT COUNT(*) FROM tosses WHERE tower = ?) AS n"
            " FROM tosses WHERE tower = ? ORDER BY id DESC LIMIT 1", (self.tower, self.tower))
        last: dict[str, Any] = {"toss_id": None, "at": None, "in": 0, "out": 0, "pieces_in": EMPTY, "pieces_out": EMPTY}
        contents = EMPTY
        tosses = 0
        if rows:
            row = rows[0]
            pieces_in, pieces_out = json.loads(row["pieces_in"]), json.loads(row["pieces_out"])
            contents = json.loads(row["contents_after"])
            last = {"toss_id": row["toss_id"], "at": row["started_at"], "in": sum(pieces_in.values()),
                    "out": sum(pieces_out.values()), "pieces_in": pieces_in, "pieces_out": pieces_out}
            tosses = int(row["n"])
        return {
            "tower": self.tower,
            "mode": health.get("mode"),
            "camera": health.get("camera"),
            "beam": health.get("beam"),
            "layer": health.get("layer"),
            "database": self.store.health(),
            "fault": self.fault,
            "tosses": tosses,
            "last_toss": last,
            "pieces_held": sum(contents.values()),
            "contents": contents,
            "verdict": self.verdict,
            "verdict_detail": self.verdict_detail,
            "updated_at": time.time(),
        }

    def _refresh_verdict(self) -> None:
        """Recompute the verdict in a background thread when the last one is older than ``VERDICT_INTERVAL_S``."""
        if time.monotonic() - self._verdict_at < VERDICT_INTERVAL_S and self._verdict_at:
            return
        if self._verdict_thread is not None and self._verdict_thread.is_alive():
            return
        self._verdict_at = time.monotonic()
        self._verdict_thread = threading.Thread(target=self._compute_verdict, name="publish-verdict", daemon=True)
        self._verdict_thread.start()

    def _compute_verdict(self) -> None:
        from companion.fairness.load import load_tosses
        from companion.fairness.report import build_report

        try:
            report = build_report(load_tosses(self.store, tower=self.tower))
        except KeshiError as exc:
            log.warning("fairness verdict for the tower's state unavailable: %s", exc)
            return
        detail = {"headline": report.headline} | {name: stage.verdict for name, stage in report.stages.items()}
        if (report.verdict, detail) != (self.verdict, self.verdict_detail):
            self.verdict, self.verdict_detail = report.verdict, detail
            if self.changed is not None:
                self.changed()
