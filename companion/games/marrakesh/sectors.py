"""Phase 3: the new-keshi option and the 8 sector actions (EN:L716-1190).

``action_possible`` implements digest A7 (a sector action that cannot be resolved cannot be chosen,
as in Jan's main-square example EN:L805-816). Each action is an effect handler; purchases that may
repeat (madrasa scrolls, city gates, oases) re-push themselves until the player is done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.common.decisions import bundle_options
from companion.games.marrakesh.asked_draws import disc_orientation, exchange_office, gate_colour
from companion.games.marrakesh.board import GOODS, RESOURCES, SECTOR_COLOUR, SECTORS, SQUARE_BONUSES, UNKNOWN
from companion.games.marrakesh.catalogue import scroll_tier
from companion.games.marrakesh.costs import affordable_goods, can_pay, luxury_options, scroll_price
from companion.games.marrakesh.effects import Effect, gainable_colours, handler, room
from companion.games.marrakesh.state import PlayerState
from companion.games.marrakesh.tiles import SCROLL_EFFECTS
from companion.i18n import Msg, colour_name, path_name, square_name

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

DONE = "done"


def new_keshi_possible(g: Game, player: int, sector: str) -> bool:
    """Option (a) is allowed unless the sector is complete; the souk never is (EN:L740-748)."""
    if sector == "souk":
        return True
    return room(g, player, SECTOR_COLOUR[sector]) > 0


def new_keshi_effect(player: int, sector: str) -> Effect:
    """The effect of option (a) in ``sector``: a keshi of the sector's colour (souk: goods of choice)."""
    return {"k": "gain", "p": player, "colour": "goods" if sector == "souk" else SECTOR_COLOUR[sector]}


def action_possible(g: Game, player: int, sector: str) -> bool:
    """Whether the sector action of ``sector`` has a legal resolution for ``player`` now (digest A7)."""
    p = g.p(player)
    if sector == "river":
        return p.markers["turquoise"] > 0
    if sector == "date_orchard":
        return p.markers["green"] > 0
    if sector == "palace":
        return p.markers["white"] > 0
    if sector == "mosque":
        return p.markers["black"] > 0
    if sector == "main_square":  # scrolls 29/51 give something without entertainers
        return bool(p.entertainers) or bool({29, 51} & set(p.scrolls))
    if sector == "souk":
        return sum(p.goods.values()) > 0 and bool(g.s.exchange_offices)
    if sector == "madrasa":
        return bool(madrasa_options(g, player, p.markers["gray"], first=True))
    if sector == "medina":
        return p.watchtower > 0 and any(g.s.workshops) and len(p.gates) < 8
    if sector == "sahara":
        return bool(_unclaimed_discovered(g, player)) or bool(claimable_towns(g, player))
    return False


def sector_action_effect(player: int, sector: str) -> Effect:
    """The effect that performs ``sector``'s action."""
    return {"k": f"act_{sector}", "p": player}


# --- marker sectors -----------------------------------------------------------------------------------

@handler("act_river")
def act_river(g: Game, eff: Effect) -> None:
    """Fisherman moves as many steps as the turquoise marker (EN:L762-772)."""
    g.push({"k": "river", "p": eff["p"], "steps": g.p(eff["p"]).markers["turquoise"]})


@handler("act_date_orchard")
def act_date_orchard(g: Game, eff: Effect) -> None:
    """Dates equal to the green marker (EN:L877-880)."""
    p = g.p(eff["p"])
    if {23, 24, 25} & set(p.scrolls):  # scrolls 23-25: dates may become water, dinars or points
        g.push({"k": "orchard_swap", "p": eff["p"], "n": p.markers["green"]})
        return
    p.resources["dates"] += p.markers["green"]


@handler("act_palace")
def act_palace(g: Game, eff: Effect) -> None:
    """Courtier climbs as many steps as the white marker (EN:L940-945)."""
    g.push({"k": "stair", "p": eff["p"], "which": "palace", "steps": g.p(eff["p"]).markers["white"]})


