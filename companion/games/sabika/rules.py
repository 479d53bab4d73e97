"""Turn rules: Work and Rest (L440-500), when an action is possible, board setup and Starting Tiles.

``work_problem`` is the single check behind both ``Game.apply(Work(...))`` and the legal-move list:
a move is legal when its Dinars can be paid and the destination offers at least one action the
player can carry out afterwards (L480-481). "Can pay" counts Seals, which may pay Dinars (L744-745).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from companion.games.sabika import solo
from companion.games.sabika.components import (
    CITIES,
    MINOR_POEM_DISPLAY,
    RAWS,
    WORKER_RING,
)
from companion.games.sabika.questions import latest_asking, lazy, printed_question, token_keys, tokens_later
from companion.games.sabika.rondel import Spot, move_cost, secondary_cost
from companion.games.sabika.routes import export_costs
from companion.games.sabika.say import ACTION_SAY, COLOUR_SAY, RING_SAY, WORKER_SAY, Said
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game
    from companion.games.sabika.state import GameState, PlayerState


def budget(p: PlayerState) -> int:
    """Dinars a player can pay: Dinars plus Seals (each Seal pays 1 Dinar, L744-745)."""
    return p.dinars + p.seals


def occupancy(g: Game, seat: int) -> dict[tuple[str, int], int]:
    """Workers of other players (lying or standing) and Sultan's Workers per square (L469-473)."""
    out: dict[tuple[str, int], int] = {}
    for ring, square in g.s.sultan_workers:
        out[ring, square] = out.get((ring, square), 0) + 1
    for other, p in enumerate(g.s.players):
        if other != seat:
            for name, worker in p.workers.items():
                if worker.at is not None:
                    key = (WORKER_RING[name], worker.at)
                    out[key] = out.get(key, 0) + 1
    return out


def work_problem(g: Game, seat: int, worker: str, square: int) -> Msg | None:
    """Why ``seat`` may not work ``worker`` on ``square`` (None: the move is legal; ``legal_squares`` agrees)."""
    p = g.s.players[seat]
    ring = WORKER_RING[worker]
    who = Msg("{player}'s {worker}", player=p.name, worker=WORKER_SAY[worker])
    layout = g.layout
    if square not in layout.squares[ring]:
        return Msg("Rondel squares (L457-462): the {ring} has no usable square {n} for {who}", ring=RING_SAY[ring],
                   n=square, who=who)
    at = p.workers[worker].at
    if at == square:
        return Msg("movement (L457-458): {who} must move clockwise to another square, not stay on square {n}", who=who,
                   n=square)
    if ring == "outer":
        partner = "builder2" if worker == "builder1" else "builder1"
        if p.workers[partner].at == square:
            return Msg("Master Builders (L459-461): {player}'s 2 Master Builders can never occupy the same square {n}",
                       player=p.name, n=square)
    cost = move_cost(layout.steps(ring, at, square), occupancy(g, seat).get((ring, square), 0), g.event())
    if cost > budget(p):
        return Msg("movement costs (L464-473): {who} needs {cost} Dinars to reach square {n}, {player} has {money}",
                   who=who, cost=cost, n=square, player=p.name, money=budget(p))
    left = budget(p) - cost
    try:
        if main_possible(g, seat, layout.action_at(ring, square), left, square):
            return None
        if any(secondary_possible(g, seat, spot, ring, left) for spot in layout.spots_at(ring, square)):
            return None
    except KeyError as missing:
        _unprinted(g, missing)
        return None
    return Msg("at least one action (L480-481): {player} could carry out neither the {action} Action nor a Secondary "
               "Action on square {n}", player=p.name, action=ACTION_SAY[layout.action_at(ring, square)], n=square)


def _unprinted(g: Game, missing: KeyError) -> None:
    """A lazy game does not know yet a printed value the action check reads (a square's action, a card): the
    move is legal by the movement rules and the value is asked when the Worker lands (``Game._unknown``)."""
    if printed_question(g.s, missing.args[0] if missing.args else None) is None:
        raise missing


