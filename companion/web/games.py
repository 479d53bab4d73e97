"""Games at the table: create, load, act, undo — every change stored before anyone hears of it.

``GameService`` keeps one live engine ``Game`` per open game (rebuilt from the store by replay after
a restart) behind a per-game lock. An accepted change is, in one SQLite transaction, a ``game_log``
row and a ``game_events`` row; only after that commits is it announced on the bus (topic
``game.event``) and acknowledged to the phone. Two phones acting at once: each sends the game
``version`` it saw; the first wins, the second gets ``GameMovedOn`` with a fresh view. A request
retried with the same idempotency key gets the first answer back and changes nothing.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from companion.errors import KeshiError
from companion.events import EventBus
from companion.rules import Game, RuleError
from companion.store import Store
from companion.tower.record import record_correction
from companion.web import engine

EDITIONS = tuple(engine.EDITION_NAMES)
LAYERS = ("B1", "B2")


class GameNotFound(KeshiError, LookupError):
    """No game with this id in the store."""


class GameMovedOn(KeshiError, RuntimeError):
    """The action was based on an older version of the game than the current one."""

    def __init__(self, game_id: str, sent: int, current: int) -> None:
        super().__init__(f"the game moved on: you acted on version {sent}, the game is at version {current}")
        self.game_id = game_id


class SetupInputError(KeshiError, ValueError):
    """The setup wizard's answers are unusable; the message names the field."""


@dataclass
class LiveGame:
    """One game in memory: its engine state plus what only the table knows (seats, PIN, tower)."""

    id: str
    title: str
    seating: list[dict[str, Any]]
    pin: str
    version: int
    game: Game
    tower_result: dict[str, Any] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: (version, view, the view as JSON) — built once per change and shared by every phone
    view_cache: tuple[int, dict[str, Any], str] | None = None

    @property
    def names(self) -> list[str]:
        return [str(p["name"]) for p in self.game.to_dict()["players"]]


@dataclass(frozen=True)
class Outcome:
    """What an accepted (or replayed) change answers: the new version and its event id."""

    version: int
    event_id: int
    replayed: bool = False


