"""Outer Rondel actions: the construction of the Alhambra (L505-691), and the Sultan's Favour (L630-641)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.sabika import rules
from companion.games.sabika.components import (
    BUY_PRICE,
    GOOD_SELL_PRICE,
    GOODS,
    MATERIALS,
    QUARRY_MATERIALS,
    RAW_BUY_PRICE,
    SELL_PRICE,
    WORDS,
)
from companion.games.sabika.handlers import (
    Effect,
    discard_good,
    gain_parias,
    handler,
    material_sets,
    use_materials,
    wood_bonus,
)
from companion.games.sabika.say import ARTWORK_SAY, ITEM_SAY, Said
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game
    from companion.games.sabika.state import PlayerState


@handler
def h_quarry(g: Game, eff: Effect) -> None:
    """3 Materials among the square's two, any combination (L511-514); blue Poem 21 adds one (L25-31)."""
    seat, (a, b) = eff["p"], QUARRY_MATERIALS[eff["kind"]]
    p = g.s.players[seat]
    options = {Said(Msg("{n} {a} + {m} {b}", n=n, a=ITEM_SAY[a], m=3 - n, b=ITEM_SAY[b])): n for n in range(3, -1, -1)}
    n = options[g.pick(eff, seat, Msg("{player} quarries which 3 Materials?", player=p.name), list(options))]
    follow = [{"k": "item", "p": seat, "kind": a}] * n + [{"k": "item", "p": seat, "kind": b}] * (3 - n)
    follow += [{"k": "quarry_extra", "p": seat, "m": m} for m in p.blue_poems
               if g.s.profile.get(f"minor_poem.{m}.blue") == "quarry_extra"]
    g.push(*[dict(e) for e in follow])


@handler
def h_quarry_extra(g: Game, eff: Effect) -> None:
    p = g.s.players[eff["p"]]
    rules.set_out_tokens(g)
    options = {Said(ITEM_SAY[m]): {"k": "item", "p": eff["p"], "kind": m}
               for m in g.s.profile.get(f"minor_poem.{eff['m']}.quarry_materials", [])}
    if any(t is not None for t in g.s.raw_spots):  # a Raw Material on the Rondel
        options[Said(Msg("a Raw Material"))] = {"k": "raw", "p": eff["p"], "spot": None}
    if options:
        prompt = Msg("{player}'s Minor Poem {n}: take what?", player=p.name, n=eff["m"])
        g.push(options[g.pick(eff, eff["p"], prompt, list(options))])