def legal_squares(g: Game, seat: int, worker: str,
                  shared: tuple[dict[tuple[str, int], int], dict[tuple[str, int | None], list[int]]] | None = None,
                  ) -> list[int]:
    """Every square ``work_problem`` accepts for this Worker (the same checks, computed in one pass).

    ``shared`` = (``occupancy``, a memo of Main Actions possible) may be passed for all of one
    player's Workers at once: nothing changes between the checks. Whether a Main Action is possible
    only grows with the Dinars left, so the memo keeps, per action, the least amount known to be
    enough and the most known to be too little.
    """
    p = g.s.players[seat]
    ring = WORKER_RING[worker]
    layout, event = g.layout, g.event()
    usable = layout.squares[ring]
    at = p.workers[worker].at
    start = usable.index(at) if at is not None and at in usable else None
    partner = p.workers["builder2" if worker == "builder1" else "builder1"].at if ring == "outer" else None
    occupied, main = shared if shared is not None else (occupancy(g, seat), {})
    money = budget(p)
    free, per_other = (1 if event == 11 else 2), (2 if event == 12 else 1)  # move_cost, inlined
    size = len(usable)
    out = []
    for index, square in enumerate(usable):
        if square in (at, partner):
            continue
        steps = 0 if start is None else (index - start) % size
        left = money - max(0, steps - free) - occupied.get((ring, square), 0) * per_other
        if left < 0:
            continue
        try:
            if _square_possible(g, seat, ring, square, left, main):
                out.append(square)
        except KeyError as missing:  # lazy game: legal by the movement rules (``_unprinted``)
            _unprinted(g, missing)
            out.append(square)
    return out


def _square_possible(g: Game, seat: int, ring: str, square: int, left: int,
                     main: dict[tuple[str, int | None], list[int]]) -> bool:
    """Whether an action on ``square`` is possible with ``left`` Dinars (``main``: ``legal_squares``' memo)."""
    action = g.layout.action_at(ring, square)
    known = main.setdefault((action, square if action == "storehouse" else None), [1 << 30, -1])
    if left >= known[0]:
        possible = True
    elif left <= known[1]:
        possible = False
    else:
        possible = main_possible(g, seat, action, left, square)
        known[0 if possible else 1] = left
    return possible or any(secondary_possible(g, seat, spot, ring, left) for spot in g.layout.spots_at(ring, square))


def storehouse_side(g: Game, square: int | None) -> list[int]:
    """Which Storehouse Tile display(s) a Storehouse square uses: the k-th square clockwise uses pile k (mod 2)."""
    if square is None:
        return [0, 1]
    usable = g.layout.squares["outer"]
    squares = [sq for sq in usable[:usable.index(square) + 1] if g.layout.action_at("outer", sq) == "storehouse"]
    return [squares.index(square) % 2]


def main_possible(g: Game, seat: int, action: str, left: int, square: int | None = None) -> bool:
    """Whether ``seat`` can carry out Main Action ``action`` with ``left`` Dinars (plus Seals) to spend."""
    p = g.s.players[seat]
    if action in ("minor_quarry", "major_quarry", "market", "artisanal"):
        return True
    if action == "storehouse":
        return storehouse_possible(g, seat, square)
    if action == "construction":
        return major_possible(g, seat) or minor_possible(g, seat)
    if action == "major_construction":
        return major_possible(g, seat)
    if action == "minor_construction":
        return minor_possible(g, seat)
    if action == "export":
        return bool(export_options(g, seat, left))
    if action == "consolidate":  # Event 10: it costs 1 Dinar (L1171)
        return any(side == "left" for side in p.ships.values()) and left >= (g.event() == 10)
    if action == "produce":
        return bool(p.ships) or bool(p.raws)
    if action == "carve":
        return carve_possible(g, seat, left)
    if action == "reactivate":
        return bool(p.red_poems)
    raise AssertionError(f"unknown action {action}")


def secondary_possible(g: Game, seat: int, spot: Spot, ring: str, left: int) -> bool:
    """Whether ``seat`` can carry out Secondary Action ``spot`` from ``ring`` with ``left`` to spend."""
    if secondary_cost(spot, ring, g.event()) > left:
        return False
    if spot.kind == "marble" or not tokens_out(g.s):  # not set out yet: nobody has taken its token
        return True
    return g.s.raw_spots[spot.k - 1] is not None or bool(g.s.players[seat].raws)


def storehouse_possible(g: Game, seat: int, square: int | None) -> bool:
    """Whether ``expand_options`` or ``activate_options`` offers anything (without wording the options)."""
    p = g.s.players[seat]
    if any(p.storehouses):
        return True
    return any(len(p.storehouses[k]) < 2 for k in range(4)) and any(
        t is not None for i in storehouse_side(g, square) for t in g.s.store_display[i])


def expand_options(g: Game, seat: int, square: int | None) -> list[str]:
    """Storehouse expansions: ``"Storehouse Tile T on Storehouse K"`` (at most 2 per Storehouse, L520-529)."""
    p = g.s.players[seat]
    tiles = [t for i in storehouse_side(g, square) for t in g.s.store_display[i] if t is not None]
    return [Said(Msg("Storehouse Tile {n} on Storehouse {k}", n=t, k=k + 1)) for t in tiles for k in range(4)
            if len(p.storehouses[k]) < 2]


