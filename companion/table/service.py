"""Games at the table: create, load, act, undo — every change stored before anyone hears of it.

``GameService`` keeps one live engine ``Game`` per open game (rebuilt from the store by replay after
a restart) behind a per-game lock. An accepted change is, in one SQLite transaction, a ``game_log``
row and a ``game_events`` row; only after that commits is it announced on the bus (topic
``game.event``) and acknowledged to the phone. Two phones acting at once: each sends the game
``version`` it saw; the first wins, the second gets ``GameMovedOn`` with a fresh view (except secret
selections, which players make at once: one landing first changes nothing for the next). A request
retried with the same idempotency key gets the first answer back and changes nothing.

The game is the one source of truth for what the tower holds: a new game first has the table empty
the tower (or confirm it is empty); a release may name pieces nobody believed inside (leftovers, the
table's count wins); after every release, and every undo of one, the tower service is told what the
game says the tower holds (its Pi estimate, or the simulated tower). One toss per round: a second is
refused while the tower tumbles or its result waits, and undoing a confirmed release brings that
result back for Confirm / Correct. An imported game's moves are its history: Undo takes back only
what was played after the import (a finished imported game offers none).

Games other than Marrakesh (Morocco, Sabika: ``companion.table.kinds``) go through the same store,
versions, idempotency keys, undo by replay, events and log; their engine is reached through the
game's adapter, and the tower parts (toss, release, tower check, season scoring) refuse them.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion import COLOURS
from companion.errors import KeshiError
from companion.events import EventBus
from companion.games.marrakesh import Game, RuleError
from companion.i18n import Msg, colour_name, phase_name, render_words
from companion.store import StorageFull, Store
from companion.table import (
    board_profile,
    game_records,
    game_summary,
    keshi_box,
    kinds,
    log_words,
    marrakesh_engine,
    played_at,
    seat_records,
    seats,
)
from companion.table.kinds import MARRAKESH
from companion.table.kinds import profile as table_profile
from companion.table.names import clean_name
from companion.table.seats import NO_ROLE, Role, SeatTaken
from companion.tower.record import clear_correction, record_correction
from companion.tower.service import TowerBusyError

log = logging.getLogger("keshi.table")

EDITIONS = tuple(marrakesh_engine.EDITION_NAMES)
LAYERS = ("B1", "B2")


class GameNotFound(KeshiError, LookupError):
    """No game with this id in the store."""


class GameMovedOn(KeshiError, RuntimeError):
    """The action was based on an older version of the game than the current one."""

    def __init__(self, game_id: str, sent: int, current: int) -> None:
        super().__init__(Msg("the game moved on: you acted on version {sent}, the game is at version {current}",
                             sent=sent, current=current))
        self.game_id = game_id


class SetupInputError(KeshiError, ValueError):
    """The setup wizard's answers are unusable; the message names the field."""


class ChoicesHidden(KeshiError, PermissionError):
    """The request would show a player's secret choice before everyone has revealed."""


class NotForThisGame(KeshiError, ValueError):
    """The request is for a part of Marrakesh (the tower, season scoring) and this game has none."""


class TowerRefusal(KeshiError, RuntimeError):
    """The tower cannot be used for this game now (a toss tumbles, a result waits, the tower is not
    checked yet); the message says why in player words and nothing changed."""

    def __init__(self, game_id: str, message: Msg | str) -> None:
        super().__init__(message)
        self.game_id = game_id


class TowerControl(Protocol):
    """What the games need of the tower service (``companion.tower.service.TowerService``)."""

    @property
    def busy(self) -> bool: ...

    def contents(self) -> dict[str, int]: ...

    def set_contents(self, counts: dict[str, int], reason: str) -> dict[str, int]: ...

    def empty(self, found: dict[str, int] | None = None) -> dict[str, int]: ...

    def toss(self, pieces_in: dict[str, int] | None = None, *, game_id: str | None = None,
             season: int | None = None, round: int | None = None, source: str = "dashboard") -> str: ...


#: Seconds after which a toss that never reported back (the tower failed it) no longer blocks the game.
TOSS_LOST_AFTER_S = 20.0
#: Phases in which season or final scoring happens (an action may pause in them for a question).
SCORING_PHASES = ("round_end", "season_end", "final", "finished")
#: What a tower result waiting for the table (or a tumbling tower) says to a second toss or an undo.
#: (English: each is the catalog id of the message the refusal sends, ``Msg(RESULT_WAITS)``.)
RESULT_WAITS = "The tower has already been tossed this round: confirm or correct its result first"
STILL_TOSSING = "The tower is still tossing: wait for its result"
IN_THE_TRAY = "The keshis are already in the tray: confirm or correct the tower's result first"
AT_THE_START = "Nothing to take back: the game is at its start"
IMPORTED_HISTORY = "Nothing to take back: the moves of an imported game stay as they were played"
#: The longest name of a shared device ("The companion's screen" in any language fits).
DEVICE_NAME_LENGTH = 40
#: Who acts when a phone did not say (``LiveGame.who``).
THE_TABLE = Msg("The table")


