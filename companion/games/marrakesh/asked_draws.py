"""Setup draws a real table did not enter, asked when play first needs them (table draws).

A table that sets up the board itself knows every draw, but typing them in before the first move
is a wall of numbers. With ``table_draws`` the setup may leave any draw out except the river tiles;
``resolve_setup`` records the left-out ones in ``setup["asked"]`` with placeholders (``UNKNOWN`` for
a colour, ``0`` for a tile number, ``-1`` for a disc), and the engine asks each one as a ``draw``
decision, in player words with options to tap, at the moment a move first depends on it:

* the scroll and luxury displays, the desert-town display (expansion 5) and river tile 02's
  leftover oases: before the first toss, once every player has selected (nothing earlier reads them);
* the exchange office of a season (and its side, expansion 3): at the first trade of that season;
* a city gate's colour: when a player takes that gate from a workshop not entered;
* a storage-track keshi: when a covered storage space hands it out;
* a provision tile: the one revealed at setup at the first season end, each later one when revealed;
* an audience disc's turn: at that player's first main-square action;
* a staircase tile (expansion 1): when a connection line over its space is first scored.

The table's answer is kept in ``GameState.drawn`` under the decision's key (like a printed value
in the profile, but for this game only), so a handler that needs several reads them all before it
changes anything and simply runs again after each answer. A game whose setup has every draw entered
(``"asked"`` absent, as in every log written before this module) is never asked anything here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.common.decisions import NeedInput, question
from companion.games.marrakesh.board import STORAGE_KESHI_COLOURS, UNKNOWN
from companion.games.marrakesh.catalogue import city_gates, count
from companion.games.marrakesh.effects import Effect, handler
from companion.games.marrakesh.expansion_setup import DESERT_TOWNS, STAIRCASE_TILES
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

STAIRCASE_SIDES: tuple[str, ...] = ("A", "B")
OFFICE_SIDES: tuple[str, ...] = ("base", "new")
#: The setup draws (displays) the table names before the first toss when it left them out.
FIRST_TOSS_DRAWS: tuple[str, ...] = ("scroll_display", "luxury_display", "desert_towns", "river_oases")


def asked(g: Game, draw: str) -> bool:
    """Whether setup draw ``draw`` was left for the table to name during play."""
    return draw in g.s.setup.get("asked", ())


#: Why an answer outside a draw's options is refused, by what is drawn (the refusal names it).
RULES: dict[str, Msg] = {
    "tile": Msg("each tile lies on the table only once, and the ones already named are taken"),
    "office": Msg("each exchange office is in play for one season only"),
    "gate": Msg("the bag holds 32 city gates, 2 or 3 of each colour, and the gates already named are taken"),
    "storage": Msg("the storage-track keshis come from one bag with one keshi of each of 8 colours"),
    "provision": Msg("each provision tile belongs to one player, and the ones already named are taken"),
    "choice": Msg("these are the only ways it can lie"),
}


def table_draw(g: Game, key: str, prompt: Msg, options: list[Any], rule: str) -> Any:
    """The tile, colour or side the table named for ``key``, or pause and ask it (a ``draw`` decision
    that names ``RULES[rule]`` when it refuses an answer).

    A single possible answer is taken at once. The answer is kept in ``GameState.drawn``.
    """
    if key in g.s.drawn:
        return g.s.drawn[key]
    if len(options) == 1:
        g.s.drawn[key] = options[0]
        return options[0]
    raise NeedInput({**question(key, prompt, options), "kind": "draw", "kept": True, "rule": RULES[rule].to_json()})


def named_so_far(g: Game, draw: str) -> list[Any]:
    """The table's answers so far to the questions of one kind of draw (``draw.<draw>.*``), in no set order."""
    return [v for k, v in g.s.drawn.items() if k.startswith(f"draw.{draw}.")]


def first_toss_reveals(g: Game) -> list[Effect]:
    """The displays left out at setup, turned up one question at a time before the first toss."""
    s = g.s
    if not any(asked(g, d) for d in FIRST_TOSS_DRAWS) or (s.season, s.round) != (1, 1):
        return []
    effects: list[Effect] = []
    if (asked(g, "scroll_display") and not any(s.scroll_display.values())) or (
            asked(g, "luxury_display") and not s.luxury_display):
        effects += g._refill_effects()
    if asked(g, "desert_towns") and not s.desert_town_display:
        size = len(s.setup["desert_towns"])
        effects += [{"k": "reveal_desert_town", "n": n, "of": size} for n in range(1, size + 1)]
    if asked(g, "river_oases") and not s.river_oases:
        effects += [{"k": "reveal_river_oasis", "n": n} for n in (1, 2, 3)]
    return effects


@handler("reveal_desert_town")
def reveal_desert_town(g: Game, eff: Effect) -> None:
    """Expansion 5: one desert town of the display, named by the table."""
    shown = g.s.desert_town_display
    number = table_draw(g, f"draw.desert_town.{eff['n']}",
                        Msg("Which desert town lies face up in the display ({n} of {size})?", n=eff["n"],
                            size=eff["of"]),
                        [t for t in range(1, DESERT_TOWNS + 1) if t not in shown], "tile")
    shown.append(number)


@handler("reveal_river_oasis")
def reveal_river_oasis(g: Game, eff: Effect) -> None:
    """River tile 02: one of the 3 leftover oases lying face up beside the board, named by the table."""
    shown = g.s.river_oases
    known = {n for p in g.s.players for n in p.oases} | set(shown)
    number = table_draw(g, f"draw.river_oasis.{eff['n']}",
                        Msg("River tile 02: which leftover oasis lies face up beside the board ({n} of 3)?",
                            n=eff["n"]),
                        [n for n in range(1, count("oases") + 1) if n not in known], "tile")
    shown.append(number)


