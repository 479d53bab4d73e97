"""The Classic edition (2022) as a variant: ``ClassicGame`` overrides the hooks of the Essential ``Game``.

Sources: ``CLA:Lnnn`` = ``shared/rules/marrakesh-classic-en.md`` line; ``§15.n`` = row n of the
Essential-vs-Classic table in ``RULES_DIGEST.md``. Where the two disagree the Classic rulebook wins.

How Classic differs and where it is done:

* All keshis are wooden (300, 25 per colour, CLA:L52-56, §15.1) and stay on the player boards.
  The five "marker" sectors (river, date orchard, madrasa, palace, mosque) hold the keshis
  themselves (§15.2): the engine keeps their count in ``PlayerState.markers`` (shown as
  ``sector_keshis`` in ``to_dict``), so every action strength (river steps, dates, scholars,
  staircase steps, §15.3/12), the complete-sector rule (8 keshis, §15.5), the one-space-left rule
  (7 keshis = 1 free space, §15.6), the green deployment bonus per keshi (§15.8) and final scoring
  (8 keshis + water vendor, §15.27/28) are the Essential code reading a keshi count.
* Every keshi that lands on a board comes out of the wooden supply and every keshi returned (goods
  at the exchange office or for luxury goods, the storage exchange icon) goes back
  (``_handle`` accounts for each effect); claimed keshis are deployed at once (§15.4, CLA:L349).
* Supply shortage (CLA:L58, §15.23): when a colour's supply is empty, a keshi of that colour on a
  board is exchanged for a keshi of another colour from the supply and keeps counting as the
  original colour (``stand_ins``). The placeholder rule of Essential does not exist.
* Scrolls lie in 3 stacks per colour on the academy (§15.10, CLA:L235, L578-580) and luxury goods
  in 5 souk shops (§15.13, CLA:L238, L465); a bought top is replaced at the end of the turn, an
  empty stack takes the lower half (rounded down) of the largest other stack (digest A24 for the
  shops); the 1-dinar refresh moves the top of each stack of one colour to its bottom (§15.11).
* The storage exchange icon may take back a start-oasis caravan (§15.18, CLA:L699-701).
* Lap tiles 100/200 (§15.9). Water-vendor income only from a vendor deployed in an earlier turn
  (§15.21, CLA:L296); scroll 50 pays only with the sector action (§15.42).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar

from companion import COLOURS
from companion.games.marrakesh.actions import Action
from companion.games.marrakesh.board import GOODS, MARKER_COLOURS, UNKNOWN
from companion.games.marrakesh.effects import Effect, handler
from companion.games.marrakesh.game import Game
from companion.games.marrakesh.scoring import red_keshis
from companion.games.marrakesh.sectors import DONE, return_keshi, returnable_keshis
from companion.games.marrakesh.setup import initial_state
from companion.games.marrakesh.state import GameState, PlayerState
from companion.games.marrakesh.variants import register
from companion.i18n import Msg, colour_name

WOODEN_PER_COLOUR = 25  # CLA:L52-56
LAP = 100  # CLA:L130, L234
ACADEMY_STACKS = 3  # CLA:L235
SOUK_SHOPS = 5  # CLA:L238


@lru_cache(maxsize=1)
def classic_board_data() -> dict[str, Any]:
    """The parsed ``data/classic_board.json`` (read once)."""
    text = resources.files("companion.games.marrakesh").joinpath("data/classic_board.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def classic_shipped_values() -> dict[str, Any]:
    """Classic board values the Classic rulebook text proves: key -> value (sources in the data file)."""
    return {key: entry["value"] for key, entry in classic_board_data()["values"].items()}


@dataclass
class ClassicState(GameState):
    """The Essential state plus the Classic academy, souk shops and supply stand-ins."""

    academy: dict[str, list[list[int]]] = field(default_factory=dict)
    """Scroll colour -> its 3 academy stacks, top first (the top is face up when ``academy_open``)."""
    academy_open: dict[str, list[bool]] = field(default_factory=dict)
    shops: list[list[int]] = field(default_factory=list)
    """The 5 souk shops, top first (the top is face up when ``shops_open``)."""
    shops_open: list[bool] = field(default_factory=list)
    stand_ins: list[list[list[str]]] = field(default_factory=list)
    """Per seat: ``[counted colour, physical colour]`` of each board keshi exchanged in a shortage."""
    fresh_vendors: list[str] = field(default_factory=list)
    """Sectors where the player on turn deployed a water vendor during this turn (no income yet)."""


def board_keshis(p: PlayerState) -> dict[str, int]:
    """Keshis on ``p``'s player board by the colour they count as (the storage track excluded)."""
    counts = dict(p.markers)
    counts.update(p.goods)
    counts["pink"] = len(p.entertainers)
    counts["beige"] = p.guards()
    counts["brown"] = p.caravans()
    counts["red"] = red_keshis(p)  # water vendors, scroll 57's souk vendor included
    return counts


