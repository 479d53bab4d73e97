"""Effect handlers: gaining keshis, placement bonuses, river and staircase moves, connection bonuses.

An effect is a small dict ``{"k": kind, "p": player, ...}`` on the game's effect stack. Bonuses chain
(a placement bonus moves a pawn, which crosses a threshold, whose line bonus places a keshi ...), so
each handler resolves one step and pushes what follows (digest §9.1: "resolve depth-first with an
explicit effect stack"). Handlers read every input (profile values, player choices) before they
change anything, so pausing for a decision never leaves half an effect applied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion import COLOURS
from companion.games.marrakesh.board import (
    GOODS,
    MARKER_COLOURS,
    RAPID_BONUSES,
    RESOURCES,
    SAHARA_PATHS,
    SECTOR_CAPACITY,
    SQUARE_BONUSES,
    TRACK_MAX,
)
from companion.i18n import Msg, path_name, sector_name

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

Effect = dict[str, Any]
Handler = Callable[["Game", Effect], None]
HANDLERS: dict[str, Handler] = {}

#: Called as ``hook(game, player, which, new_position)`` before a staircase pawn moves up one step;
#: a hook reads every printed value it needs first (it may pause for a question), then changes state.
STEP_HOOKS: list[Callable[[Game, int, str, int], None]] = []
#: Called as ``hook(game, player, palace_segment, mosque_segment)``: the bonuses on that connection line
#: when an expansion changes the printed ones (expansion 1's staircase tiles); None = the printed line.
LINE_HOOKS: list[Callable[[Game, int, int], list[str] | None]] = []

#: Sahara paths with expansion 5: the start oasis is covered, both upper paths get a 4th (desert-town) space.
DESERT_TOWN_PATHS: dict[str, int] = {"left": 4, "right": 4, "start": 0}


def sahara_paths(g: Game) -> dict[str, int]:
    """Caravan spaces per Sahara path in this game (EN:L1117-1160; expansion 5 EN:L1525-1545)."""
    return DESERT_TOWN_PATHS if 5 in g.s.setup.get("expansions", ()) else SAHARA_PATHS

#: What the table may say a river space is (asked once per space, EN:L762-795, L1203-1245).
RIVER_SPACE_KINDS: list[str] = ["plain"] + [f"rapid:{b}" for b in RAPID_BONUSES] + ["jetty"]

#: Every bonus kind that can be printed on a staircase connection line (EN:L965-992).
LINE_BONUS_KINDS: list[str] = (
    ["date", "water", "river_step", "any_keshi", "two_keshis"]
    + [f"dinars:{n}" for n in range(1, 5)]
    + [f"points:{n}" for n in range(1, 8)]
    + [f"keshi:{c}" for c in COLOURS]
)


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the handler of effect ``kind``."""

    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return register


# --- capacity ------------------------------------------------------------------------------------

def room(g: Game, player: int, colour: str, pending: int = 0) -> int:
    """How many more keshis of ``colour`` fit on ``player``'s board (digest §8.1, A2, A3).

    ``pending`` counts keshis already claimed this phase but not yet exchanged.
    """
    p = g.p(player)
    if colour in GOODS:
        return 10**6  # the souk is never full (EN:L634-636)
    if colour in MARKER_COLOURS:
        used = p.markers[colour]
        cap = TRACK_MAX
    elif colour == "pink":
        used, cap = len(p.entertainers), SECTOR_CAPACITY
    elif colour == "beige":
        used, cap = p.guards(), SECTOR_CAPACITY
    elif colour == "brown":
        used, cap = p.caravans(), sum(sahara_paths(g).values())
    else:  # red: one per free water-vendor space (digest A3)
        used, cap = len(p.water_vendors), 8
    return max(0, cap - used - pending)


def gainable_colours(g: Game, player: int, *, goods: bool = True) -> list[str]:
    """Colours of which ``player`` could place a keshi (or advance a marker) now."""
    return [c for c in COLOURS if (goods or c not in GOODS) and room(g, player, c) > 0]


# --- gaining keshis ------------------------------------------------------------------------------

