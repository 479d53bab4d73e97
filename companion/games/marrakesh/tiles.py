"""Tile effects (scrolls, river tiles) keyed by number, with their activation timing.

Timings (EN:L1078-1090, addendum glyphs): ``instant`` (once, on acquiring), ``end_of_round``,
``end_of_season``, ``permanent``. Instant effects are returned as effects to push; permanent ones are
checked where they apply (``number in player.scrolls``); round/season hooks are called by the game
at those points. The scrolls beyond the core set register themselves from ``scrolls.py``; every
river tile 01-18 is here (02's oases and 09's head start are applied by their handlers in
``expansions.py`` / ``scoring.reset_fishermen``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.i18n import Msg

TIMINGS: tuple[str, ...] = ("instant", "end_of_round", "end_of_season", "permanent")

Effect = dict[str, Any]

#: Called as ``hook(game, player, sector, mode)`` whenever a player uses an assistant, after the water
#: vendor's income and before the chosen option resolves (scroll 57's souk vendor registers here).
ASSISTANT_HOOKS: list[Callable[[Any, int, str, str], None]] = []


@dataclass(frozen=True)
class TileEffect:
    """One tile's timing and what it does when its timing comes (``player`` -> effects to push).

    ``run`` is called on acquiring (``instant``), at every end of round (``end_of_round``) or at the
    start of every season scoring (``end_of_season``); ``permanent`` tiles return nothing and are
    checked where they apply.
    """

    number: int
    timing: str
    run: Callable[[int], list[Effect]]
    text: str

    def on_acquire(self, player: int) -> list[Effect]:
        """Effects when ``player`` takes the tile: only instant tiles act now."""
        return self.run(player) if self.timing == "instant" else []


def timed_effects(timing: str, players: list[tuple[int, list[int]]]) -> list[Effect]:
    """Effects of every held scroll with ``timing``, player by player (``(seat, scrolls)`` in turn order)."""
    return [e for seat, scrolls in players for n in scrolls
            if n in SCROLL_EFFECTS and SCROLL_EFFECTS[n].timing == timing for e in SCROLL_EFFECTS[n].run(seat)]


def _none(player: int) -> list[Effect]:
    return []


def _scroll(number: int, timing: str, text: str, effects: Callable[[int], list[Effect]] = _none) -> TileEffect:
    if timing not in TIMINGS:
        raise ValueError(f"scroll {number}: unknown timing {timing!r}")
    return TileEffect(number, timing, effects, text)


def _gain(colour: str, times: int = 1) -> Callable[[int], list[Effect]]:
    return lambda p: [{"k": "gain", "p": p, "colour": colour} for _ in range(times)]


SCROLL_EFFECTS: dict[int, TileEffect] = {}


def _register(tile: TileEffect) -> None:
    SCROLL_EFFECTS[tile.number] = tile


def _effect(kind: str, number: int) -> Callable[[int], list[Effect]]:
    return lambda p: [{"k": kind, "p": p, "n": number}]


for _n in range(1, 13):
    _register(_scroll(_n, "instant", "take the depicted keshi (or advance its marker 1)", _effect("scroll_keshi", _n)))
for _n, _what in ((13, "1 water"), (14, "1 date"), (15, "1 dinar"), (16, "1 river step")):
    _register(_scroll(_n, "permanent", f"each staircase threshold crossed also gives {_what}"))
_register(_scroll(18, "permanent", "each exchange-office use: +1 resource of choice"))
_register(_scroll(19, "instant", "+2 water", lambda p: [{"k": "res", "p": p, "res": "water", "n": 2}]))
_register(_scroll(20, "instant", "+2 dinars", lambda p: [{"k": "res", "p": p, "res": "dinars", "n": 2}]))
_register(_scroll(21, "instant", "+3 dates", lambda p: [{"k": "res", "p": p, "res": "dates", "n": 3}]))
_register(_scroll(22, "permanent", "a 0-dinar gate from the left workshop loses no points"))
_register(_scroll(30, "instant", "1 keshi of choice (or any marker +1)", _gain("any")))
_register(_scroll(31, "permanent", "+1 spectator in every section of your audience disc"))
_register(_scroll(32, "permanent", "city gates cost 1 dinar less"))
_register(_scroll(35, "permanent", "+1 water when using an assistant in a sector with a water vendor"))
for _n in range(37, 43):
    _register(_scroll(_n, "instant", "take both depicted goods keshis", _effect("scroll_goods", _n)))
_register(_scroll(43, "instant", "2 x (1 keshi of choice or any marker +1)", _gain("any", 2)))
_register(_scroll(45, "permanent", "claiming an oasis costs only 1 resource of choice"))
_register(_scroll(48, "permanent", "each staircase movement: +1 step"))
_register(_scroll(49, "permanent", "2 points per further step at the mosque's final space"))
_register(_scroll(50, "permanent", "+2 points whenever you use an assistant in a sector with a water vendor"))
_register(_scroll(52, "permanent", "2 points per further step at the palace's final space"))
_register(_scroll(56, "permanent", "2 points per further river step at the jetty"))
_register(_scroll(60, "permanent", "every rapid bonus is received twice"))
_register(_scroll(61, "permanent", "claim phase: always take 2 keshis of any colours"))
_register(_scroll(67, "instant", "3 x (1 keshi of choice or any marker +1)", _gain("any", 3)))


#: River tile number -> (effects for the river winner, effects for 2nd place in season 3 or None).
RiverEffect = Callable[[int], list[Effect]]


def _points(n: int) -> RiverEffect:
    return lambda p: [{"k": "points", "p": p, "cat": "river_evaluation", "n": n}]


def _resources(n: int) -> RiverEffect:
    return lambda p: [{"k": "resource", "p": p} for _ in range(n)]


RIVER_TILES: dict[int, tuple[RiverEffect, RiverEffect | None]] = {
    1: (lambda p: [{"k": "any_sector_action", "p": p}], None),
    2: (lambda p: [{"k": "river_oasis", "p": p}], None),
    3: (_gain("any", 2), None),
    4: (_points(5), None),
    5: (_points(7), _points(3)),
    6: (_resources(6), _resources(3)),
    7: (_gain("red"), None),
    8: (_points(3), None),
    9: (lambda p: [], None),  # the crocodile head start is applied when the fishermen are reset
    10: (lambda p: [{"k": "gain", "p": p, "colour": c} for c in ("yellow", "orange", "purple")], None),
    11: (lambda p: [{"k": "stair_choice", "p": p, "steps": 3}], lambda p: [{"k": "stair_choice", "p": p, "steps": 1}]),
    13: (lambda p: [{"k": "gain_of", "p": p, "colours": ["pink", "brown", "beige"]}], None),
    14: (lambda p: [{"k": "res", "p": p, "res": r, "n": 1} for r in ("water", "dinars", "dates")], None),
    15: (lambda p: [{"k": "sahara", "p": p, "claimed": 0, "free": 2}], None),
    16: (lambda p: [{"k": "act_main_square", "p": p}, {"k": "act_main_square", "p": p}], None),
}

#: Season-3 tiles whose winner chooses bonus A or B and the runner-up gets the other (EN:L1265-1268).
RIVER_CHOICE_TILES: dict[int, Msg] = {
    12: Msg("A: 1 point per built city gate; B: points = green marker"),
    17: Msg("A: 1 date + 1 dinar per entertainer; B: 1 water + 1 date per water vendor"),
    18: Msg("A: (cardboard keshis + marker values) // 4 points; B: 2 points per luxury good"),
}