def _holdings(p: PlayerState) -> dict[str, int]:
    """Board keshis plus the wooden keshis standing on the supply board's storage track."""
    counts = board_keshis(p)
    for c in p.storage_keshis:
        if c != UNKNOWN:  # table draws: a keshi not named yet is still counted in the supply
            counts[c] += 1
    return counts


#: The colours of ``_counts``'s values, in order.
COUNT_ORDER: tuple[str, ...] = (*MARKER_COLOURS, *GOODS, "pink", "beige", "brown", "red")
_markers_of = operator.itemgetter(*MARKER_COLOURS)
_goods_of = operator.itemgetter(*GOODS)


def _counts(p: PlayerState) -> tuple[int, ...]:
    """``board_keshis(p)`` as a tuple in ``COUNT_ORDER`` (cheap enough to take around every effect)."""
    return (*_markers_of(p.markers), *_goods_of(p.goods), len(p.entertainers), p.guards(), p.caravans(),
            red_keshis(p))


def _deal(display: list[int], rest: list[int], stacks: int) -> list[list[int]]:
    """Deal face-down tiles into ``stacks`` stacks of equal size under the given face-up tops."""
    size = len(rest) // stacks
    return [[top, *rest[i * size:(i + 1) * size]] for i, top in enumerate(display)]


