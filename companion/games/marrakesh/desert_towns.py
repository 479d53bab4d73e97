"""Expansion 5: desert towns 01-12 (EN:L1508-1570, addendum EN:L2494-2613, digest §13.5 / §14.3).

A caravan on the 4th space of the left or right Sahara path takes a town from the display (night side
up) and scores 4 points; a Sahara action claims it for 1 yellow + 1 orange + 1 purple goods keshi (the
town is flipped in place: no storage space, no storage bonus). Towns 10-12 act once on claiming;
01-09 score at the end, at most 2 (beside the best 3 oases). Scroll 45 does not apply (digest A25);
scroll 62 and river tile 15 claim oases only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.marrakesh.board import GOODS, SECTOR_COLOUR, SQUARE_BONUSES
from companion.games.marrakesh.effects import Effect, handler
from companion.games.marrakesh.scoring import FINAL_HOOKS, red_keshis, sector_count
from companion.games.marrakesh.sectors import DONE, spectators
from companion.games.marrakesh.tiles import SCROLL_EFFECTS
from companion.i18n import Msg, sector_name

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

PLACEMENT_POINTS = 4  # EN:L1535 "an immediate placement bonus of 4 points"
SCORED_TOWNS = 2  # EN:L1568 "Score (at most) 2 desert towns"
INSTANT_TOWNS: frozenset[int] = frozenset({10, 11, 12})


@handler("place_town")
def place_town(g: Game, eff: Effect) -> None:
    """A caravan on a desert-town space: choose a town from the display, night side up, +4 points."""
    player = eff["p"]
    number = g.pick(eff, player, Msg("Which desert town does your caravan reach?"), sorted(g.s.desert_town_display))
    p = g.p(player)
    g.s.desert_town_display.remove(number)
    p.sahara[eff["path"]] = 4
    p.desert_towns.append({"path": eff["path"], "number": number, "claimed": False})
    p.add_points("desert_towns", PLACEMENT_POINTS)


@handler("claim_town")
def claim_town(g: Game, eff: Effect) -> None:
    """Pay 1 yellow + 1 orange + 1 purple and flip the town; towns 10-12 act at once."""
    p = g.p(eff["p"])
    for colour in GOODS:
        p.goods[colour] -= 1
    town = next(t for t in p.desert_towns if t["number"] == eff["number"])
    town["claimed"] = True
    if eff["number"] in INSTANT_TOWNS:
        g.push({"k": f"town{eff['number']}", "p": eff["p"]})


@handler("town10")
def town10(g: Game, eff: Effect) -> None:
    """Desert town 10: 1 scroll of choice from the display, no requirement, no dates."""
    player = eff["p"]
    options: list[Any] = [n for tiles in g.s.scroll_display.values() for n in tiles if n in SCROLL_EFFECTS]
    if not options:
        return
    number = g.pick(eff, player, Msg("Desert town 10: which scroll do you take?"), [*sorted(options), DONE])
    if number == DONE:
        return
    colour = next(c for c, tiles in g.s.scroll_display.items() if number in tiles)
    g.s.scroll_display[colour].remove(number)
    g.p(player).scrolls.append(number)
    g.push(*SCROLL_EFFECTS[number].on_acquire(player))


@handler("town11")
def town11(g: Game, eff: Effect) -> None:
    """Desert town 11: 1 luxury good of choice from the display without paying goods (its reward still)."""
    if not g.s.luxury_display:
        return
    tile = g.pick(eff, eff["p"], Msg("Desert town 11: which luxury good do you take?"), sorted(g.s.luxury_display))
    g.push({"k": "luxury", "p": eff["p"], "tile": tile, "free": True})


@handler("town12")
def town12(g: Game, eff: Effect) -> None:
    """Desert town 12: build 1 city gate of choice without dinars (points, keshi, +2 as usual); needs a guard."""
    player = eff["p"]
    p = g.p(player)
    if p.watchtower == 0 or len(p.gates) >= 8:
        return
    options = [f"gate:{i}:{c}" for i, gates in enumerate(g.s.workshops) for c in sorted(set(gates))]
    if not options:
        return
    pick = g.pick(eff, player, Msg("Desert town 12: which city gate do you build (workshop, colour)?"), options)
    _, index, colour = pick.split(":")
    g.push({"k": "build_gate", "p": player, "workshop": int(index), "colour": colour, "gained": [], "free": True})


def town_value(g: Game, player: int, number: int) -> int:
    """What claimed desert town ``number`` (01-09) is worth to ``player`` at the end (addendum EN:L2494-2575)."""
    p = g.p(player)
    if number == 1:
        return 2 * len(p.gates)
    if number == 2:
        return 2 * len(p.luxury_goods)
    if number == 3:
        return 2 * len(p.scrolls)
    if number in (4, 5):
        which = "palace" if number == 4 else "mosque"
        final: int = g.value(f"{which}.final_step",
                             Msg("Which {which} step is the final space?", which=sector_name(which)),
                             list(range(4, 21)))
        return min(getattr(p, which), final)
    if number == 6:
        cardboard = len(p.entertainers) + p.guards() + p.caravans() + red_keshis(p)
        return (cardboard + sum(p.markers.values())) // 3
    if number == 7:
        return p.river_steps  # season 3 (fishermen are not reset after it, digest A12)
    if number == 8:
        return 2 * sum(1 for s in SECTOR_COLOUR
                       if sector_count(g, player, s) + (1 if s in p.water_vendors else 0) >= 4)
    if number == 9:
        return sum(spectators(g, player, space) for space in SQUARE_BONUSES if space in p.entertainers)
    return 0  # 10-12 act on claiming


def score_towns(g: Game, player: int) -> dict[str, int]:
    """Final scoring: the best 2 claimed desert towns (``{}`` without claimed towns)."""
    claimed = [t["number"] for t in g.p(player).desert_towns if t["claimed"]]
    values = sorted((town_value(g, player, n) for n in claimed), reverse=True)
    return {"desert_towns": sum(values[:SCORED_TOWNS])} if claimed else {}


FINAL_HOOKS.append(score_towns)