@handler("gain")
def gain(g: Game, eff: Effect) -> None:
    """Place 1 keshi of ``colour`` ("any" / "goods": the player picks) with its placement bonus."""
    player, colour = eff["p"], eff["colour"]
    if colour == "any":
        options = gainable_colours(g, player)
        if not options:
            return
        colour = g.pick(eff, player, Msg("Which keshi do you take (or marker do you advance)?"), options)
    elif colour == "goods":
        colour = g.pick(eff, player, Msg("Which goods keshi do you take?"), list(GOODS))
    p = g.p(player)
    if room(g, player, colour) <= 0:
        return  # complete sector: the keshi goes back to the supply (EN:L1095)
    if colour in GOODS:
        p.goods[colour] += 1
    elif colour in MARKER_COLOURS:
        p.markers[colour] += 1
        if colour == "green":
            p.add_points("green_steps", 1)  # placement bonus: 1 point per step (EN:L882-884)
    elif colour == "beige":
        p.watchtower += 1  # new guards go onto the watchtower (EN:L1044-1050)
    elif colour == "pink":
        g.push({"k": "place_pink", "p": player})
    elif colour == "brown":
        g.push({"k": "place_brown", "p": player})
    elif colour == "red":
        g.push({"k": "place_red", "p": player})


@handler("place_pink")
def place_pink(g: Game, eff: Effect) -> None:
    """An entertainer goes on a free main-square space; its bonus once (EN:L825-832)."""
    p = g.p(eff["p"])
    free = [b for b in SQUARE_BONUSES if b not in p.entertainers]
    space = g.pick(eff, eff["p"], Msg("Which main-square space does the entertainer take?"), free)
    p.entertainers.append(space)
    g.push({"k": "square_bonus", "p": eff["p"], "bonus": space, "times": 1})
    if 54 in p.scrolls:  # scroll 54: the bonuses of both adjacent spaces too
        g.push({"k": "square_neighbours", "p": eff["p"], "space": space})


@handler("place_red")
def place_red(g: Game, eff: Effect) -> None:
    """A water vendor goes to any sector whose water-vendor space is empty (EN:L616-624)."""
    p = g.p(eff["p"])
    sector = g.pick(eff, eff["p"], Msg("Which sector gets the water vendor?"), p.free_vendor_sectors())
    p.water_vendors.append(sector)


@handler("place_brown")
def place_brown(g: Game, eff: Effect) -> None:
    """A caravan goes on the next space of a Sahara path and discovers what lies there (EN:L1117-1147)."""
    p = g.p(eff["p"])
    paths = [name for name, length in sahara_paths(g).items()
             if p.sahara[name] < length and (p.sahara[name] < 3 or g.s.desert_town_display)]
    if not paths:  # expansion 5: no desert town left for a 4th space; the keshi returns to the supply
        return
    path = g.pick(eff, eff["p"], Msg("Which Sahara path does the caravan take?"), paths)
    step = p.sahara[path] + 1
    if step == 4:  # expansion 5: the desert-town space (+4 points and a town from the display)
        g.push({"k": "place_town", "p": eff["p"], "path": path})
        return
    if path != "start":
        index = (0 if path == "left" else 3) + step - 1
        if p.oases[index] == 0:  # table draws: the oasis is unknown until it is turned up
            seen = {n for q in g.s.players for n in q.oases}
            p.oases[index] = g.draw(eff, "draw.oasis",
                                    Msg("Which oasis did {player} discover ({path} path, space {step})?",
                                        player=p.name, path=path_name(path), step=step),
                                    [n for n in range(1, 31) if n not in seen])
    p.sahara[path] = step
    if path == "start":
        if step == 1:  # right space first: any 2 resources (EN:L1141-1147)
            g.push({"k": "resource", "p": eff["p"], "cat": "sahara"}, {"k": "resource", "p": eff["p"], "cat": "sahara"})
        else:
            p.add_points("sahara", 2)
    else:
        index = (0 if path == "left" else 3) + step - 1
        p.discovered[index] = True
        if 68 in p.scrolls:  # scroll 68: a discovered oasis scores once at once
            g.push({"k": "score_oasis_now", "p": eff["p"], "n": p.oases[index]})


# --- simple gains ----------------------------------------------------------------------------------

@handler("resource")
def resource(g: Game, eff: Effect) -> None:
    """1 resource of the player's choice."""
    kind = g.pick(eff, eff["p"], Msg("Which resource do you take?"), list(RESOURCES))
    g.p(eff["p"]).resources[kind] += 1


