"""Morocco actions (small frozen values) and their one-line JSON form.

Actions carry only what a player or the table decided; ``Game.apply`` checks them. Spaces are
``(y, x)`` pairs on the 10 x 10 market grid (see ``board``); rows and columns of cubes are named
``"row1"``-``"row5"`` and ``"column1"``-``"column5"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.common.log_and_actions import AnswerAction, ChooseAction, json_field
from companion.games.morocco.errors import ActionFormatError
from companion.i18n import Msg

Space = tuple[int, int]


@dataclass(frozen=True)
class Roll:
    """2-3 players: ``player`` rolled the market die and it shows ``face`` (a cube colour or ``"wild"``)."""

    player: int
    face: str


@dataclass(frozen=True)
class Scout:
    """Scout Stalls: ``player`` moves the rooftop pawn to outer space ``space`` (1-5, clockwise)."""

    player: int
    space: int


@dataclass(frozen=True)
class Place:
    """Assign Workers: ``player`` plays ``worker`` to ``space``.

    ``extra`` is the colour of the additional cube a tourist or cousins costs; ``second`` is where
    the cousins' second assistant goes (next to ``space``, in a different stall).
    """

    player: int
    worker: str
    space: Space
    extra: str | None = None
    second: Space | None = None


@dataclass(frozen=True)
class Pass:
    """``player`` cannot place a worker and passes (MOR:L102)."""

    player: int


@dataclass(frozen=True)
class Swap:
    """Spend a gold coin: swap the cubes of two market rows or of two market columns (MOR:L161)."""

    player: int
    lines: tuple[str, str]

    def __post_init__(self) -> None:
        # Swapping row 4 with row 3 is swapping row 3 with row 4: keep one canonical order.
        object.__setattr__(self, "lines", tuple(sorted(self.lines)))


@dataclass(frozen=True)
class EndTurn:
    """``player`` is done spending gold after placing (or passing): the next turn begins."""

    player: int


class Choose(ChooseAction):
    """Answer ``player``'s pending decision with one of its options."""


class Answer(AnswerAction):
    """The table answers a question about a printed value (kept in the board profile)."""


Action = Roll | Scout | Place | Pass | Swap | EndTurn | Choose | Answer

_NAMES: dict[type, str] = {Roll: "roll", Scout: "scout", Place: "place", Pass: "pass", Swap: "swap",
                           EndTurn: "end_turn", Choose: "choose", Answer: "answer"}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of ``action`` (``{"type": ..., fields...}``)."""
    name = _NAMES.get(type(action))
    if name is None:
        raise ActionFormatError(Msg("not a Morocco action: {action}", action=repr(action)))
    out: dict[str, Any] = {"type": name}
    if isinstance(action, Answer):
        return out | {"key": action.key, "value": action.value}
    out["player"] = action.player
    if isinstance(action, Roll):
        out["face"] = action.face
    elif isinstance(action, Scout):
        out["space"] = action.space
    elif isinstance(action, Place):
        out |= {"worker": action.worker, "space": list(action.space), "extra": action.extra,
                "second": list(action.second) if action.second is not None else None}
    elif isinstance(action, Swap):
        out["lines"] = list(action.lines)
    elif isinstance(action, Choose):
        out["option"] = action.option
    return out


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    return json_field(data, key, kind, ActionFormatError)


def _space(data: Mapping[str, Any], key: str) -> Space:
    value = _field(data, key, list)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ActionFormatError(Msg("{kind} action field {key!r} must be [row, column]: {value}",
                                    kind=str(data.get("type")), key=key, value=repr(value)))
    return value[0], value[1]


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the JSON form of an action; raises ``ActionFormatError`` naming the bad field."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(Msg("an action must be a JSON object, not {data}", data=repr(data)))
    kind = data.get("type")
    if kind == "answer":
        if "value" not in data:
            raise ActionFormatError(Msg("answer action lacks field 'value'"))
        return Answer(_field(data, "key", str), data["value"])
    if kind not in _NAMES.values():
        raise ActionFormatError(Msg("unknown action type {kind}; expected one of {types}", kind=repr(kind),
                                    types=", ".join(_NAMES.values())))
    player = _field(data, "player", int)
    if kind == "roll":
        return Roll(player, _field(data, "face", str))
    if kind == "scout":
        return Scout(player, _field(data, "space", int))
    if kind == "place":
        extra = data.get("extra")
        if extra is not None and not isinstance(extra, str):
            raise ActionFormatError(Msg("place action field 'extra' must be a colour or null: {extra}",
                                        extra=repr(extra)))
        second = _space(data, "second") if data.get("second") is not None else None
        return Place(player, _field(data, "worker", str), _space(data, "space"), extra, second)
    if kind == "swap":
        lines = _field(data, "lines", list)
        if len(lines) != 2 or not all(isinstance(x, str) for x in lines):
            raise ActionFormatError(Msg("swap action field 'lines' must name two lines: {lines}", lines=repr(lines)))
        return Swap(player, (lines[0], lines[1]))
    if kind == "choose":
        if "option" not in data:
            raise ActionFormatError(Msg("choose action lacks field 'option'"))
        return Choose(player, data["option"])
    return Pass(player) if kind == "pass" else EndTurn(player)
