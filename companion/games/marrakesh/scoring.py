"""Season scoring (river evaluation, provisions) and final scoring (EN:L1261-1400).

All of it runs as effects on the game's stack, because it needs answers: printed provision and
oasis values the text does not give, season-3 river choices, how many resources an oasis 19-21
takes back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion import COLOURS
from companion.games.common.decisions import bundle_options
from companion.games.marrakesh.asked_draws import revealed_provision
from companion.games.marrakesh.board import GOODS, MARKER_COLOURS, RESOURCES, SECTOR_COLOUR
from companion.games.marrakesh.costs import can_pay
from companion.games.marrakesh.effects import Effect, handler, passed_rapids, river_space, room
from companion.games.marrakesh.state import PlayerState
from companion.games.marrakesh.tiles import RIVER_CHOICE_TILES, RIVER_TILES
from companion.i18n import Msg, colour_name, resource_name

#: Called as ``hook(game, player) -> {category: points}`` when a player's oases are scored (expansion 5's
#: desert towns); it only reads (it may pause for a question), the points are added after every hook ran.
FINAL_HOOKS: list[Callable[[Game, int], dict[str, int]]] = []

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game


# --- river evaluation ----------------------------------------------------------------------------

def river_ranking(g: Game) -> list[int]:
    """Players farthest down the river first; never those still on the start space (EN:L1265-1271).

    Ties: on the jetty the higher spot (earlier arrival) is ahead; on a shared space the fisherman
    that arrived earlier is ahead (digest A11).
    """
    racers = [i for i, p in enumerate(g.s.players) if p.fisherman > 0]
    return sorted(racers, key=lambda i: (-g.s.players[i].fisherman,
                                         -(g.s.players[i].jetty_spot or 0),
                                         g.s.players[i].fisherman_arrival))


@handler("river_eval")
def river_eval(g: Game, eff: Effect) -> None:
    """The river winner (and in season 3 the runner-up, not with 2 players) gets the tile's bonus."""
    tile = g.s.river_tiles[g.s.season - 1]
    ranking = river_ranking(g)
    runner_up = ranking[1] if g.s.season == 3 and len(g.s.players) > 2 and len(ranking) > 1 else None
    follow: list[Effect] = []
    if tile in RIVER_CHOICE_TILES:
        if ranking:
            follow.append({"k": "river_pick", "tile": tile, "first": ranking[0], "second": runner_up})
    else:
        first, second = RIVER_TILES[tile]
        if ranking:
            follow += first(ranking[0])
        if second is not None and runner_up is not None:
            follow += second(runner_up)
    if g.s.season < 3:  # season 3 keeps the fishermen for oasis 30 (digest A12)
        follow.append({"k": "reset_fishermen"})
    g.push(*follow)


@handler("river_pick")
def river_pick(g: Game, eff: Effect) -> None:
    """Season 3: the river winner chooses bonus A or B; the runner-up gets the other (EN:L1265-1268)."""
    tile = eff["tile"]
    pick = g.pick(eff, eff["first"], Msg("River tile {tile}: {choices}. Which bonus?", tile=f"{tile:02d}",
                                                  choices=RIVER_CHOICE_TILES[tile]), ["A", "B"])
    follow = [{"k": "river_option", "p": eff["first"], "tile": tile, "option": pick}]
    if eff["second"] is not None:
        follow.append({"k": "river_option", "p": eff["second"], "tile": tile, "option": "B" if pick == "A" else "A"})
    g.push(*follow)


def cardboard_keshis(g: Game, player: int) -> int:
    """All cardboard keshis on a player's board, goods included (digest A19)."""
    p = g.p(player)
    return len(p.entertainers) + p.guards() + p.caravans() + red_keshis(p) + sum(p.goods.values())


def red_keshis(p: PlayerState) -> int:
    """Water vendors on the board, scroll 57's souk vendor included."""
    return len(p.water_vendors) + (1 if p.souk_vendor else 0)


