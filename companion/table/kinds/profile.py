"""Printed values of a table game remembered per table, in the board-profile store.

A table game's engine may ask the table a printed value its rulebook text lacks (Morocco: how much a
market tile's overflow arrow adds). The answer belongs to the table's copy of the game, so it is kept
in the ``board_profile`` table under the game's key as its "edition" and handed to the next game of
that kind, which then never asks it again. Only keys (and values) the adapter's ``PROFILE`` lists are
kept or handed on; Marrakesh's profile (``companion.table.board_profile``) is untouched.
"""

from __future__ import annotations

from typing import Any

from companion.errors import KeshiError
from companion.i18n import Msg
from companion.store import Store
from companion.table import board_profile_records as records
from companion.table.kinds import TableGame


class NotAPrintedValue(KeshiError, ValueError):
    """A key the game never asks, or a value it cannot have; the message names the possible ones."""


def _known(game: TableGame) -> dict[str, tuple[Any, ...]]:
    known: dict[str, tuple[Any, ...]] = getattr(game, "PROFILE", {})
    return known


def remembered(store: Store, game: TableGame) -> dict[str, Any]:
    """The table's answers for ``game`` that its engine still accepts (what a new game starts with)."""
    known = _known(game)
    return {key: value for key, value in records.values(store, game.KEY).items()
            if key in known and value in known[key]}


def _answered(game: TableGame, action: dict[str, Any]) -> dict[str, Any]:
    """The printed values an answer gives that ``game`` keeps: its key's, or each value of an answer to several
    at once (the adapter's ``answer_values``: Sabika asks a Rondel's three ring sizes in one question)."""
    if action.get("type") != "answer":
        return {}
    key, value = str(action.get("key")), action.get("value")
    split = getattr(game, "answer_values", None)
    values: dict[str, Any] = split(key, value) if split is not None else {key: value}
    return {k: v for k, v in values.items() if k in _known(game)}


def keep(store: Store, game: TableGame, game_id: str, action: dict[str, Any]) -> None:
    """After the table answered a question of ``game_id``: keep the value (or values) for the next game."""
    values = _answered(game, action)
    if not values:
        return
    with store.write() as db:
        for key, value in values.items():
            records.upsert(db, game.KEY, key, value, "answer", game_id)


def drop(store: Store, game: TableGame, game_id: str, action: dict[str, Any]) -> None:
    """After the table took its answer back: forget its values, if each is still the one this game gave."""
    values = _answered(game, action)
    if not values:
        return
    with store.write() as db:
        for key in values:
            records.delete_answer(db, game.KEY, key, game_id)


def listed(store: Store, game: TableGame) -> list[dict[str, Any]]:
    """Every printed value ``game`` may ask that the Board page lists (``PROFILE_SAY``), so a table can enter it
    before play: key, title (the engine's question, as a message), options, the table's value (None: not known
    yet) and its source (``missing`` for none)."""
    stored = {e["key"]: e for e in records.entries(store, game.KEY)}
    known = _known(game)
    out = []
    for key, title in getattr(game, "PROFILE_SAY", {}).items():
        entry = stored.get(key)
        have = entry is not None and entry["value"] in known[key]
        out.append({"key": key, "title": title, "options": list(known[key]),
                    "value": entry["value"] if have and entry else None,
                    "source": entry["source"] if have and entry else "missing"})
    return out


def set_value(store: Store, game: TableGame, key: str, value: Any) -> None:
    """Keep ``value`` for ``key`` as the table entered it; ``NotAPrintedValue`` (nothing stored) if the game
    never asks ``key`` or ``value`` is not one of its answers."""
    known = _known(game)
    if key not in getattr(game, "PROFILE_SAY", {}):
        raise NotAPrintedValue(Msg("{game} asks no printed value {key!r}", game=game.NAME, key=key))
    if value not in known[key] or isinstance(value, bool):
        raise NotAPrintedValue(Msg("{value} is not a possible answer: it is one of {options}", value=repr(value),
                                   options=[str(option) for option in known[key]]))
    with store.write() as db:
        records.upsert(db, game.KEY, key, value, "edit", None)


def forget(store: Store, game: TableGame, key: str) -> bool:
    """Drop the table's value of ``key`` (the next game asks it again); False if there was none."""
    with store.write() as db:
        return records.delete(db, game.KEY, key)
