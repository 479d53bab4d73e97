"""Test helpers shared by the three game engines' tests (``tests/games/marrakesh``, ``morocco``, ``sabika``).

Every engine promises the same thing about bad input: an illegal action raises an error whose message
names the rule and the player, and leaves the game exactly as it was. ``rejected`` checks both.
Every engine's random games must also keep its invariants after each action and show the UI a plain
JSON snapshot: ``play_out`` drives one to the end checking that.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import pytest


class _Game(Protocol):
    """What ``rejected`` needs of a game: ``apply``, a full ``to_dict`` snapshot and the action ``log``."""

    @property
    def log(self) -> Any: ...

    def apply(self, action: Any) -> object: ...

    def to_dict(self) -> dict[str, Any]: ...


class _Playable(_Game, Protocol):
    """A game that knows when it is over."""

    @property
    def finished(self) -> bool: ...


G = TypeVar("G", bound=_Playable)


def rejected(game: _Game, action: Any, error: type[Exception], *fragments: str) -> None:
    """``action`` raises ``error`` whose message holds every fragment; state and log stay as they were."""
    before, log = game.to_dict(), list(game.log)
    with pytest.raises(error) as info:
        game.apply(action)
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)
    assert game.to_dict() == before and game.log == log


def play_out(game: G, player: Any, check_invariants: Callable[[G], None]) -> None:
    """Apply ``player.action(game)`` until the game is finished, checking the invariants after each action
    and, every 25 actions, that the UI's snapshot (``to_dict``) is plain JSON."""
    check_invariants(game)
    while not game.finished:
        game.apply(player.action(game))
        check_invariants(game)
        if len(game.log) % 25 == 0:
            view = game.to_dict()
            assert json.loads(json.dumps(view)) == view