@handler("act_mosque")
def act_mosque(g: Game, eff: Effect) -> None:
    """Imam's student climbs as many steps as the black marker (EN:L946-949)."""
    g.push({"k": "stair", "p": eff["p"], "which": "mosque", "steps": g.p(eff["p"]).markers["black"]})


# --- main square ------------------------------------------------------------------------------------

@handler("act_main_square")
def act_main_square(g: Game, eff: Effect) -> None:
    """Rotate the audience disc one section clockwise, then pick one entertainer (EN:L817-832)."""
    p = g.p(eff["p"])
    if not p.entertainers and not {29, 51} & set(p.scrolls):  # nothing to gain (river tile 16)
        return
    p.disc_orientation = (disc_orientation(g, eff["p"]) + 1) % 8  # table draws: the disc's turn at setup
    again = 65 in p.scrolls and not eff.get("second")  # scroll 65: a second action may follow
    g.push({"k": "square_pick", "p": eff["p"]}, {"k": "square_end", "p": eff["p"], "again": again})


def spectators(g: Game, player: int, space: str) -> int:
    """Spectators on the disc section facing ``space`` now (ring and disc values from the profile)."""
    taken = {g.s.profile.get(f"square.position.{other}") for other in SQUARE_BONUSES if other != space}
    position: int = g.value(f"square.position.{space}",
                            Msg("At which ring position (0-7, clockwise from the top) is the main-square "
                                "{space} space?", space=square_name(space)), [k for k in range(8) if k not in taken])
    section = (position - disc_orientation(g, player)) % 8
    side = "purple" if 4 in g.s.setup.get("expansions", ()) else "pink"  # expansion 4: the purple side
    count: int = g.value(f"disc.section.{section}" if side == "pink" else f"disc.purple.section.{section}",
                         Msg("How many spectators are on section {section} of the audience disc ({side} side)?",
                             section=section, side=colour_name(side)),
                         list(range(0, 5)))
    return count + (1 if 31 in g.p(player).scrolls else 0)


@handler("square_pick")
def square_pick(g: Game, eff: Effect) -> None:
    """Gain the chosen entertainer's bonus once per spectator facing it."""
    player = eff["p"]
    if not g.p(player).entertainers:  # scrolls 29/51 without entertainers: nothing to pick
        return
    space = g.pick(eff, player, Msg("Which entertainer's bonus do you take?"),
                   [b for b in SQUARE_BONUSES if b in g.p(player).entertainers])
    times = spectators(g, player, space)
    g.push({"k": "square_bonus", "p": player, "bonus": space, "times": times})


# --- souk ---------------------------------------------------------------------------------------------

@handler("act_souk")
def act_souk(g: Game, eff: Effect) -> None:
    """Exchange office once, or buy 1 luxury good (EN:L834-848, L886-898); scrolls 46/34: again."""
    p = g.p(eff["p"])
    pick = g.pick(eff, eff["p"], Msg("Exchange 1 goods keshi at the office, or buy a luxury good?"),
                  souk_options(g, eff["p"]))
    kind, _, arg = pick.partition(":")
    more = [{"k": "souk_more", "p": eff["p"], "kind": kind}] if (46 if kind == "office" else 34) in p.scrolls else []
    if kind == "office":
        g.push({"k": "office", "p": eff["p"], "colour": arg}, *more)
    else:
        g.push({"k": "luxury", "p": eff["p"], "tile": int(arg)}, *more)


def souk_options(g: Game, player: int) -> list[str]:
    """``office:<goods colour>`` and ``luxury:<tile>`` options ``player`` can afford now (Imam counts)."""
    p = g.p(player)
    options = [f"office:{c}" for c in GOODS if p.goods[c] > 0] if g.s.exchange_offices else []
    for tile in g.s.luxury_display:
        if affordable_goods(p, luxury_options(g, player, luxury_cost(g, tile))):
            options.append(f"luxury:{tile}")
    return options


