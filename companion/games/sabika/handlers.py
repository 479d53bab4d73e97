"""Effect handlers: every Main, Secondary and Bonus action, resources, and the end of a round.

An effect is a small dict (``{"k": "export", "p": 2}``) on ``Game.s.stack``. Its handler asks the
player's decisions with ``g.pick`` first (the handler re-runs after each answer) and reads the
printed values it needs (a lazy game pauses there to ask one), and changes the state only after its
last decision and its last printed value, then pushes follow-up effects. Option labels are player words.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any

from companion.games.sabika import rules
from companion.games.sabika.components import (
    ACTION_ICONS,
    AMOUNT_ICONS,
    GOOD_OF,
    GOODS,
    MATERIAL_PP,
    MATERIALS,
    QUARRY_MATERIALS,
    RAWS,
    ROUNDS,
    WORDS,
    WORKER_RING,
)
from companion.games.sabika.say import ACTION_SAY, ITEM_SAY, SPOT_KEY_SAY, Said, items_say
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game
    from companion.games.sabika.state import PlayerState

Effect = dict[str, Any]
HANDLERS: dict[str, Callable[[Game, Effect], None]] = {}
RAW_OF = {good: raw for raw, good in GOOD_OF.items()}

#: What a payment is for (an effect keeps it in English, ``"why"``), as the Seals question says it.
WHY_SAY: dict[str, Msg] = {
    "the move": Msg("the move"), "the Secondary Action": Msg("the Secondary Action"), "the Poem": Msg("the Poem"),
    "the trade route": Msg("the trade route"), "consolidating (Event 10)": Msg("consolidating (Event 10)"),
    "a Raw Material": Msg("a Raw Material"), "new Minor Construction Cards": Msg("new Minor Construction Cards"),
    "Event 14": Msg("Event 14"),
    **{f"a {WORDS[m]}": Msg("a {item}", item=ITEM_SAY[m]) for m in MATERIALS},
}


def handler(fn: Callable[[Game, Effect], None]) -> Callable[[Game, Effect], None]:
    """Register ``fn`` for effects whose ``k`` is its name without the ``h_`` prefix."""
    HANDLERS[fn.__name__[2:]] = fn
    return fn


def blue(g: Game, p: PlayerState, effect: str) -> int:
    """How many of ``p``'s blue Poems have permanent effect ``effect``."""
    return sum(1 for m in p.blue_poems if g.s.profile.get(f"minor_poem.{m}.blue") == effect)


def capacity(g: Game, p: PlayerState) -> int:
    """Store Boxes: 1 per Starting Storehouse plus those of every Storehouse Tile placed (L298-303)."""
    return 4 + sum(int(g.s.profile[f"storehouse.{t}.boxes"]) for tiles in p.storehouses for t in tiles)


def gain_parias(g: Game, p: PlayerState, n: int) -> None:
    """Move the Paria token; landing on others puts it on top of the pile (L935-937, L996-1000)."""
    if n:
        p.parias += n
        g.s.stamp += 1
        p.paria_stamp = g.s.stamp


def discard_good(g: Game, good: str) -> None:
    """A used Good goes to the Discard Pile beside the bag (L727-728)."""
    g.s.discard[RAW_OF[good]] += 1


def material_sets(p: PlayerState, base: tuple[str, ...], extras: tuple[str, ...], most: int,
                  same: bool = False) -> dict[str, list[str]]:
    """Scaffold choices: one base Material of ``base`` plus up to ``most`` different extras (L607-612, L650-657).

    ``same`` (Event 4, L1157-1158): Materials of the same type may be used together.
    """
    out: dict[str, list[str]] = {}
    for b in base:
        if not p.items[b]:
            continue
        left = dict(p.items)
        left[b] -= 1
        pool = [m for m in extras for _ in range(min(left[m], most) if same else int(m != b and left[m] > 0))]
        for size in range(0, most + 1):
            for extra in combinations(pool, size):
                used = sorted([b, *extra], key=MATERIALS.index)
                out.setdefault(Said(items_say(used)), used)
    return out


