"""Solo mode (L1187-1489): the automa Yusuf, seat 1 beside the one human player (seat 0).

Yusuf acts without input: each turn he turns up one of his 4 Worker Tiles (L1233-1238), then the top
Card of that Worker's Deck (L1240-1251), moves the Worker to the Card's square and lays it down
(L1253-1282), carries out the Card's actions at no cost (L1284-1300) and earns the Card's PP and
Parias (L1431-1446). Tiles and Cards come from the seeded rng (or, with table draws, are asked as
``draw`` questions); what a Card shows is a printed value the text lacks, asked once per Card of the
table (``yusuf.<deck>.<n>.*``, kept in the profile). Where the text says "you decide" for him
(equidistant Cities, which City to consolidate), the human decides: a ``choice`` for seat 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.common.decisions import NeedInput
from companion.games.sabika import routes
from companion.games.sabika.components import BUILDING_TYPES, CITIES, WORKER_RING, WORKERS
from companion.games.sabika.handlers import Effect, gain_parias, handler
from companion.games.sabika.questions import FAVOUR_LENGTHS, YES_NO, Spec, latest_asking, question
from companion.games.sabika.rules import set_out_tokens, storehouse_side
from companion.games.sabika.say import RING_SAY, Said
from companion.games.sabika.scoring import metric
from companion.games.sabika.solo import HUMAN, YUSUF
from companion.i18n import Msg, word

if TYPE_CHECKING:
    from companion.games.sabika.game import Game
    from companion.games.sabika.state import GameState, PlayerState

DECK_SIZE = 8
"""Cards per Worker Deck for seeded draws only (the text prints no count; entered draws accept any)."""
DECKS: dict[str, str] = {"builder1": "builder", "builder2": "builder", "merchant": "merchant", "poet": "poet"}
"""Worker -> Worker Deck (L1240-1242): the 2 Master Builders share one Deck."""
DECK_RING = {"builder": "outer", "merchant": "middle", "poet": "inner"}
DECK_WORDS = {"builder": "Master Builder", "merchant": "Merchant", "poet": "Poet"}
DECK_SAY = {"builder": word("sabika", "Master Builder"), "merchant": word("sabika", "Merchant"),
            "poet": word("sabika", "Poet")}
DECK_ACTIONS: dict[str, tuple[str, ...]] = {
    "builder": ("major_construction", "minor_construction", "storehouse"),  # L1306-1348
    "merchant": ("export", "consolidate"),  # L1352-1394
    "poet": ("carve",),  # L1400-1418
}
REWARDS: tuple[str, ...] = (
    "nothing", *(f"pp:{n}" for n in range(1, 7)), *(f"parias:{n}" for n in range(1, 4)),
    "per_major", "per_minor", "per_presence", "per_consolidated", "per_poem",  # L1441-1454
)
SPECIAL = {"per_major": "major_constructions", "per_minor": "minor_constructions", "per_presence": "presence",
           "per_consolidated": "consolidated", "per_poem": "poems"}
F1 = "F1"
"""Major Poem removed in solo games (L1195-1196)."""


def action_options(deck: str) -> list[str]:
    """What a Card's middle can show: nothing, one action, or 2 actions top to bottom (L1290-1296)."""
    singles = DECK_ACTIONS[deck]
    pairs = [f"{a}+{b}" for a in singles for b in singles if a != b]
    return ["none", *singles, *pairs]


def card_specs(squares: dict[str, list[int]], deck: str, card: int) -> list[tuple[str, Msg, list[Any], bool]]:
    """The printed values of Yusuf's Card (key, prompt, options, multi); ``squares``: each ring's usable squares."""
    ring = DECK_RING[deck]
    what = Msg("Yusuf's {deck} Card {n}", deck=DECK_SAY[deck], n=card)
    key = f"yusuf.{deck}.{card}"
    return [
        (f"{key}.square", Msg("{what}: which square of the {ring} is shown at the top?", what=what,
                              ring=RING_SAY[ring]), list(squares[ring]), False),
        (f"{key}.discard", Msg("{what}: does it show the discard icon (Raw Material / Marble)?", what=what), YES_NO,
         False),
        (f"{key}.actions", Msg("{what}: which action(s) in the middle, top to bottom?", what=what),
         action_options(deck), False),
        (f"{key}.reward", Msg("{what}: what does Yusuf earn at the bottom?", what=what), list(REWARDS), True),
    ]


def ask_card(g: Game, deck: str, card: int) -> None:
    """Pause on the first printed value of the Card not in the profile (a question kept in the profile)."""
    for key, prompt, options, multi in card_specs(g.layout.squares, deck, card):
        if key not in g.s.profile:
            raise NeedInput(question(key, prompt, options, multi=multi))