def activate_options(g: Game, seat: int) -> list[str]:
    """Visible Storehouse Tiles whose Bonus can be earned (not the Starting ones, L533-541)."""
    p = g.s.players[seat]
    return [Said(Msg("activate Storehouse {k}", k=k + 1)) for k in range(4) if p.storehouses[k]]


def major_possible(g: Game, seat: int) -> bool:
    """A Major Construction needs a Tile of the current Era and 1 Gypsum (L594-607)."""
    return bool(g.s.major_tiles.get(g.s.era())) and g.s.players[seat].items["gypsum"] > 0


def minor_possible(g: Game, seat: int) -> bool:
    """A Minor Construction needs a Card whose base Material the player has (L647-652)."""
    p = g.s.players[seat]
    return any(c is not None and p.items[g.s.profile[f"minor_card.{c}.base"]] > 0 for c in g.s.minor_display)


def export_options(g: Game, seat: int, left: int) -> list[int]:
    """Cities (1-9) the player can export to: no presence, a route, affordable; needs a Ship and a Good (L712-733)."""
    p = g.s.players[seat]
    if p.ships_home() == 0 or not any(p.items[good] for good in ("sugar", "clothes", "pottery")):
        return []
    costs = export_costs(g.s.profile, p.ships, int(g.event() == 9))
    return [c for c in range(1, CITIES + 1) if c not in p.ships and c in costs and costs[c] <= left]


def poem_cost(p: PlayerState, colour: str, event: int = 0) -> int:
    """Dinars to carve a Poem: blue 1, red 2, grey 4, +1 per Poem of that colour already carved (L810-818).

    Events 2 and 6: 1 Dinar less / more (L1153, L1162; never below 0).
    """
    if colour == "blue":
        cost = 1 + len(p.blue_poems)
    elif colour == "red":
        cost = 2 + len(p.red_poems)
    else:
        cost = 4 + len(p.grey_poems)
    return max(0, cost + {2: -1, 6: 1}.get(event, 0))


def carve_possible(g: Game, seat: int, left: int) -> bool:
    """Whether ``carve_options`` offers anything (without wording the options)."""
    p = g.s.players[seat]
    if not any(p.items[m] for m in ("gypsum", "wood", "marble")):
        return False
    event = g.event()
    if any(m is not None for m in g.s.poem_display) and min(poem_cost(p, "blue", event),
                                                            poem_cost(p, "red", event)) <= left:
        return True
    return (len(p.grey_poems) < 2 and poem_cost(p, "grey", event) <= left
            and any(poem is not None for poem in g.s.major_poems))


def carve_options(g: Game, seat: int, left: int) -> list[str]:
    """Poems ``seat`` can carve now: ``"blue Minor Poem 7"``, ``"grey Major Poem C3"`` (needs a base Material)."""
    p = g.s.players[seat]
    if not any(p.items[m] for m in ("gypsum", "wood", "marble")):
        return []
    out: list[str] = []
    for m in g.s.poem_display:
        if m is not None:
            out += [Said(Msg("{colour} Minor Poem {n}", colour=COLOUR_SAY[colour], n=m)) for colour in ("blue", "red")
                    if poem_cost(p, colour, g.event()) <= left]
    if len(p.grey_poems) < 2 and poem_cost(p, "grey", g.event()) <= left:
        out += [Said(Msg("grey Major Poem {n}", n=poem)) for poem in g.s.major_poems if poem is not None]
    return out


def work_effects(g: Game, seat: int, worker: str, square: int) -> list[dict[str, Any]]:
    """Move (paying), lay down, then carry out the square's actions, then the next turn (L454-478)."""
    p = g.s.players[seat]
    ring = WORKER_RING[worker]
    cost = move_cost(g.layout.steps(ring, p.workers[worker].at, square), occupancy(g, seat).get((ring, square), 0),
                     g.event())
    p.workers[worker].at = square
    p.workers[worker].active = False
    return [{"k": "pay", "p": seat, "n": cost, "why": "the move"},
            {"k": "act", "p": seat, "w": worker, "sq": square},
            {"k": "end_turn", "p": seat}]


def rest_effects(g: Game, seat: int, worker: str) -> list[dict[str, Any]]:
    """Rest: back to the Workshop lying down, +3 Dinars, -1 PP (L489-494)."""
    p = g.s.players[seat]
    p.workers[worker].at = None
    p.workers[worker].active = False
    p.dinars += 3
    p.gain_pp(-1, "rest")
    return [{"k": "end_turn", "p": seat}]