#: Possible luxury-good costs: up to 3 of each goods colour, 1-5 keshis in all (2 known tiles fit).
GOODS_BUNDLES: list[dict[str, int]] = [
    {k: v for k, v in zip(GOODS, (y, o, u), strict=True) if v}
    for y in range(4) for o in range(4) for u in range(4) if 1 <= y + o + u <= 5
]
#: Possible luxury-good rewards: 0-15 points plus up to 2 resources (the necklace gives 13 points).
LUXURY_REWARDS: list[dict[str, int]] = [{"points": n, **b} for n in range(0, 16) for b in [{}, *bundle_options(2)]]


def luxury_cost(g: Game, tile: int) -> dict[str, int]:
    """Goods keshis luxury good ``tile`` costs (asked once per tile)."""
    cost: dict[str, int] = g.value(f"luxury.{tile}.cost",
                                   Msg("What does luxury good #{tile} cost (goods keshis)?", tile=tile), GOODS_BUNDLES)
    return cost


@handler("office")
def office(g: Game, eff: Effect) -> None:
    """Return 1 goods keshi, receive the active exchange office's resources for that colour."""
    office_id, side = exchange_office(g)  # table draws: named at the season's first trade
    if side == "new":  # expansion 3: the dark-green reverse side (1 resource + a bonus, EN:L1428-1449)
        g.s.exchange_offices[0] = office_id
        g.push({"k": "office_new", "p": eff["p"], "colour": eff["colour"], "office": office_id})
        return
    reward: dict[str, int] = g.value(f"office.{office_id}.{eff['colour']}",
                                     Msg("What does exchange office #{office} give for 1 {colour} keshi?",
                                         office=office_id, colour=colour_name(eff["colour"])),
                                     bundle_options())
    g.s.exchange_offices[0] = office_id
    p = g.p(eff["p"])
    p.goods[eff["colour"]] -= 1
    for kind, n in reward.items():
        p.resources[kind] += n
    if 18 in p.scrolls:
        g.push({"k": "resource", "p": eff["p"]})


@handler("luxury")
def luxury(g: Game, eff: Effect) -> None:
    """Pay a luxury good's goods keshis, take the tile and its points and resources at once."""
    tile = eff["tile"]
    cost = luxury_cost(g, tile)
    reward: dict[str, int] = g.value(f"luxury.{tile}.reward",
                                     Msg("What does luxury good #{tile} give (points and resources)?", tile=tile),
                                     LUXURY_REWARDS)
    kind: str = g.value(f"luxury.{tile}.type", Msg("Which luxury good is #{tile}?", tile=tile),
                        ["slipper", "tajine", "dagger", "oil_lamp", "necklace"])
    del kind  # asked now so oases 14-18 can score it later
    p = g.p(eff["p"])
    if eff.get("free"):  # desert town 11: no goods paid
        cost = {}
    elif luxury_options(g, eff["p"], cost) != [cost]:  # the Imam: any 1 goods keshi fewer
        cost = g.pick(eff, eff["p"], Msg("The Imam: which goods keshi do you not pay?"),
                      affordable_goods(p, luxury_options(g, eff["p"], cost)))
    for colour, n in cost.items():
        p.goods[colour] -= n
    g.s.luxury_display.remove(tile)
    p.luxury_goods.append(tile)
    for key, n in reward.items():
        if key == "points":
            p.add_points("luxury_goods", n)
        else:
            p.resources[key] += n


# --- madrasa -----------------------------------------------------------------------------------------