def exchange_office(g: Game) -> tuple[int, str]:
    """This season's exchange office and its side (expansion 3), asked at the season's first trade."""
    s = g.s
    season = 4 - len(s.exchange_offices)  # one office is put away at each season's end
    office = s.exchange_offices[0]
    if not office:
        named = set(named_so_far(g, "exchange_office")) | set(s.exchange_offices)
        office = table_draw(g, f"draw.exchange_office.{season}",
                            Msg("Which exchange office is in play this season (season {season})?", season=season),
                            [n for n in range(1, count("exchange_offices") + 1) if n not in named], "office")
    side = (s.setup.get("office_sides") or ["base"] * 3)[season - 1]
    if side == UNKNOWN:
        side = table_draw(g, f"draw.office_side.{season}",
                          Msg("Which side of exchange office #{office} is face up?", office=office),
                          list(OFFICE_SIDES), "choice")
    return office, side


def gate_colour(g: Game, player: int, workshop: int) -> str:
    """The colour of the city gate ``player`` takes from a workshop the table did not enter: any colour
    the bag still holds (32 gates, EN:L150-155) after every gate already named."""
    gates = g.s.workshops[workshop]
    named = [c for w in g.s.workshops for c in w if c != UNKNOWN]
    named += [gate["colour"] for p in g.s.players for gate in p.gates]
    taken = 8 - len(gates) + 1
    return str(table_draw(g, f"draw.city_gate.{workshop + 1}.{taken}",
                          Msg("Which colour is the city gate {player} takes from workshop {n}?",
                              player=g.name(player), n=workshop + 1),
                          [c for c, k in city_gates().items() if named.count(c) < k], "gate"))


@handler("storage_keshi")
def storage_keshi(g: Game, eff: Effect) -> None:
    """A storage-track keshi the table did not enter: one bag for all players (EN:L410-413)."""
    player = eff["p"]
    p = g.p(player)
    named = {c for q in g.s.players for c in q.storage_keshis}
    named |= set(named_so_far(g, "storage_keshi"))
    taken = len(g.s.setup["storage_keshis"][player]) - len(p.storage_keshis) + 1
    colour = table_draw(g, f"draw.storage_keshi.{player + 1}.{taken}",
                        Msg("Which keshi does {player} take from the oasis storage track?", player=p.name),
                        [c for c in STORAGE_KESHI_COLOURS if c not in named], "storage")
    p.storage_keshis.remove(UNKNOWN)
    g.push({"k": "gain", "p": player, "colour": colour})


def provision_options(g: Game, player: int) -> list[int]:
    """Provision tiles ``player`` may turn up: their own face-down ones, or (not entered) any tile no
    player is known to hold."""
    p = g.p(player)
    hidden = [t for t in p.provisions if t not in p.revealed_provisions]
    if hidden and 0 not in hidden:
        return hidden
    known = {t for q in g.s.players for t in q.provisions + q.revealed_provisions}
    return [t for t in range(1, count("provision_tiles") + 1) if t not in known]


@handler("name_provision")
def name_provision(g: Game, eff: Effect) -> None:
    """The provision tile a player turned face up at setup, asked at the first season end."""
    player = eff["p"]
    p = g.p(player)
    if 0 not in p.revealed_provisions:
        return
    tile = table_draw(g, f"draw.provision.{player + 1}.1",
                      Msg("Which provision tile did {player} turn face up at the start of the game?", player=p.name),
                      provision_options(g, player), "provision")
    _place_provision(p.provisions, tile)
    p.revealed_provisions[p.revealed_provisions.index(0)] = tile


def revealed_provision(g: Game, player: int) -> int:
    """The provision tile ``player`` turns up at a season's end when the tiles were not entered."""
    p = g.p(player)
    tile = int(table_draw(g, f"draw.provision.{player + 1}.{len(p.revealed_provisions) + 1}",
                          Msg("Which provision tile does {player} turn face up for the next season?", player=p.name),
                          provision_options(g, player), "provision"))
    _place_provision(p.provisions, tile)
    return tile


def _place_provision(tiles: list[int], tile: int) -> None:
    if tile not in tiles:
        tiles[tiles.index(0)] = tile


def disc_orientation(g: Game, player: int) -> int:
    """How ``player``'s audience disc was turned at setup, asked at their first main-square action."""
    p = g.p(player)
    if p.disc_orientation >= 0:
        return p.disc_orientation
    return int(table_draw(g, f"draw.disc.{player + 1}",
                          Msg("{player}'s audience disc: at which ring position (0-7, clockwise from the top) "
                              "does disc section 0 stand?", player=p.name), list(range(8)), "choice"))


def staircase_tile(g: Game, space: int) -> tuple[int, str]:
    """Expansion 1: the staircase tile and side on coverable ``space``, asked when a line over it scores."""
    tile, side = g.s.setup["staircase_tiles"][space - 1]
    if tile:
        return int(tile), str(side)
    used = {t for t, _ in g.s.setup["staircase_tiles"] if t}
    used |= {int(v[:-1]) for v in named_so_far(g, "staircase_tile")}
    answer = str(table_draw(g, f"draw.staircase_tile.{space}",
                            Msg("Which staircase tile lies on bonus space {space} (counted from the bottom left), "
                                "and which side is up?", space=space),
                            [f"{t}{side}" for t in range(1, STAIRCASE_TILES + 1) if t not in used
                             for side in STAIRCASE_SIDES], "tile"))
    return int(answer[:-1]), answer[-1]
