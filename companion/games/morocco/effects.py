"""Engine effects: the automatic parts of a Morocco round that may stop for a decision.

An effect is a plain dict on ``GameState.stack`` (``{"k": kind, ...}``), so it shows in ``to_dict``
and survives replay. A handler that needs a player's choice or a printed value calls ``game.pick`` /
``game.value`` *before* changing anything; they raise ``NeedInput`` until the answer is in, and the
handler then runs again from the start with the answers kept on the effect (as in ``companion.games.marrakesh``).

Closing a stall follows the text's order (MOR:L115-151): rank rewards, juice sellers, workers leave,
the tile goes on (the first-placed family's market tile, or an empty stall tile), its overflow arrow
is turned, tourists move along it and become assistants; stalls this fills are scored after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.games.morocco import board, words
from companion.games.morocco.scoring import final_scoring
from companion.games.morocco.setup import OVERFLOW_KEY, PROFILE_OPTIONS
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.morocco.game import Game

Effect = dict[str, Any]
HANDLERS: dict[str, Callable[[Game, Effect], None]] = {}


def handler(kind: str) -> Callable[[Callable[[Game, Effect], None]], Callable[[Game, Effect], None]]:
    """Register the handler of effect ``kind``."""
    def register(fn: Callable[[Game, Effect], None]) -> Callable[[Game, Effect], None]:
        HANDLERS[kind] = fn
        return fn
    return register


def ranks(counts: dict[int, int]) -> dict[int, int]:
    """Place of each family by worker count: 1 + the number of families with a higher count.

    Two tied first are both 1st and the next family is 3rd (docs/morocco.md M4: the only way a
    3rd place, MOR:L131, can happen with four spaces).
    """
    return {seat: 1 + sum(1 for other in counts.values() if other > n) for seat, n in counts.items()}


@handler("close")
def close_stall(game: Game, eff: Effect) -> None:
    """Score a full stall and close it (MOR:L115-151)."""
    s = game.s
    stall, active = eff["stall"], eff["active"]
    counts: dict[int, int] = {}
    for space in board.stall_spaces(stall):
        occupant = s.spaces[space]
        if occupant is not None:
            counts[occupant[0]] = counts.get(occupant[0], 0) + board.WEIGHT[occupant[1]]
    places = ranks(counts)
    firsts = [seat for seat, place in places.items() if place == 1]
    seconds = [seat for seat, place in places.items() if place == 2]
    rewards: list[Effect] = []
    for seat in s.order(active):  # choices in turn order from the active player (M5)
        place, p = places.get(seat), s.players[seat]
        if place == 1:
            p.add_points("first_place", 5)
        elif place == 2 and len(seconds) == 1:
            p.add_points("second_place", 2)
            if p.gold < board.GOLD_MAX and s.gold_supply > 0:
                p.gold, s.gold_supply = p.gold + 1, s.gold_supply - 1
            if p.quarters > 0:
                p.quarters, p.bodyguards = p.quarters - 1, p.bodyguards + 1
        elif place in (2, 3):
            p.add_points("second_place" if place == 2 else "third_place", 1)
            rewards.append({"k": "reward", "p": seat, "stall": stall, "place": place})
    tourists: list[Effect] = []
    for space in board.stall_spaces(stall):
        occupant = s.spaces[space]
        if occupant is None:
            continue
        seat, worker = occupant
        corner = board.corner_of(space)
        if s.juice[corner]:  # MOR:L135: the token next to each of the family's workers
            s.players[seat].juice.append(s.juice[corner])
            s.juice[corner] = 0
        if worker == "assistant":
            s.players[seat].assistants += 1
        elif worker == "bodyguard":
            s.players[seat].quarters += 1  # bodyguards go back to the guards' quarters (MOR:L140)
        s.spaces[space] = None
        if worker == "tourist":
            tourists.append({"k": "tourist", "p": seat, "from": stall})
    tourists.sort(key=lambda e: s.order(active).index(e["p"]))  # MOR:L151
    owner = firsts[0] if len(firsts) == 1 and s.players[firsts[0]].market_tiles > 0 else None
    if owner is not None:
        s.tiles[stall] = owner
        s.players[owner].market_tiles -= 1
    else:  # tie for 1st (MOR:L142), nobody in the stall, or no market tile left (M7)
        s.tiles[stall] = "empty"
        s.empty_tiles = max(0, s.empty_tiles - 1)
    open_stalls = s.open_stalls()
    if open_stalls == 0:  # the LAST stall: the game ends after scoring it (MOR:L181)
        for leaving in tourists:  # with no stall left to move on to, its tourists leave the game (M8)
            s.players[leaving["p"]].tourists_gone += 1
        game.push(*rewards, {"k": "final", "reason": words.LAST_STALL_CLOSED.text})
        return
    if open_stalls <= board.FINAL_TRIGGER:
        s.final_round = True  # MOR:L179
    orient = [{"k": "orient", "stall": stall, "p": owner}] if owner is not None else []
    game.push(*rewards, *orient, *tourists)


@handler("reward")
def reward(game: Game, eff: Effect) -> None:
    """Tied 2nd or 3rd place: 1 gold coin or 1 bodyguard, the player's choice (MOR:L129-131)."""
    s = game.s
    p = s.players[eff["p"]]
    options = []
    if p.gold < board.GOLD_MAX and s.gold_supply > 0:
        options.append("gold")
    if p.quarters > 0:
        options.append("bodyguard")
    if not options:
        return  # 3 gold coins held and both bodyguards out of the quarters: nothing to take (M6)
    row, column = board.stall_row_col(eff["stall"])
    asked = Msg("Tied for place {place} at the stall in row {row}, column {column}: take 1 gold coin or 1 bodyguard?",
                place=eff["place"], row=row + 1, column=column + 1)
    pick = game.pick(eff, eff["p"], asked, options)
    if pick == "gold":
        p.gold, s.gold_supply = p.gold + 1, s.gold_supply - 1
    else:
        p.quarters, p.bodyguards = p.quarters - 1, p.bodyguards + 1