def madrasa_options(g: Game, player: int, budget: int, *, first: bool, only: str | None = None) -> list[str]:
    """Scrolls ``player`` can buy now within ``budget`` gray requirement, and refresh options."""
    p = g.p(player)
    out: list[str] = []
    for colour, tiles in g.s.scroll_display.items():
        if only is not None and colour != only:
            continue
        for n in tiles:
            _, requirement, _ = scroll_tier(n)
            if n in SCROLL_EFFECTS and requirement <= budget and scroll_price(g, player, n) <= p.resources["dates"]:
                out.append(f"scroll:{n}")
    if first and only is None and p.refreshed_round != g.round_number() and can_pay(p, {"dinars": 1}):
        for colour, stack in g.s.scroll_stacks.items():
            tiles = g.s.scroll_display.get(colour, [])
            if not stack or not tiles:
                continue
            _, requirement, _ = scroll_tier(tiles[0])
            if requirement <= budget and scroll_price(g, player, tiles[0]) <= p.resources["dates"]:
                out.append(f"refresh:{colour}")
    return out


@handler("act_madrasa")
def act_madrasa(g: Game, eff: Effect) -> None:
    """Buy scrolls: total requirement <= gray marker, pay their dates (EN:L920-938, L1072-1077)."""
    g.push({"k": "madrasa", "p": eff["p"], "budget": g.p(eff["p"]).markers["gray"], "bought": 0, "only": None})


@handler("madrasa")
def madrasa(g: Game, eff: Effect) -> None:
    """One madrasa purchase step (buy, refresh before the first purchase of the round, or stop)."""
    player = eff["p"]
    p = g.p(player)
    options: list[Any] = madrasa_options(g, player, eff["budget"], first=eff["bought"] == 0, only=eff["only"])
    if eff["bought"] > 0 or (not options):
        options.append(DONE)
    pick = g.pick(eff, player, Msg("Buy a scroll (or refresh a colour for 1 dinar before the first purchase)?"),
                  options)
    if pick == DONE:
        return
    kind, _, arg = pick.partition(":")
    if kind == "refresh":
        p.refreshed_round = g.round_number()
        old = g.s.scroll_display[arg]
        g.s.scroll_display[arg] = []
        g.push({"k": "pay", "p": player, "cost": {"dinars": 1}},
               *[{"k": "reveal_scroll", "colour": arg} for _ in range(min(3, len(g.s.scroll_stacks[arg])))],
               {"k": "scroll_under", "colour": arg, "tiles": old},
               {"k": "madrasa", "p": player, "budget": eff["budget"], "bought": 0, "only": arg})
        return
    number = int(arg)
    colour, requirement, _ = scroll_tier(number)
    p.resources["dates"] -= scroll_price(g, player, number)
    g.s.scroll_display[colour].remove(number)
    p.scrolls.append(number)
    follow = SCROLL_EFFECTS[number].on_acquire(player)
    g.push(*follow, {"k": "madrasa", "p": player, "budget": eff["budget"] - requirement,
                     "bought": eff["bought"] + 1, "only": None})


# --- medina ---------------------------------------------------------------------------------------------

def workshop_terms(g: Game, index: int) -> tuple[int, int]:
    """(dinar price, points) of workshop ``index`` (0 = left ... 3 = right)."""
    price: int = g.value(f"workshop.{index}.price",
                         Msg("What dinar price is printed on workshop {n} (counting from the left)?", n=index + 1),
                         list(range(0, 6)))
    pts: int = g.value(f"workshop.{index}.points",
                       Msg("How many points does workshop {n} give (negative = lose)?", n=index + 1),
                       list(range(-5, 11)))
    return price, pts


@handler("act_medina")
def act_medina(g: Game, eff: Effect) -> None:
    """Buy city gates, one per uncommitted guard (EN:L1044-1098)."""
    g.push({"k": "medina", "p": eff["p"], "gained": []})


