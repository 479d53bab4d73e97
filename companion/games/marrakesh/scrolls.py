"""The scrolls the core did not need: 17, 23-29, 33, 34, 36, 44, 46, 47, 51, 53-55, 57-59, 62-66, 68-72.

Each scroll is one ``TileEffect`` in ``tiles.SCROLL_EFFECTS`` (addendum EN:L1864-2395, digest §14.1)
plus, for the instant ones, an effect handler here. Permanent scrolls are checked where they apply
(``number in player.scrolls``) in the sector, river, staircase, cost and scoring code; this module
holds the handlers those checks push. Decisions follow RULES_DIGEST §17: A14 (17 = the crossed
rapid's bonus), A15 (47/51 use the effective spectator count, scroll 31 included), A16 (64: red =
the vendor's sector, goods = souk), A17 (65: the second main-square action is optional), A18 (68/71
on oases 19-21: the player returns resources now), A26 (53/64: no water-vendor income), A28 (33 on
every dinar cost), A30 (44 optional), A37 (29/51 at the end of each main-square action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.marrakesh import tiles
from companion.games.marrakesh.board import COLOUR_SECTOR, GOODS, RESOURCES, SQUARE_BONUSES
from companion.games.marrakesh.costs import holds_figure
from companion.games.marrakesh.effects import (
    Effect,
    bonus_effects,
    gainable_colours,
    handler,
    line_bonuses,
    passed_rapids,
)
from companion.games.marrakesh.scoring import oasis_value
from companion.games.marrakesh.sectors import DONE, action_possible, sector_action_effect, souk_options, spectators
from companion.i18n import Msg, resource_name, sector_name, square_name

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game


def _register(number: int, timing: str, text: str, run: tiles.RiverEffect | None = None) -> None:
    tiles.SCROLL_EFFECTS[number] = tiles.TileEffect(number, timing, run or (lambda p: []), text)


def _one(kind: str, **extra: Any) -> tiles.RiverEffect:
    return lambda p: [{"k": kind, "p": p, **extra}]


_register(17, "permanent", "each rapid crossed: its bonus once, at once")
_register(23, "permanent", "date-orchard action: each date may be 1 water instead")
_register(24, "permanent", "date-orchard action: each date may be 1 dinar instead")
_register(25, "permanent", "date-orchard action: each date may be 1 point instead")
_register(26, "permanent", "each staircase move: buy further steps, 1 date each")
_register(27, "permanent", "each staircase move: buy further steps, 1 water each")
_register(28, "end_of_season", "start of each season scoring: 1 bonus of each rapid crossed", _one("all_rapids"))
_register(29, "permanent", "end of each main-square action: 2 points per spectator facing the 2-point space")
_register(33, "permanent", "dates and water may stand in for dinars in any cost")
_register(34, "permanent", "souk action: buy several luxury goods")
_register(36, "permanent", "buying a city gate: 1 keshi of any colour instead of the gate's")
_register(44, "permanent", "provisions: pay 1 dinar once, then 1 resource of any type per tile")
_register(46, "permanent", "souk action: use the exchange office several times")
_register(47, "instant", "3x the bonus of every space facing a 3-spectator section", _one("scroll47"))
_register(51, "permanent", "end of each main-square action: every bonus facing a 1-spectator section")
_register(53, "instant", "perform any sector action", _one("any_sector_action"))
_register(54, "permanent", "placing an entertainer: also the bonuses of both adjacent spaces")
_register(55, "instant", "3 steps on the palace and 3 on the mosque, in the order chosen", _one("scroll55"))
_register(57, "instant", "a water vendor in the souk and 3 water", _one("scroll57"))
_register(58, "instant", "pay 1 date: 1 orange scroll ignoring its requirement", _one("scroll58"))
_register(59, "instant", "every bonus of the line between your staircase pawns", _one("scroll59"))
_register(62, "instant", "claim 3 discovered oases free (not desert towns)",
          lambda p: [{"k": "sahara", "p": p, "claimed": 0, "free": 3}])
_register(63, "permanent", "each connection bonus: 2 different bonuses of the line")
_register(64, "instant", "1 keshi of choice, then that sector's action", _one("scroll64"))
_register(65, "permanent", "the main-square action twice in a row")
_register(66, "permanent", "buying a city gate: 2 keshis of its colour (marker +2)")
_register(68, "permanent", "discovering an oasis scores it once at once")
_register(69, "end_of_round", "end-of-round river bonus: every crossed rapid's bonus", _one("all_rapids"))
_register(70, "instant", "every entertainer's bonus x the spectators facing it", _one("scroll70"))
_register(71, "instant", "score one claimed oasis now (it scores again at the end)", _one("scroll71"))
_register(72, "instant", "return any resources: 2 points each", _one("scroll72"))


# --- river --------------------------------------------------------------------------------------------

@handler("all_rapids")
def all_rapids(g: Game, eff: Effect) -> None:
    """Scrolls 28 and 69: 1 bonus of each rapid the fisherman is beyond (scroll 60 doubles each)."""
    g.push(*[{"k": "rapid_bonus", "p": eff["p"], "bonus": b} for b in passed_rapids(g, eff["p"])])


# --- date orchard and staircases ------------------------------------------------------------------------

ORCHARD_SWAPS: dict[int, str] = {23: "water", 24: "dinars", 25: "points"}


@handler("orchard_swap")
def orchard_swap(g: Game, eff: Effect) -> None:
    """Scrolls 23-25: of ``n`` dates, the player converts some into water, dinars or points."""
    player, left = eff["p"], eff["n"]
    p = g.p(player)
    swaps: dict[str, int] = {}
    for scroll, kind in ORCHARD_SWAPS.items():
        if scroll in p.scrolls and left > 0:
            k = g.pick(eff, player, Msg("Of {left} dates, how many do you take as {kind} (scroll {scroll})?",
                                        left=left, kind=resource_name(kind), scroll=scroll),
                       list(range(left + 1)))
            swaps[kind], left = k, left - k
    p.resources["dates"] += left
    for kind, k in swaps.items():
        if kind == "points" and k:
            p.add_points("scrolls", k)
        elif kind != "points":
            p.resources[kind] += k


@handler("stair_boost")
def stair_boost(g: Game, eff: Effect) -> None:
    """Scrolls 26/27: after a staircase move, buy further steps with dates (26) and/or water (27)."""
    player = eff["p"]
    p = g.p(player)
    paid: dict[str, int] = {}
    for scroll, kind in ((26, "dates"), (27, "water")):
        if scroll in p.scrolls and p.resources[kind] > 0:
            paid[kind] = g.pick(eff, player, Msg("Buy further {which} steps with {kind} (scroll {scroll})?",
                                                 which=sector_name(eff["which"]), kind=resource_name(kind),
                                                 scroll=scroll),
                                list(range(p.resources[kind] + 1)))
    for kind, k in paid.items():
        p.resources[kind] -= k
    g.push(*[{"k": "stair_step", "p": player, "which": eff["which"]} for _ in range(sum(paid.values()))])


@handler("scroll55")
def scroll55(g: Game, eff: Effect) -> None:
    """Scroll 55: 3 steps on each staircase, in the order the player chooses."""
    first = g.pick(eff, eff["p"], Msg("Scroll 55: which staircase first (3 steps on each)?"), ["palace", "mosque"])
    second = "mosque" if first == "palace" else "palace"
    g.push(*[{"k": "stair", "p": eff["p"], "which": w, "steps": 3} for w in (first, second)])


@handler("scroll59")
def scroll59(g: Game, eff: Effect) -> None:
    """Scroll 59: every bonus of the line between the two staircase pawns."""
    bonuses = line_bonuses(g, eff["p"])
    g.push(*[e for b in bonuses for e in bonus_effects(eff["p"], b)])


# --- main square ------------------------------------------------------------------------------------

@handler("square_end")
def square_end(g: Game, eff: Effect) -> None:
    """End of a main-square action: scrolls 29 and 51 (digest A37), then scroll 65's optional second action."""
    player = eff["p"]
    p = g.p(player)
    follow: list[Effect] = []
    if 29 in p.scrolls:
        follow.append({"k": "points", "p": player, "cat": "scrolls", "n": 2 * spectators(g, player, "2_points")})
    if 51 in p.scrolls:
        counts = {space: spectators(g, player, space) for space in SQUARE_BONUSES}
        follow += [{"k": "square_bonus", "p": player, "bonus": s, "times": 1} for s, n in counts.items() if n == 1]
    if eff.get("again"):
        again = g.pick(eff, player, Msg("Scroll 65: perform the main-square action a second time?"), ["yes", "no"])
        if again == "yes":
            follow.append({"k": "act_main_square", "p": player, "second": True})
    g.push(*follow)


