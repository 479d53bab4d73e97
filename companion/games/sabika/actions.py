"""The action values a Sabika game accepts, and their JSON form.

Small frozen dataclasses carrying only what a player or the table decided; ``Game.apply`` checks
them. A turn is one ``Work`` or ``Rest``; everything the rules then let the player decide (which
Materials, which Card, how to pay Parias...) is a pending decision answered with ``Choose``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.common.log_and_actions import AnswerAction, ChooseAction
from companion.games.sabika.errors import ActionFormatError
from companion.i18n import Msg


@dataclass(frozen=True)
class Work:
    """``player`` moves ``worker`` clockwise to ``square`` (1-based) of its Rondel and works there (L454-478)."""

    player: int
    worker: str
    square: int


@dataclass(frozen=True)
class Rest:
    """``player`` rests ``worker`` in the Workshop: +3 Dinars, -1 PP (L489-494)."""

    player: int
    worker: str


class Choose(ChooseAction):
    """Answer the pending decision of ``player`` with one of its options."""


class Answer(AnswerAction):
    """The table answers a question about a printed value (kept in the board profile)."""


Action = Work | Rest | Choose | Answer

_FIELDS: dict[str, tuple[type, dict[str, type]]] = {
    "work": (Work, {"player": int, "worker": str, "square": int}),
    "rest": (Rest, {"player": int, "worker": str}),
    "choose": (Choose, {"player": int, "option": object}),
    "answer": (Answer, {"key": str, "value": object}),
}
_TYPE_OF = {cls: name for name, (cls, _) in _FIELDS.items()}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The one-line JSON form: ``{"type": "work", "player": 0, "worker": "poet", "square": 3}``."""
    out: dict[str, Any] = {"type": _TYPE_OF[type(action)]}
    out.update(vars(action))
    return out


def action_from_dict(data: Any) -> Action:
    """Parse the JSON form; ``ActionFormatError`` names the bad field."""
    if not isinstance(data, dict):
        raise ActionFormatError(Msg("an action must be a JSON object, not {kind}", kind=type(data).__name__))
    kind = data.get("type")
    if kind not in _FIELDS:
        raise ActionFormatError(Msg("unknown action type {kind} (expected one of {types})", kind=repr(kind),
                                    types=", ".join(_FIELDS)))
    cls, fields = _FIELDS[kind]
    values: dict[str, Any] = {}
    for name, typ in fields.items():
        if name not in data:
            raise ActionFormatError(Msg("{kind} action lacks the field {name}", kind=kind, name=repr(name)))
        value = data[name]
        if typ is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise ActionFormatError(Msg("{kind} action field {name} must be an integer, not {value}", kind=kind,
                                        name=repr(name), value=repr(value)))
        if typ is str and not isinstance(value, str):
            raise ActionFormatError(Msg("{kind} action field {name} must be a string, not {value}", kind=kind,
                                        name=repr(name), value=repr(value)))
        values[name] = value
    extra = set(data) - set(fields) - {"type"}
    if extra:
        raise ActionFormatError(Msg("{kind} action has unknown field(s) {fields}", kind=kind,
                                    fields=", ".join(sorted(extra))))
    action: Action = cls(**values)
    return action
