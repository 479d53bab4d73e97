"""Paying costs: what a player can afford and the ``pay`` effect (scroll 33, Sultan and Imam floors).

Every dinar cost a player pays (gate prices, the 1-dinar scroll refresh, oasis claim costs, the dinar
of scroll 44) goes through ``can_pay`` and the ``pay`` effect, so scroll 33 ("dates and water may be
used instead of dinars whenever you have to pay a cost, not vice versa", addendum EN:L2065-2075,
digest A28) applies to all of them in one place. Scroll date costs go through ``scroll_price``
(Sultan: 1 date fewer per scroll, floor 0, digest A29); luxury-good goods costs through
``luxury_options`` (Imam: any 1 goods keshi fewer, floor 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.marrakesh.board import GOODS, RESOURCES
from companion.games.marrakesh.catalogue import scroll_tier
from companion.games.marrakesh.effects import Effect, handler
from companion.games.marrakesh.state import PlayerState
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

Cost = dict[str, int]


def _spare(p: PlayerState, cost: Cost) -> dict[str, int]:
    """Resources left after the non-dinar parts of ``cost``."""
    return {r: p.resources[r] - cost.get(r, 0) for r in RESOURCES}


def can_pay(p: PlayerState, cost: Cost) -> bool:
    """Whether ``p`` can pay ``cost`` (``{"any": n}`` = n resources of choice); scroll 33 counts."""
    if "any" in cost:
        return sum(p.resources.values()) >= cost["any"] + sum(n for k, n in cost.items() if k != "any")
    spare = _spare(p, cost)
    if spare["water"] < 0 or spare["dates"] < 0:
        return False
    need = cost.get("dinars", 0)
    if 33 in p.scrolls:
        return p.resources["dinars"] + spare["water"] + spare["dates"] >= need
    return p.resources["dinars"] >= need


def dinar_splits(p: PlayerState, cost: Cost) -> list[dict[str, int]]:
    """Ways to pay the dinar part of ``cost`` (scroll 33: dates and water may stand in for dinars)."""
    need = cost.get("dinars", 0)
    if 33 not in p.scrolls:
        return [{"dinars": need}]
    spare = _spare(p, cost)
    out = []
    for water in range(min(need, spare["water"]), -1, -1):
        for dates in range(min(need - water, spare["dates"]), -1, -1):
            dinars = need - water - dates
            if dinars <= p.resources["dinars"]:
                out.append({k: v for k, v in (("dinars", dinars), ("water", water), ("dates", dates)) if v}
                           or {"dinars": 0})
    return out


@handler("pay")
def pay(g: Game, eff: Effect) -> None:
    """Pay ``cost`` (checked affordable before); the player chooses how scroll 33 covers dinars."""
    p = g.p(eff["p"])
    cost: Cost = {k: n for k, n in eff["cost"].items() if k != "any"}
    split: dict[str, int] = {"dinars": cost.get("dinars", 0)}
    if cost.get("dinars", 0) > 0:
        split = g.pick(eff, eff["p"], Msg("Pay {n} dinar(s) how (scroll 33: dates and water may stand in for dinars)?",
                                           n=cost["dinars"]), dinar_splits(p, cost))
    for kind in ("water", "dates"):
        p.resources[kind] -= cost.get(kind, 0)
    for kind, n in split.items():
        p.resources[kind] -= n
    g.push(*[{"k": "pay_any", "p": eff["p"]} for _ in range(eff["cost"].get("any", 0))])


def holds_figure(g: Game, player: int, figure: str) -> bool:
    """Whether ``player`` escorts the Sultan or the Imam (expansion 2)."""
    state: dict[str, Any] = g.s.figures.get(figure, {})
    return state.get("holder") == player


def scroll_price(g: Game, player: int, number: int) -> int:
    """Dates scroll ``number`` costs ``player``: its tier's cost, 1 fewer with the Sultan (floor 0)."""
    _, _, cost = scroll_tier(number)
    return max(0, cost - (1 if holds_figure(g, player, "sultan") else 0))


def luxury_options(g: Game, player: int, cost: Cost) -> list[Cost]:
    """The goods payments ``player`` may make for a luxury good costing ``cost``.

    Without the Imam: the cost itself. With the Imam: the cost minus any 1 goods keshi of the
    player's choice (one option per colour in the cost; floor 0).
    """
    if not holds_figure(g, player, "imam") or not cost:
        return [dict(cost)]
    out = []
    for colour in GOODS:
        if cost.get(colour, 0) > 0:
            reduced = {c: n - (1 if c == colour else 0) for c, n in cost.items()}
            out.append({c: n for c, n in reduced.items() if n > 0})
    return out


def affordable_goods(p: PlayerState, options: list[Cost]) -> list[Cost]:
    """The goods payments of ``options`` that ``p`` can make."""
    return [o for o in options if all(p.goods[c] >= n for c, n in o.items())]