def new_state(draws: dict[str, Any]) -> dict[str, Any]:
    """Yusuf's piles at setup: the 3 shuffled Worker Decks (L1228-1231), empty Discard Piles (table draws:
    the Decks stay face down and each Card turned up is asked)."""
    decks = draws.get("yusuf_decks", {})
    return {"decks": {d: list(decks.get(d, [])) for d in DECK_RING}, "discards": {d: [] for d in DECK_RING},
            "card": None, "carved": 0}


# --- setup -----------------------------------------------------------------------------------------


def trade_cities_spec(card: int) -> Spec:
    """The question naming the Cities that meet Trade Card ``card``'s scoring criteria (the text prints none)."""
    return (f"solo.trade.{card}.cities", Msg("Solo mode: which Cities meet the scoring criteria of Trade Card {n}?",
                                             n=card), list(range(1, CITIES + 1)), True, None)


def trade_cities(g: Game) -> list[int]:
    """Cities meeting the Trade Card's scoring criteria: asked of the table."""
    key, prompt, options, multi, _ = trade_cities_spec(g.s.trade_card)
    if key not in g.s.profile:
        raise NeedInput(question(key, prompt, options, multi=multi))
    return sorted(int(c) for c in g.s.profile[key])


def closest(g: Game, eff: Effect, cities: list[int], start: dict[int, str], why: Msg) -> int | None:
    """The City of ``cities`` cheapest to reach from Granada or ``start``; the human breaks ties (L1210-1211)."""
    if len(cities) == 1 and latest_asking(g.s):  # nothing to compare: the Map is not needed yet
        return cities[0]
    costs = routes.export_costs(g.s.profile, start)
    reachable = [c for c in cities if c in costs] or cities
    if not reachable:
        return None
    best = min(costs.get(c, 0) for c in reachable)
    tied = {Said(Msg("City {n}", n=c)): c for c in reachable if costs.get(c, 0) == best}
    return tied[g.pick(eff, HUMAN, Msg("You decide for Yusuf: {why}", why=why), list(tied))]


@handler
def h_yusuf_setup(g: Game, eff: Effect) -> None:
    """Yusuf's first Ship, consolidated, on the nearest City meeting the Trade Card; he takes its Seal (L1205-1211)."""
    s = g.s
    y = s.players[YUSUF]
    city = closest(g, eff, trade_cities(g), {}, Msg("which nearest City meeting the Trade Card gets his first Ship?"))
    if city is None:
        return
    y.ships[city] = "right"
    take_seal(s, y, city)


def take_seal(s: GameState, y: PlayerState, city: int) -> None:
    """Yusuf takes the City's Seal (no City Bonus, L1360-1362)."""
    if s.seals[city - 1]:
        s.seals[city - 1] = False
        y.seals += 1


# --- a turn --------------------------------------------------------------------------------------


@handler
def h_yusuf_turn(g: Game, eff: Effect) -> None:
    """Turn up a Worker Tile (L1233-1238): one of the Tiles of his standing Workers."""
    s = g.s
    standing = s.players[YUSUF].active_workers()
    tiles = sorted({DECKS[w] for w in standing})
    if s.setup.get("table_draws"):
        deck = g.draw(eff, "draw.yusuf.tile", Msg("Which Worker Tile did Yusuf turn up?"),
                      [Said(DECK_SAY[d]) for d in tiles])
        deck = next(d for d in tiles if DECK_WORDS[d] == deck)
    else:
        deck = DECKS[g.rng().choice(standing)]  # a shuffled pile: each face-down Tile equally likely
    g.push({"k": "yusuf_card", "deck": deck, "tries": 0})


@handler
def h_yusuf_card(g: Game, eff: Effect) -> None:
    """Turn up the top Card of the Deck; an exhausted Deck is reshuffled from its Discard Pile (L1240-1251)."""
    s = g.s
    deck = eff["deck"]
    y = s.yusuf
    if s.setup.get("table_draws"):
        seen = y["discards"][deck]
        fresh = [c for c in range(1, max([DECK_SIZE, *seen]) + 1) if c not in seen]
        card = int(g.draw(eff, f"draw.yusuf.{deck}", Msg("Which {deck} Card did Yusuf turn up?", deck=DECK_SAY[deck]),
                          fresh or sorted(seen)))
        if not fresh:
            seen.clear()
    else:
        if not y["decks"][deck]:
            pile = list(y["discards"][deck])
            g.rng().shuffle(pile)
            y["decks"][deck], y["discards"][deck] = pile, []
        card = y["decks"][deck].pop(0)
    y["card"] = [deck, card]
    g.push({"k": "yusuf_resolve", "deck": deck, "card": card, "tries": eff["tries"]})


