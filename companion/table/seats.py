"""A seat belongs to a device: who each phone plays for, and whether it may act for a player.

A seated phone says once who it is ("I am Ana"); the server keeps that role per device and game
(``seat_records``), so the seat an action is taken for comes from the device, never from the
request. A seat has one device: a second phone asking for Ana's seat is refused until the host frees
it. A shared device (a tablet passed round, the companion's own screen) plays for everyone: the
table grants that with the PIN, and every phone shows it ("Ana's tablet plays for everyone"); its
actions are logged with its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import KeshiError
from companion.i18n import Msg


class SeatRefused(KeshiError, PermissionError):
    """This device may not act for that seat (or has not said who it is yet)."""


class SeatTaken(KeshiError, ValueError):
    """Another device already plays for that seat."""


@dataclass(frozen=True)
class Role:
    """What one device does at one game: plays for ``seat``, for everyone, or (not chosen) nothing yet."""

    seat: int | None = None
    everyone: bool = False
    label: str = ""

    @property
    def chosen(self) -> bool:
        return self.everyone or self.seat is not None

    def to_json(self) -> dict[str, Any]:
        """The role as a phone reads it: ``seat`` (a number, ``"all"`` or None) and its device name."""
        return {"seat": "all" if self.everyone else self.seat, "label": self.label}


NO_ROLE = Role()


def acting_seat(role: Role, action: Any, names: list[str]) -> int | None:
    """The seat the log names for ``action`` taken on a device with ``role``.

    An action for a player (its ``player`` field) needs that player's device or a shared one; an action
    of the whole table (a tower result, a question about the board) needs any role. ``SeatRefused``
    says why not, in player words.
    """
    if not role.chosen:
        raise SeatRefused(Msg("Say who you are on this phone first (Who are you?)"))
    player = action.get("player") if isinstance(action, dict) else None
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(names):
        return role.seat  # the table's action (or one the engine will refuse as malformed)
    if role.everyone or player == role.seat:
        return player
    assert role.seat is not None
    raise SeatRefused(Msg("This phone plays for {me}: it cannot act for {player}", me=names[role.seat],
                          player=names[player]))


#: The names a shared device gets when the table gives it none; stored in English, said in each reader's language.
UNNAMED_DEVICES = ("The companion's screen", "Shared device")


def device_name(label: str) -> Msg | str:
    """A shared device's name as a phone reads it: a default name in the reader's language, a name the
    table typed as it was typed."""
    return Msg(label) if label in UNNAMED_DEVICES else label


def switch_words(before: Role, after: Role, names: list[str]) -> Msg:
    """What every phone reads when a device changes who it plays for: "Ben's phone now plays for Cem"."""
    was = (Msg("{device}", device=device_name(before.label)) if before.everyone
           else Msg("{player}'s phone", player=names[before.seat or 0]))
    if after.everyone:
        return Msg("{device} now plays for everyone, as {name}", device=was, name=device_name(after.label))
    return Msg("{device} now plays for {player}", device=was, player=names[after.seat or 0])


def device_words(role: Role, names: list[str]) -> Msg:
    """What every phone reads about a device's role: "Ana's tablet plays for everyone"."""
    if role.everyone:
        return Msg("{device} plays for everyone", device=device_name(role.label))
    assert role.seat is not None
    return Msg("{player} plays on their own phone", player=names[role.seat])