@handler("points")
def points(g: Game, eff: Effect) -> None:
    """Fixed points under a breakdown category."""
    g.p(eff["p"]).add_points(eff["cat"], eff["n"])


@handler("square_bonus")
def square_bonus(g: Game, eff: Effect) -> None:
    """A main-square space's bonus ``times`` times (EN:L852-875); multiplied goods share one colour."""
    player, bonus, times = eff["p"], eff["bonus"], eff["times"]
    p = g.p(player)
    if times <= 0:
        return
    if bonus == "goods":
        colour = g.pick(eff, player, Msg("Which goods colour do you take ({times})?", times=times), list(GOODS))
        p.goods[colour] += times
    elif bonus in ("water", "date", "dinar"):
        p.resources[{"water": "water", "date": "dates", "dinar": "dinars"}[bonus]] += times
    elif bonus == "2_points":
        p.add_points("main_square", 2 * times)
    elif bonus == "river_step":
        g.push({"k": "river", "p": player, "steps": times})
    else:
        g.push({"k": "stair", "p": player, "which": bonus.split("_")[0], "steps": times})


# --- river -----------------------------------------------------------------------------------------

@handler("river")
def river(g: Game, eff: Effect) -> None:
    """Advance the fisherman ``steps``; afterwards the player may buy steps with water (EN:L770-772)."""
    if eff["steps"] <= 0:
        return
    steps = [{"k": "river_step", "p": eff["p"]} for _ in range(eff["steps"])]
    g.push(*steps, {"k": "water_boost", "p": eff["p"]})


@handler("water_boost")
def water_boost(g: Game, eff: Effect) -> None:
    """Pay any amount of water for as many extra river steps."""
    p = g.p(eff["p"])
    if p.resources["water"] == 0:
        return
    n = g.pick(eff, eff["p"], Msg("Pay water for extra river steps (1 water = 1 step)?"),
               list(range(p.resources["water"] + 1)))
    p.resources["water"] -= n
    g.push(*[{"k": "river_step", "p": eff["p"]} for _ in range(n)])


def river_space(g: Game, space: int) -> str:
    """What river space ``space`` is (asked of the table the first time anyone reaches it)."""
    kind: str = g.value(f"river.space.{space}",
                        Msg("What is river space {space} (counting from the start)?", space=space), RIVER_SPACE_KINDS)
    return kind


@handler("river_step")
def river_step(g: Game, eff: Effect) -> None:
    """One river step: move on, anchor at the jetty, or score at the jetty (EN:L775-794)."""
    p = g.p(eff["p"])
    if p.jetty_spot is not None:
        p.add_points("jetty", 2 if 56 in p.scrolls else 1)
        return
    nxt = p.fisherman + 1
    kind = river_space(g, nxt)
    if kind == "jetty":
        rank = g.s.jetty_taken + 1
        spot: int = g.value(f"river.jetty.{rank}",
                            Msg("How many points does jetty spot #{rank} from the top show?", rank=rank),
                            list(range(1, 9)))
        g.s.jetty_taken = rank
        p.jetty_spot = spot
        p.add_points("jetty", spot)
    g.s.arrivals += 1
    old = p.fisherman
    p.fisherman = nxt
    p.fisherman_arrival = g.s.arrivals
    p.river_steps += 1
    crossed = g.s.profile.get(f"river.space.{old}", "plain") if old > 0 else "plain"
    if 17 in p.scrolls and crossed.startswith("rapid:"):  # scroll 17: the crossed rapid's bonus (A14)
        g.push({"k": "rapid_bonus", "p": eff["p"], "bonus": crossed.split(":", 1)[1]})


def passed_rapids(g: Game, player: int) -> list[str]:
    """Bonus kinds of the rapids ``player``'s fisherman is beyond (EN:L1200-1211, digest A10)."""
    p = g.p(player)
    out = []
    for space in range(1, p.fisherman):
        kind = g.s.profile.get(f"river.space.{space}", "plain")
        if kind.startswith("rapid:"):
            out.append(kind.split(":", 1)[1])
    return out


