"""Connects the tower service's events to the games: a game's toss result becomes a durable game event.

A background thread follows the bus. A toss started from a game page (source ``game:<id>``) is
remembered by its ``toss_id``; when its ``toss.result`` arrives it is stored as the game's pending
tower result (an event every phone sees, kept across restarts) until the table confirms or corrects
it with a release. The result carries the camera snapshot's URL and each colour's detection
confidence when the tower reports them (see ``companion.table.snapshots``). Drops stay ephemeral: the
game stream forwards them live without storing them. The tower's button tosses for the game waiting
for a toss (``button_toss``); a toss a failure or a restart cut short is filed as ``toss.failed`` (or,
after a restart, as its stored result) so no game waits for it for ever.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from companion.errors import KeshiError
from companion.events import EventBus
from companion.i18n import Msg, as_msg, error_words
from companion.store import StorageFull
from companion.table import snapshots
from companion.table.service import GameService, TowerRefusal
from companion.tower.record import load_check, load_toss
from companion.tower.service import TowerService

log = logging.getLogger("keshi.table")

POLL_SECONDS = 0.25
KEPT_TOSSES = 256


class TowerLink:
    """Follows ``toss.*`` events and files each game's results with ``GameService``."""

    def __init__(self, bus: EventBus, games: GameService, stopping: threading.Event,
                 instance: Path | None = None) -> None:
        self.bus = bus
        self.instance = instance
        self.games = games
        self.stopping = stopping
        #: toss id -> game id, for the most recent ``KEPT_TOSSES`` tosses (older ones are long settled)
        self._toss_games: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._subscription = bus.subscribe()
        self._thread = threading.Thread(target=self._run, name="tower-link", daemon=True)

    def start(self) -> None:
        """File what a restart interrupted, let the beam's own tosses count for the games, follow the bus."""
        self.file_interrupted_tosses()
        if isinstance(self.games.tower, TowerService):
            self.games.tower.beam_handler = self.beam_toss
        self._thread.start()

    def file_interrupted_tosses(self) -> None:
        """After a restart: a game whose toss was in the air gets its result if the tower stored it
        before the companion stopped (nothing stored is lost), else a failure the phones announce
        (type what fell out, or toss again) — never a silent Toss button as if nothing happened."""
        for game_id, toss_id in self.games.interrupted_tosses():
            try:
                record = load_toss(self.games.store, toss_id)
                if record is not None:
                    counted = sum(record.pieces_out.values())
                    unknown = max(0, record.camera_count - counted) if record.camera_count is not None else 0
                    self.games.record_tower(game_id, "toss.result", self.game_result({
                        "toss_id": toss_id, "counts": record.pieces_out, "unknown": unknown,
                        "source": record.counts_source, "beam_count": record.beam_count,
                        "camera_count": record.camera_count, "flagged": record.flagged,
                        "check": load_check(self.games.store, toss_id)}))
                else:
                    self.games.record_tower(game_id, "toss.failed", {
                        "toss_id": toss_id, "message": "the companion restarted while the tower was tossing",
                        "label": "The companion restarted while the tower was tossing: type what fell out, "
                                 "or toss again"})
            except Exception:  # one game's trouble must not stop the dashboard from starting
                log.exception("could not file the interrupted toss %s of game %s", toss_id, game_id)

    def expect(self, toss_id: str, game_id: str) -> None:
        """Remember that ``toss_id`` belongs to ``game_id`` (called right after ``tower.toss``)."""
        with self._lock:
            self._toss_games[toss_id] = game_id
            while len(self._toss_games) > KEPT_TOSSES:
                self._toss_games.popitem(last=False)

    def toss_game(self, game_id: str, version: Any = None, by: Any = None, source: str | None = None,
                  via: str | None = None) -> str:
        """Toss ``game_id``'s revealed keshis (``GameService.start_toss`` checks and refuses)."""
        tower = self.games.tower
        if tower is None:
            raise KeshiError("this dashboard has no tower to toss")

        def toss(pieces: dict[str, int], **context: Any) -> str:
            toss_id: str = tower.toss(pieces, **context)
            self.expect(toss_id, game_id)
            return toss_id

        return self.games.start_toss(game_id, version, toss, by, source, via)

    def button_toss(self) -> str | None:
        """The tower's toss button: for the game most recently played, when it waits for a toss (so
        the record says what went in); None when no game does (the button then tosses on its own).
        A game whose result still waits refuses (``TowerRefusal``), like a second tap on a phone."""
        game_id = self._game_in_toss_phase()
        return self.toss_game(game_id, source="button") if game_id is not None else None

    def _game_in_toss_phase(self) -> str | None:
        """The game most recently played, when it is in its toss phase (the tower is for it)."""
        game_id = self.games.latest_open_game()
        if game_id is None:
            return None
        game = self.games.get(game_id).game
        return game_id if game.phase == "toss" and game.pending is None else None

    def beam_toss(self, toss_id: str) -> None:
        """Pieces fell through the tower before anyone pressed Toss (the beam started toss ``toss_id``):
        it is the toss of the game most recently played when that game waits for one, so its record
        says what went in and the game gets its result. A game that cannot be tossed now says why on
        its phones (``tower.refused``); the toss then stays a toss of no game."""
        tower = self.games.tower
        game_id = self._game_in_toss_phase()
        if not isinstance(tower, TowerService) or game_id is None:
            return
        live = self.games.get(game_id)

        def claim(pieces: dict[str, int], **context: Any) -> str:
            inside = live.game.s.tower_inside
            held = {c: max(0, n - pieces.get(c, 0)) for c, n in inside.items()}
            if not tower.claim(toss_id, pieces, context, held):
                raise TowerRefusal(game_id, Msg("The tower had already settled: type what fell out, or toss again"))
            self.expect(toss_id, game_id)
            return toss_id

        try:
            self.games.start_toss(game_id, None, claim, source="beam")
        except KeshiError as exc:
            said = as_msg(error_words(exc))
            self.bus.publish("tower.refused", {"source": "beam", "message": said.english(), "say": said.to_json(),
                                               "game_id": game_id})

    def game_of(self, topic: str, data: dict[str, Any]) -> str | None:
        """The game a tower event belongs to, if any."""
        source = data.get("source")
        if topic == "toss.started" and isinstance(source, str) and source.startswith("game:"):
            self.expect(str(data["toss_id"]), source.removeprefix("game:"))
        with self._lock:
            return self._toss_games.get(str(data.get("toss_id")))

    def game_result(self, data: dict[str, Any]) -> dict[str, Any]:
        """What a game stores of a ``toss.result``: counts, cross-checks, the snapshot and confidences."""
        counts = {c: n for c, n in data.get("counts", {}).items() if n}
        shown = ", ".join(f"{n} {c}" for c, n in counts.items()) or "nothing"
        result = {key: data.get(key) for key in
                  ("toss_id", "counts", "unknown", "source", "beam_count", "camera_count", "flagged", "check")}
        result["confidence"] = data.get("confidence")
        result["snapshot_url"] = snapshots.snapshot_url(self.instance, str(data.get("toss_id")), data.get("snapshot"))
        result["colour_confidence"] = snapshots.colour_confidence(data.get("pieces"))
        result["label"] = f"The tower released {shown} (beam: {data.get('beam_count')} drops)"
        result["log"] = False  # the release that confirms or corrects it is the toss's log line
        return result

    def _run(self) -> None:
        try:
            while not self.stopping.is_set():
                event = self._subscription.get(timeout=POLL_SECONDS)
                if event is not None and event.topic == "tower.fault" and event.data.get("kind") == "toss_failed":
                    self._file_failure(event.data)
                if event is None or not event.topic.startswith("toss."):
                    continue
                game_id = self.game_of(event.topic, event.data)
                if game_id is None or event.topic != "toss.result":
                    continue
                result = self.game_result(event.data)
                try:
                    self.games.record_tower(game_id, "toss.result", result)
                except Exception as exc:  # the link must outlive one bad event; the table can still type counts
                    log.exception("could not file the tower result %s for game %s", result["toss_id"], game_id)
                    self._not_filed(result["toss_id"], exc)
        finally:
            self._subscription.close()

    def _file_failure(self, data: dict[str, Any]) -> None:
        """A game's toss that the tower could not finish: the game stops waiting for it."""
        with self._lock:
            game_id = self._toss_games.get(str(data.get("toss_id")))
        if game_id is None:
            return
        try:
            self.games.record_tower(game_id, "toss.failed", {
                "toss_id": data.get("toss_id"), "message": data.get("message"),
                "label": "The tower could not count this toss: type what fell out, or toss again"})
        except Exception as exc:
            log.exception("could not file the failed toss %s for game %s", data.get("toss_id"), game_id)
            self._not_filed(data.get("toss_id"), exc)

    def _not_filed(self, toss_id: Any, exc: Exception) -> None:
        """Tell the game's phones that its toss could not be stored (it ended as a failed toss)."""
        said = as_msg(error_words(exc)) if isinstance(exc, StorageFull) else Msg("the toss could not be stored")
        self.bus.publish("tower.fault", {"kind": "not_stored", "toss_id": toss_id, "message": said.render("en"),
                                         "say": said.to_json()})