@handler("scroll47")
def scroll47(g: Game, eff: Effect) -> None:
    """Scroll 47: 3x the bonus of each space facing a section with 3 spectators (scroll 31 counts, A15)."""
    counts = {space: spectators(g, eff["p"], space) for space in SQUARE_BONUSES}
    g.push(*[{"k": "square_bonus", "p": eff["p"], "bonus": s, "times": 3} for s, n in counts.items() if n == 3])


@handler("scroll70")
def scroll70(g: Game, eff: Effect) -> None:
    """Scroll 70: each placed entertainer's bonus times the spectators facing it."""
    p = g.p(eff["p"])
    counts = {space: spectators(g, eff["p"], space) for space in SQUARE_BONUSES if space in p.entertainers}
    g.push(*[{"k": "square_bonus", "p": eff["p"], "bonus": s, "times": n} for s, n in counts.items()])


def square_position(g: Game, space: str) -> int:
    """Ring position 0-7 of main-square ``space`` (asked once, like the spectator count needs it)."""
    taken = {g.s.profile.get(f"square.position.{other}") for other in SQUARE_BONUSES if other != space}
    position: int = g.value(f"square.position.{space}",
                            Msg("At which ring position (0-7, clockwise from the top) is the main-square "
                                "{space} space?", space=square_name(space)), [k for k in range(8) if k not in taken])
    return position