def finish_board_setup(g: Game) -> None:
    """After the board questions: tokens on the Rondel, Sultan's Workers, the 2-player tile removal (L64-92)."""
    s = g.s
    n = len(s.players)
    s.discard = dict.fromkeys(RAWS, 0)
    if not tokens_later(s) or all(key in s.profile for key in token_keys(s)):
        set_out_tokens(g)
    if n < 4:
        squares = (s.profile[f"sultan.{n}p.squares"] if latest_asking(s) else  # games saved before: one by one
                   [s.profile[f"sultan.{n}p.{k}"] for k in range(1, int(s.profile[f"sultan.{n}p.count"]) + 1)])
        for spot in squares:
            ring, square = str(spot).split()
            s.sultan_workers.append([ring, int(square)])
    if n == 2 and not lazy(s):  # a lazy game removes them when Era II begins (``round_end.h_narrator``)
        remove_two_player_tiles(s, s.profile["major.II.two_player_removed"])
    assert len(s.poem_display) == MINOR_POEM_DISPLAY[n]
    s.phase = "start_tiles"
    if solo.is_solo(s):
        g.push({"k": "yusuf_setup"})


def tokens_out(s: GameState) -> bool:
    """Whether the companion has set out the Rondel's tokens (the bag filled, ``set_out_tokens``)."""
    return bool(s.bag)


def set_out_tokens(g: Game) -> None:
    """The bag filled, a Raw Material drawn for each Raw Material square and a Marble on each Marble square
    (L64-73): at setup, or in a game setting them out later (``questions.tokens_later``) when play first
    reaches one; its printed values are read first (``KeyError``: asked). Nothing happens once they are out.

    At setup of a game saved before, the draws are ``reveal`` effects; later the draws are made at once
    from the seed and the square, never the in-play counter, so the same tokens lie there whenever
    the table answers.
    """
    s = g.s
    if tokens_out(s):
        return
    raws, marbles, per_type = (int(s.profile[key]) for key in token_keys(s))
    s.bag = dict.fromkeys(RAWS, per_type)
    s.raw_spots = [None] * raws
    s.marble_spots = [True] * marbles
    if not tokens_later(s):
        g.push(*[{"k": "reveal", "what": "raw", "slot": k, "sub": 0} for k in range(raws)])
        return
    for k in range(raws):
        s.raw_spots[k] = bag_draw(s, random.Random(f"{s.setup['seed']}/set out/{k}"))


def bag_draw(s: GameState, rng: random.Random) -> str:
    """One token drawn from the bag (which must not be empty) with ``rng``."""
    raw = rng.choice([r for r in RAWS for _ in range(s.bag[r])])
    s.bag[raw] -= 1
    return raw


def remove_two_player_tiles(s: GameState, removed: list[int]) -> None:
    """The Era II Major Construction Tiles marked for removal in 2-player games (``removed``) leave (L64-92)."""
    s.major_tiles["II"] = [t for t in s.major_tiles["II"] if t not in removed]


def start_tiles_step(g: Game) -> None:
    """Starting Tiles (L151-162): each chooses one in secret; then start player, Bonuses, Dinars, Paria pile."""
    s = g.s
    alone = solo.is_solo(s)
    for seat, p in enumerate(s.players):
        if p.start_tile is None and not solo.is_yusuf(s, seat):
            g.push({"k": "start_tile", "p": seat})
            return
    start = (solo.YUSUF if alone  # Yusuf starts the first round (L1224-1226)
             else max(range(len(s.players)), key=lambda i: s.players[i].start_tile or 0))
    order = s.order(start)
    printed = [(seat, int(s.profile[f"start_dinars.{pos}"]),  # read before anything changes (``Game._unknown``)
                list(s.profile[f"start_tile.{s.players[seat].start_tile}.bonus"]))
               for pos, seat in enumerate(order, start=1)
               if not solo.is_yusuf(s, seat)]  # Yusuf: no Dinars, no Starting Tile (L1216-1226)
    s.start_player = start
    for pos, seat in enumerate(reversed(order)):  # the starting player's Paria token on top of the pile
        s.players[seat].paria_stamp = pos + 1
    s.stamp = len(order)
    effects: list[dict[str, Any]] = []
    for seat, dinars, icons in printed:
        s.players[seat].dinars += dinars
        effects.append({"k": "gain", "p": seat, "icons": icons, "src": "start"})
    s.phase = "actions"
    s.turn = s.start_player
    g.push(*effects)