def use_materials(g: Game, p: PlayerState, used: list[str], category: str, per_material: int = 0) -> None:
    """Return Materials from the Scaffold to the Reserve and score them (L614-622).

    ``per_material``: Minor Poem 10* (+1); Event 7 takes 1 PP off each Material (L1164-1165, not below 0).
    """
    for m in used:
        p.items[m] -= 1
    less = int(g.event() == 7)
    p.gain_pp(sum(max(0, MATERIAL_PP[m] + per_material - less) for m in used), category)


def wood_bonus(g: Game, p: PlayerState, used: list[str]) -> None:
    """Minor Poem 5*: using Wood in a construction gives 1 PP and 1 Paria (at most once, L1079-1081)."""
    if "wood" in used:
        n = blue(g, p, "wood_bonus")
        p.gain_pp(n, "poems")
        gain_parias(g, p, n)


# --- paying, gaining, storing --------------------------------------------------------------------------

@handler
def h_pay(g: Game, eff: Effect) -> None:
    """Pay Dinars; Seals may stand in for Dinars (L744-745)."""
    p, n = g.s.players[eff["p"]], eff["n"]
    if n <= 0:
        return
    used = 0
    if p.seals:
        low, high = max(0, n - p.dinars), min(p.seals, n)
        used = g.pick(eff, eff["p"], Msg("{player} pays {n} Dinars for {why}: how many of them with Seals?",
                                         player=p.name, n=n, why=WHY_SAY.get(eff["why"], eff["why"])),
                      list(range(low, high + 1)))
    p.seals -= used
    p.dinars -= n - used
    assert p.dinars >= 0, "a payment was allowed that the player cannot afford"


def icon_effects(seat: int, icons: list[str], src: str, chain: list[str]) -> list[Effect]:
    """The effects of a printed bonus (its icons earned left to right, L630-641).

    An action icon whose action is already among the causes (``chain``) is not carried out: a Bonus
    never repeats the action it came from (docs/sabika.md).
    """
    out: list[Effect] = []
    for icon in icons:
        name, _, amount = icon.partition(":")
        n = int(amount) if amount else 1
        if ("quarry" if name in QUARRY_MATERIALS else name) in chain:
            continue
        if name in ("dinars", "parias"):
            out.append({"k": name, "p": seat, "n": n})
        elif name == "pp":
            out.append({"k": "pp", "p": seat, "n": n, "cat": src})
        elif name in MATERIALS:
            out += [{"k": "item", "p": seat, "kind": name} for _ in range(n)]
        elif name == "material":
            out += [{"k": "material", "p": seat, "among": list(MATERIALS)} for _ in range(n)]
        elif name in ("raw", "good"):
            out += [{"k": name, "p": seat, "spot": None} for _ in range(n)]
        elif name == "transactions":
            out.append({"k": "transactions", "p": seat, "n": n})
        elif name == "process":
            out.append({"k": "process", "p": seat, "n": n, "upto": True})
        elif name in QUARRY_MATERIALS:
            out.append({"k": "quarry", "p": seat, "kind": name})
        else:
            assert name in ACTION_ICONS or name in ("major_tile_bonus", "free_ship", "red_city_action"), icon
            assert name not in AMOUNT_ICONS
            out.append({"k": name, "p": seat, "sq": None})
    return out


@handler
def h_gain(g: Game, eff: Effect) -> None:
    g.push(*icon_effects(eff["p"], eff["icons"], eff["src"], eff.get("chain", [])))


@handler
def h_dinars(g: Game, eff: Effect) -> None:
    g.s.players[eff["p"]].dinars += eff["n"]


@handler
def h_parias(g: Game, eff: Effect) -> None:
    gain_parias(g, g.s.players[eff["p"]], eff["n"])


@handler
def h_pp(g: Game, eff: Effect) -> None:
    g.s.players[eff["p"]].gain_pp(eff["n"], eff["cat"])