def _distance(g: Game, ring: str, at: int | None, dest: int) -> int:
    """Clockwise steps to ``dest``; a Worker beside his board counts as farthest."""
    return len(g.layout.squares[ring]) if at is None else g.layout.steps(ring, at, dest)


def which_worker(g: Game, deck: str, square: int) -> str | None:
    """The Worker the Card moves: the closest standing Master Builder (clockwise, L1266-1269); None if
    the only standing one would join its partner (L1271-1273)."""
    y = g.s.players[YUSUF]
    standing = [w for w in WORKERS if DECKS[w] == deck and y.workers[w].active]
    if deck != "builder":
        return standing[0]
    if len(standing) == 2:
        return min(standing, key=lambda w: (_distance(g, "outer", y.workers[w].at, square), w))
    worker = standing[0]
    partner = next(w for w in ("builder1", "builder2") if w != worker)
    if y.workers[partner].at == square and y.workers[worker].at != square:
        return None
    return worker


@handler
def h_yusuf_resolve(g: Game, eff: Effect) -> None:
    """Move and lay down the Worker, discard from linked Secondary squares, then the actions and the reward."""
    s, deck, card = g.s, eff["deck"], eff["card"]
    ask_card(g, deck, card)
    prof, y = s.profile, s.players[YUSUF]
    key = f"yusuf.{deck}.{card}"
    square = int(prof[f"{key}.square"])
    worker = which_worker(g, deck, square)
    if worker is not None and prof[f"{key}.discard"] == "yes" and g.layout.spots_at(WORKER_RING[worker], square):
        set_out_tokens(g)  # a lazy game asks the links and sets out the tokens before anything changes
    s.yusuf["discards"][deck].append(card)
    s.yusuf["card"] = None
    if worker is None:  # the partner Master Builder is there: discard unresolved, reveal another (L1271-1273)
        if eff["tries"] < 2 * DECK_SIZE:
            g.push({"k": "yusuf_card", "deck": deck, "tries": eff["tries"] + 1})
            return
        worker = next(w for w in ("builder1", "builder2") if y.workers[w].active)  # docs: never endless
        square = y.workers[worker].at or square
    y.workers[worker].at = square
    y.workers[worker].active = False
    if prof[f"{key}.discard"] == "yes":  # L1257-1259
        for spot in g.layout.spots_at(WORKER_RING[worker], square):
            if spot.kind == "raw" and s.raw_spots[spot.k - 1] is not None:
                token = str(s.raw_spots[spot.k - 1])
                s.discard[token] = s.discard.get(token, 0) + 1
                s.raw_spots[spot.k - 1] = None
            elif spot.kind == "marble":
                s.marble_spots[spot.k - 1] = False
    actions = [] if prof[f"{key}.actions"] == "none" else str(prof[f"{key}.actions"]).split("+")
    g.push(*[{"k": f"yusuf_{a}", "sq": square} for a in actions],
           {"k": "yusuf_reward", "icons": list(prof[f"{key}.reward"])}, {"k": "end_turn", "p": YUSUF})


# --- actions ------------------------------------------------------------------------------------


def desired_types(s: GameState, kind: str) -> list[str]:
    """The Sultan's desired building types: those on the next Sultan's Wishes tile to score (docs/sabika.md)."""
    upcoming = [s.wish_track[k] for k in sorted(s.wish_track)] or s.wish_tower[-1:]
    if not upcoming:
        return []
    return [e for e in s.profile[f"wish.{upcoming[0]}.elements"] if e in BUILDING_TYPES[kind]]


@handler
def h_yusuf_major_construction(g: Game, eff: Effect) -> None:
    """Highest-numbered Era Tile of the desired type (else the highest); Favour +1, no Bonus (L1308-1318)."""
    s = g.s
    era, y = s.era(), s.players[YUSUF]
    tiles = sorted(s.major_tiles[era], reverse=True)
    if not tiles:
        return
    wanted = desired_types(s, "major")
    tile = next((t for t in tiles if (wanted or not latest_asking(s)) and s.profile[f"major.{era}.{t}.type"] in wanted),
                tiles[0])
    favour = y.favour + 1  # read before anything changes (``Game._unknown``); the track has 2 spaces or more
    if favour > min(FAVOUR_LENGTHS) or not latest_asking(s):
        favour = min(favour, int(s.profile["favour.length"]))
    s.major_tiles[era].remove(tile)
    y.major_tiles.append(f"{era}-{tile}")
    y.favour = favour


@handler
def h_yusuf_minor_construction(g: Game, eff: Effect) -> None:
    """The Card of the desired type nearest the display's end (else the last Card); no Balances (L1320-1331)."""
    s = g.s
    cards = [c for c in reversed(s.minor_display) if c is not None]
    if not cards:
        return
    wanted = desired_types(s, "minor")
    card = next((c for c in cards if (wanted or not latest_asking(s)) and s.profile[f"minor_card.{c}.type"] in wanted),
                cards[0])
    s.minor_display[s.minor_display.index(card)] = None
    s.players[YUSUF].minor_row.append(card)


