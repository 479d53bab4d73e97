"""Expansions 1-3 during play (EN:L1420-1505, digest §13.1-13.3) and river tile 02.

* Expansion 1 (staircase tiles): a connection line's bonuses are its uncoverable spaces (dinar and
  points columns, the 2 topmost and the lowermost space) plus the faces of the staircase tiles on the
  coverable spaces it passes. Which spaces a line passes and what each tile side shows are printed,
  so they are asked once (``line.P.M.spaces``, ``line.P.M.fixed``, ``stair_tile.T.A|B``).
* Expansion 2 (Imam & Sultan): a pawn reaching (or passing, digest A23) the figure's stair takes it
  along; a pawn passing the escort takes it over (drawing level is not enough); an escort reaching the
  final space hands it to the 2nd-placed player on that staircase, or, when several tie for 2nd, the
  figure waits one stair above them. Benefits: ``costs.scroll_price`` / ``costs.luxury_options``.
* Expansion 3 (additional exchange offices): a ``"new"`` office side gives 1 resource plus a bonus.
* Expansion 4 (purple audience discs) only changes the spectator question (``sectors.spectators``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.marrakesh.asked_draws import staircase_tile
from companion.games.marrakesh.board import RESOURCES
from companion.games.marrakesh.effects import LINE_BONUS_KINDS, LINE_HOOKS, STEP_HOOKS, Effect, handler, segment_starts
from companion.games.marrakesh.sectors import DONE, storage_bonus, storage_icon
from companion.i18n import Msg, colour_name, figure_name, sector_name

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

FIGURES: dict[str, str] = {"palace": "sultan", "mosque": "imam"}


# --- expansion 1: staircase tiles ---------------------------------------------------------------------

def tiled_line(g: Game, ps: int, ms: int) -> list[str] | None:
    """Bonuses of the line between palace segment ``ps`` and mosque segment ``ms`` with staircase tiles."""
    if 1 not in g.s.setup.get("expansions", ()):
        return None
    spaces: list[Any] = g.value(
        f"line.{ps}.{ms}.spaces", Msg("Which coverable bonus spaces (1-12, in the order the staircase tiles are "
                                      "laid from the bottom left) does the line between palace segment {ps} and "
                                      "mosque segment {ms} pass?", ps=ps, ms=ms),
        ["none", *range(1, 13)], multi=True)
    fixed: list[str] = g.value(
        f"line.{ps}.{ms}.fixed", Msg("Which uncoverable bonuses (dinar and point spaces beside the staircases, the "
                                     "2 topmost and the lowermost space) does the line between palace segment {ps} "
                                     "and mosque segment {ms} show?", ps=ps, ms=ms), LINE_BONUS_KINDS, multi=True)
    faces = []
    for space in (k for k in spaces if k != "none"):
        tile, side = staircase_tile(g, space)  # table draws: named when a line over the space first scores
        face: str = g.value(f"stair_tile.{tile}.{side}",
                            Msg("Which bonus does staircase tile {tile} show on side {side}?", tile=tile, side=side),
                            LINE_BONUS_KINDS)
        faces.append(face)
    return [*fixed, *faces]


LINE_HOOKS.append(tiled_line)


# --- expansion 2: Imam & Sultan -----------------------------------------------------------------------

def figure_step(g: Game, player: int, which: str, new_position: int) -> None:
    """Take the Sultan/Imam along, take it over by passing, or hand it on from the final space."""
    figure = FIGURES[which]
    state = g.s.figures.get(figure)
    if state is None:
        return
    final = segment_starts(g, which)[-1]
    start: int = state["step"] or 0
    if state["holder"] is None and state["step"] is None:
        start = g.value(f"{which}.{figure}_step", Msg("On which {which} step (counting from the start) does the "
                                                      "{figure} wait at the start of the game?",
                                                      which=sector_name(which), figure=figure_name(figure)),
                        list(range(1, final)))
    holder = state["holder"]
    if holder is None:
        if new_position >= start:
            state["holder"], state["step"] = player, None
    elif holder != player and new_position > getattr(g.p(holder), which):
        state["holder"] = player  # passed: drawing level is not enough
    if state["holder"] == player and new_position >= final:
        others = {i: getattr(q, which) for i, q in enumerate(g.s.players) if i != player}
        if not others:
            return
        second = max(others.values())
        tied = [i for i, pos in others.items() if pos == second]
        if len(tied) == 1:
            state["holder"], state["step"] = tied[0], None
        else:  # several tie for 2nd: the figure waits one stair above them
            state["holder"], state["step"] = None, second + 1


STEP_HOOKS.append(figure_step)


# --- expansion 3: new exchange-office sides -------------------------------------------------------------

#: A new office side's exchange: 1 resource plus 1 bonus (EN:L1428-1449 example: date + river step,
#: water + palace-or-mosque step, dinar + 1 point).
NEW_OFFICE_REWARDS: list[dict[str, str]] = [
    {"resource": r, "bonus": b} for r in RESOURCES for b in ("river_step", "stair_step", "point")
]


@handler("office_new")
def office_new(g: Game, eff: Effect) -> None:
    """Return 1 goods keshi at a dark-green office side: 1 resource and its bonus (scroll 18 still adds 1)."""
    reward: dict[str, str] = g.value(f"office.{eff['office']}.new.{eff['colour']}",
                                     Msg("What does the new side of exchange office #{office} give for 1 "
                                         "{colour} keshi?", office=eff["office"], colour=colour_name(eff["colour"])),
                                     NEW_OFFICE_REWARDS)
    player = eff["p"]
    p = g.p(player)
    p.goods[eff["colour"]] -= 1
    p.resources[reward["resource"]] += 1
    follow: list[Effect] = []
    if reward["bonus"] == "river_step":
        follow.append({"k": "river", "p": player, "steps": 1})
    elif reward["bonus"] == "stair_step":
        follow.append({"k": "stair_choice", "p": player, "steps": 1})
    else:
        follow.append({"k": "points", "p": player, "cat": "exchange", "n": 1})
    if 18 in p.scrolls:
        follow.append({"k": "resource", "p": player})
    g.push(*follow)


# --- river tile 02 ----------------------------------------------------------------------------------

@handler("river_oasis")
def river_oasis(g: Game, eff: Effect) -> None:
    """River tile 02: the season-1 winner may claim 1 of the 3 face-up leftover oases free (a 7th is allowed)."""
    player = eff["p"]
    if not g.s.river_oases:
        return
    number = g.pick(eff, player, Msg("River tile 02: which face-up oasis do you claim free?"), [*g.s.river_oases, DONE])
    if number == DONE:
        return
    icon = storage_icon(g, player)
    p = g.p(player)
    g.s.river_oases.remove(number)
    p.claimed_oases.append(number)
    g.push(*storage_bonus(p, player, icon))
