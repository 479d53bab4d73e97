"""Middle Rondel actions: exporting Goods, consolidating, producing (L693-791)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.sabika import rules, solo
from companion.games.sabika.components import GOODS
from companion.games.sabika.handlers import (
    Effect,
    blue,
    city_tile,
    discard_good,
    gain_parias,
    handler,
)
from companion.games.sabika.routes import export_costs
from companion.games.sabika.say import ITEM_SAY, Said
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game
    from companion.games.sabika.state import PlayerState


def export_score(g: Game, p: PlayerState, city: int, goods: list[str]) -> tuple[int, int]:
    """PP and Parias for exported Goods: 1 each (2 with Minor Poem 20*), +1 if in demand (L727-731, L1102-1104)."""
    base = 2 if blue(g, p, "export_double") else 1
    demand = g.s.profile[f"city_tile.{g.s.city_tiles[city - 1]}.demand"]
    total = sum(base + (good == demand) for good in goods)
    return total, total + len(goods) * (g.event() == 3)  # Event 3: 1 more Paria per Good (L1155)


@handler
def h_export(g: Game, eff: Effect) -> None:
    """Route cost, a Ship (and the Seal if first), 1 or 2 Goods, then the City Bonus (L712-733)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    cities = {Said(Msg("City {n}", n=c)): c for c in rules.export_options(g, seat, rules.budget(p))}
    if not cities:
        return
    city = cities[g.pick(eff, seat, Msg("{player} exports to which City?", player=p.name), list(cities))]
    held = [good for good in GOODS if p.items[good]]
    loads: dict[str, list[str]] = {Said(ITEM_SAY[good]): [good] for good in held}
    for i, a in enumerate(held):
        for b in held[i:]:
            if a != b or p.items[a] >= 2:
                loads[Said(Msg("{first} + {second}", first=ITEM_SAY[a], second=ITEM_SAY[b]))] = [a, b]
    goods = loads[g.pick(eff, seat, Msg("{player} exports which Goods?", player=p.name), list(loads))]
    cost = export_costs(s.profile, p.ships, int(g.event() == 9))[city]
    pp, parias = export_score(g, p, city, goods)  # printed values read before anything changes (``Game._unknown``)
    icons = list(s.profile[f"city_tile.{s.city_tiles[city - 1]}.bonus"])
    p.ships[city] = "left"
    for good in goods:
        p.remove_good(good)
        discard_good(g, good)
    p.gain_pp(pp, "export")
    gain_parias(g, p, parias)
    follow: list[Effect] = [{"k": "pay", "p": seat, "n": cost, "why": "the trade route"}]
    if s.seals[city - 1]:
        s.seals[city - 1] = False
        follow.append({"k": "seal", "p": seat})
    follow.append({"k": "gain", "p": seat, "icons": icons, "src": "city_bonus"})
    g.push(*follow)


@handler
def h_free_ship(g: Game, eff: Effect) -> None:
    """Red Minor Poem 14*: a free Ship where you have none, optionally 1 Good exported; no Seal or Bonus."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    if not p.ships_home():
        return
    cities = {Said(Msg("City {n}", n=c)): c for c in range(1, len(s.city_tiles) + 1) if c not in p.ships}
    if not cities:
        return
    city = cities[g.pick(eff, seat, Msg("{player} places a free Ship in which City?", player=p.name), list(cities))]
    goods = {Said(ITEM_SAY[good]): good for good in GOODS if p.items[good]}
    goods[Said(Msg("no Good"))] = ""
    good = goods[g.pick(eff, seat, Msg("{player} exports which Good there?", player=p.name), list(goods))]
    pp, parias = export_score(g, p, city, [good]) if good else (0, 0)  # read first (``Game._unknown``)
    p.ships[city] = "left"
    if good:
        p.remove_good(good)
        discard_good(g, good)
        p.gain_pp(pp, "export")
        gain_parias(g, p, parias)


@handler
def h_consolidate(g: Game, eff: Effect) -> None:
    """Move a Ship to the right; earlier consolidators get 1 PP and 1 Dinar; a red City's action (L751-769)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    cities = {Said(Msg("City {n}", n=c)): c for c, where in sorted(p.ships.items()) if where == "left"}
    if not cities or rules.budget(p) < (g.event() == 10):  # Event 10's Dinar must be payable (L1171)
        return
    city = cities[g.pick(eff, seat, Msg("{player} consolidates with which City?", player=p.name), list(cities))]
    tile = city_tile(g, city)  # its printed values read before anything changes (``Game._unknown``)
    red = s.profile[f"city_tile.{tile}.colour"] == "red"
    icons = list(s.profile[f"city_tile.{tile}.consolidate"]) if red else []
    p.ships[city] = "right"
    follow: list[Effect] = []
    if g.event() == 10:  # Event 10: consolidating costs 1 Dinar (L1171)
        follow.append({"k": "pay", "p": seat, "n": 1, "why": "consolidating (Event 10)"})
    for other, q in enumerate(s.players):
        if other != seat and q.ships.get(city) == "right" and solo.is_yusuf(s, other):
            q.gain_pp(2, "consolidation")  # Yusuf: 2 PP instead of 1 Dinar and 1 PP (L1392-1394)
        elif other != seat and q.ships.get(city) == "right":
            q.gain_pp(1, "consolidation")
            q.dinars += 1
    if red:
        follow.append({"k": "gain", "p": seat, "icons": icons, "src": "consolidation"})
    g.push(*follow)


@handler
def h_produce(g: Game, eff: Effect) -> None:
    """A City Bonus of a City with presence and/or process up to 2 Raw Materials, either order (L782-791)."""
    seat, p = eff["p"], g.s.players[eff["p"]]
    bonus: Effect = {"k": "city_bonus", "p": seat, "sq": None}
    process: Effect = {"k": "process", "p": seat, "n": 2, "upto": True}
    options: dict[str, list[Effect]] = {}
    if p.ships:
        options[Said(Msg("a City Bonus"))] = [bonus]
    if p.raws:
        options[Said(Msg("process up to 2 Raw Materials"))] = [process]
    if p.ships and p.raws:
        options[Said(Msg("a City Bonus, then process"))] = [bonus, process]
        options[Said(Msg("process, then a City Bonus"))] = [process, bonus]
    if options:
        g.push(*options[g.pick(eff, seat, Msg("{player}'s Produce Action:", player=p.name), list(options))])


@handler
def h_city_bonus(g: Game, eff: Effect) -> None:
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    cities = {Said(Msg("City {n}", n=c)): c for c in sorted(p.ships)}
    if cities:
        prompt = Msg("{player} earns the City Bonus of which City?", player=p.name)
        city = cities[g.pick(eff, seat, prompt, list(cities))]
        g.push({"k": "gain", "p": seat, "icons": list(s.profile[f"city_tile.{city_tile(g, city)}.bonus"]),
                "src": "city_bonus"})


@handler
def h_red_city_action(g: Game, eff: Effect) -> None:
    """Red Minor Poem 17*: the consolidation action of a red City with presence (L1099-1100)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    cities = {Said(Msg("City {n}", n=c)): c for c in sorted(p.ships)
              if s.profile[f"city_tile.{city_tile(g, c)}.colour"] == "red"}
    if cities:
        prompt = Msg("{player} carries out the action of which red City?", player=p.name)
        city = cities[g.pick(eff, seat, prompt, list(cities))]
        g.push({"k": "gain", "p": seat, "icons": list(s.profile[f"city_tile.{city_tile(g, city)}.consolidate"]),
                "src": "poems"})