@register
class ClassicGame(Game):
    """Marrakesh Classic (2022): the Essential engine with the Classic hooks (module docstring)."""

    edition: ClassVar[str] = "classic"
    lap: ClassVar[int] = LAP
    s: ClassicState
    _open_tops: int
    """Face-up academy and shop tops after the last sync (a derived cache, not game state)."""

    # --- setup --------------------------------------------------------------------------------------

    def _initial_state(self, setup: dict[str, Any]) -> ClassicState:
        base = initial_state(setup)
        s = ClassicState(**{f.name: getattr(base, f.name) for f in fields(GameState)})
        s.profile = {**classic_shipped_values(), **setup["profile"]}
        for c in COLOURS:  # 25 wooden keshis, minus 1 per screen and the storage-track keshis (CLA:L263)
            s.supply[c] = WOODEN_PER_COLOUR - len(s.players) - sum(p.storage_keshis.count(c) for p in s.players)
        for p in s.players:
            p.markers = {c: 0 for c in MARKER_COLOURS}  # empty sectors: no markers in Classic
        asked = setup.get("asked", ())  # table draws: displays left out are turned up before the first toss
        for colour, stack in setup["scroll_stacks"].items():
            s.academy[colour] = _deal(stack[:ACADEMY_STACKS], stack[ACADEMY_STACKS:], ACADEMY_STACKS)
            s.academy_open[colour] = [True] * ACADEMY_STACKS if "scroll_display" not in asked else [False] * 3
        s.shops = _deal(setup["luxury_stack"][:SOUK_SHOPS], setup["luxury_stack"][SOUK_SHOPS:], SOUK_SHOPS)
        s.shops_open = [True] * SOUK_SHOPS if "luxury_display" not in asked else [False] * SOUK_SHOPS
        s.stand_ins = [[] for _ in s.players]
        self._sync_displays(s)
        return s

    # --- views ----------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The Essential view; the five sectors' keshi counts are ``sector_keshis`` (no markers)."""
        out = super().to_dict()
        for p in out["players"]:
            p["sector_keshis"] = p.pop("markers")
        return out

    def wooden_in_play(self, colour: str) -> int:
        """Every wooden keshi of ``colour``, wherever it is; always 25 (the conservation invariant)."""
        s = self.s
        physical = sum(_holdings(p)[colour] for p in s.players)
        for pairs in s.stand_ins:
            physical -= sum(1 for counted, _ in pairs if counted == colour)
            physical += sum(1 for _, real in pairs if real == colour)
        selected = sum(p.selected.count(colour) for p in s.players) if s.phase == "select" else 0
        return (physical + s.supply[colour] + sum(p.screen[colour] for p in s.players) + selected
                + s.tower_inside[colour] + s.display[colour] + sum(p.claimed.count(colour) for p in s.players))

    def undo(self) -> Action:
        """Take back the last action (the base replays the log) and refresh the display cache."""
        last = super().undo()
        self._open_tops = _opened(self.s)
        return last

    # --- hooks ------------------------------------------------------------------------------------------

    def _after_claim(self, seat: int) -> None:
        """Claim & deploy (CLA:L349): each claimed keshi goes onto the board at once, with its bonus."""
        p = self.s.players[seat]
        for c in p.claimed:
            self.s.supply[c] += 1  # handed to ``gain``, which takes it from the supply again
        self.push(*[{"k": "gain", "p": seat, "colour": c} for c in p.claimed])
        p.claimed = []

    def _handle(self, eff: Effect) -> None:
        """Run the effect, then move the wooden keshis it placed or returned out of / into the supply."""
        s = self.s
        # An effect places keshis on its own player's board only ("p"); effects without one are checked for all.
        seats = [eff["p"]] if isinstance(eff.get("p"), int) else range(len(s.players))
        before = [(seat, _counts(s.players[seat]), tuple(s.players[seat].storage_keshis)) for seat in seats]
        on_turn = (s.start_player + s.turn) % len(s.players) if s.phase == "assistants" else None
        vendors = len(s.players[on_turn].water_vendors) if on_turn is not None else 0
        try:
            override = CLASSIC_HANDLERS.get(eff["k"])
            if override is None:
                super()._handle(eff)
            else:
                override(self, eff)
        finally:
            moved = False
            for seat, counts, storage in before:
                p = s.players[seat]
                now = _counts(p)
                if now != counts:
                    moved = True
                    for colour, old, new in zip(COUNT_ORDER, counts, now, strict=True):
                        s.supply[colour] -= new - old
                    self._settle_stand_ins(seat)
                if tuple(p.storage_keshis) != storage:
                    moved = True
                    # a keshi not named yet (table draws) was never taken out of the supply
                    for colour in (c for c in storage if c != UNKNOWN):
                        s.supply[colour] += 1
                    for colour in (c for c in p.storage_keshis if c != UNKNOWN):
                        s.supply[colour] -= 1
            if on_turn is not None and len(s.players[on_turn].water_vendors) > vendors:
                s.fresh_vendors += s.players[on_turn].water_vendors[vendors:]
            if moved and min(s.supply.values()) < 0:
                for c in COLOURS:
                    self._cover_shortage(c)
            if eff["k"] in _DISPLAY_KINDS or _shown(s) != self._open_tops:
                self._sync_displays(s)

    def _settle_stand_ins(self, seat: int) -> None:
        """A keshi that left the board was a stand-in when no keshi of the real colour is left there."""
        s = self.s
        pairs = s.stand_ins[seat]
        if not pairs:
            return
        counts = board_keshis(s.players[seat])
        for counted in {c for c, _ in pairs}:
            while sum(1 for c, _ in pairs if c == counted) > counts[counted]:
                index = max(i for i, (c, _) in enumerate(pairs) if c == counted)
                _, real = pairs.pop(index)
                s.supply[counted] -= 1
                s.supply[real] += 1

    def _cover_shortage(self, colour: str) -> None:
        """CLA:L58: an empty supply of ``colour`` is refilled by exchanging a board keshi of that colour
        for one of another colour from the supply (it keeps counting as ``colour``)."""
        s = self.s
        while s.supply[colour] < 0:
            seat = next((i for i in s.order() if board_keshis(s.players[i])[colour]
                         > sum(1 for c, _ in s.stand_ins[i] if c == colour)), None)
            spare = max((c for c in COLOURS if c != colour), key=lambda c: s.supply[c])
            if seat is None or s.supply[spare] <= 0:
                raise RuntimeError(f"Classic supply exhausted: no {colour} keshi to exchange on any board")
            s.stand_ins[seat].append([colour, spare])
            s.supply[spare] -= 1
            s.supply[colour] += 1

    def _refill_screens(self) -> None:
        """Each player takes 1 keshi of every colour (CLA:L795-804); a shortage is covered by CLA:L58."""
        s = self.s
        for seat in s.order(s.season_player):
            for c in COLOURS:
                s.players[seat].screen[c] += 1
                s.supply[c] -= 1
                self._cover_shortage(c)

    def _water_vendor_income(self, seat: int, sector: str, mode: str) -> None:
        """+1 water "if they had deployed a red water vendor in this sector during a previous turn"
        (CLA:L296: the only Classic passage on a vendor deployed in the same turn; the rule at CLA:L721-725
        just says "a sector containing a water vendor"); scroll 35: 2 water instead; scroll 50: +2 points
        with the sector action only (§15.40, §15.42)."""
        p = self.s.players[seat]
        if sector not in p.water_vendors or sector in self.s.fresh_vendors:
            return
        p.resources["water"] += 2 if 35 in p.scrolls else 1
        if 50 in p.scrolls and mode == "action":
            p.add_points("scrolls", 2)

    def _refill_effects(self) -> list[Effect]:
        """End of a player's turn: new tops on emptied academy stacks and souk shops (CLA:L465, L578-580)."""
        s = self.s
        s.fresh_vendors = []
        effects: list[Effect] = [{"k": "academy_top", "colour": colour, "stack": i}
                                 for colour, stacks in s.academy.items()
                                 for i in range(len(stacks)) if not s.academy_open[colour][i]]
        effects += [{"k": "shop_top", "shop": i} for i in range(len(s.shops)) if not s.shops_open[i]]
        return effects

    # --- academy and souk shops --------------------------------------------------------------------------

    def _sync_displays(self, s: ClassicState) -> None:
        """Keep the displays (the open tops) and the stacks in step after an effect.

        A face-up top that left the display was bought (a player holds it: it leaves its stack) or
        refreshed (it goes to the bottom of its stack, CLA:L600-602); either way the stack is closed
        until a new top is revealed.
        """
        held_scrolls = {n for p in s.players for n in p.scrolls}
        for colour, stacks in s.academy.items():
            opened = s.academy_open[colour]
            shown = s.scroll_display.get(colour, [])
            for i, stack in enumerate(stacks):
                if opened[i] and stack and stack[0] not in shown:
                    top = stack.pop(0)
                    if top not in held_scrolls:
                        stack.append(top)
                    opened[i] = False
            s.scroll_display[colour] = [st[0] for st, up in zip(stacks, opened, strict=True) if up and st]
            s.scroll_stacks[colour] = [n for st, up in zip(stacks, opened, strict=True) for n in (st[1:] if up else st)]
        held_goods = {n for p in s.players for n in p.luxury_goods}
        for i, shop in enumerate(s.shops):
            if s.shops_open[i] and shop and shop[0] not in s.luxury_display:
                top = shop.pop(0)
                if top not in held_goods:
                    shop.append(top)
                s.shops_open[i] = False
        s.luxury_display = [sh[0] for sh, up in zip(s.shops, s.shops_open, strict=True) if up and sh]
        s.luxury_stack = [n for sh, up in zip(s.shops, s.shops_open, strict=True) for n in (sh[1:] if up else sh)]
        self._open_tops = _opened(s)