@handler("rapid_bonus")
def rapid_bonus(g: Game, eff: Effect) -> None:
    """Receive one rapid bonus (1 point, 3 points, 1 resource or 1 goods keshi); scroll 60 doubles it."""
    times = 2 if 60 in g.p(eff["p"]).scrolls else 1
    bonus = eff["bonus"]
    for _ in range(times):
        if bonus == "1_point":
            g.push({"k": "points", "p": eff["p"], "cat": "river_bonus", "n": 1})
        elif bonus == "3_points":
            g.push({"k": "points", "p": eff["p"], "cat": "river_bonus", "n": 3})
        elif bonus == "resource":
            g.push({"k": "resource", "p": eff["p"]})
        else:
            g.push({"k": "gain", "p": eff["p"], "colour": "goods"})


# --- palace and mosque -------------------------------------------------------------------------------

#: Where segments 2 and 3 may begin: segment 4 begins at step 11 (desert town 05 example).
SEGMENT_PAIRS: list[list[int]] = [[a, b] for a in range(1, 10) for b in range(a + 1, 11)]


def segment_starts(g: Game, which: str) -> list[int]:
    """First step of segments 2-5 of ``which`` staircase (4 thresholds, EN:L1025-1043)."""
    pair = g.value(f"{which}.segment_starts",
                   Msg("On the {which} staircase, which steps begin segments 2 and 3 (counting from the start)?",
                       which=sector_name(which)),
                   SEGMENT_PAIRS)
    four: int = g.value(f"{which}.segment4_start",
                        Msg("Which {which} step begins segment 4?", which=sector_name(which)), list(range(3, 16)))
    final: int = g.value(f"{which}.final_step", Msg("Which {which} step is the final space?", which=sector_name(which)),
                          list(range(4, 21)))
    return [pair[0], pair[1], four, final]


def segment(starts: list[int], position: int) -> int:
    """Segment 1-5 of a staircase position."""
    return 1 + sum(1 for s in starts if position >= s)


@handler("stair")
def stair(g: Game, eff: Effect) -> None:
    """Climb ``steps`` on the palace or mosque staircase (scroll 48: +1 step)."""
    p = g.p(eff["p"])
    steps = eff["steps"] + (1 if 48 in p.scrolls and eff["steps"] > 0 else 0)
    boost = [{"k": "stair_boost", "p": eff["p"], "which": eff["which"]}] if steps and {26, 27} & set(p.scrolls) else []
    g.push(*[{"k": "stair_step", "p": eff["p"], "which": eff["which"]} for _ in range(steps)], *boost)


@handler("stair_step")
def stair_step(g: Game, eff: Effect) -> None:
    """One staircase step: on the final space 1 point instead; a threshold gives 1 dinar + a line bonus."""
    which, player = eff["which"], eff["p"]
    p = g.p(player)
    starts = segment_starts(g, which)
    position: int = getattr(p, which)
    if position >= starts[-1]:
        bonus_scroll = 52 if which == "palace" else 49
        p.add_points(f"{which}_final", 2 if bonus_scroll in p.scrolls else 1)
        return
    segment_starts(g, "mosque" if which == "palace" else "palace")  # the line needs both staircases
    for hook in STEP_HOOKS:
        hook(g, player, which, position + 1)
    setattr(p, which, position + 1)
    if position + 1 in starts:
        p.thresholds += 1
        p.resources["dinars"] += 1  # EN:L952-958
        extras = {13: "water", 14: "dates", 15: "dinars"}
        for scroll, res in extras.items():
            if scroll in p.scrolls:
                p.resources[res] += 1
        follow: list[Effect] = [{"k": "line_bonus", "p": player}]
        if 16 in p.scrolls:
            follow.append({"k": "river", "p": player, "steps": 1})
        g.push(*follow)


def line_bonuses(g: Game, player: int) -> list[str]:
    """The bonuses printed on the line between the segments of ``player``'s two staircase pawns."""
    p = g.p(player)
    ps = segment(segment_starts(g, "palace"), p.palace)
    ms = segment(segment_starts(g, "mosque"), p.mosque)
    for hook in LINE_HOOKS:
        changed = hook(g, ps, ms)
        if changed is not None:
            return changed
    bonuses: list[str] = g.value(f"line.{ps}.{ms}",
                                 Msg("Which bonuses are printed on the line between palace segment {ps} "
                                     "and mosque segment {ms}?", ps=ps, ms=ms), LINE_BONUS_KINDS, multi=True)
    return bonuses