@handler
def h_yusuf_storehouse(g: Game, eff: Effect) -> None:
    """The Tile with most Store Boxes beside the square, else beside the opposite one; no Bonus (L1333-1348)."""
    s = g.s
    y = s.players[YUSUF]
    room = [k for k in range(4) if len(y.storehouses[k]) < 2]  # 2 Tiles per Storehouse at most (L527)
    if not room:
        return
    on_storehouse = eff["sq"] in g.layout.squares["outer"] and g.layout.action_at("outer", eff["sq"]) == "storehouse"
    near = storehouse_side(g, eff["sq"]) if on_storehouse else [0, 1]
    for side in [*near, *(k for k in (0, 1) if k not in near)]:
        pair = s.store_display[side]
        tiles = [t for t in pair if t is not None]
        if tiles:
            tile = max(tiles, key=lambda t: (int(s.profile[f"storehouse.{t}.boxes"]), -pair.index(t)))
            pair[pair.index(tile)] = None
            y.storehouses[min(room, key=lambda k: len(y.storehouses[k]))].append(tile)
            return


@handler
def h_yusuf_export(g: Game, eff: Effect) -> None:
    """A Ship to the left of the nearest City with a Seal meeting the Trade Card, with special cases (L1352-1380)."""
    s = g.s
    y = s.players[YUSUF]
    if not y.ships_home():
        return
    wanted = trade_cities(g)
    free = [c for c in range(1, CITIES + 1) if c not in y.ships]
    for group in ([c for c in free if c in wanted and s.seals[c - 1]],
                  [c for c in free if c in wanted],
                  [c for c in free if s.seals[c - 1]],
                  free):
        if group:
            city = closest(g, eff, group, y.ships, Msg("which equally near City gets his Ship?"))
            if city is not None:
                y.ships[city] = "left"
                take_seal(s, y, city)
            return


@handler
def h_yusuf_consolidate(g: Game, eff: Effect) -> None:
    """Move a Ship right in a City meeting the Trade Card; the human picks among several; no red Bonus (L1382-1390)."""
    s = g.s
    y = s.players[YUSUF]
    wanted = trade_cities(g)
    cities = {Said(Msg("City {n}", n=c)): c for c, where in sorted(y.ships.items()) if where == "left" and c in wanted}
    if cities:
        city = cities[g.pick(eff, HUMAN, Msg("You decide for Yusuf: consolidate with which City?"), list(cities))]
        y.ships[city] = "right"


@handler
def h_yusuf_carve(g: Game, eff: Effect) -> None:
    """Minor, Major, Minor... (at most 2 Major Poems); the highest Minor, the last Major alphabetically (L1402-1413)."""
    s = g.s
    y, state = s.players[YUSUF], s.yusuf
    minors = [m for m in s.poem_display if m is not None]
    majors = sorted(p for p in s.major_poems if p is not None)
    can_major = bool(majors) and len(y.grey_poems) < 2
    if can_major and (state["carved"] % 2 == 1 or not minors):  # the other kind when one is gone (docs)
        poem = majors[-1]
        s.major_poems[s.major_poems.index(poem)] = None
        y.grey_poems.append(poem)
    elif minors:
        m = max(minors)
        s.poem_display[s.poem_display.index(m)] = None
        y.red_poems.append(m)  # kept with the red ones, effects ignored; counts as blue or red (solo.counts)
    else:
        return  # nothing to carve (docs/sabika.md)
    state["carved"] += 1


@handler
def h_yusuf_reward(g: Game, eff: Effect) -> None:
    """The PP and Parias at the bottom of the Card, and the special scores (L1431-1454)."""
    s = g.s
    y = s.players[YUSUF]
    for icon in eff["icons"]:
        if icon in SPECIAL:
            y.gain_pp(metric(s, y, SPECIAL[icon]), "yusuf_cards")
        elif icon.startswith("pp:"):
            y.gain_pp(int(icon[3:]), "yusuf_cards")
        elif icon.startswith("parias:"):
            gain_parias(g, y, int(icon[7:]))


# --- end of round and game ------------------------------------------------------------------------


def pay_tribute(g: Game, due: int) -> None:
    """Yusuf pays Parias from the track, then 1 PP each; never Seals (L1466-1468)."""
    y = g.s.players[YUSUF]
    track = min(due, y.parias)
    y.parias -= track
    if track:
        g.s.stamp += 1
        y.paria_stamp = g.s.stamp
    y.gain_pp(-(due - track), "tribute")