@handler("square_neighbours")
def square_neighbours(g: Game, eff: Effect) -> None:
    """Scroll 54: the placement bonuses of both spaces next to the entertainer's space."""
    ring = {square_position(g, space): space for space in SQUARE_BONUSES}
    at = square_position(g, eff["space"])
    g.push(*[{"k": "square_bonus", "p": eff["p"], "bonus": ring[(at + d) % 8], "times": 1} for d in (-1, 1)])


# --- souk, madrasa ------------------------------------------------------------------------------------

@handler("scroll57")
def scroll57(g: Game, eff: Effect) -> None:
    """Scroll 57: a water vendor next to the souk assistant spaces and 3 water; income from next turn."""
    p = g.p(eff["p"])
    p.souk_vendor = g.round_number()
    p.resources["water"] += 3


def souk_vendor_income(g: Game, player: int, sector: str, mode: str) -> None:
    """Scroll 57's vendor pays like a water vendor for each souk assistant from the next turn on."""
    p = g.p(player)
    if sector == "souk" and mode in ("keshi", "action") and 0 < p.souk_vendor < g.round_number():
        p.resources["water"] += 2 if 35 in p.scrolls else 1
        if 50 in p.scrolls:
            p.add_points("scrolls", 2)


tiles.ASSISTANT_HOOKS.append(souk_vendor_income)


@handler("scroll58")
def scroll58(g: Game, eff: Effect) -> None:
    """Scroll 58: pay 1 date (Sultan: 0, floor per A29) and take 1 orange scroll ignoring its requirement."""
    player = eff["p"]
    p = g.p(player)
    price = 0 if holds_figure(g, player, "sultan") else 1
    options: list[Any] = [n for n in g.s.scroll_display.get("orange", []) if n in tiles.SCROLL_EFFECTS]
    if not options or p.resources["dates"] < price:
        return
    number = g.pick(eff, player, Msg("Scroll 58: which orange scroll do you take (1 date)?"), [*options, DONE])
    if number == DONE:
        return
    p.resources["dates"] -= price
    g.s.scroll_display["orange"].remove(number)
    p.scrolls.append(number)
    g.push(*tiles.SCROLL_EFFECTS[number].on_acquire(player))