@handler("line_bonus")
def line_bonus(g: Game, eff: Effect) -> None:
    """Take 1 bonus of the connection line (EN:L952-992)."""
    player = eff["p"]
    options = line_bonuses(g, player)
    bonus = g.pick(eff, player, Msg("Which connection bonus do you take?"), options)
    taken = [bonus]
    others = [b for b in options if b != bonus]
    if 63 in g.p(player).scrolls and others:  # scroll 63: 2 different bonuses of the line
        taken.append(g.pick(eff, player, Msg("Scroll 63: which second, different connection bonus?"), others))
    g.push(*[e for b in taken for e in bonus_effects(player, b)])


def bonus_effects(player: int, bonus: str) -> list[Effect]:
    """The effects of one line-bonus kind."""
    if bonus == "date":
        return [{"k": "res", "p": player, "res": "dates", "n": 1}]
    if bonus == "water":
        return [{"k": "res", "p": player, "res": "water", "n": 1}]
    if bonus == "river_step":
        return [{"k": "river", "p": player, "steps": 1}]
    if bonus == "any_keshi":
        return [{"k": "gain", "p": player, "colour": "any"}]
    if bonus == "two_keshis":
        return [{"k": "gain_two", "p": player}]
    kind, _, arg = bonus.partition(":")
    if kind == "dinars":
        return [{"k": "res", "p": player, "res": "dinars", "n": int(arg)}]
    if kind == "points":
        return [{"k": "points", "p": player, "cat": "line_bonus", "n": int(arg)}]
    return [{"k": "gain", "p": player, "colour": arg}]


@handler("res")
def res(g: Game, eff: Effect) -> None:
    """Gain ``n`` of one resource."""
    g.p(eff["p"]).resources[eff["res"]] += eff["n"]


@handler("gain_two")
def gain_two(g: Game, eff: Effect) -> None:
    """Any 2 keshis of the same colour (or one marker 2 steps) (EN:L970-974)."""
    options = gainable_colours(g, eff["p"])
    if not options:
        return
    colour = g.pick(eff, eff["p"], Msg("Which colour do you take twice?"), options)
    g.push({"k": "gain", "p": eff["p"], "colour": colour}, {"k": "gain", "p": eff["p"], "colour": colour})


@handler("scroll_keshi")
def scroll_keshi(g: Game, eff: Effect) -> None:
    """Scrolls 01-12: the depicted keshi (colour printed on the tile, asked once)."""
    colour: str = g.value(f"scroll.{eff['n']}.colour", Msg("Which keshi colour does scroll {n} show?", n=eff["n"]),
                          list(COLOURS))
    g.push({"k": "gain", "p": eff["p"], "colour": colour})


@handler("scroll_goods")
def scroll_goods(g: Game, eff: Effect) -> None:
    """Scrolls 37-42: both depicted goods keshis (printed pair, asked once)."""
    pairs = [[a, b] for i, a in enumerate(GOODS) for b in GOODS[i:]]
    pair: list[str] = g.value(f"scroll.{eff['n']}.goods",
                              Msg("Which two goods keshis does scroll {n} show?", n=eff["n"]), pairs)
    g.push(*[{"k": "gain", "p": eff["p"], "colour": c} for c in pair])


@handler("gain_of")
def gain_of(g: Game, eff: Effect) -> None:
    """1 keshi of one of ``colours`` (river tile 13: entertainer, caravan or guard)."""
    options = [c for c in eff["colours"] if room(g, eff["p"], c) > 0]
    if not options:
        return
    colour = g.pick(eff, eff["p"], Msg("Which keshi do you take?"), options)
    g.push({"k": "gain", "p": eff["p"], "colour": colour})


@handler("stair_choice")
def stair_choice(g: Game, eff: Effect) -> None:
    """``steps`` on the palace or the mosque staircase (river tile 11)."""
    which = g.pick(eff, eff["p"], Msg("{steps} step(s) on which staircase?", steps=eff["steps"]), ["palace", "mosque"])
    g.push({"k": "stair", "p": eff["p"], "which": which, "steps": eff["steps"]})
