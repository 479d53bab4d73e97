"""Plumbing the three game engines (``marrakesh``, ``morocco``, ``sabika``) share.

Each engine keeps its own rules, actions and error classes (so one game never accepts another's
actions, and its messages keep their own words); what is the same in all three lives here once:

- the JSON-lines game log (``keshi-game-log`` version 1): a header line with the resolved setup, then
  one action a line, sorted keys; reading it names the source and the line of any damage. Each
  engine's ``log`` module says what its header carries, how to build its game and which errors a
  bad action line may raise;
- the two actions every engine has, answering a pending decision (``ChooseAction``) and a question
  about a printed value (``AnswerAction``): each engine subclasses them (without ``@dataclass``, so
  fields, equality and hashing stay these), and an engine's ``Choose`` is never another engine's;
- checking one field of an action's JSON form (``json_field``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from companion.errors import KeshiError
from companion.i18n import Msg

LOG_FORMAT = "keshi-game-log"
LOG_VERSION = 1

Line = tuple[int, str]
"""A non-blank line of a log with its 1-based line number."""


class Replayable(Protocol):
    """A game that takes actions one at a time (raising on an illegal one)."""

    def apply(self, action: Any) -> object: ...


G = TypeVar("G", bound=Replayable)


def log_header(setup: Any, **tags: str) -> dict[str, Any]:
    """The first line of a log: format, version, the engine's ``tags`` (edition or game) and the setup."""
    return {"format": LOG_FORMAT, "version": LOG_VERSION, **tags, "setup": setup}


def log_text(head: Mapping[str, Any], actions: Iterable[Any], to_dict: Callable[[Any], Mapping[str, Any]]) -> str:
    """The whole log as JSON lines with sorted keys (ends with a newline)."""
    lines = [json.dumps(head, sort_keys=True)]
    lines += [json.dumps(to_dict(a), sort_keys=True) for a in actions]
    return "\n".join(lines) + "\n"


def read_header(text: str, source: str, error: type[Exception]) -> tuple[dict[str, Any], int, list[Line]]:
    """The header of a log (checked for format and version), its line number and the action lines.

    Raises ``error`` naming ``source`` and the line when the log is empty or the header is not one.
    """
    lines = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise error(f"{source}: empty game log (expected a {LOG_FORMAT} header line)")
    first_no, first = lines[0]
    head = _json(first, source, first_no, error)
    if not isinstance(head, dict) or head.get("format") != LOG_FORMAT:
        raise error(f"{source}:{first_no}: not a {LOG_FORMAT} header")
    if head.get("version") != LOG_VERSION:
        raise error(f"{source}:{first_no}: unsupported log version {head.get('version')!r} "
                    f"(this engine reads version {LOG_VERSION})")
    return head, first_no, lines[1:]


def game_from_header(make: Callable[[], G], source: str, line_no: int, error: type[Exception], *,
                     plain_keshi_errors: bool) -> G:
    """``make()`` the game a header describes; a bad setup raises ``error`` naming the header line.

    With ``plain_keshi_errors`` a ``KeshiError`` (already worded for people) is quoted as it is; other
    exceptions, and all of them without it, are prefixed with their type name.
    """
    try:
        return make()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        plain = plain_keshi_errors and isinstance(exc, KeshiError)
        why = str(exc) if plain else f"{type(exc).__name__}: {exc}"
        raise error(f"{source}:{line_no}: bad setup in header: {why}") from exc


def replay(game: G, lines: Iterable[Line], source: str, parse: Callable[[Any], Any],
           refused: tuple[type[Exception], ...], error: type[Exception]) -> G:
    """Apply each action line to ``game``; a line that is not JSON or is ``refused`` raises ``error`` naming it."""
    for no, line in lines:
        try:
            game.apply(parse(_json(line, source, no, error)))
        except refused as exc:
            raise error(f"{source}:{no}: {exc}") from exc
    return game


def _json(line: str, source: str, no: int, error: type[Exception]) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise error(f"{source}:{no}: not valid JSON ({exc.msg})") from exc


@dataclass(frozen=True)
class ChooseAction:
    """``player`` answers their pending decision with one of its options."""

    player: int
    option: Any

    def __hash__(self) -> int:
        # An option may be a list or a dict (unhashable): hash its repr.
        return hash((self.player, repr(self.option)))


@dataclass(frozen=True)
class AnswerAction:
    """The table answers the question ``key`` about a printed value with ``value``."""

    key: str
    value: Any

    def __hash__(self) -> int:
        return hash((self.key, repr(self.value)))


def json_field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], error: type[Exception]) -> Any:
    """``data[key]`` if present and of ``kind`` (a bool is not an int); otherwise ``error`` naming the field."""
    if key not in data:
        raise error(Msg("{kind} action lacks field {key!r}", kind=str(data.get("type")), key=key))
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise error(Msg("{kind} action field {key!r} has the wrong type: {value}", kind=str(data.get("type")), key=key,
                        value=repr(value)))
    return value