@dataclass
class LiveGame:
    """One game in memory: its engine state plus what only the table knows (seats, PIN, tower)."""

    id: str
    title: str
    seating: list[dict[str, Any]]
    pin: str
    version: int
    #: the engine's game: a Marrakesh ``Game``, or for another ``kind`` that engine's ``Game``
    game: Game
    tower_result: dict[str, Any] | None = None
    #: the game-start tower check: ``{"needed": bool, "believed_inside": {...}, "done": {...} | None}``
    tower_check: dict[str, Any] | None = None
    #: the last season scoring, kept until acknowledged: ``{"season", "label", "deltas", "acknowledged"}``
    season_scoring: dict[str, Any] | None = None
    #: score changes of actions that paused during season scoring (added to the scoring's deltas)
    scoring_partial: list[dict[str, int]] | None = None
    #: the id of this game's toss while the tower tumbles (None otherwise), and when it started
    tossing: str | None = None
    tossing_since: float = 0.0
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: (version, view, the view as JSON) — built once per change and shared by every phone
    view_cache: tuple[int, dict[str, Any], str] | None = None
    #: which game this is (``companion.table.kinds``); only Marrakesh has the tower
    kind: str = MARRAKESH
    #: a table game's log line of each action in ``game.log`` (what Undo names): its English and the same
    #: line as a message (``Msg.to_json``, None in a game stored before lines were kept as messages), so
    #: Undo names the action in each phone's language
    lines: list[tuple[str, dict[str, Any] | None]] = field(default_factory=list)
    #: each device's role at this game (device id -> ``seats.Role``), as stored in ``seat_records``
    devices: dict[str, Role] = field(default_factory=dict)
    #: how many of the game's first actions came with its import: its history, which Undo leaves alone
    imported: int = 0

    @property
    def names(self) -> list[str]:
        return game_summary.player_names(self.kind, self.game)

    @property
    def labels(self) -> list[str]:
        """A table game's log lines in English, one per action."""
        return [label for label, _ in self.lines]

    @property
    def last_label(self) -> str | None:
        """A table game's log line of its last action (None at the start)."""
        return self.lines[-1][0] if self.lines and self.game.log else None

    @property
    def last_say(self) -> Msg | str:
        """The last action's log line as a message (its English where no message was kept)."""
        said = self.lines[-1][1] if self.lines and self.game.log else None
        return Msg.from_json(said) if said else self.last_label or "the last action"

    def who(self, seat: Any) -> str | Msg:
        """The name at ``seat`` (the phone's "who are you"), or "The table" when none was given."""
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else THE_TABLE

    def is_tossing(self, tower: TowerControl | None) -> bool:
        """True while this game's toss tumbles (a toss that never reported back stops counting)."""
        if self.tossing is None:
            return False
        if tower is not None and not tower.busy and time.time() - self.tossing_since > TOSS_LOST_AFTER_S:
            self.tossing = None
            self.view_cache = None
            return False
        return True

    def history_refusal_say(self) -> Msg | None:
        """Why there is nothing to take back (the game is at its start, or every action left came with its
        import: a game's history here starts at its import), or None when there is."""
        if not self.game.log:
            return Msg(AT_THE_START)
        if len(self.game.log) <= self.imported:
            return Msg(IMPORTED_HISTORY)
        return None

    def undo_refusal_say(self, tower: TowerControl | None) -> Msg | None:
        """Why undo is impossible now, as a message (the view sends it in English and as data the phone
        renders in its language), or None when it is possible."""
        history = self.history_refusal_say()
        if history is not None:
            return history
        if self.is_tossing(tower):
            return Msg(STILL_TOSSING)
        if self.tower_result is not None:
            return Msg(IN_THE_TRAY)
        return None


class _Keep:
    """Marks a stored column ``_commit`` leaves as it is."""


_KEEP: Any = _Keep()


@dataclass(frozen=True)
class Outcome:
    """What an accepted (or replayed) change answers: the new version and its event id."""

    version: int
    event_id: int
    replayed: bool = False