@handler("souk_more")
def souk_more(g: Game, eff: Effect) -> None:
    """Scrolls 46 / 34: one more exchange-office use / luxury good with the same assistant, or stop."""
    player = eff["p"]
    options: list[Any] = [o for o in souk_options(g, player) if o.startswith(eff["kind"] + ":")]
    if not options:
        return
    pick = g.pick(eff, player, Msg("Another exchange-office use with the same assistant?") if eff["kind"] == "office"
                  else Msg("Another luxury good with the same assistant?"), [*options, DONE])
    if pick == DONE:
        return
    kind, _, arg = pick.partition(":")
    follow: Effect = ({"k": "office", "p": player, "colour": arg} if kind == "office"
                      else {"k": "luxury", "p": player, "tile": int(arg)})
    g.push(follow, {"k": "souk_more", "p": player, "kind": kind})


# --- any sector action --------------------------------------------------------------------------------

@handler("scroll64")
def scroll64(g: Game, eff: Effect) -> None:
    """Scroll 64: 1 keshi of choice (or marker +1), then that sector's action (digest A16)."""
    options = gainable_colours(g, eff["p"])
    if not options:
        return
    colour = g.pick(eff, eff["p"], Msg("Scroll 64: which keshi (its sector's action follows)?"), options)
    g.push({"k": "gain", "p": eff["p"], "colour": colour}, {"k": "scroll64_action", "p": eff["p"], "colour": colour})


@handler("scroll64_action")
def scroll64_action(g: Game, eff: Effect) -> None:
    """The action of the sector the scroll-64 keshi went to (red: its vendor's sector; goods: the souk)."""
    p = g.p(eff["p"])
    colour = eff["colour"]
    if colour == "red":
        if not p.water_vendors:
            return
        sector = p.water_vendors[-1]
    else:
        sector = "souk" if colour in GOODS else COLOUR_SECTOR[colour]
    if action_possible(g, eff["p"], sector):
        g.push(sector_action_effect(eff["p"], sector))


# --- oases and points ---------------------------------------------------------------------------------

@handler("score_oasis_now")
def score_oasis_now(g: Game, eff: Effect) -> None:
    """Scrolls 68/71: score oasis ``n`` once now (19-21: the player returns resources now, digest A18)."""
    player, number = eff["p"], eff["n"]
    p = g.p(player)
    if 19 <= number <= 21:
        kind: str = g.value(f"oasis.{number}.resource", Msg("Which resource does oasis {n} show?", n=number),
                            list(RESOURCES))
        n = g.pick(eff, player,
                   Msg("Return how many {kind} to score oasis {n} now?", kind=resource_name(kind), n=number),
                   list(range(min(12, p.resources[kind]) + 1)))
        p.resources[kind] -= n
        p.add_points("scrolls", 3 + n)
        return
    p.add_points("scrolls", oasis_value(g, player, number))


@handler("scroll71")
def scroll71(g: Game, eff: Effect) -> None:
    """Scroll 71: score one claimed oasis now; it still scores at the end."""
    p = g.p(eff["p"])
    if not p.claimed_oases:
        return
    number = g.pick(eff, eff["p"], Msg("Scroll 71: which claimed oasis do you score now?"),
                    sorted(set(p.claimed_oases)))
    g.push({"k": "score_oasis_now", "p": eff["p"], "n": number})


@handler("scroll72")
def scroll72(g: Game, eff: Effect) -> None:
    """Scroll 72: return any number of resources, 2 points each."""
    p = g.p(eff["p"])
    returned = {kind: g.pick(eff, eff["p"],
                             Msg("Scroll 72: return how many {kind} (2 points each)?", kind=resource_name(kind)),
                             list(range(p.resources[kind] + 1))) for kind in RESOURCES if p.resources[kind]}
    for kind, n in returned.items():
        p.resources[kind] -= n
    p.add_points("scrolls", 2 * sum(returned.values()))


# --- provisions ----------------------------------------------------------------------------------------

@handler("provisions_44")
def provisions_44(g: Game, eff: Effect) -> None:
    """Scroll 44 (optional, digest A30): 1 dinar once, then any 1 resource per provision tile."""
    player = eff["p"]
    use44 = g.pick(eff, player, Msg("Scroll 44: pay 1 dinar and then only 1 resource of any type per provision "
                                       "tile?"), ["yes", "no"])
    if use44 == "no":
        g.push({"k": "provisions", "p": player, "skip44": True})
        return
    g.push({"k": "pay", "p": player, "cost": {"dinars": 1}},
           {"k": "pay", "p": player, "cost": {"any": len(g.p(player).revealed_provisions)}})