@handler
def h_item(g: Game, eff: Effect) -> None:
    """Store a Material or Good; when full, return/discard one held item or refuse the new one (L308-311)."""
    p, kind = g.s.players[eff["p"]], eff["kind"]
    room = p.held() < capacity(g, p)
    special = kind in GOODS and sum(p.poem_goods.values()) < 2 * blue(g, p, "goods_store")
    if room and not special:
        p.items[kind] += 1
        return
    options: dict[str, str] = {}
    item = ITEM_SAY[kind]
    if room:
        options[Said(Msg("store the {item} in a Storehouse", item=item))] = "store"
    else:
        options.update({Said(Msg("return 1 {item} to make room", item=ITEM_SAY[x])): x for x in MATERIALS + GOODS
                        if p.items[x] - p.poem_goods.get(x, 0)})
    if special:
        options[Said(Msg("store the {item} in Minor Poem 16's Storehouse (+1 PP, +1 Paria)", item=item))] = "poem"
    options[Said(Msg("leave the {item}", item=item))] = ""
    out = options[g.pick(eff, eff["p"], Msg("Where does {player}'s {item} go?", player=p.name, item=item),
                         list(options))]
    if out == "poem":  # Minor Poem 16* (L1094-1097)
        p.items[kind] += 1
        p.poem_goods[kind] += 1
        p.gain_pp(1, "poems")
        gain_parias(g, p, 1)
    elif out:
        if out != "store":
            p.items[out] -= 1
            if out in GOODS:
                discard_good(g, out)
        p.items[kind] += 1
    elif kind in GOODS:
        discard_good(g, kind)


@handler
def h_material(g: Game, eff: Effect) -> None:
    p = g.s.players[eff["p"]]
    choice = g.pick(eff, eff["p"], Msg("{player} takes 1 Material of choice:", player=p.name),
                    [Said(ITEM_SAY[m]) for m in eff["among"]])
    g.push({"k": "item", "p": eff["p"], "kind": next(m for m in eff["among"] if WORDS[m] == choice)})


def city_tile(g: Game, city: int) -> int:
    """The City Tile lying on City ``city`` (1-9)."""
    return g.s.city_tiles[city - 1]


def raw_spot_options(g: Game) -> dict[str, int]:
    return {Said(Msg("{item} (Raw Material square {n})", item=ITEM_SAY[t], n=k + 1)): k
            for k, t in enumerate(g.s.raw_spots) if t is not None}


@handler
def h_raw(g: Game, eff: Effect) -> None:
    """A Raw Material from the Rondel; one already on its Processing Space is processed instead (L224-246)."""
    s, p = g.s, g.s.players[eff["p"]]
    rules.set_out_tokens(g)
    if eff["spot"] is None:
        options = raw_spot_options(g)
        if not options:
            return  # none left on the Rondel this round (L226-228)
        k = options[g.pick(eff, eff["p"], Msg("{player} takes which Raw Material from the Rondel?", player=p.name),
                           list(options))]
    else:
        k = eff["spot"]
    raw = s.raw_spots[k]
    assert raw is not None
    if raw in p.raws:
        p.raws.remove(raw)
        g.push({"k": "item", "p": eff["p"], "kind": GOOD_OF[raw]})
    else:
        p.raws.append(raw)
        s.raw_spots[k] = None


@handler
def h_good(g: Game, eff: Effect) -> None:
    """A Good straight from the Rondel: a Raw Material token flipped into a Storehouse (L253-255)."""
    p = g.s.players[eff["p"]]
    rules.set_out_tokens(g)
    options = raw_spot_options(g)
    if not options:
        return
    prompt = Msg("{player} takes which Raw Material from the Rondel as a Good?", player=p.name)
    k = options[g.pick(eff, eff["p"], prompt, list(options))]
    raw = g.s.raw_spots[k]
    assert raw is not None
    g.s.raw_spots[k] = None
    g.push({"k": "item", "p": eff["p"], "kind": GOOD_OF[raw]})


@handler
def h_process(g: Game, eff: Effect) -> None:
    """Process (up to) ``n`` Raw Materials from the Workshop into Goods (L248-251, L787-788)."""
    p = g.s.players[eff["p"]]
    if eff["n"] <= 0 or not p.raws:
        return
    options = {Said(ITEM_SAY[r]): r for r in RAWS if r in p.raws}
    if eff["upto"]:
        options[Said(Msg("stop processing"))] = ""
    raw = options[g.pick(eff, eff["p"], Msg("{player} processes which Raw Material?", player=p.name), list(options))]
    if not raw:
        return
    p.raws.remove(raw)
    g.push({"k": "item", "p": eff["p"], "kind": GOOD_OF[raw]},
           {"k": "process", "p": eff["p"], "n": eff["n"] - 1, "upto": eff["upto"]})