@handler
def h_storehouse(g: Game, eff: Effect) -> None:
    """Expand a Storehouse with a displayed Tile (1 or 2 PP, then its Bonus) or activate one (L516-541)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    options = rules.expand_options(g, seat, eff["sq"]) + rules.activate_options(g, seat)
    if not options:
        return
    choice = g.pick(eff, seat, Msg("{player}'s Storehouse Action:", player=p.name), options)
    words = choice.split()
    expand = words[0] == "Storehouse"
    tile = int(words[2]) if expand else p.storehouses[int(words[-1]) - 1][-1]
    icons = list(s.profile[f"storehouse.{tile}.bonus"])  # read before anything changes (``Game._unknown``)
    if expand:
        k = int(words[-1]) - 1
        for pair in s.store_display:
            if tile in pair:
                pair[pair.index(tile)] = None
        p.storehouses[k].append(tile)
        p.gain_pp(len(p.storehouses[k]), "storehouses")
    g.push({"k": "gain", "p": seat, "icons": icons, "src": "storehouses"})


@handler
def h_market(g: Game, eff: Effect) -> None:
    """Earn 2 Dinars, then up to 2 transactions (L543-547)."""
    g.s.players[eff["p"]].dinars += 2
    g.push({"k": "transactions", "p": eff["p"], "n": 2})


def market_options(g: Game, p: PlayerState) -> dict[str, tuple[str, str]]:
    """Buy, sell and trade transactions possible now (L549-567)."""
    out: dict[str, tuple[str, str]] = {}
    money = rules.budget(p)
    for m in MATERIALS:
        if price(g, "buy", m) <= money:
            out[Said(Msg("buy 1 {item} for {n}", item=ITEM_SAY[m], n=price(g, "buy", m)))] = ("buy", m)
    if money >= price(g, "buy", "raw") and any(t is not None for t in g.s.raw_spots):
        out[Said(Msg("buy 1 Raw Material for {n}", n=price(g, "buy", "raw")))] = ("buy", "raw")
    for i, m in enumerate(MATERIALS):
        if p.items[m]:
            out[Said(Msg("sell 1 {item} for {n}", item=ITEM_SAY[m], n=price(g, "sell", m)))] = ("sell", m)
            for j in (i - 1, i + 1):
                if 0 <= j < len(MATERIALS):
                    item, other = ITEM_SAY[m], ITEM_SAY[MATERIALS[j]]
                    said = (Msg("trade 1 {item} for 1 {other} + 1 Dinar", item=item, other=other) if j < i
                            else Msg("trade 1 {item} for 1 {other}", item=item, other=other))
                    out[Said(said)] = ("trade", f"{m}>{MATERIALS[j]}")
    for good in GOODS:
        if p.items[good]:
            out[Said(Msg("sell 1 {item} for {n}", item=ITEM_SAY[good], n=price(g, "sell", good)))] = ("sell", good)
    return out


def price(g: Game, kind: str, what: str) -> int:
    """Market Table prices (L549-559); Event 1: buying 1 Dinar cheaper, selling 1 Dinar dearer (L1150-1151)."""
    if kind == "buy":
        base = RAW_BUY_PRICE if what == "raw" else BUY_PRICE[what]
        return max(0, base - (g.event() == 1))
    return (GOOD_SELL_PRICE if what in GOODS else SELL_PRICE[what]) + (g.event() == 1)


@handler
def h_transactions(g: Game, eff: Effect) -> None:
    """Up to ``n`` transactions, one completed before the next; unused ones are lost (L569-573)."""
    seat, p = eff["p"], g.s.players[eff["p"]]
    if eff["n"] <= 0:
        return
    rules.set_out_tokens(g)  # buying a Raw Material needs one on the Rondel
    options = market_options(g, p)
    options[Said(Msg("no more transactions"))] = ("stop", "")
    kind, what = options[g.pick(eff, seat, Msg("{player}'s transaction ({n} left):", player=p.name, n=eff["n"]),
                                list(options))]
    if kind == "stop":
        return
    more = {"k": "transactions", "p": seat, "n": eff["n"] - 1}
    if kind == "buy" and what == "raw":
        g.push({"k": "pay", "p": seat, "n": price(g, "buy", "raw"), "why": "a Raw Material"},
               {"k": "raw", "p": seat, "spot": None}, more)
    elif kind == "buy":
        g.push({"k": "pay", "p": seat, "n": price(g, "buy", what), "why": f"a {WORDS[what]}"},
               {"k": "item", "p": seat, "kind": what}, more)
    elif kind == "sell":
        p.dinars += price(g, "sell", what)
        if what in GOODS:
            p.remove_good(what)
            discard_good(g, what)
        else:
            p.items[what] -= 1
        g.push(more)
    else:
        give, take = what.split(">")
        p.items[give] -= 1
        p.items[take] += 1
        if MATERIALS.index(take) < MATERIALS.index(give):
            p.dinars += 1
        g.push(more)


@handler
def h_construction(g: Game, eff: Effect) -> None:
    """Optionally refresh the Minor Construction Cards (1 Dinar, +1 PP, once a turn), then build (L579-587)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    options: list[str] = []
    if rules.major_possible(g, seat):
        options.append(Said(Msg("Major Construction")))
    if rules.minor_possible(g, seat):
        options.append(Said(Msg("Minor Construction")))
    if not options:
        return
    if not s.refreshed and rules.budget(p) >= 1 and (s.minor_deck or s.minor_discard or s.setup.get("table_draws")):
        options.append(Said(Msg("pay 1 Dinar to replace the 4 Minor Construction Cards")))
    choice = g.pick(eff, seat, Msg("{player}'s Construction Action:", player=p.name), options)
    if choice.startswith("Major"):
        g.push({"k": "major_construction", "p": seat, "sq": None})
    elif choice.startswith("Minor"):
        g.push({"k": "minor_construction", "p": seat, "sq": None})
    else:
        s.refreshed = True
        p.gain_pp(1, "constructions")
        s.minor_discard += [c for c in s.minor_display if c is not None]
        s.minor_display = [None] * 4
        g.push(*[{"k": "reveal", "what": "minor", "slot": i, "sub": 0} for i in range(4)], {"k": "rescan"},
               {"k": "pay", "p": seat, "n": 1, "why": "new Minor Construction Cards"},
               {"k": "construction", "p": seat, "sq": None})