class GameService:
    """All games of this instance; thread-safe."""

    def __init__(self, store: Store, bus: EventBus, tower: TowerControl | None = None) -> None:
        self.store = store
        self.bus = bus
        #: the tower whose contents follow the games (None: games without a tower, e.g. in tools)
        self.tower = tower
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    # -- creating --------------------------------------------------------------------------
    def create(self, form: dict[str, Any]) -> LiveGame:
        """A new game from the setup wizard's JSON: ``game`` (default Marrakesh), players, and for
        Marrakesh edition, layer, seed, draws, table_draws; for a table game ``options`` (its own fields)."""
        kind = form.get("game", MARRAKESH)
        if kind != MARRAKESH:
            return self._create_table_game(str(kind), form)
        seating = _seating(form, 2, 4)
        _refuse_shared_colours(seating)
        edition = form.get("edition", "essential")
        if edition not in EDITIONS:
            raise SetupInputError(Msg("edition must be one of {editions}, not {edition!r}", editions=list(EDITIONS),
                                      edition=edition))
        expansions = form.get("expansions") or []
        if not isinstance(expansions, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in expansions):
            raise SetupInputError(Msg("expansions must list module numbers 1-5, not {expansions}",
                                      expansions=repr(expansions)))
        layer = form.get("tower_layer", "B1")
        if layer not in LAYERS:
            raise SetupInputError(Msg("tower_layer must be B1 or B2, not {layer!r}", layer=layer))
        seed = _seed(form)
        start_player = form.get("start_player")
        draws = form.get("draws") or {}
        if start_player is not None and (not isinstance(start_player, int) or isinstance(start_player, bool)):
            raise SetupInputError(Msg("start_player must be a whole number, not {value}", value=repr(start_player)))
        if not isinstance(draws, dict):
            raise SetupInputError(Msg("draws must be a JSON object"))
        table_draws = form.get("table_draws", False)
        if not isinstance(table_draws, bool):
            raise SetupInputError(Msg("table_draws must be true or false, not {value}", value=repr(table_draws)))
        game = marrakesh_engine.new_game([p["name"] for p in seating], seed=seed, start_player=start_player,
                               tower_layer=layer, draws=draws,
                               profile=board_profile.starting_profile(self.store, edition, form.get("profile")),
                               edition=edition, expansions=tuple(expansions), table_draws=table_draws)
        title = str(form.get("title") or " · ".join(p["name"] for p in seating))[:60]
        return self._insert(title, seating, game, [], "created")

    def _create_table_game(self, kind: str, form: dict[str, Any]) -> LiveGame:
        """A new Morocco or Sabika game: players within the game's range, its own ``options`` (checked
        by its engine), and the printed values this table has already answered for it."""
        adapter = kinds.adapter(kind)
        low, high = adapter.PLAYERS
        seating = _seating(form, low, high, adapter.NAME)
        _refuse_shared_colours(seating)
        options = form.get("options") or {}
        if not isinstance(options, dict):
            raise SetupInputError(Msg("options must be a JSON object"))
        options = {**options, "profile": {**table_profile.remembered(self.store, adapter),
                                          **(options.get("profile") or {})}}
        game = adapter.new_game([p["name"] for p in seating], _seed(form), options)
        title = str(form.get("title") or " · ".join(p["name"] for p in seating))[:60]
        return self._insert(title, seating, game, [], "created", kind)

    def import_log(self, text: str, source: str) -> LiveGame:
        """A new game from an exported JSON-lines log of any game (the header names it; the engine
        checks every line), dated by the time it was played when the export carries it."""
        played = played_at.read(text)
        kind = kinds.kind_of_log(text)
        if kind == MARRAKESH:
            game = marrakesh_engine.read_log(text, source=source)
            names = game.player_names()
            actions = [marrakesh_engine.to_json(a) for a in game.log]
            lines: list[tuple[str, dict[str, Any] | None]] = []
        else:
            adapter = kinds.adapter(kind)
            game = adapter.read_log(text, source)
            names = [str(p.name) for p in game.players]
            actions = [adapter.to_json(a) for a in game.log]
            lines = _table_lines(adapter, game.setup, actions)
        seating = [{"name": n, "colour": ""} for n in names]
        title = str(Msg("{names} (imported)", names=" · ".join(names)))  # a name, in the importing phone's language
        return self._insert(title, seating, game, actions, "imported", kind, lines, played)

    def _insert(self, title: str, seating: list[dict[str, Any]], game: Any, actions: list[dict[str, Any]],
                how: str, kind: str = MARRAKESH, lines: list[tuple[str, dict[str, Any] | None]] | None = None,
                played: float | None = None) -> LiveGame:
        """Store a new game; ``played`` (an imported game's date of play) stands for when it was created."""
        game_id = uuid.uuid4().hex[:10]
        pin = f"{secrets.randbelow(10_000):04d}"
        lines = lines or []
        imported = len(actions) if how == "imported" else 0
        live = LiveGame(game_id, title, seating, pin, len(actions), game, kind=kind, lines=list(lines),
                        imported=imported)
        if kind == MARRAKESH and not game.finished:  # a game starts with an empty tower: the table empties it
            believed = self.tower.contents() if self.tower is not None else {}
            live.tower_check = {"needed": True, "believed_inside": {c: n for c, n in believed.items() if n},
                                "done": None}
        now = time.time()
        metas: list[dict[str, Any] | None] = [_line_meta(*line) for line in lines] if lines else [None] * len(actions)
        with self.store.write() as db:
            game_records.insert_game(
                db, game_id=game_id, title=title, now=now, created_at=now if played is None else played,
                edition=game.to_dict().get("edition", "essential") if kind == MARRAKESH else kind,
                setup=game.setup, seating=seating, pin=pin, version=live.version, actions=len(actions),
                finished=bool(game.finished), tower_check=live.tower_check, kind=kind,
                moves=game_summary.moves(actions), winners=game_summary.winners_column(kind, game), imported=imported)
            game_records.insert_actions(db, game_id, actions, metas, now)
            said = Msg("Game created: {title}", title=title) if how == "created" else Msg("Game imported: {title}",
                                                                                          title=title)
            event_id = self._insert_event(db, live, how, log_words.said(said))
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
            row = game_records.game_row(self.store, game_id)
            if row is None:
                raise GameNotFound(Msg("there is no game {game_id!r}", game_id=game_id))
            kind = str(row["kind"])
            entries = game_records.log_entries(self.store, game_id)
            live_entries = game_summary.fold_undos((entry_kind, (action, meta)) for entry_kind, action, meta in entries)
            actions: list[dict[str, Any]] = [action for action, _meta in live_entries]
            # a table game's log lines (Marrakesh words its undo from the action itself)
            lines: list[tuple[str, dict[str, Any] | None]] = [] if kind == MARRAKESH else [
                (str(meta.get("label", "")), meta.get("say")) for _action, meta in live_entries]
            game = game_summary.replay(kind, json.loads(row["setup"]), actions)
            live = LiveGame(row["id"], row["title"], json.loads(row["seating"]), row["pin"], row["version"], game,
                            game_records.json_column(row, "tower_result"),
                            game_records.json_column(row, "tower_check"),
                            game_records.json_column(row, "season_scoring"),
                            kind=kind, lines=lines, imported=int(row["imported"]))
            live.devices = {r["device"]: Role(r["seat"], r["seat"] is None, r["label"])
                            for r in seat_records.devices(self.store, game_id)}
            self._games[game_id] = live
            return live

    def latest_open_game(self) -> str | None:
        """The unfinished Marrakesh game that changed last (the one the tower is for), if any."""
        return game_records.latest_open_game(self.store, MARRAKESH)

    def interrupted_tosses(self) -> list[tuple[str, str]]:
        """``(game_id, toss_id)`` of each unfinished game whose last move is a toss that never got
        its result or failure filed (the companion stopped meanwhile) and that still waits for it."""
        out = []
        for game_id, started in game_records.unanswered_tosses(self.store):
            try:
                live = self.get(game_id)
            except Exception:  # a game that cannot be rebuilt must not stop the dashboard from starting
                log.exception("game %s could not be rebuilt to look for an interrupted toss", game_id)
                continue
            if live.game.phase == "toss" and live.tower_result is None and live.tossing is None:
                out.append((live.id, str(started.get("toss_id"))))
        return out

    def write_log(self, game_id: str) -> str:
        """The game's JSON-lines log (its engine's format), as another companion or the CLI reads it, its
        header carrying when the game was played (``played_at``)."""
        row = game_records.game_row(self.store, game_id)
        return played_at.stamp(self._engine_log(game_id), float(row["created_at"]) if row else time.time())

    def _engine_log(self, game_id: str) -> str:
        """The engine's own JSON-lines log of the game."""
        live = self.get(game_id)
        with live.lock:
            if live.kind == MARRAKESH:
                game = live.game
                if game.phase == "select" and any(p.has_selected for p in game.players):
                    raise ChoicesHidden(Msg("The log can be downloaded once everyone has revealed their keshis: "
                                            "it would show the choices made so far"))
                return marrakesh_engine.write_log(game)
            return kinds.adapter(live.kind).write_log(live.game)

    def pins(self, game_ids: list[str]) -> dict[str, str]:
        """game id -> table PIN, for those of ``game_ids`` still stored."""
        return game_records.pins(self.store, game_ids)

    def summaries(self) -> list[dict[str, Any]]:
        """Every stored game, newest change first, read from the games' rows alone (no game is rebuilt):
        ``moves`` leaves out the table's answers to printed-value questions; a finished game names its
        winners."""
        out = []
        for r in game_records.summary_rows(self.store):
            expansions = json.loads(r["expansions"]) if r["expansions"] and r["kind"] == MARRAKESH else []
            name = kinds.game_name(r["kind"])
            variant = marrakesh_engine.variant_text(r["edition"], expansions) if r["kind"] == MARRAKESH else name
            out.append({"id": r["id"], "title": r["title"], "created_at": r["created_at"],
                        "updated_at": r["updated_at"], "edition": r["edition"], "expansions": expansions,
                        "kind": r["kind"], "game_name": name, "variant": variant,
                        "players": [p["name"] for p in json.loads(r["seating"])],
                        "actions": r["actions"], "finished": bool(r["finished"]), "moves": r["moves"],
                        "winners": json.loads(r["winners"]) if r["finished"] and r["winners"] else []})
        return out

    # -- changing --------------------------------------------------------------------------
    def act(self, game_id: str, action_data: Any, version: Any, key: str | None,
            by: Any = None, via: str | None = None) -> Outcome:
        """Apply one action (JSON form) if ``version`` is current; store it; then announce it.

        A tower release is compared with the tower's waiting result (confirmed or corrected by the
        table); pieces the engine did not believe inside are booked as leftovers. After a release the
        tower's contents follow the game's (the table's word is the truth). ``by``: the seat of the
        phone that acted ("who are you"), or None for the table; ``via``: the shared device it was
        taken on (named in the log).
        """
        live = self.get(game_id)
        check_seat(live, by)
        if live.kind != MARRAKESH:
            return self._act_table(live, action_data, version, key, by, via)
        with live.lock:
            if _is_selection(action_data):  # players select at once: another's selection is no conflict
                self.check_version(live, version, stale_is_fine=True)
                replayed = self._stored_outcome(live, key)
            else:
                replayed = self._replayed(live, key, version)
            if replayed is not None:
                return replayed
            action = marrakesh_engine.parse_action(action_data)
            data = marrakesh_engine.to_json(action)
            if data["type"] == "release":
                keshi_box.check_counts(data.get("counts") or {}, "the tower's result", live.game.edition)
                if live.is_tossing(self.tower):
                    raise TowerRefusal(live.id, Msg(STILL_TOSSING))
            game = live.game
            before = _scores(game)
            season, finished = game.season, game.finished
            prompt = game.pending.get("prompt") if game.pending else None
            asked = game.pending  # a question about a printed value is kept in the table's profile
            leftovers_before = dict(game.s.tower_leftovers)
            game.apply(action)  # raises RuleError with the state unchanged
            try:
                deltas = _deltas(before, game)
                meta: dict[str, Any] | None = None
                if data["type"] == "release":
                    leftover = {c: n - leftovers_before[c] for c, n in game.s.tower_leftovers.items()
                                if n > leftovers_before[c]}
                    meta = _release_meta(live.tower_result, data, leftover)
                    said: dict[str, Any] = log_words.said(log_words.release_say(meta))
                elif data["type"] == "select":
                    said = log_words.said(log_words.selection_say(live, data))
                else:
                    # the page words it from the action
                    said = {"label": marrakesh_engine.label(data, live.names, prompt)}
                shown = {k: v for k, v in (meta or {}).items() if k != "tower_result"}  # the result is in the view
                event = {**said, "action": None if data["type"] == "select" else data, "deltas": deltas,
                         **_by(by, via), **shown, **_asked(asked, data)}
                scoring, partial = self._season_scoring(live, season, finished, deltas)
                if scoring is not None:
                    event["season_scored"] = scoring["season"]
                outcome = self._commit(live, "action", data, key, meta, event,
                                       tower_result=None if data["type"] == "release" else _KEEP,
                                       season_scoring=scoring if scoring is not None else _KEEP)
            except BaseException:
                game.undo()
                raise
            if data["type"] == "release":
                live.tower_result = None
                self._tower_follows(live, None)
            board_profile.keep_answer(self.store, live.id, game.setup, asked, data)
            if scoring is not None:
                live.season_scoring = scoring
            live.scoring_partial = partial
        self._announce(game_id, outcome.event_id)
        return outcome

    def _act_table(self, live: LiveGame, action_data: Any, version: Any, key: str | None, by: Any,
                   via: str | None) -> Outcome:
        """``act`` for a table game: its engine checks the action; the log line says it in player words
        (with the points it scored); an answer to a printed-value question is kept for the next game."""
        adapter = kinds.adapter(live.kind)
        with live.lock:
            replayed = self._replayed(live, key, version)
            if replayed is not None:
                return replayed
            action = adapter.parse_action(action_data)
            data = adapter.to_json(action)
            game = live.game
            before = adapter.scores(game)
            was_over = bool(game.finished)
            try:  # worded from the game as it is; an action too malformed to word is refused by apply
                text: str | None = adapter.describe(game, data)
                said: Msg | None = adapter.describe_say(game, data)
            except Exception:  # noqa: BLE001 - the engine's refusal below is the message people need
                text, said = None, None
            game.apply(action)  # raises the engine's RuleError with the state unchanged
            try:
                who = live.who(by)
                points = _points_text(live.names, before, adapter.scores(game))
                # the action that ends the game: the final scoring is a log line of its own, after the action's
                ended = bool(game.finished) and not was_over
                final = log_words.said(Msg("Final scoring{points}", points=points)) if ended else None
                points = "" if final is not None else points
                text = (text or f"{render_words(who, 'en')}: {data.get('type')}") + points
                event = {"label": text, "action": data, **_by(by, via)}
                line = Msg("{line}{points}", line=said, points=points).to_json() if said is not None else None
                if line is not None:
                    event["say"] = line
                outcome = self._commit(live, "action", data, key, _line_meta(text, line), event, final=final)
            except BaseException:
                game.undo()
                raise
            live.lines.append((text, line))
            table_profile.keep(self.store, adapter, live.id, data)
        self._announce(live.id, outcome.event_id)
        return outcome

    def _undo_table(self, live: LiveGame, version: Any, key: str | None, by: Any, via: str | None) -> Outcome:
        """``undo`` for a table game: the engine replays its log without the last action."""
        adapter = kinds.adapter(live.kind)
        with live.lock:
            replayed = self._replayed(live, key, version)
            if replayed is not None:
                return replayed
            history = live.history_refusal_say()
            if history is not None:
                raise NotForThisGame(history)
            taken = adapter.to_json(live.game.log[-1])
            what = live.last_label or "the last action"
            said = live.last_say
            live.game.undo()
            try:
                event = {**log_words.said(Msg("{player} took back: {what}", player=live.who(by), what=said)),
                         "undone_label": what, **_by(by, via), "undone": taken}
                outcome = self._commit(live, "undo", None, key, None, event, undone=taken)
            except BaseException:
                live.game.apply(adapter.parse_action(taken))
                raise
            live.lines.pop()
            table_profile.drop(self.store, adapter, live.id, taken)
        self._announce(live.id, outcome.event_id)
        return outcome

    def delete(self, game_id: str) -> None:
        """Remove a game, its log and its events (tosses stay in the fairness log, which is the tower's).

        A phone still following the game hears ``game.deleted`` on the bus; its stream says so and ends.
        Refused while the game's toss tumbles (its result would have no game to go to).
        """
        live = self.get(game_id)
        with live.lock:
            if live.is_tossing(self.tower):
                raise TowerRefusal(live.id, Msg(STILL_TOSSING))
            with self.store.write() as db:
                game_records.delete_game(db, game_id)
            with self._lock:
                self._games.pop(game_id, None)
        self.bus.publish("game.deleted", {"game_id": game_id, "title": live.title})

    @staticmethod
    def _season_scoring(live: LiveGame, season: int, finished: bool, deltas: list[dict[str, int]]
                        ) -> tuple[dict[str, Any] | None, list[dict[str, int]] | None]:
        """The season-scoring result when this action ended a season (or the game), else None; and
        the new ``scoring_partial``.

        An action that leaves the game paused mid-scoring (a question) keeps its score changes in
        ``scoring_partial``; the action that completes the scoring adds them up.
        """
        game = live.game
        partial = live.scoring_partial or [{} for _ in deltas]
        summed = [{k: a.get(k, 0) + b.get(k, 0) for k in sorted(set(a) | set(b))} for a, b in
                  zip(partial, deltas, strict=True)]
        if game.season == season and not (game.finished and not finished):
            return None, summed if game.phase in SCORING_PHASES else None
        scored = season
        said = Msg("Final scoring") if game.finished else Msg("Season {n} scoring", n=scored)
        labelled = [{marrakesh_engine.category_text(k): v for k, v in d.items() if v} for d in summed]
        return {"season": scored, "final": bool(game.finished), **log_words.said(said),
                "deltas": [{k: v for k, v in d.items() if v} for d in summed], "deltas_labelled": labelled,
                "acknowledged": False}, None

    def undo(self, game_id: str, version: Any, key: str | None, by: Any = None, via: str | None = None) -> Outcome:
        """Take back the last action (the engine replays the log without it); stored as an ``undo`` row.

        Refused while a tower result waits or the tower tumbles (the keshis are in the tray). Undoing a
        confirmed release brings its tower result back (Confirm / Correct again), takes back the
        correction stored with the toss, and the tower's contents follow.
        """
        live = self.get(game_id)
        check_seat(live, by)
        if live.kind != MARRAKESH:
            return self._undo_table(live, version, key, by, via)
        with live.lock:
            replayed = self._replayed(live, key, version)
            if replayed is not None:
                return replayed
            history = live.history_refusal_say()
            if history is not None:
                raise RuleError(history)
            refusal = live.undo_refusal_say(self.tower)
            if refusal is not None:
                raise TowerRefusal(live.id, refusal)
            taken = marrakesh_engine.to_json(live.game.log[-1])
            secret = taken["type"] == "select" and live.game.phase == "select"
            what = marrakesh_engine.taken_back_text(taken, live.names, secret)
            what_say = marrakesh_engine.taken_back_say(taken, live.names, secret)
            restored = self._release_result(live) if taken["type"] == "release" else None
            before = _scores(live.game)
            season = live.game.season
            live.game.undo()
            try:
                said = Msg("{player} took back {what}", player=live.who(by), what=what_say)
                event = {"label": Msg("{player} took back {what}", player=live.who(by), what=what).english(),
                         "say": said.to_json(), "undone_label": what, "undone_say": what_say.to_json(), **_by(by, via),
                         "undone": None if secret else taken, "deltas": _deltas(before, live.game)}
                unscored = live.season_scoring is not None and (
                    live.game.season != season or not live.game.finished and bool(live.season_scoring.get("final")))
                outcome = self._commit(live, "undo", None, key, None, event, undone=taken,
                                       tower_result=restored if taken["type"] == "release" else _KEEP,
                                       season_scoring=None if unscored else _KEEP,
                                       uncorrect=restored.get("toss_id") if restored else None)
            except BaseException:
                live.game.apply(marrakesh_engine.parse_action(taken))
                raise
            if taken["type"] == "release":
                live.tower_result = restored
                self._tower_follows(live, (restored or {}).get("counts"))
            board_profile.drop_answer(self.store, live.id, live.game.setup, taken)
            if unscored:
                live.season_scoring = None
            live.scoring_partial = None
        self._announce(game_id, outcome.event_id)
        return outcome

    def _release_result(self, live: LiveGame) -> dict[str, Any] | None:
        """The tower result the game's last (live) action, a release, confirmed — from its stored meta."""
        entries = game_records.log_entries(self.store, live.id)
        stack = game_summary.fold_undos((kind, meta) for kind, _action, meta in entries)
        meta = stack[-1] if stack else {}
        result = meta.get("tower_result")
        return dict(result) if isinstance(result, dict) else None

    def _tower_follows(self, live: LiveGame, outside: dict[str, int] | None) -> None:
        """Make the tower hold what the game says it holds, minus ``outside``: pieces the game counts
        as inside that are not (a waiting result's, in the tray; this round's, still in hand before
        its toss). A tower busy with another toss keeps its own count; that is logged."""
        if self.tower is None:
            return
        out = outside or {}
        inside = {c: max(0, n - int(out.get(c, 0))) for c, n in live.game.s.tower_inside.items()}
        try:
            self.tower.set_contents(inside, f"game {live.id}")
        except TowerBusyError as exc:
            log.warning("game %s: the tower's contents could not follow the game: %s", live.id, exc)

    def empty_tower(self, game_id: str, found: Any, by: Any = None, via: str | None = None) -> int:
        """The game-start tower check: the table emptied the tower (``found``: what fell out, ``{}``
        when it was empty). The tower (its estimate, and the simulated tower) then holds nothing.
        Allowed until this game's first toss; stored as a ``tower.emptied`` event (its id returned).
        """
        live = self.get(game_id)
        _tower_game(live)
        check_seat(live, by)
        counts = _found_counts(found)
        keshi_box.check_counts(counts, "found", live.game.edition)
        with live.lock:
            if live.tower_check is None or not live.tower_check.get("needed"):
                raise TowerRefusal(live.id, Msg("The tower was already checked for this game"))
            if live.is_tossing(self.tower) or (self.tower is not None and self.tower.busy):
                raise TowerRefusal(live.id, Msg(STILL_TOSSING))
            believed = self.tower.empty(counts) if self.tower is not None else {}
            who = live.who(by)
            if any(counts.values()):
                said = Msg("{player} emptied the tower: {keshis} fell out (left from before)", player=who,
                           keshis=log_words.counts_say(counts))
            else:
                said = Msg("{player} confirmed the tower is empty", player=who)
            done = {"found": {c: n for c, n in counts.items() if n},
                    "believed": {c: n for c, n in believed.items() if n}, **log_words.said(said), **_by(by, via)}
            check = {"needed": False, "believed_inside": {}, "done": done}
            with self.store.write() as db:
                game_records.save_json(db, live.id, "tower_check", check)
                event_id = self._insert_event(db, live, "tower.emptied", done)
            live.tower_check = check
            live.view_cache = None
        self._announce(game_id, event_id)
        return event_id

    def start_toss(self, game_id: str, version: Any, toss: Any, by: Any = None, source: str | None = None,
                   via: str | None = None) -> str:
        """Toss this round's revealed keshis: ``toss(pieces_in, game_id=, season=, round=, source=)``
        starts it (the tower service), from what the game believes the tower holds. Refused, changing
        nothing, while this game's toss tumbles, while its result waits, before the game-start tower
        check, or outside the toss phase."""
        live = self.get(game_id)
        _tower_game(live)
        check_seat(live, by)
        with live.lock:
            self.check_version(live, version)
            game = live.game
            if game.phase != "toss" or game.pending is not None:
                raise TowerRefusal(live.id, Msg("The tower is tossed once everyone has revealed their keshis")
                                   if game.finished else
                                   Msg("The tower is tossed once everyone has revealed their keshis; now: {phase}",
                                       phase=phase_name(game.phase)))
            if live.is_tossing(self.tower):
                raise TowerRefusal(live.id, Msg(STILL_TOSSING))
            if live.tower_result is not None:
                raise TowerRefusal(live.id, Msg(RESULT_WAITS))
            if live.tower_check is not None and live.tower_check.get("needed"):
                raise TowerRefusal(live.id, Msg("Empty the tower (or confirm it is empty) before the first toss "
                                                "of this game"))
            pieces = marrakesh_engine.pieces_in(game)
            # the game's word on what the tower holds wins over anything since (a Tower-page toss or
            # fill, a restart that forgot the Pi's running estimate): the toss starts from it
            if self.tower is not None and not self.tower.busy:  # (a toss the beam started is claimed instead)
                self._tower_follows(live, pieces)
            toss_id = str(toss(pieces, game_id=game_id, season=game.season, round=game.round,
                               source=source or f"game:{game_id}"))
            live.tossing, live.tossing_since = toss_id, time.time()
            live.view_cache = None
            total = sum(pieces.values())
            try:  # the tower tumbles already: a start that cannot be stored is no reason to say it did not
                self.record_tower(game_id, "toss.started", {
                    "toss_id": toss_id, "pieces_in": pieces, **_by(by, via), "log": False,
                    **log_words.said(Msg("{player} tosses {n} keshis into the tower", player=live.who(by), n=total))})
            except StorageFull:
                log.warning("game %s: the start of toss %s could not be stored (storage full)", game_id, toss_id)
        return toss_id

    def ack_season_scoring(self, game_id: str, season: Any, by: Any = None, via: str | None = None) -> int:
        """The table has seen the season scoring of ``season``: it leaves every screen (stored, and
        announced as a ``season.acknowledged`` event so every phone's stream gets the new view). Put
        away twice (two phones at once, or a stalled one): the second changes nothing."""
        live = self.get(game_id)
        if live.kind != MARRAKESH:
            raise NotForThisGame(Msg("{game} has no season scoring to put away: it is scored on the game screen",
                                     game=kinds.game_name(live.kind)))
        check_seat(live, by)
        with live.lock:
            scoring = live.season_scoring
            if scoring is None or scoring.get("season") != season:
                raise SetupInputError(Msg("there is no season scoring of season {season!r} to put away",
                                          season=season))
            if scoring.get("acknowledged"):
                return self.last_event_id(live.id)
            acknowledged = {**scoring, "acknowledged": True}
            said = (Msg("{player} put the final scoring away", player=live.who(by)) if scoring.get("final") else
                    Msg("{player} put the season {season} scoring away", player=live.who(by), season=season))
            with self.store.write() as db:
                game_records.save_json(db, live.id, "season_scoring", acknowledged)
                event_id = self._insert_event(db, live, "season.acknowledged",
                                              {"season": season, **_by(by, via), **log_words.said(said), "log": False})
            live.season_scoring = acknowledged
            live.view_cache = None
        self._announce(game_id, event_id)
        return event_id

    # -- who plays on which device ------------------------------------------------------------
    def role(self, game_id: str, device: str) -> Role:
        """What ``device`` does at ``game_id`` (``NO_ROLE`` until it says who it is)."""
        return self.get(game_id).devices.get(device, NO_ROLE)

    def take_role(self, game_id: str, device: str, seat: Any, label: Any = None, logged: bool = True) -> int:
        """``device`` plays for ``seat`` (a player's number), or for everyone (``"all"``, a shared device
        named ``label``: the caller has checked that the table granted it). It gives up the role it had.
        A shared device is a log line too (it may act for anyone) unless ``logged`` is false.
        ``SeatTaken`` when another device plays for that player. Returns the event's id."""
        live = self.get(game_id)
        names = live.names
        if seat == "all":
            role = Role(None, True, clean_name(label, Msg("The device's name"), DEVICE_NAME_LENGTH))
        elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
            role = Role(seat, False, names[seat])
        else:
            raise SetupInputError(Msg("seat must be a player's number 0 to {last} or \"all\", not {value}",
                                      last=len(names) - 1, value=repr(seat)[:40]))
        with live.lock:
            if role.seat is not None and any(r.seat == role.seat for d, r in live.devices.items() if d != device):
                raise SeatTaken(Msg("{player} already plays on another phone: the host can free that seat",
                                    player=names[role.seat]))
            before = live.devices.get(device)
            if before == role:
                return self.last_event_id(game_id)
            switched = before is not None  # a phone changing who it plays for is a log line every phone reads
            with self.store.write() as db:
                seat_records.claim(db, live.id, device, role.seat, role.label, time.time())
                said = log_words.said(seats.switch_words(before, role, names) if before is not None
                                      else seats.device_words(role, names))
                # a shared device's grant is a log line (it may act for anyone); a player's own phone is not
                event_id = self._insert_event(db, live, "role", {**said, "role": role.to_json(),
                                                                 "log": (role.everyone or switched) and logged})
            live.devices[device] = role
            live.view_cache = None
        self._announce(game_id, event_id)
        return event_id

    def free_seat(self, game_id: str, seat: Any) -> int:
        """The host frees ``seat`` (a player's number: that phone was lost) or every shared device (``"all"``)."""
        live = self.get(game_id)
        with live.lock:
            freed = [d for d, r in live.devices.items() if (r.everyone if seat == "all" else r.seat == seat)]
            if not freed:
                raise SetupInputError(Msg("no device plays for that seat"))
            who = Msg("every shared device") if seat == "all" else live.who(seat)
            with self.store.write() as db:
                for device in freed:
                    seat_records.release(db, live.id, device)
                said = log_words.said(Msg("The host freed the seat of {player}", player=who))
                event_id = self._insert_event(db, live, "role", said)
            for device in freed:
                del live.devices[device]
            live.view_cache = None
        self._announce(game_id, event_id)
        return event_id

    def _replayed(self, live: LiveGame, key: str | None, version: Any) -> Outcome | None:
        """The outcome of the request this idempotency ``key`` already made (a retry), or None once the
        phone is shown to have seen the game's current ``version`` (else ``GameMovedOn``)."""
        found = self._stored_outcome(live, key)
        if found is None:
            self.check_version(live, version)
        return found

    def _stored_outcome(self, live: LiveGame, key: str | None) -> Outcome | None:
        if not key:
            return None
        found = game_records.change_by_key(self.store, live.id, key)
        if found is None:
            return None
        version, event_id = found
        return Outcome(version, event_id, replayed=True)

    @staticmethod
    def check_version(live: LiveGame, version: Any, *, stale_is_fine: bool = False) -> None:
        """Raise ``GameMovedOn`` unless ``version`` (when sent) is the game's current version.

        ``stale_is_fine``: only check that ``version`` is a whole number (an action that does not
        depend on the changes since, such as a secret selection made while others reveal theirs).
        """
        if version is None:
            return  # a client that does not send a version accepts acting on the newest state
        if not isinstance(version, int) or isinstance(version, bool):
            raise SetupInputError(Msg("version must be a whole number, not {value}", value=repr(version)))
        if version != live.version and not stale_is_fine:
            raise GameMovedOn(live.id, version, live.version)

    def _commit(self, live: LiveGame, kind: str, action: dict[str, Any] | None, key: str | None,
                meta: dict[str, Any] | None, event: dict[str, Any], *, tower_result: Any = None,
                season_scoring: Any = None, uncorrect: str | None = None,
                final: dict[str, Any] | None = None, undone: dict[str, Any] | None = None) -> Outcome:
        """Write the log row, the event and the game's counters in one transaction, with what the games
        list shows of the game as it now is (its moves, its winners).

        ``undone``: the action an undo takes back (JSON form).
        ``tower_result`` / ``season_scoring``: the new stored value (None clears it), or ``_KEEP``.
        ``uncorrect``: a toss whose stored correction an undo takes back.
        ``final``: a second event after the action's, the final scoring's own log line.
        """
        version = live.version + 1
        json_state = {column: value for column, value in (("tower_result", tower_result),
                                                          ("season_scoring", season_scoring)) if value is not _KEEP}
        with self.store.write() as db:
            game_records.append_change(db, live.id, version=version, kind=kind, action=action, meta=meta, key=key,
                                       now=time.time(), actions=len(live.game.log),
                                       finished=bool(live.game.finished), moved=_moved(action, undone),
                                       winners=game_summary.winners_column(live.kind, live.game),
                                       json_state=json_state)
            if meta and meta.get("corrected") and meta.get("toss_id") and action is not None:
                record_correction(db, meta["toss_id"], action.get("counts") or {})
            if uncorrect:
                clear_correction(db, uncorrect)
            event_id = self._insert_event(db, live, kind, event, version)
            if final is not None:
                event_id = self._insert_event(db, live, "scoring.final", final, version)
        live.version = version  # only once the transaction has committed
        return Outcome(version, event_id)

    def record_tower(self, game_id: str, kind: str, data: dict[str, Any]) -> int:
        """Store a tower moment of this game (toss started / result / failed) as a durable event.

        A result becomes the game's waiting tower result (with what a confirm would book as leftover)
        and ends the tumble; a failed toss ends the tumble too.
        """
        live = self.get(game_id)
        _tower_game(live)
        with live.lock:
            if kind == "toss.result":
                inside = live.game.s.tower_inside
                data = {**data, "leftover_if_confirmed": {
                    c: n - inside.get(c, 0) for c, n in (data.get("counts") or {}).items() if n > inside.get(c, 0)}}
            try:
                with self.store.write() as db:
                    if kind == "toss.result":
                        game_records.save_json(db, game_id, "tower_result", data)
                    event_id = self._insert_event(db, live, kind, data)
            except Exception:
                # not stored (a full disk): the toss still ends, as a failed one, so Toss and Undo come
                # back on every phone instead of "tossing" until a restart; the table tosses again later
                if kind in ("toss.result", "toss.failed") and live.tossing == data.get("toss_id"):
                    live.tossing = None
                    live.view_cache = None
                raise
            if kind == "toss.result":
                live.tower_result = data
            if kind in ("toss.result", "toss.failed") and live.tossing == data.get("toss_id"):
                live.tossing = None
            live.view_cache = None
        self._announce(game_id, event_id)
        return event_id

    @staticmethod
    def _insert_event(db: sqlite3.Connection, live: LiveGame, kind: str, data: dict[str, Any],
                      version: int | None = None) -> int:
        """Store one event of ``live`` at ``version`` (default: the game's current version)."""
        game = live.game
        body = {"phase": game.phase, "season": getattr(game, "season", None), "round": getattr(game, "round", None),
                "to_move": game.to_move, **data}
        return game_records.insert_event(db, live.id, live.version if version is None else version, kind, body,
                                         time.time())

    def _announce(self, game_id: str, event_id: int) -> None:
        self.bus.publish("game.event", {"game_id": game_id, "event_id": event_id})

    # -- reading ---------------------------------------------------------------------------
    def events_after(self, game_id: str, last_id: int, limit: int = 500) -> list[dict[str, Any]]:
        """The stored events of ``game_id`` after ``last_id``, oldest first."""
        return game_records.events_after(self.store, game_id, last_id, limit)

    def last_event_id(self, game_id: str) -> int:
        """The id of the game's newest event (0 before any)."""
        return game_records.last_event_id(self.store, game_id)

    def history(self, game_id: str, limit: int = 30) -> list[dict[str, Any]]:
        """The latest labelled events, newest first (for the log on the game page)."""
        out = []
        for event_id, kind, data in game_records.latest_events(self.store, game_id, limit):
            if data.get("log") is not False:  # a toss's start and result live in its release's line
                entry = {"id": event_id, "kind": kind, "label": data.get("label", kind)}
                # the page words these
                entry.update({k: data[k] for k in ("say", "action", "via", "asked") if data.get(k)})
                out.append(entry)
        return out


