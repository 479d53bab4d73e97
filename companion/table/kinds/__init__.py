"""The games the companion hosts at a table, each behind one adapter (see docs/games.md).

Marrakesh, the tower game, keeps its own service path (``companion.table.service``, ``marrakesh_engine``, ``views``)
and page. Every other game is a *table game*: an adapter module (``morocco``, ``sabika``) that turns
its engine into what the generic service and page need — a new game, replay, JSON actions, the board
to draw, the choices of whoever must act, a log line in player words, scores and winners. The
contract between adapters is ``TableGame`` below (and /work/coord/15-kinds.md for the helpers).
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import Any, Protocol, cast

from companion.errors import KeshiError
from companion.i18n import Msg

MARRAKESH = "marrakesh"
#: Adapter modules of the table games, by game key (a module not present yet is left out).
ADAPTERS: dict[str, str] = {
    "morocco": "companion.table.kinds.morocco",
    "sabika": "companion.table.kinds.sabika",
}


class UnknownGame(KeshiError, ValueError):
    """The game key names no game this companion hosts."""


class TableGame(Protocol):
    """What a table game's adapter module offers (module-level names)."""

    KEY: str
    NAME: str
    PLAYERS: tuple[int, int]

    def new_game(self, players: list[str], seed: int, options: dict[str, Any]) -> Any: ...

    def replay(self, setup: dict[str, Any], actions: list[dict[str, Any]]) -> Any: ...

    def parse_action(self, data: Any) -> Any: ...

    def to_json(self, action: Any) -> dict[str, Any]: ...

    def board_view(self, game: Any) -> dict[str, Any]: ...

    def choices(self, game: Any) -> dict[str, Any]: ...

    def describe(self, before: Any, action: dict[str, Any]) -> str: ...

    def describe_say(self, before: Any, action: dict[str, Any]) -> Msg: ...

    def scores(self, game: Any) -> list[int]: ...

    def winners(self, game: Any) -> list[int]: ...

    def write_log(self, game: Any) -> str: ...

    def read_log(self, text: str, source: str) -> Any: ...


@cache
def table_games() -> dict[str, TableGame]:
    """The table games whose adapter is installed, by key (Morocco first, in ``ADAPTERS`` order)."""
    out: dict[str, TableGame] = {}
    for key, module_name in ADAPTERS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:  # the adapter exists but something it needs is missing: say so
                raise
            continue
        out[key] = cast(TableGame, module)
    return out


def adapter(kind: str) -> TableGame:
    """The adapter of table game ``kind``; ``UnknownGame`` naming the games on offer otherwise."""
    games = table_games()
    if kind not in games:
        raise UnknownGame(f"game must be one of {', '.join([MARRAKESH, *games])}, not {kind!r}")
    return games[kind]


def rule_errors() -> tuple[type[Exception], ...]:
    """Each table game's ``RULE_ERROR`` (a broken rule, which the API answers with 422), where its adapter names one."""
    found = (getattr(game, "RULE_ERROR", None) for game in table_games().values())
    return tuple(error for error in found if error is not None)


def game_name(kind: str) -> str:
    """The name people read for ``kind`` ("Marrakesh", "Morocco", ...); the key itself if unknown."""
    if kind == MARRAKESH:
        return "Marrakesh"
    games = table_games()
    return games[kind].NAME if kind in games else kind


def wizard_games() -> list[dict[str, Any]]:
    """Every game the setup wizard offers: key, name, players (min, max) and its own setup fields."""
    from companion.table.kinds import marrakesh

    out: list[dict[str, Any]] = [{"key": marrakesh.KEY, "name": marrakesh.NAME, "players": list(marrakesh.PLAYERS),
                                  "options": []}]
    for key, game in table_games().items():
        out.append({"key": key, "name": game.NAME, "players": list(game.PLAYERS),
                    "options": [_in_words(option) for option in getattr(game, "OPTIONS", [])]})
    return out


def _in_words(value: Any) -> Any:
    """A wizard field with its words (``Msg``: label, help, a choice's label) rendered in the reader's language."""
    if isinstance(value, Msg):
        return str(value)
    if isinstance(value, dict):
        return {key: _in_words(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_in_words(item) for item in value]
    return value


def kind_of_log(text: str) -> str:
    """The game a JSON-lines log is of, from its header's ``"game"`` (Marrakesh logs name none).

    A header that cannot be read is left to the Marrakesh reader, which names the damaged line.
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        head = json.loads(first)
    except ValueError:
        return MARRAKESH
    game = head.get("game") if isinstance(head, dict) else None
    if game is None or game == MARRAKESH:
        return MARRAKESH
    adapter(str(game))  # an unknown game is refused by name
    return str(game)
