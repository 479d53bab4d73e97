"""A step that reads a printed value the table has not given yet pauses before it changes anything.

A game asking "when needed" runs an effect until it reads a value the profile lacks (``KeyError``),
asks it, and runs the effect again from its start after the answer. That is only right if nothing
changed before the read: every effect handler and the Starting Tiles step are watched here through
whole random games, and each pause for a printed value must leave the state as it found it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.games.sabika import handlers, rules
from companion.games.sabika.game import Game
from companion.games.sabika.simulate import play_random_game


def _view(g: Game, eff: dict[str, Any] | None) -> dict[str, Any]:
    """The state and the effect (without its kept answers), as plain data."""
    state = g.s.to_dict()
    state.pop("profile")
    return {"state": state, "effect": {k: v for k, v in (eff or {}).items() if k != "_in"}}


def _watched(step: Callable[..., None], paused: list[str]) -> Callable[..., None]:
    """``step`` checked: when it stops at an unknown printed value, the game must be unchanged."""

    def run(g: Game, eff: dict[str, Any] | None = None) -> None:
        before = _view(g, eff)
        try:
            step(g) if eff is None else step(g, eff)
        except KeyError as missing:
            assert _view(g, eff) == before, f"{step.__name__} changed the game before reading {missing}"
            paused.append(str(missing))
            raise

    return run


@pytest.fixture
def paused(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every handler and the Starting Tiles step watched; the printed values they paused for."""
    seen: list[str] = []
    for kind, step in list(handlers.HANDLERS.items()):
        monkeypatch.setitem(handlers.HANDLERS, kind, _watched(step, seen))
    monkeypatch.setattr(rules, "start_tiles_step", _watched(rules.start_tiles_step, seen))
    yield seen


@pytest.mark.parametrize(("players", "seed", "table_draws"),
                         [(2, 1, False), (3, 2, False), (4, 3, False), (1, 4, False), (1, 5, False), (2, 6, True),
                          (4, 7, True), (1, 8, True)])
def test_a_pause_for_a_printed_value_changes_nothing(paused: list[str], players: int, seed: int,
                                                     table_draws: bool) -> None:
    game = play_random_game(players, seed, when_needed=True, table_draws=table_draws)
    assert game.finished
    assert len(paused) > 20  # the effects really paused for printed values, and each left the game as it was