def _moved(action: dict[str, Any] | None, undone: dict[str, Any] | None) -> int:
    """What a change adds to the games list's moves: 1 for a move, -1 for the undo of one, 0 for an answer
    to a printed-value question (or its undo)."""
    if action is not None:
        return int(game_summary.is_move(action))
    return -int(undone is not None and game_summary.is_move(undone))


def _tower_game(live: LiveGame) -> None:
    """Refuse, naming the game, a tower request (toss, tower check, result) for a game without the tower."""
    if live.kind != MARRAKESH:
        raise NotForThisGame(Msg("{game} is played without the tower: the tower is for Marrakesh games",
                                 game=kinds.game_name(live.kind)))


def _seating(form: dict[str, Any], low: int, high: int, game: str = "Marrakesh") -> list[dict[str, Any]]:
    """The seats of the wizard's ``players`` ({name, colour} in seat order), ``low`` to ``high`` of them."""
    players = form.get("players")
    if not isinstance(players, list) or not low <= len(players) <= high:
        raise SetupInputError(Msg("players must list {low} to {high} players for {game}", low=low, high=high,
                                  game=game))
    seating = []
    for index, player in enumerate(players):
        name = player.get("name") if isinstance(player, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise SetupInputError(Msg("player {n} needs a name", n=index + 1))
        seating.append({"name": clean_name(name, Msg("The name of player {n}", n=index + 1), 24),
                        "colour": str(player.get("colour") or "")[:16]})
    return seating


def _seed(form: dict[str, Any]) -> int:
    """The wizard's seed for anything still drawn (a random one when none was given)."""
    seed = form.get("seed")
    if seed is None:
        return secrets.randbelow(2**31)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupInputError(Msg("seed must be a whole number, not {value}", value=repr(seed)))
    return seed


def _table_lines(
    adapter: kinds.TableGame, setup: dict[str, Any], actions: list[dict[str, Any]]
) -> list[tuple[str, dict[str, Any] | None]]:
    """The log line of each action of an imported table game, in English and as a message (worded by
    replaying it step by step)."""
    game = adapter.replay(setup, [])
    lines: list[tuple[str, dict[str, Any] | None]] = []
    for data in actions:
        lines.append((adapter.describe(game, data), adapter.describe_say(game, data).to_json()))
        game.apply(adapter.parse_action(data))
    return lines


def _asked(pending: dict[str, Any] | None, data: dict[str, Any]) -> dict[str, Any]:
    """For an answer's log line: the question it answered (its prompt in English and as a message), so the
    line says what was asked, not only the answer."""
    if data.get("type") != "answer" or not pending:
        return {}
    return {"asked": {k: pending[k] for k in ("prompt", "say") if k in pending}}


def _line_meta(label: str, say: dict[str, Any] | None) -> dict[str, Any]:
    """What the log keeps beside a table game's action: its line in English and as a message."""
    return {"label": label, "say": say} if say is not None else {"label": label}


def _points_text(names: list[str], before: list[int], after: list[int]) -> str:
    """``" · Sarah +5, Jan +2"`` for the seats whose score changed ("" when none did)."""
    changed = [f"{name} {a - b:+d}" for name, b, a in zip(names, before, after, strict=True) if a != b]
    return " · " + ", ".join(changed) if changed else ""


def _is_selection(action_data: Any) -> bool:
    """Whether a Marrakesh action is a player's secret selection: everyone selects at once, so it
    does not depend on the selections that landed since the phone last heard of the game."""
    return isinstance(action_data, dict) and action_data.get("type") == "select"


def _by(by: Any, via: str | None) -> dict[str, Any]:
    """An event's ``by`` (the seat acted for) and, for a shared device, ``via`` (its name)."""
    return {"by": by, "via": via} if via else {"by": by}


def check_seat(live: LiveGame, by: Any) -> None:
    """``by`` (who is acting) must be a seat of this game or None (the table)."""
    if by is None:
        return
    if not isinstance(by, int) or isinstance(by, bool) or not 0 <= by < len(live.names):
        raise SetupInputError(Msg("'by' must name a seat 0 to {last} of this game (or null), not {value}",
                                  last=len(live.names) - 1, value=repr(by)))


def _refuse_shared_colours(seating: list[dict[str, Any]]) -> None:
    """Two seats with the same colour cannot be told apart at the table: refuse, naming them."""
    seen: dict[str, str] = {}
    for seat in seating:
        colour = seat["colour"].strip().lower()
        if not colour:
            continue
        if colour in seen:
            raise SetupInputError(Msg("{first} and {second} both chose {colour}: each seat needs its own colour",
                                      first=seen[colour], second=seat["name"], colour=colour_name(seat["colour"])))
        seen[colour] = seat["name"]


def _found_counts(found: Any) -> dict[str, int]:
    """What fell out of a tower emptied by hand: a ``{colour: n}`` object (``{}``/None: nothing)."""
    if found is None:
        return {}
    if not isinstance(found, dict) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in found.values()):
        raise SetupInputError(Msg("'found' must map keshi colours to whole numbers of 0 or more"))
    unknown = sorted(set(found) - set(COLOURS))
    if unknown:
        raise SetupInputError(Msg("'found' names unknown colour(s) {colours}", colours=[str(c) for c in unknown]))
    return {c: int(found.get(c, 0)) for c in COLOURS}