class GameService:
    """All games of this instance; thread-safe."""

    def __init__(self, store: Store, bus: EventBus) -> None:
        self.store = store
        self.bus = bus
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    # -- creating --------------------------------------------------------------------------
    def create(self, form: dict[str, Any]) -> LiveGame:
        """A new game from the setup wizard's JSON (players, edition, layer, seed, draws)."""
        players = form.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise SetupInputError("players must list 2 to 4 players")
        seating = []
        for index, player in enumerate(players):
            name = player.get("name") if isinstance(player, dict) else None
            if not isinstance(name, str) or not name.strip():
                raise SetupInputError(f"player {index + 1} needs a name")
            seating.append({"name": name.strip()[:24], "colour": str(player.get("colour") or "")[:16]})
        edition = form.get("edition", "essential")
        if edition not in EDITIONS:
            raise SetupInputError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
        expansions = form.get("expansions") or []
        if not isinstance(expansions, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in expansions):
            raise SetupInputError(f"expansions must list module numbers 1-5, not {expansions!r}")
        layer = form.get("tower_layer", "B1")
        if layer not in LAYERS:
            raise SetupInputError(f"tower_layer must be B1 or B2, not {layer!r}")
        seed = form.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        start_player = form.get("start_player")
        draws = form.get("draws") or {}
        for key, value in (("seed", seed), ("start_player", start_player)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise SetupInputError(f"{key} must be a whole number, not {value!r}")
        if not isinstance(draws, dict):
            raise SetupInputError("draws must be a JSON object")
        game = engine.new_game([p["name"] for p in seating], seed=seed, start_player=start_player,
                               tower_layer=layer, draws=draws, profile=form.get("profile"),
                               edition=edition, expansions=tuple(expansions))
        title = str(form.get("title") or " · ".join(p["name"] for p in seating))[:60]
        return self._insert(title, seating, game, [], "created")

    def import_log(self, text: str, source: str) -> LiveGame:
        """A new game from an exported JSON-lines log (the engine checks every line)."""
        game = engine.read_log(text, source=source)
        names = [str(p["name"]) for p in game.to_dict()["players"]]
        seating = [{"name": n, "colour": ""} for n in names]
        actions = [engine.to_json(a) for a in game.log]
        return self._insert(f"{' · '.join(names)} (imported)", seating, game, actions, "imported")

    def _insert(self, title: str, seating: list[dict[str, Any]], game: Game, actions: list[dict[str, Any]],
                kind: str) -> LiveGame:
        game_id = uuid.uuid4().hex[:10]
        pin = f"{secrets.randbelow(10_000):04d}"
        live = LiveGame(game_id, title, seating, pin, len(actions), game)
        now = time.time()
        with self.store.write() as db:
            db.execute(
                "INSERT INTO games (id, title, created_at, updated_at, edition, setup, seating, pin, version,"
                " actions, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, title, now, now, game.to_dict().get("edition", "essential"), json.dumps(game.setup),
                 json.dumps(seating), pin, live.version, len(actions), int(bool(game.finished))),
            )
            db.executemany(
                "INSERT INTO game_log (game_id, seq, kind, action, created_at) VALUES (?, ?, 'action', ?, ?)",
                [(game_id, seq, json.dumps(a), now) for seq, a in enumerate(actions, start=1)],
            )
            event_id = self._insert_event(db, live, kind, {"label": f"Game {kind}: {title}"})
        with self._lock:
            self._games[game_id] = live
        self._announce(game_id, event_id)
        return live

    # -- loading ---------------------------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        """The live game, rebuilt from the store by replay if this process has not seen it yet."""
        with self._lock:
            live = self._games.get(game_id)
            if live is not None:
                return live
            rows = self.store.query("SELECT * FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise GameNotFound(f"there is no game {game_id!r}")
            row = rows[0]
            actions: list[dict[str, Any]] = []
            for entry in self.store.query(
                "SELECT kind, action FROM game_log WHERE game_id = ? ORDER BY seq", (game_id,)
            ):
                if entry["kind"] == "undo":
                    actions.pop()
                else:
                    actions.append(json.loads(entry["action"]))
            game = engine.replay(json.loads(row["setup"]), actions)
            live = LiveGame(row["id"], row["title"], json.loads(row["seating"]), row["pin"], row["version"], game,
                            json.loads(row["tower_result"]) if row["tower_result"] else None)
            self._games[game_id] = live
            return live

    def summaries(self) -> list[dict[str, Any]]:
        """Every stored game, newest change first (no replay needed)."""
        rows = self.store.query(
            "SELECT id, title, created_at, updated_at, edition, json_extract(setup, '$.expansions') AS expansions,"
            " seating, actions, finished FROM games ORDER BY updated_at DESC"
        )
        out = []
        for r in rows:
            expansions = json.loads(r["expansions"]) if r["expansions"] else []
            out.append({"id": r["id"], "title": r["title"], "created_at": r["created_at"],
                        "updated_at": r["updated_at"], "edition": r["edition"], "expansions": expansions,
                        "variant": engine.variant_text(r["edition"], expansions),
                        "players": [p["name"] for p in json.loads(r["seating"])],
                        "actions": r["actions"], "finished": bool(r["finished"])})
        return out

    # -- changing --------------------------------------------------------------------------
    def act(self, game_id: str, action_data: Any, version: Any, key: str | None,
            meta: dict[str, Any] | None = None) -> Outcome:
        """Apply one action (JSON form) if ``version`` is current; store it; then announce it."""
        live = self.get(game_id)
        with live.lock:
            replayed = self._replayed(live, key)
            if replayed is not None:
                return replayed
            self.check_version(live, version)
            action = engine.parse_action(action_data)
            before = _scores(live.game)
            live.game.apply(action)  # raises RuleError with the state unchanged
            data = engine.to_json(action)
            try:
                text = engine.label(data, live.names)
                if data["type"] == "select":
                    text, data_shown = _selection_text(live, data), None
                else:
                    data_shown = data
                if meta and meta.get("correction_label"):
                    text += f" ({meta['correction_label']})"
                event = {"label": text, "action": data_shown, "deltas": _deltas(before, live.game), **(meta or {})}
                clear_tower = data["type"] == "release"
                outcome = self._commit(live, "action", data, key, meta, event, clear_tower)
            except BaseException:
                live.game.undo()
                raise
            if clear_tower:
                live.tower_result = None
        self._announce(game_id, outcome.event_id)
        return outcome

    def undo(self, game_id: str, version: Any, key: str | None) -> Outcome:
        """Take back the last action (the engine replays the log without it); stored as an ``undo`` row."""
        live = self.get(game_id)
        with live.lock:
            replayed = self._replayed(live, key)
            if replayed is not None:
                return replayed
            self.check_version(live, version)
            log = list(live.game.log)
            if not log:
                raise RuleError("undo: nothing to take back, the game is at its start")
            taken = engine.to_json(log[-1])
            before = _scores(live.game)
            live.game.undo()
            try:
                event = {"label": f"Undo: {engine.label(taken, live.names)}", "undone": taken,
                         "deltas": _deltas(before, live.game)}
                outcome = self._commit(live, "undo", None, key, None, event, False)
            except BaseException:
                live.game.apply(engine.parse_action(taken))
                raise
        self._announce(game_id, outcome.event_id)
        return outcome

    def _replayed(self, live: LiveGame, key: str | None) -> Outcome | None:
        if not key:
            return None
        rows = self.store.query(
            "SELECT seq FROM game_log WHERE game_id = ? AND idempotency_key = ?", (live.id, key)
        )
        if not rows:
            return None
        version = int(rows[0]["seq"])
        event = self.store.query(
            "SELECT id FROM game_events WHERE game_id = ? AND version = ? AND kind IN ('action', 'undo')",
            (live.id, version),
        )
        return Outcome(version, int(event[0]["id"]) if event else 0, replayed=True)

    @staticmethod
    def check_version(live: LiveGame, version: Any) -> None:
        """Raise ``GameMovedOn`` unless ``version`` (when sent) is the game's current version."""
        if version is None:
            return  # a client that does not send a version accepts acting on the newest state
        if not isinstance(version, int) or isinstance(version, bool):
            raise SetupInputError(f"version must be a whole number, not {version!r}")
        if version != live.version:
            raise GameMovedOn(live.id, version, live.version)

    def _commit(self, live: LiveGame, kind: str, action: dict[str, Any] | None, key: str | None,
                meta: dict[str, Any] | None, event: dict[str, Any], clear_tower: bool) -> Outcome:
        """Write the log row, the event and the game's counters in one transaction."""
        version = live.version + 1
        now = time.time()
        with self.store.write() as db:
            db.execute(
                "INSERT INTO game_log (game_id, seq, kind, action, meta, idempotency_key, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (live.id, version, kind, json.dumps(action) if action else None,
                 json.dumps(meta) if meta else None, key or None, now),
            )
            db.execute(
                "UPDATE games SET version = ?, actions = ?, finished = ?, updated_at = ?"
                + (", tower_result = NULL" if clear_tower else "") + " WHERE id = ?",
                (version, len(live.game.log), int(bool(live.game.finished)), now, live.id),
            )
            if meta and meta.get("corrected") and meta.get("toss_id") and action is not None:
                record_correction(db, meta["toss_id"], action.get("counts") or {})
            event_id = self._insert_event(db, live, kind, event, version)
        live.version = version  # only once the transaction has committed
        return Outcome(version, event_id)

    def record_tower(self, game_id: str, kind: str, data: dict[str, Any]) -> int:
        """Store a tower moment of this game (toss started / result) as a durable event."""
        live = self.get(game_id)
        with live.lock:
            with self.store.write() as db:
                if kind == "toss.result":
                    db.execute("UPDATE games SET tower_result = ? WHERE id = ?", (json.dumps(data), game_id))
                event_id = self._insert_event(db, live, kind, data)
            if kind == "toss.result":
                live.tower_result = data
                live.view_cache = None
        self._announce(game_id, event_id)
        return event_id

    @staticmethod
    def _insert_event(db: Any, live: LiveGame, kind: str, data: dict[str, Any], version: int | None = None) -> int:
        """Store one event of ``live`` at ``version`` (default: the game's current version)."""
        body = {"phase": live.game.phase, "season": live.game.season, "round": live.game.round,
                "to_move": live.game.to_move, **data}
        cursor = db.execute(
            "INSERT INTO game_events (game_id, version, kind, data, created_at) VALUES (?, ?, ?, ?, ?)",
            (live.id, live.version if version is None else version, kind, json.dumps(body), time.time()),
        )
        return int(cursor.lastrowid)

    def _announce(self, game_id: str, event_id: int) -> None:
        self.bus.publish("game.event", {"game_id": game_id, "event_id": event_id})

    # -- reading ---------------------------------------------------------------------------
    def events_after(self, game_id: str, last_id: int, limit: int = 500) -> list[dict[str, Any]]:
        """The stored events of ``game_id`` after ``last_id``, oldest first."""
        rows = self.store.query(
            "SELECT id, version, kind, data, created_at FROM game_events WHERE game_id = ? AND id > ?"
            " ORDER BY id LIMIT ?", (game_id, last_id, limit),
        )
        return [{"id": r["id"], "version": r["version"], "kind": r["kind"], "data": json.loads(r["data"]),
                 "time": r["created_at"]} for r in rows]

    def last_event_id(self, game_id: str) -> int:
        rows = self.store.query("SELECT COALESCE(MAX(id), 0) AS id FROM game_events WHERE game_id = ?", (game_id,))
        return int(rows[0]["id"])

    def history(self, game_id: str, limit: int = 30) -> list[dict[str, Any]]:
        """The latest labelled events, newest first (for the log on the game page)."""
        rows = self.store.query(
            "SELECT id, kind, data FROM game_events WHERE game_id = ? ORDER BY id DESC LIMIT ?", (game_id, limit)
        )
        return [{"id": r["id"], "kind": r["kind"], "label": json.loads(r["data"]).get("label", r["kind"])}
                for r in rows]


def _selection_text(live: LiveGame, action: dict[str, Any]) -> str:
    """A selection stays secret until everyone has chosen; then the log shows every player's keshis."""
    names = live.names
    if live.game.phase == "select":
        return f"{names[action['player']]} has chosen 3 keshis (shown when everyone has)"
    reveals = [f"{p['name']}: {' + '.join(p['selected'])}" for p in live.game.to_dict()["players"]]
    return "Everyone reveals — " + "; ".join(reveals)


def _scores(game: Game) -> list[dict[str, int]]:
    return [dict(p["breakdown"]) for p in game.to_dict()["players"]]


def _deltas(before: list[dict[str, int]], game: Game) -> list[dict[str, int]]:
    """Per player, the score change of each breakdown category this action caused."""
    after = _scores(game)
    out = []
    for old, new in zip(before, after, strict=True):
        out.append({k: new.get(k, 0) - old.get(k, 0) for k in sorted(set(old) | set(new))
                    if new.get(k, 0) != old.get(k, 0)})
    return out