def _shown(s: ClassicState) -> int:
    """Tiles in the scroll and luxury displays."""
    return sum(len(tiles) for tiles in s.scroll_display.values()) + len(s.luxury_display)


def _opened(s: ClassicState) -> int:
    """Academy stacks and souk shops whose top is face up (equal to ``_shown`` unless a tile left)."""
    return sum(sum(flags) for flags in s.academy_open.values()) + sum(s.shops_open)


def _refilled(stacks: list[list[int]], index: int) -> list[list[int]]:
    """The stacks after an empty one takes the lower half (rounded down) of the largest other stack."""
    out = [list(st) for st in stacks]
    if out[index]:
        return out
    donor = max((i for i in range(len(out)) if i != index), key=lambda i: len(out[i]))
    half = len(out[donor]) // 2
    if half:
        out[index] = out[donor][-half:]
        del out[donor][-half:]
    return out


def _reveal(g: Game, eff: Effect, stacks: list[list[int]], index: int, key: str, prompt: Msg) -> list[list[int]]:
    """``stacks`` with stack ``index``'s top named (table draws: the table names it, moved on top)."""
    out = _refilled(stacks, index)
    if not out[index] or not g.s.setup.get("table_draws"):
        return out
    hidden = sorted(n for i, st in enumerate(out) for n in (st if i == index else st[1:]))
    number = g.draw(eff, key, prompt, hidden)
    for st in out:  # the engine's order of a face-down stack is unknown at a table: swap the named tile up
        if number in st:
            where = st.index(number)
            st[where], out[index][0] = out[index][0], st[where]
            break
    return out