def _release_meta(result: dict[str, Any] | None, action: dict[str, Any], leftover: dict[str, int]
                  ) -> dict[str, Any]:
    """What a release stores beside itself: the tower result it confirms or corrects (so an undo can
    bring it back), whether the table corrected it, and the leftovers it booked."""
    meta: dict[str, Any] = {"leftover": leftover}
    if result is not None:
        detected = {c: n for c, n in (result.get("counts") or {}).items() if n}
        sent = {c: n for c, n in (action.get("counts") or {}).items() if n}
        meta.update(toss_id=result.get("toss_id"), detected=detected, corrected=sent != detected,
                    beam_count=result.get("beam_count"), tower_result=result, counts=sent)
    else:
        meta["counts"] = {c: n for c, n in (action.get("counts") or {}).items() if n}
    return meta


def _scores(game: Game) -> list[dict[str, int]]:
    return game.breakdowns()


def _deltas(before: list[dict[str, int]], game: Game) -> list[dict[str, int]]:
    """Per player, the score change of each breakdown category this action caused."""
    after = _scores(game)
    out = []
    for old, new in zip(before, after, strict=True):
        out.append({k: new.get(k, 0) - old.get(k, 0) for k in sorted(set(old) | set(new))
                    if new.get(k, 0) != old.get(k, 0)})
    return out