@handler("medina")
def medina(g: Game, eff: Effect) -> None:
    """One gate purchase, or stop and place the gained keshis (with placement bonuses)."""
    player = eff["p"]
    p = g.p(player)
    options: list[Any] = []
    if p.watchtower > 0 and len(p.gates) < 8:
        for index, gates in enumerate(g.s.workshops):
            if not gates:
                continue
            price, _ = workshop_terms(g, index)
            price = max(0, price - (1 if 32 in p.scrolls else 0))
            if can_pay(p, {"dinars": price}):
                options.extend(f"gate:{index}:{colour}" for colour in sorted(set(gates)))
    options.append(DONE)
    pick = g.pick(eff, player, Msg("Buy a city gate (workshop, colour) or stop?"), options)
    if pick == DONE:  # scroll 66: 2 keshis per gate; scroll 36: of any colour
        times = 2 if 66 in p.scrolls else 1
        g.push(*[{"k": "gain", "p": player, "colour": "any" if 36 in p.scrolls else colour}
                 for colour in eff["gained"] for _ in range(times)])
        return
    _, index_text, colour = pick.split(":")
    g.push({"k": "build_gate", "p": player, "workshop": int(index_text), "colour": colour, "gained": eff["gained"]})


@handler("build_gate")
def build_gate(g: Game, eff: Effect) -> None:
    """Pay, score, build on a free gate space, commit a guard, +2 on the matching space (EN:L1050-1070)."""
    player, index, colour = eff["p"], eff["workshop"], eff["colour"]
    if colour == UNKNOWN:  # table draws: a workshop not entered; the table names the gate taken
        colour = gate_colour(g, player, index)
    p = g.p(player)
    taken = {gate["space"] for gate in p.gates}
    space = g.pick(eff, player, Msg("Which city-gate space (1-8) gets the {colour} gate?", colour=colour_name(colour)),
                   [k for k in range(1, 9) if k not in taken])
    printed: str = g.value(f"gate_space.{space}", Msg("Which colour is printed on city-gate space {space}?",
                                                      space=space), [c for c in SECTOR_COLOUR.values()] + list(GOODS))
    price, pts = workshop_terms(g, index)
    price = 0 if eff.get("free") else max(0, price - (1 if 32 in p.scrolls else 0))  # desert town 12: free
    if not (22 in p.scrolls and index == 0 and price == 0):
        p.add_points("gates", pts)
    g.s.workshops[index].remove(eff["colour"])
    p.watchtower -= 1
    p.gates.append({"space": space, "colour": colour})
    if printed == colour:
        p.add_points("gates", 2)
    if eff.get("free"):  # desert town 12: the gate's keshi at once, no further purchases
        g.push({"k": "gain", "p": player, "colour": colour})
        return
    g.push({"k": "pay", "p": player, "cost": {"dinars": price}},
           {"k": "medina", "p": player, "gained": [*eff["gained"], colour]})


# --- sahara ---------------------------------------------------------------------------------------------

def _unclaimed_discovered(g: Game, player: int) -> list[int]:
    p = g.p(player)
    return [i for i in range(6) if p.discovered[i] and p.oases[i] not in p.claimed_oases]


def oasis_cost(g: Game, index: int) -> dict[str, int]:
    """Resources printed next to oasis position ``index`` (0-2 left path, 3-5 right path)."""
    path, step = ("left", index + 1) if index < 3 else ("right", index - 2)
    cost: dict[str, int] = g.value(f"sahara.cost.{path}.{step}",
                                   Msg("What does claiming the oasis at {path} path space {step} cost?",
                                       path=path_name(path), step=step), bundle_options())
    return cost


@handler("act_sahara")
def act_sahara(g: Game, eff: Effect) -> None:
    """Claim discovered oases, paying the cost printed next to each (EN:L1148-1160)."""
    g.push({"k": "sahara", "p": eff["p"], "claimed": 0})