@handler
def h_major_construction(g: Game, eff: Effect) -> None:
    """Gypsum + up to 2 different extras, a Tile of the current Era, Sultan's Favour, its Bonus (L592-641)."""
    s, seat = g.s, eff["p"]
    p, era = s.players[seat], s.era()
    if not rules.major_possible(g, seat):
        return
    tiles = {Said(Msg("Era {era} Major Construction Tile {n}", era=era, n=t)): t for t in s.major_tiles[era]}
    tile = tiles[g.pick(eff, seat, Msg("{player} builds which Major Construction?", player=p.name), list(tiles))]
    sets = material_sets(p, ("gypsum",), ("wood", "marble", "glazed"), 2, g.event() == 4)
    used = sets[g.pick(eff, seat, Msg("{player} puts which Materials on the Major Construction Scaffold?",
                                  player=p.name), list(sets))]
    icons = list(s.profile[f"major.{era}.{tile}.bonus"])  # read before anything changes (``Game._unknown``)
    use_materials(g, p, used, "constructions")
    wood_bonus(g, p, used)
    s.major_tiles[era].remove(tile)
    p.major_tiles.append(f"{era}-{tile}")
    g.push({"k": "favour", "p": seat, "sq": None}, {"k": "gain", "p": seat, "icons": icons, "src": "constructions"})


def artwork(g: Game, p: PlayerState, card: int, half: str) -> str:
    """A Ceramic Artwork half: card 0 is the Architectural Balance Card, wild on its right (L689-691)."""
    if card == 0:
        return "wild" if half == "right" else str(g.s.profile[f"balance.{p.balance_card}.left"])
    return str(g.s.profile[f"minor_card.{card}.{half}"])