@handler
def h_seal(g: Game, eff: Effect) -> None:
    """Take a City's Seal; Minor Poem 2 (blue) adds 2 Dinars and 2 PP each time (L322-325)."""
    p = g.s.players[eff["p"]]
    p.seals += 1
    n = blue(g, p, "seal_bonus")
    p.dinars += 2 * n
    p.gain_pp(2 * n, "poems")


# --- turn structure ---------------------------------------------------------------------------------------

@handler
def h_start_tile(g: Game, eff: Effect) -> None:
    p = g.s.players[eff["p"]]
    tile = g.pick(eff, eff["p"], Msg("{player} secretly keeps which Starting Tile?", player=p.name),
                  list(p.start_tiles))
    p.start_tile = tile


def _main_effect(g: Game, seat: int, ring: str, square: int) -> Effect:
    action = g.layout.action_at(ring, square)
    if action in QUARRY_MATERIALS:
        return {"k": "quarry", "p": seat, "kind": action}
    return {"k": action, "p": seat, "sq": square}


@handler
def h_act(g: Game, eff: Effect) -> None:
    """Carry out the Main and/or the Secondary Action, one after the other in either order (L475-478)."""
    seat, ring, square = eff["p"], WORKER_RING[eff["w"]], eff["sq"]
    p = g.s.players[seat]
    done = eff.get("done")
    action = g.layout.action_at(ring, square)
    options: list[str] = []
    if done != "main" and rules.main_possible(g, seat, action, rules.budget(p), square):
        options.append(Said(Msg("{action} Action", action=ACTION_SAY[action])))
    spots = {Said(Msg("Secondary Action ({kind} square {n})", kind=SPOT_KEY_SAY[spot.kind], n=spot.k)): spot
             for spot in g.layout.spots_at(ring, square)
             if rules.secondary_possible(g, seat, spot, ring, rules.budget(p))}
    if done is None or done == "main":
        options += list(spots)
    if done is not None:
        options.append(Said(Msg("no further action")))
    if not options:
        return
    first = g.pick(eff, seat, Msg("{player} carries out which action?", player=p.name), options)
    if first == "no further action":
        return
    if first in spots:
        spot = spots[first]
        follow: list[Effect] = [{"k": "secondary", "p": seat, "ring": ring, "spot": [spot.kind, spot.k]}]
        took = "secondary"
    else:
        follow = [_main_effect(g, seat, ring, square)]
        took = "main"
    if done is None:
        follow.append({"k": "act", "p": seat, "w": eff["w"], "sq": square, "done": took})
    g.push(*follow)


@handler
def h_secondary(g: Game, eff: Effect) -> None:
    """Raw Material square: take its token or process one; Marble square: its Marble or Gypsum/Wood (L868-896)."""
    s, seat = g.s, eff["p"]
    kind, k = eff["spot"]
    rules.set_out_tokens(g)
    spot = next(x for x in (g.layout.raw if kind == "raw" else g.layout.marble) if x.k == k)
    pay = {"k": "pay", "p": seat, "n": rules.secondary_cost(spot, eff["ring"], g.event()),
           "why": "the Secondary Action"}
    if kind == "raw":
        got: Effect = ({"k": "raw", "p": seat, "spot": k - 1} if s.raw_spots[k - 1] is not None
                       else {"k": "process", "p": seat, "n": 1, "upto": False})
        g.push(pay, got)
    elif s.marble_spots[k - 1]:
        s.marble_spots[k - 1] = False
        g.push(pay, {"k": "item", "p": seat, "kind": "marble"})
    else:
        g.push(pay, {"k": "material", "p": seat, "among": ["gypsum", "wood"]})


@handler
def h_end_turn(g: Game, eff: Effect) -> None:
    """Next player clockwise with a standing Worker; when none is left, the round ends (L499-500, L898-900)."""
    s = g.s
    s.refreshed = False
    n = len(s.players)
    for step in range(1, n + 1):
        seat = (eff["p"] + step) % n
        if s.players[seat].active_workers():
            s.turn = seat
            return
    last = s.round == ROUNDS
    s.phase = "final" if last else "end_round"
    g.push(*[{"k": "income", "p": seat} for seat in s.order()], {"k": "narrator"})