def _classic(g: Game) -> ClassicState:
    if not isinstance(g, ClassicGame):
        raise TypeError("academy and souk-shop effects exist only in the Classic edition")
    return g.s


@handler("academy_top")
def academy_top(g: Game, eff: Effect) -> None:
    """Reveal a new top on an academy stack at the end of a turn (refilled first if empty, CLA:L578-580)."""
    s = _classic(g)
    colour, index = eff["colour"], eff["stack"]
    if s.academy_open[colour][index]:
        return
    stacks = _reveal(g, eff, s.academy[colour], index, f"draw.scroll.{colour}",
                     Msg("Which {colour} scroll was revealed on academy stack {n}?", colour=colour_name(colour),
                         n=index + 1))
    s.academy[colour] = stacks
    s.academy_open[colour][index] = bool(stacks[index])
    s.scroll_display[colour] = [st[0] for st, up in zip(stacks, s.academy_open[colour], strict=True) if up and st]


@handler("shop_top")
def shop_top(g: Game, eff: Effect) -> None:
    """Reveal a new luxury good on a souk shop at the end of a turn (refilled first if empty, CLA:L465)."""
    s = _classic(g)
    index = eff["shop"]
    if s.shops_open[index]:
        return
    shops = _reveal(g, eff, s.shops, index, "draw.luxury",
                    Msg("Which luxury good was revealed on souk shop {n}?", n=index + 1))
    s.shops = shops
    s.shops_open[index] = bool(shops[index])
    s.luxury_display = [sh[0] for sh, up in zip(shops, s.shops_open, strict=True) if up and sh]


def refresh_tops(g: Game, eff: Effect) -> None:
    """After a 1-dinar refresh the closed stacks of the colour show new tops at once (CLA:L600-602).

    Replaces the Essential ``reveal_scroll``: the old tops already went under their own stacks.
    """
    s = _classic(g)
    colour = eff["colour"]
    stacks = s.academy[colour]
    for index in range(len(stacks)):
        if not s.academy_open[colour][index] and stacks[index]:
            stacks = _reveal(g, eff, stacks, index, f"draw.scroll.{colour}",
                             Msg("Which {colour} scroll was revealed on academy stack {n}?",
                                 colour=colour_name(colour), n=index + 1))
    s.academy[colour] = stacks
    s.academy_open[colour] = [bool(st) for st in stacks]
    s.scroll_display[colour] = [st[0] for st in stacks if st]


def exchange_icon(g: Game, eff: Effect) -> None:
    """Classic storage exchange icon (CLA:L699-701, §15.18): only "a brown caravan standing next to a
    discovered or claimed oasis" is protected, so a caravan of the start oasis - which has no oasis tile
    beside it - may be returned (the later, left space first; digest A27)."""
    p = g.p(eff["p"])
    options: list[Any] = [DONE, *returnable_keshis(p)] + (["brown:start"] if p.sahara["start"] else [])
    pick = g.pick(eff, eff["p"], Msg("Return which keshi (to take 1 of another colour)?"), options)
    if pick == DONE:
        return
    if pick == "brown:start":
        p.sahara["start"] -= 1
        returned = "brown"
    else:
        returned = return_keshi(p, pick)
    g.push({"k": "gain_other", "p": eff["p"], "not": returned})


def _nothing(g: Game, eff: Effect) -> None:
    """Classic ``scroll_under``: the refreshed tops went under their stacks when they left the display."""


#: Effect kinds that open stacks: the stacks' face-down lists are derived again after them.
_DISPLAY_KINDS: frozenset[str] = frozenset({"academy_top", "shop_top", "reveal_scroll"})

#: Essential effect kinds whose Classic handling differs.
CLASSIC_HANDLERS: dict[str, Callable[[Game, Effect], None]] = {
    "reveal_scroll": refresh_tops, "scroll_under": _nothing, "exchange_icon": exchange_icon}
