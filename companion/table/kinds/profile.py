"""Printed values of a table game remembered per table, in the board-profile store.

A table game's engine may ask the table a printed value its rulebook text lacks (Morocco: how much a
market tile's overflow arrow adds). The answer belongs to the table's copy of the game, so it is kept
in the ``board_profile`` table under the game's key as its "edition" and handed to the next game of
that kind, which then never asks it again. Only keys (and values) the adapter's ``PROFILE`` lists are
kept or handed on; Marrakesh's profile (``companion.table.board_profile``) is untouched.
"""

from __future__ import annotations

from typing import Any

from companion.store import Store
from companion.table import board_profile_records as records
from companion.table.kinds import TableGame


def _known(game: TableGame) -> dict[str, tuple[Any, ...]]:
    known: dict[str, tuple[Any, ...]] = getattr(game, "PROFILE", {})
    return known


def remembered(store: Store, game: TableGame) -> dict[str, Any]:
    """The table's answers for ``game`` that its engine still accepts (what a new game starts with)."""
    known = _known(game)
    return {key: value for key, value in records.values(store, game.KEY).items()
            if key in known and value in known[key]}


def keep(store: Store, game: TableGame, game_id: str, action: dict[str, Any]) -> None:
    """After the table answered a question of ``game_id``: keep the value for the next game."""
    if action.get("type") != "answer" or action.get("key") not in _known(game):
        return
    with store.write() as db:
        records.upsert(db, game.KEY, str(action["key"]), action.get("value"), "answer", game_id)


def drop(store: Store, game: TableGame, game_id: str, action: dict[str, Any]) -> None:
    """After the table took its answer back: forget it, if it is still the one this game gave."""
    if action.get("type") != "answer" or action.get("key") not in _known(game):
        return
    with store.write() as db:
        records.delete_answer(db, game.KEY, str(action["key"]), game_id)