@handler("sahara")
def sahara(g: Game, eff: Effect) -> None:
    """One oasis claim, or stop."""
    player = eff["p"]
    p = g.p(player)
    free = eff.get("free", 0)  # river tile 15: claims without paying
    options: list[Any] = []
    for index in _unclaimed_discovered(g, player):
        cost = {} if free else {"any": 1} if 45 in p.scrolls else oasis_cost(g, index)
        if can_pay(p, cost):
            options.append(index)
    if not free:  # expansion 5: desert towns (never free: scroll 62, river tile 15 claim oases only)
        options += [f"town:{n}" for n in claimable_towns(g, player)]
    options.append(DONE)
    pick = g.pick(eff, player, Msg("Claim which discovered oasis (position 0-5), or stop?"), options)
    if pick == DONE:
        return
    if isinstance(pick, str):  # a desert town: 1 yellow + 1 orange + 1 purple, flipped in place
        g.push({"k": "claim_town", "p": player, "number": int(pick.split(":")[1])},
               {"k": "sahara", "p": player, "claimed": eff["claimed"] + 1, "free": 0})
        return
    cost = {} if free else {"any": 1} if 45 in p.scrolls else oasis_cost(g, pick)
    icon = storage_icon(g, player)
    # the cost is paid before anything else (scroll 45: 1 resource of choice; scroll 33: dinar stand-ins)
    follow: list[Effect] = [{"k": "pay", "p": player, "cost": cost}] if cost else []
    p.claimed_oases.append(p.oases[pick])
    follow += storage_bonus(p, player, icon)
    again: list[Effect] = []
    if free != 1:  # a free claim (river tile 15) ends after its last one
        again.append({"k": "sahara", "p": player, "claimed": eff["claimed"] + 1, "free": max(0, free - 1)})
    g.push(*follow, *again)


def storage_icon(g: Game, player: int) -> str:
    """The icon on the storage space the next claimed oasis covers (asked once; "none" beyond 6)."""
    slot = len(g.p(player).claimed_oases) + 1
    if slot > 6:
        return "none"
    if 5 in g.s.setup.get("expansions", ()):  # expansion 5 uses the supply board's reverse side
        key, prompt = f"storage.reverse.{slot}", Msg("What is printed on oasis storage space {slot} (reverse side of "
                                                     "the supply board)?", slot=slot)
    else:
        key, prompt = f"storage.{slot}", Msg("What is printed on oasis storage space {slot}?", slot=slot)
    icon: str = g.value(key, prompt,
                        ["keshi", "exchange", "scroll", "none"])
    return icon


def storage_bonus(p: PlayerState, player: int, icon: str) -> list[Effect]:
    """What covering a storage space with ``icon`` gives (EN:L1219-1233); takes its keshi off the track."""
    if icon == "keshi" and p.storage_keshis:
        if p.storage_keshis[0] == UNKNOWN:  # table draws: the table names it when it is handed out
            return [{"k": "storage_keshi", "p": player}]
        return [{"k": "gain", "p": player, "colour": p.storage_keshis.pop(0)}]
    if icon == "scroll":
        return [{"k": "free_yellow_scroll", "p": player}]
    if icon == "exchange":
        return [{"k": "exchange_icon", "p": player}]
    return []


def claimable_towns(g: Game, player: int) -> list[int]:
    """Expansion 5: placed, unclaimed desert towns ``player`` can pay 1 yellow + 1 orange + 1 purple for."""
    p = g.p(player)
    if not all(p.goods[c] >= 1 for c in GOODS):
        return []
    return [t["number"] for t in p.desert_towns if not t["claimed"]]


@handler("pay_any")
def pay_any(g: Game, eff: Effect) -> None:
    """Pay 1 resource of the player's choice."""
    p = g.p(eff["p"])
    kind = g.pick(eff, eff["p"], Msg("Pay which resource?"), [r for r in RESOURCES if p.resources[r] > 0])
    p.resources[kind] -= 1


@handler("free_yellow_scroll")
def free_yellow_scroll(g: Game, eff: Effect) -> None:
    """Storage scroll icon: 1 yellow scroll free, no requirement, no refresh (EN:L1224-1229)."""
    tiles = [n for n in g.s.scroll_display.get("yellow", []) if n in SCROLL_EFFECTS]
    if not tiles:
        return
    number = g.pick(eff, eff["p"], Msg("Which yellow scroll do you take for free?"), [*tiles, DONE])
    if number == DONE:
        return
    g.s.scroll_display["yellow"].remove(number)
    g.p(eff["p"]).scrolls.append(number)
    g.push(*SCROLL_EFFECTS[number].on_acquire(eff["p"]))