@handler
def h_minor_construction(g: Game, eff: Effect) -> None:
    """Base Material + up to 2 different extras, the Card beside the row, Architectural Balance (L645-691)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    cards = {Said(Msg("Minor Construction Card {n} ({base} base)", n=c,
                      base=ITEM_SAY[s.profile[f"minor_card.{c}.base"]])): c
             for c in s.minor_display if c is not None and p.items[s.profile[f"minor_card.{c}.base"]]}
    if not cards:
        return
    card = cards[g.pick(eff, seat, Msg("{player} builds which Minor Construction?", player=p.name), list(cards))]
    base = str(s.profile[f"minor_card.{card}.base"])
    sets = material_sets(p, (base,), MATERIALS, 2, g.event() == 4)
    used = sets[g.pick(eff, seat, Msg("{player} puts which Materials on the Minor Construction Scaffold?",
                                  player=p.name), list(sets))]
    where = g.pick(eff, seat, Msg("{player} places the Card on which end of the row?", player=p.name),
                   [Said(Msg("left end")), Said(Msg("right end"))])
    left = where == "left end"  # the two halves that meet, read before anything changes (``Game._unknown``)
    pair = ((artwork(g, p, card, "right"), artwork(g, p, p.minor_row[0], "left")) if left
            else (artwork(g, p, p.minor_row[-1], "right"), artwork(g, p, card, "left")))
    use_materials(g, p, used, "constructions")
    wood_bonus(g, p, used)
    s.minor_display[s.minor_display.index(card)] = None
    if left:
        p.minor_row.insert(0, card)
    else:
        p.minor_row.append(card)
    colours = {c for c in pair if c != "wild"}
    if len(colours) == 1:
        p.balances += 1
        g.push({"k": "balance", "p": seat, "colour": colours.pop()})


@handler
def h_balance(g: Game, eff: Effect) -> None:
    """Architectural Balance Bonus by the Ceramic Artwork's colour (L665-679)."""
    seat, colour = eff["p"], eff["colour"]
    p = g.s.players[seat]
    prompt = Msg("{player}'s Architectural Balance ({artwork}):", player=p.name, artwork=ARTWORK_SAY[colour])
    if colour == "coins":
        options = {Said(Msg("{n} Dinars and {m} Parias", n=d, m=4 - d)): d for d in range(4, -1, -1)}
        d = options[g.pick(eff, seat, prompt, list(options))]
        p.dinars += d
        gain_parias(g, p, 4 - d)
        return
    if colour == "store":
        p.dinars += 1
        g.push({"k": "storehouse", "p": seat, "sq": None})
        return
    if colour == "trade":
        first: dict[str, list[Effect]] = {Said(Msg("1 Raw Material and 1 Good")): [
            {"k": "raw", "p": seat, "spot": None}, {"k": "good", "p": seat, "spot": None}]}
        if rules.export_options(g, seat, rules.budget(p)):
            first[Said(Msg("an Export Action"))] = [{"k": "export", "p": seat, "sq": None}]
    else:
        first = {Said(Msg("1 Gypsum and 1 Glazed Ceramic")): [{"k": "item", "p": seat, "kind": "gypsum"},
                                                   {"k": "item", "p": seat, "kind": "glazed"}]}
        if rules.carve_possible(g, seat, rules.budget(p)):
            first[Said(Msg("a Carve Poem Action"))] = [{"k": "carve", "p": seat, "sq": None}]
    g.push(*first[g.pick(eff, seat, prompt, list(first))])


@handler
def h_favour(g: Game, eff: Effect) -> None:
    """Advance 1 on the Sultan's Favour Track; the Bonus of that or any earlier space (L634-637)."""
    seat, p = eff["p"], g.s.players[eff["p"]]
    last = int(g.s.profile["favour.length"])
    reach = min(p.favour + 1, last)
    top = reach if reach < last else last - 1
    options: list[str] = [Said(Msg("space {n}", n=i)) for i in range(1, top + 1)]
    choice = (g.pick(eff, seat, Msg("{player} earns the Bonus of which Sultan's Favour space?", player=p.name), options)
              if options else "")
    icons = list(g.s.profile[f"favour.{choice.split()[1]}.bonus"]) if choice else []  # read first (``Game._unknown``)
    p.favour = reach
    if reach == last:
        p.gain_pp(1, "favour")
    if choice:
        g.push({"k": "gain", "p": seat, "icons": icons, "src": "favour"})


@handler
def h_major_tile_bonus(g: Game, eff: Effect) -> None:
    """Red Minor Poem 4*: the Bonus of an available Major Construction Tile of the Era, no Tile (L1075-1077)."""
    s, seat = g.s, eff["p"]
    era = s.era()
    tiles = {Said(Msg("Era {era} Major Construction Tile {n}", era=era, n=t)): t for t in s.major_tiles.get(era, [])}
    if tiles:
        t = tiles[g.pick(eff, seat, Msg("{player} earns the Bonus of which Tile?", player=s.players[seat].name),
                         list(tiles))]
        g.push({"k": "gain", "p": seat, "icons": list(s.profile[f"major.{era}.{t}.bonus"]), "src": "poems"})