@handler("river_option")
def river_option(g: Game, eff: Effect) -> None:
    """One bonus of river tile 12, 17 or 18 (addendum, river tiles)."""
    p = g.p(eff["p"])
    kind = (eff["tile"], eff["option"])
    if kind == (12, "A"):
        p.add_points("river_evaluation", len(p.gates))
    elif kind == (12, "B"):
        p.add_points("river_evaluation", p.markers["green"])
    elif kind == (17, "A"):
        p.resources["dates"] += len(p.entertainers)
        p.resources["dinars"] += len(p.entertainers)
    elif kind == (17, "B"):  # scroll 57's souk vendor is a placed water vendor too
        p.resources["water"] += red_keshis(p)
        p.resources["dates"] += red_keshis(p)
    elif kind == (18, "A"):
        p.add_points("river_evaluation", (cardboard_keshis(g, eff["p"]) + sum(p.markers.values())) // 4)
    else:
        p.add_points("river_evaluation", 2 * len(p.luxury_goods))


@handler("reset_fishermen")
def reset_fishermen(g: Game, eff: Effect) -> None:
    """All fishermen back to the start space; the jetty is empty again (EN:L1272-1274)."""
    ranking = river_ranking(g)
    head_start = g.s.river_tiles[g.s.season - 1] == 9 and ranking  # river tile 09: the crocodile space
    crocodile: int = g.value("river.crocodile", Msg("Which river space (counting from the start) shows the "
                                                     "crocodile?"), list(range(1, 16))) if head_start else 0
    for space in range(1, crocodile):  # the rapids the head start passes (asked before anything moves)
        river_space(g, space)
    for p in g.s.players:
        p.fisherman, p.jetty_spot, p.fisherman_arrival, p.river_steps = 0, None, 0, 0
    g.s.jetty_taken = 0
    if head_start:  # a head start, not steps made (digest A36)
        g.p(ranking[0]).fisherman = crocodile


# --- provisions -------------------------------------------------------------------------------------

def provision_face(g: Game, tile: int) -> tuple[dict[str, int], int]:
    """(resources demanded, points lost) printed on provision tile ``tile`` (asked once)."""
    demand: dict[str, int] = g.value(f"provision.{tile}.demand", Msg("Which resources does provision tile #{tile} "
                                                                             "demand?", tile=tile), bundle_options(4))
    pts: int = g.value(f"provision.{tile}.points", Msg("How many points does provision tile #{tile} show?", tile=tile),
                       list(range(0, 9)))
    return demand, pts


def scroll44_possible(g: Game, player: int) -> bool:
    """Scroll 44 can pay the provisions: 1 dinar (scroll 33 counts) plus 1 resource per revealed provision tile."""
    p = g.p(player)
    return (44 in p.scrolls and can_pay(p, {"dinars": 1})
            and sum(p.resources.values()) >= 1 + len(p.revealed_provisions))


@handler("provisions")
def provisions(g: Game, eff: Effect) -> None:
    """Pay everything all revealed tiles demand, or hand in all resources and lose all their points."""
    p = g.p(eff["p"])
    if not eff.get("skip44") and scroll44_possible(g, eff["p"]):  # scroll 44 (optional)
        g.push({"k": "provisions_44", "p": eff["p"]})
        return
    demand = {r: 0 for r in RESOURCES}
    penalty = 0
    for tile in p.revealed_provisions:
        need, pts = provision_face(g, tile)
        for kind, n in need.items():
            demand[kind] += n
        penalty += pts
    if all(p.resources[r] >= demand[r] for r in RESOURCES):
        for r in RESOURCES:
            p.resources[r] -= demand[r]
    else:
        for r in RESOURCES:
            p.resources[r] = 0
        p.add_points("provisions", -penalty)


@handler("reveal_provision")
def reveal_provision(g: Game, eff: Effect) -> None:
    """Reveal one more face-down provision tile (the player's choice), due from the next season."""
    p = g.p(eff["p"])
    hidden = [t for t in p.provisions if t not in p.revealed_provisions]
    if 0 in p.provisions and len(p.revealed_provisions) < len(p.provisions):
        tile = revealed_provision(g, eff["p"])  # table draws: tiles not entered; the table names the one turned up
    elif not hidden:
        return
    else:
        tile = g.pick(eff, eff["p"], Msg("Reveal which provision tile for the next season?"), hidden)
    p.revealed_provisions.append(tile)


@handler("rapid_choice")
def rapid_choice(g: Game, eff: Effect) -> None:
    """End-of-round river bonus: 1 bonus of a rapid already passed, or none (EN:L1200-1211)."""
    options: list[Any] = sorted(set(passed_rapids(g, eff["p"])))
    if not options or 69 in g.p(eff["p"]).scrolls:  # scroll 69 takes every bonus (its own hook)
        return
    pick = g.pick(eff, eff["p"], Msg("Take which river bonus?"), [*options, "none"])
    if pick != "none":
        g.push({"k": "rapid_bonus", "p": eff["p"], "bonus": pick})


# --- final scoring ------------------------------------------------------------------------------------

def sector_count(g: Game, player: int, sector: str) -> int:
    """Keshis of the sector's colour in ``sector`` (marker value for marker sectors)."""
    return 8 - room(g, player, SECTOR_COLOUR[sector])


def filled_sectors(g: Game, player: int) -> list[str]:
    """Sectors with 8 keshis / marker on 8 and a water vendor; never the souk (EN:L1352-1365)."""
    p = g.p(player)
    return [s for s in SECTOR_COLOUR if sector_count(g, player, s) == 8 and s in p.water_vendors]


@handler("final_filled")
def final_filled(g: Game, eff: Effect) -> None:
    """+10 per completely filled sector."""
    g.p(eff["p"]).add_points("filled_sectors", 10 * len(filled_sectors(g, eff["p"])))


def colour_strength(g: Game, player: int, colour: str) -> int:
    """Oases 05-13: the marker value or the number of cardboard keshis of ``colour``."""
    p = g.p(player)
    if colour in MARKER_COLOURS:
        return p.markers[colour]
    if colour == "red":
        return red_keshis(p)
    if colour in GOODS:
        return p.goods[colour]
    return 8 - room(g, player, colour)


@handler("oasis_return")
def oasis_return(g: Game, eff: Effect) -> None:
    """Oases 19-21: the player returns up to 12 of the shown resource now (3 + 1 each)."""
    kind: str = g.value(f"oasis.{eff['n']}.resource", Msg("Which resource does oasis {n} show?", n=eff["n"]),
                        list(RESOURCES))
    p = g.p(eff["p"])
    n = g.pick(eff, eff["p"], Msg("Return how many {kind} for oasis {n}?", kind=resource_name(kind), n=eff["n"]),
               list(range(min(12, p.resources[kind]) + 1)))
    p.resources[kind] -= n
    g.s.final.setdefault("returned", {}).setdefault(str(eff["p"]), {})[str(eff["n"])] = n


def oasis_value(g: Game, player: int, number: int) -> int:
    """What claimed oasis ``number`` is worth to ``player`` now (addendum EN:L2396-2493)."""
    p = g.p(player)
    if number <= 4:
        pts: int = g.value(f"oasis.{number}.points", Msg("How many points per gate does oasis {n} show?", n=number),
                           list(range(1, 5)))
        colours: list[str] = g.value(f"oasis.{number}.colours",
                                     Msg("Which gate colours does oasis {n} show?", n=number), list(COLOURS),
                                     multi=True)
        return pts * sum(1 for gate in p.gates if gate["colour"] in colours)
    if number <= 13:
        colour: str = g.value(f"oasis.{number}.colour", Msg("Which colour does oasis {n} show?", n=number),
                              [c for c in COLOURS if c not in GOODS])
        return 3 + colour_strength(g, player, colour)
    if number <= 18:
        kind: str = g.value(f"oasis.{number}.luxury", Msg("Which luxury good does oasis {n} show?", n=number),
                            ["slipper", "tajine", "dagger", "oil_lamp", "necklace"])
        each: int = g.value(f"oasis.{number}.points",
                            Msg("How many points per luxury good does oasis {n} show?", n=number), list(range(1, 5)))
        return each * sum(1 for t in p.luxury_goods if g.s.profile.get(f"luxury.{t}.type") == kind)
    if number <= 21:
        return 3 + g.s.final.get("returned", {}).get(str(player), {}).get(str(number), 0)
    if number == 22:
        return 3 + len(p.luxury_goods)
    if number == 23:
        return 3 + len(p.scrolls)
    if number == 24:
        return 4 * sum(1 for s in SECTOR_COLOUR if sector_count(g, player, s) <= 3)
    if number == 25:
        return 4 * len(filled_sectors(g, player))
    if number == 26:
        return 3 * len(p.claimed_oases)
    if number in (27, 28):
        which = "mosque" if number == 27 else "palace"  # EN (digest A13)
        return 7 if getattr(p, which) >= g.s.profile.get(f"{which}.final_step", 16) else 0
    if number == 29:
        return 7 if p.thresholds >= 5 else 0
    return 7 if p.jetty_spot is not None else 0


@handler("final_oases")
def final_oases(g: Game, eff: Effect) -> None:
    """Score the 3 most valuable claimed oases."""
    values = sorted((oasis_value(g, eff["p"], n) for n in g.p(eff["p"]).claimed_oases), reverse=True)
    extra = [hook(g, eff["p"]) for hook in FINAL_HOOKS]  # expansion 5: at most 2 desert towns
    g.p(eff["p"]).add_points("oases", sum(values[:3]))
    for points in extra:
        for category, n in points.items():
            g.p(eff["p"]).add_points(category, n)


@handler("final_resources")
def final_resources(g: Game, eff: Effect) -> None:
    """(dinars + water + dates + goods keshis) // 2."""
    p = g.p(eff["p"])
    p.add_points("resources", (sum(p.resources.values()) + sum(p.goods.values())) // 2)


def final_effects(g: Game) -> list[Effect]:
    """Every player's final scoring, in turn order: filled sectors, oases, resources (EN:L1342-1400)."""
    out: list[Effect] = []
    for i in g.s.order(g.s.season_player):
        p = g.p(i)
        out.append({"k": "final_filled", "p": i})
        out += [{"k": "oasis_return", "p": i, "n": n} for n in p.claimed_oases if 19 <= n <= 21]
        out += [{"k": "final_oases", "p": i}, {"k": "final_resources", "p": i}]
    return out


def winners(g: Game) -> list[int]:
    """Most points; ties -> further up the palace, then the mosque; else shared (EN:L1366-1372)."""
    best = max((p.score, p.palace, p.mosque) for p in g.s.players)
    return [i for i, p in enumerate(g.s.players) if (p.score, p.palace, p.mosque) == best]


@handler("placeholder_swap")
def placeholder_swap(g: Game, eff: Effect) -> None:
    """End of round: swap a cardboard placeholder for a wooden keshi (EN:L1317-1330).

    As soon as the supply has one of that colour the swap is compulsory; after round 3 the holder
    may swap it for any colour no longer behind the screen instead.
    """
    s = g.s
    p = g.p(eff["p"])
    for c in list(p.placeholders):
        if s.supply[c] > 0:
            s.supply[c] -= 1
            p.screen[c] += 1
            p.placeholders.remove(c)
    if not p.placeholders or s.round != 3:
        return
    options: list[Any] = [c for c in COLOURS if p.screen[c] == 0 and s.supply[c] > 0]
    if not options:
        return
    pick = g.pick(eff, eff["p"], Msg("Swap your {colour} placeholder for which wooden keshi?",
                                      colour=colour_name(p.placeholders[0])),
                  [*options, "keep"])
    if pick != "keep":
        p.placeholders.pop(0)
        s.supply[pick] -= 1
        p.screen[pick] += 1