@handler("orient")
def orient(game: Game, eff: Effect) -> None:
    """The tile's owner points its overflow arrow at an adjacent stall, an open one if any (MOR:L147)."""
    s = game.s
    stall, owner = eff["stall"], eff["p"]
    neighbours = board.stall_neighbours(stall)
    open_dirs = [d for d, target in neighbours.items() if s.tiles[target] is None]
    options = open_dirs or list(neighbours)
    r, c = board.stall_row_col(stall)
    direction = game.pick(eff, owner, Msg("Which neighbouring stall does the overflow arrow of the stall in row {row}, "
                                          "column {column} point at?", row=r + 1, column=c + 1), options)
    target = neighbours[direction]
    if s.tiles[target] is None:
        game.value(OVERFLOW_KEY, Msg("How much does one market tile's overflow arrow add to the worker count "
                                     "of the stall it points at?"), list(PROFILE_OPTIONS[OVERFLOW_KEY]))
        s.overflow[target] += 1
    s.arrows[stall] = direction
    if s.tiles[target] is None:
        game.enqueue(target)


@handler("tourist")
def move_tourist(game: Game, eff: Effect) -> None:
    """A tourist moves along the overflow arrow and becomes one of its family's assistants (MOR:L149-151)."""
    s = game.s
    seat, stall = eff["p"], eff["from"]
    p = s.players[seat]
    arrow = s.arrows[stall]
    target = board.stall_neighbours(stall)[arrow] if arrow is not None else None
    free: list[int] = []
    if target is not None and s.tiles[target] is None and p.assistants > 0:
        free = [sp for sp in board.stall_spaces(target) if s.spaces[sp] is None]
    if target is not None and free:  # otherwise the tourist just leaves the game (M8)
        options = [list(divmod(sp, board.SPACES_PER_SIDE)) for sp in free]
        r, c = board.stall_row_col(target)
        y, x = game.pick(eff, seat, Msg("Where in the stall in row {row}, column {column} does your tourist go?",
                                        row=r + 1, column=c + 1), options)
        s.spaces[y * board.SPACES_PER_SIDE + x] = [seat, "assistant"]
        p.assistants -= 1
        game.enqueue(target)
    p.tourists_gone += 1


@handler("wild")
def wild_cube(game: Game, eff: Effect) -> None:
    """The market die's wild face: each player takes a cube of their choice (MOR:L69-71)."""
    colour = game.pick(eff, eff["p"], Msg("The market die shows the wild face: which cube do you take?"),
                       list(board.CUBE_COLOURS))
    game.s.players[eff["p"]].cubes[colour] += 1


@handler("keep")
def keep_cube(game: Game, eff: Effect) -> None:
    """Round end: a player stores one information cube; the rest go back to the supply (MOR:L173)."""
    p = game.s.players[eff["p"]]
    held = [c for c in board.CUBE_COLOURS if p.cubes[c]]
    if not held:
        return
    kept = game.pick(eff, eff["p"], Msg("Which information cube do you store for the next round?"), held)
    p.cubes = {c: int(c == kept) for c in board.CUBE_COLOURS}


@handler("new_round")
def new_round(game: Game, eff: Effect) -> None:
    """Round end: the start player marker passes clockwise, the pawn returns to the centre (MOR:L171)."""
    s = game.s
    s.start_player = (s.start_player + 1) % len(s.players)
    s.pawn = board.ROOFTOP_CENTRE
    s.round += 1
    s.phase = "roll" if len(s.players) <= 3 else "scout"
    s.turn = s.rolls = 0
    s.placed = s.placed_this_round = False


@handler("final")
def final(game: Game, eff: Effect) -> None:
    """Final scoring (MOR:L183-187); the game is over."""
    s = game.s
    final_scoring(s)
    s.stack.clear()
    s.to_close.clear()
    s.phase, s.finished, s.end_reason = "finished", True, eff["reason"]