@handler("exchange_icon")
def exchange_icon(g: Game, eff: Effect) -> None:
    """Storage exchange icon: return 1 keshi (or a marker step) and take 1 of another colour (EN:L1219-1223).

    Caravans, committed guards and goods may not be returned (goods may be taken).
    """
    p = g.p(eff["p"])
    pick = g.pick(eff, eff["p"], Msg("Return which keshi (to take 1 of another colour)?"),
                  [DONE, *returnable_keshis(p)])
    if pick == DONE:
        return
    g.push({"k": "gain_other", "p": eff["p"], "not": return_keshi(p, pick)})


def returnable_keshis(p: PlayerState) -> list[str]:
    """What the exchange icon may take back: marker steps, entertainers, uncommitted guards, vendors."""
    options = [f"marker:{c}" for c, v in p.markers.items() if v > 0]
    options += [f"pink:{b}" for b in p.entertainers]
    if p.watchtower:
        options.append("beige")
    options += [f"red:{s}" for s in p.water_vendors]
    return options


def return_keshi(p: PlayerState, pick: str) -> str:
    """Take back the keshi ``pick`` names (an option of ``returnable_keshis``); returns its colour."""
    kind, _, arg = pick.partition(":")
    if kind == "marker":
        p.markers[arg] -= 1
        return arg
    if kind == "pink":
        p.entertainers.remove(arg)
        return "pink"
    if kind == "beige":
        p.watchtower -= 1
        return "beige"
    p.water_vendors.remove(arg)
    return "red"


@handler("gain_other")
def gain_other(g: Game, eff: Effect) -> None:
    """Take 1 keshi of a colour other than the one just returned."""
    options = [c for c in gainable_colours(g, eff["p"]) if c != eff["not"]]
    if not options:
        return
    colour = g.pick(eff, eff["p"], Msg("Take which keshi?"), options)
    g.push({"k": "gain", "p": eff["p"], "colour": colour})



@handler("any_sector_action")
def any_sector_action(g: Game, eff: Effect) -> None:
    """Perform 1 sector action of the player's choice (river tile 01)."""
    options = [s for s in SECTORS if action_possible(g, eff["p"], s)]
    if not options:
        return
    sector = g.pick(eff, eff["p"], Msg("Perform which sector action?"), options)
    g.push(sector_action_effect(eff["p"], sector))


# --- displays ---------------------------------------------------------------------------------------------

@handler("reveal_scroll")
def reveal_scroll(g: Game, eff: Effect) -> None:
    """Turn up the top scroll of a colour's stack (the table names it when the draws are its own)."""
    stack = g.s.scroll_stacks[eff["colour"]]
    if not stack:
        return
    if g.s.setup.get("table_draws"):
        number = g.draw(eff, f"draw.scroll.{eff['colour']}", Msg("Which {colour} scroll was revealed?",
                                                                           colour=colour_name(eff["colour"])),
                        sorted(stack))
    else:
        number = stack[0]
    stack.remove(number)
    g.s.scroll_display[eff["colour"]].append(number)


@handler("scroll_under")
def scroll_under(g: Game, eff: Effect) -> None:
    """After a refresh the old face-up scrolls go under their stack (EN:L1075-1077)."""
    g.s.scroll_stacks[eff["colour"]].extend(eff["tiles"])


@handler("reveal_luxury")
def reveal_luxury(g: Game, eff: Effect) -> None:
    """Turn up the top luxury good (the table names it when the draws are its own)."""
    stack = g.s.luxury_stack
    if not stack:
        return
    number = g.draw(eff, "draw.luxury", Msg("Which luxury good was revealed?"), sorted(stack)) \
        if g.s.setup.get("table_draws") else stack[0]
    stack.remove(number)
    g.s.luxury_display.append(number)
