"""What the games list shows of a game beyond its setup, kept in the game's row (issue 25).

The list shows each game's moves (the table's answers to printed-value questions left out: reading a
printed value is not a move) and, once it is finished, who won. Working these out means reading the
whole log or replaying the game, which a cafe hub with hundreds of finished games cannot afford on
every look at the list (and a replayed game stayed in memory). So the service stores them when a
change commits (``game_records.append_change``), and ``backfill`` works them out once, at migration
time, for the games stored before they were kept. An imported game also keeps how many of its
actions came with the import: they are its history, which Undo leaves alone.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable
from typing import Any, TypeVar

from companion.table import kinds, marrakesh_engine
from companion.table.kinds import MARRAKESH

log = logging.getLogger("keshi.table")

#: The action type of a table's answer to a question about a printed value (every game's engine).
ANSWER = "answer"


def is_move(action: dict[str, Any]) -> bool:
    """Whether a logged action counts as a move on the games list (an answer to a question does not)."""
    return action.get("type") != ANSWER


def moves(actions: list[dict[str, Any]]) -> int:
    """How many of ``actions`` (JSON form) are moves."""
    return sum(is_move(action) for action in actions)


Item = TypeVar("Item")


def fold_undos(entries: Iterable[tuple[str, Item]]) -> list[Item]:
    """The items of a game's log entries (``(kind, item)`` in order) left after folding its undos: an
    ``undo`` entry takes back the item before it, as the replay does."""
    live: list[Item] = []
    for kind, item in entries:
        if kind == "undo":
            live.pop()
        else:
            live.append(item)
    return live


def replay(kind: str, setup: dict[str, Any], actions: list[dict[str, Any]]) -> Any:
    """The engine's game of ``kind`` rebuilt from its setup and its actions (JSON form)."""
    if kind == MARRAKESH:
        return marrakesh_engine.replay(setup, actions)
    return kinds.adapter(kind).replay(setup, actions)


def player_names(kind: str, game: Any) -> list[str]:
    """The names of the players of an engine's game, in seat order."""
    if kind == MARRAKESH:
        return list(game.player_names())
    return [str(p.name) for p in game.players]


def winner_names(kind: str, game: Any) -> list[str]:
    """The names of a finished game's winners, in seat order ([] while it is not finished)."""
    if not game.finished:
        return []
    names = player_names(kind, game)
    seats = game.winners() if kind == MARRAKESH else kinds.adapter(kind).winners(game)
    return [names[i] if isinstance(i, int) else str(i) for i in seats]


def winners_column(kind: str, game: Any) -> str | None:
    """The ``winners`` column of a game's row: its winners' names as JSON, NULL while it is not finished."""
    return json.dumps(winner_names(kind, game)) if game.finished else None


def backfill(db: sqlite3.Connection) -> None:
    """Migration step: the moves, winners and imported actions of every game stored before the row kept
    them, worked out once from its log (each finished game replayed once, here and never again by the list).

    A finished game that cannot be rebuilt any more keeps no winners (logged): the list still shows it.
    """
    games = db.execute("SELECT id, kind, setup, finished FROM games").fetchall()
    for game_id, kind, setup, finished in games:
        imported_at = db.execute("SELECT MIN(version) FROM game_events WHERE game_id = ? AND kind = 'imported'",
                                 (game_id,)).fetchone()[0] or 0
        live = fold_undos(  # (seq, action JSON) of the actions left after folding the undos
            (str(entry_kind), (int(seq), action)) for seq, entry_kind, action in db.execute(
                "SELECT seq, kind, action FROM game_log WHERE game_id = ? ORDER BY seq", (game_id,)))
        actions: list[dict[str, Any]] = [json.loads(action) for _seq, action in live]
        winners = None
        if finished:
            try:
                winners = winners_column(str(kind), replay(str(kind), json.loads(setup), actions))
            except Exception:  # noqa: BLE001 - one damaged game must not stop the companion from starting
                log.exception("game %s could not be rebuilt to name its winners", game_id)
                winners = json.dumps([])
        db.execute("UPDATE games SET moves = ?, winners = ?, imported = ? WHERE id = ?",
                   (moves(actions), winners, sum(seq <= imported_at for seq, _action in live), game_id))
