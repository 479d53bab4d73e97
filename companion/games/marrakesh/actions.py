"""The action values a game accepts, and their JSON form.

Actions are small frozen dataclasses (like python-chess's ``Move``): they carry only what the player
or table decided; ``Game.apply`` checks them against the rules. ``action_to_dict`` /
``action_from_dict`` give the one-line JSON form used by the game log and the web API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion import COLOURS
from companion.games.common.log_and_actions import AnswerAction, ChooseAction, json_field
from companion.games.marrakesh.errors import ActionFormatError
from companion.i18n import Msg, colour_name


@dataclass(frozen=True)
class Select:
    """Phase 1: ``player`` reveals 3 keshis; each red one sends an assistant to a sector of ``wild_sectors``."""

    player: int
    colours: tuple[str, ...]
    wild_sectors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Release:
    """What fell out of the tower after the toss (per colour; from vision or typed in by the table)."""

    counts: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Zero counts carry no information: keep only the colours that fell out, in canonical order.
        known = [c for c in COLOURS if self.counts.get(c)]
        extra = [c for c in self.counts if c not in COLOURS]
        object.__setattr__(self, "counts", {c: self.counts[c] for c in known + extra})

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.counts.items())))


@dataclass(frozen=True)
class Claim:
    """Phase 2: ``player`` takes 1 or 2 keshis from the tower base display."""

    player: int
    colours: tuple[str, ...]

    def __post_init__(self) -> None:
        # Two different colours (scroll 61) are one claim in either order: keep the canonical order.
        order = {c: i for i, c in enumerate(COLOURS)}
        object.__setattr__(self, "colours", tuple(sorted(self.colours, key=lambda c: order.get(c, len(order)))))


@dataclass(frozen=True)
class UseAssistant:
    """Phase 3: use the assistant in ``sector`` for a new keshi (``"keshi"``) or the sector action (``"action"``)."""

    player: int
    sector: str
    mode: str


class Choose(ChooseAction):
    """Answer the pending decision of ``player`` with one of its options."""


class Answer(AnswerAction):
    """The table answers a question about a printed board value (remembered in the board profile)."""


Action = Select | Release | Claim | UseAssistant | Choose | Answer

_TYPES: dict[str, type] = {
    "select": Select,
    "release": Release,
    "claim": Claim,
    "use_assistant": UseAssistant,
    "choose": Choose,
    "answer": Answer,
}
_NAMES: dict[type, str] = {cls: name for name, cls in _TYPES.items()}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of ``action`` (``{"type": ..., fields...}``)."""
    name = _NAMES.get(type(action))
    if name is None:
        raise ActionFormatError(Msg("not an action: {action}", action=repr(action)))
    if isinstance(action, Select):
        return {"type": name, "player": action.player, "colours": list(action.colours),
                "wild_sectors": list(action.wild_sectors)}
    if isinstance(action, Release):
        return {"type": name, "counts": {c: action.counts[c] for c in COLOURS if action.counts.get(c)}}
    if isinstance(action, Claim):
        return {"type": name, "player": action.player, "colours": list(action.colours)}
    if isinstance(action, UseAssistant):
        return {"type": name, "player": action.player, "sector": action.sector, "mode": action.mode}
    if isinstance(action, Choose):
        return {"type": name, "player": action.player, "option": action.option}
    return {"type": name, "key": action.key, "value": action.value}


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    return json_field(data, key, kind, ActionFormatError)


def _strings(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    items = _field(data, key, list)
    if not all(isinstance(x, str) for x in items):
        raise ActionFormatError(Msg("{kind} action field {key!r} must list strings: {items}",
                                    kind=str(data.get("type")), key=key, items=repr(items)))
    return tuple(items)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the JSON form of an action; raises ``ActionFormatError`` naming the bad field."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(Msg("an action must be a JSON object, not {data}", data=repr(data)))
    kind = data.get("type")
    if kind == "select":
        return Select(_field(data, "player", int), _strings(data, "colours"),
                      _strings(data, "wild_sectors") if "wild_sectors" in data else ())
    if kind == "release":
        counts = _field(data, "counts", dict)
        for colour, n in counts.items():
            if colour not in COLOURS:
                raise ActionFormatError(Msg("release action names unknown colour {colour!r}", colour=colour))
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ActionFormatError(Msg("release count for {colour} must be a whole number >= 0, not {n}",
                                            colour=colour_name(colour), n=repr(n)))
        return Release({c: counts[c] for c in COLOURS if counts.get(c)})
    if kind == "claim":
        return Claim(_field(data, "player", int), _strings(data, "colours"))
    if kind == "use_assistant":
        return UseAssistant(_field(data, "player", int), _field(data, "sector", str), _field(data, "mode", str))
    if kind == "choose":
        if "option" not in data:
            raise ActionFormatError(Msg("choose action lacks field 'option'"))
        return Choose(_field(data, "player", int), data["option"])
    if kind == "answer":
        if "value" not in data:
            raise ActionFormatError(Msg("answer action lacks field 'value'"))
        return Answer(_field(data, "key", str), data["value"])
    raise ActionFormatError(Msg("unknown action type {kind}; expected one of {types}", kind=repr(kind),
                                types=", ".join(_TYPES)))
