"""Morocco at the table: the engine (``companion.games.morocco``, docs/morocco.md) as the generic page needs it.

The board the screen draws (market stalls with their workers, tiles and overflow arrows, the cubes
beside rows and columns and on the rooftop, the juice sellers still on the board, every family's
supply and score), the choices of whoever must act with one tap per step (worker, stall, space,
extra cube, cousin's second space), and each action as one sentence in player words.
"""

from __future__ import annotations

from typing import Any

from companion.games.common.decisions import prompt_of
from companion.games.morocco import (
    Game,
    RuleError,
    SetupError,
    SetupOptions,
    action_from_dict,
    action_to_dict,
    board,
    words,
)
from companion.games.morocco import log as morocco_log
from companion.games.morocco.setup import OVERFLOW_KEY, PROFILE_OPTIONS
from companion.i18n import Msg

KEY = "morocco"
NAME = "Morocco"
PLAYERS: tuple[int, int] = (2, 5)
#: The setup wizard's Morocco fields (docs/games.md): who starts, and draws entered from the table.
OPTIONS: list[dict[str, Any]] = [
    {"key": "start_player", "label": Msg("Start player (the one who most recently travelled to Morocco)"),
     "kind": "seat", "help": Msg("Leave it to the companion to draw one.")},
    {"key": "draws", "label": Msg("Cubes and juice sellers as laid out at the table (optional)"), "kind": "layout",
     "help": Msg("Tap what lies on your board: a line left empty is drawn by the companion."),
     "lines": [
         {"key": "rows", "label": Msg("Cubes beside market rows 1 to 5"), "cells": 5, "values": "colours"},
         {"key": "columns", "label": Msg("Cubes below market columns 1 to 5"), "cells": 5, "values": "colours"},
         {"key": "rooftop", "label": Msg("Cubes on rooftop spaces 1 to 5"), "cells": 5, "values": "colours"},
         {"key": "juice", "label": Msg("Juice sellers on the stall corners, row by row from the top left"),
          "cells": 36, "per_row": 6, "values": "juice"}],
     "values": {"colours": [{"value": c, "label": words.CUBE_NAMES[c]} for c in board.CUBE_COLOURS],
                "juice": [{"value": v, "label": Msg("{n} VP", n=v)} for v in (2, 3, 4)]}},
]
#: Printed values the engine may ask (remembered per table): the overflow arrow's worth.
PROFILE: dict[str, tuple[Any, ...]] = dict(PROFILE_OPTIONS)
#: Each of them as the Board page names it (the engine's question), so a table can enter it ahead of play.
PROFILE_SAY: dict[str, Msg] = {OVERFLOW_KEY: Msg("How much does one market tile's overflow arrow add to the worker "
                                                 "count of the stall it points at?")}
#: A broken rule (the service answers 422 with its message, which names the rule and the player).
RULE_ERROR = RuleError

PHASES = {"roll": "rolling the market die", "scout": "scouting stalls", "assign": "assigning workers",
          "finished": "the game is over"}
CATEGORIES = {"first_place": "1st places", "second_place": "2nd places", "third_place": "3rd places",
              "juice": "Juice sellers", "largest_district": "Largest district", "gold": "Gold coins"}
WORKER_WORDS = {"assistant": "Assistant", "bodyguard": "Bodyguard (counts two)", "tourist": "Tourist",
                "cousins": "Cousins (two assistants)"}
_SPACE_WORDS = ("top-left", "top-right", "bottom-left", "bottom-right")
#: The same words as messages the page renders in its language (``say``: the view is shared by every phone).
PHASE_SAY = {key: Msg(text) for key, text in PHASES.items()}
CATEGORY_SAY = {key: Msg(text) for key, text in CATEGORIES.items()}
WORKER_SAY = {key: Msg(text) for key, text in WORKER_WORDS.items()}
GROUP_SAY = {group: Msg(group) for group in ("The market die shows", "Move the rooftop pawn", "Place a worker", "Turn",
                                             "Gold", "Answer", "Choose")}
_DIRECTION_WORDS = {"up": "up", "down": "down", "left": "left", "right": "right"}


# -- the engine ----------------------------------------------------------------------------------
def new_game(players: list[str], seed: int, options: dict[str, Any]) -> Game:
    """A new game from the setup wizard; the engine's ``SetupError`` names a bad field."""
    draws = options.get("draws") or {}
    if not isinstance(draws, dict):
        raise SetupError(Msg("the draws must be a JSON object with rows, columns, rooftop or juice, not {draws}",
                             draws=repr(draws)))
    return Game.new(SetupOptions(players=tuple(players), seed=seed, start_player=options.get("start_player"),
                                 draws=draws, profile=options.get("profile") or {}))


def replay(setup: dict[str, Any], actions: list[dict[str, Any]]) -> Game:
    return Game.replay(setup, [action_from_dict(a) for a in actions])


def parse_action(data: Any) -> Any:
    return action_from_dict(data)


def to_json(action: Any) -> dict[str, Any]:
    return action_to_dict(action)


def write_log(game: Game) -> str:
    return morocco_log.write_log(game)


def read_log(text: str, source: str) -> Game:
    return morocco_log.read_log(text, source=source)


def scores(game: Game) -> list[int]:
    return [p.score for p in game.players]


def winners(game: Game) -> list[int]:
    return list(game.winners()) if game.finished else []


# -- words ---------------------------------------------------------------------------------------
def stall_words(stall: int) -> str:
    """``"Row 2, column 3"``."""
    r, c = board.stall_row_col(stall)
    return f"Row {r + 1}, column {c + 1}"


def space_words(space: int) -> str:
    """``"top-left space"`` of its stall."""
    y, x = divmod(space, board.SPACES_PER_SIDE)
    return f"{_SPACE_WORDS[(y % 2) * 2 + x % 2]} space"


def _index(at: Any) -> int:
    return int(at[0]) * board.SPACES_PER_SIDE + int(at[1])


def _line_words(line: str) -> str:
    return f"{line[:-1]} {line[-1]}"


def option_words(game: Game, pending: dict[str, Any], option: Any) -> str:
    """A pending decision's option in player words (a tourist's target, an arrow, a colour...)."""
    if isinstance(option, list) and len(option) == 2:
        space = _index(option)
        return f"{space_words(space).capitalize()} of {board.stall_text(board.stall_of(space))}"
    if option in _DIRECTION_WORDS:
        return f"Point {option}"
    if option == "gold":
        return "1 gold coin"
    if option == "bodyguard":
        return "1 bodyguard"
    return str(option).capitalize()


def scout_words(game: Game, space: int) -> str:
    """``"Space 3: take brown + blue"`` — the two cubes beside the outer rooftop space (MOR:L59)."""
    left, right = board.rooftop_neighbours(space)
    return f"Space {space}: take {game.s.rooftop[left - 1]} + {game.s.rooftop[right - 1]}"


def action_words(game: Game, data: dict[str, Any]) -> tuple[str, list[str], str]:
    """(full label, tap path, group) of a legal action of ``game`` (the state before it)."""
    kind = data["type"]
    if kind == "roll":
        face = "Wild (each picks a cube)" if data["face"] == board.WILD else data["face"].capitalize()
        return f"The die shows {face.lower()}", [face], "The market die shows"
    if kind == "scout":
        words = scout_words(game, data["space"])
        return f"Pawn to rooftop {words.lower()}", [words], "Move the rooftop pawn"
    if kind == "place":
        space = _index(data["space"])
        stall = board.stall_of(space)
        path = [WORKER_WORDS[data["worker"]], stall_words(stall), space_words(space).capitalize()]
        label = f"{board.a_worker(data['worker'])} in the {space_words(space)} of {board.stall_text(stall)}"
        if data.get("extra"):
            path.append(f"Extra cube: {data['extra']}")
            label += f", paying an extra {data['extra']}"
        if data.get("second"):
            second = _index(data["second"])
            path.append(f"Second: {space_words(second)} of {stall_words(board.stall_of(second)).lower()}")
            label += f"; second assistant in the {space_words(second)} of {board.stall_text(board.stall_of(second))}"
        return label, path, "Place a worker"
    if kind == "pass":
        return "Pass: no worker can be placed", ["Pass (no worker can be placed)"], "Turn"
    if kind == "end_turn":
        return "End the turn", ["End the turn"], "Turn"
    if kind == "swap":
        a, b = data["lines"]
        words = f"Swap {_line_words(a)} and {_line_words(b)}"
        return f"Spend 1 gold: {words.lower()}", ["Spend 1 gold: swap cubes", words], "Gold"
    pending = game.pending or {}
    value = data.get("option", data.get("value"))
    words = option_words(game, pending, value)
    return words, [words], "Answer" if kind == "answer" else "Choose"


def choices(game: Game) -> dict[str, Any]:
    """Who must act, the question in player words and every legal action as a button (with its path).

    Every word also comes as a message the page renders in its language (``prompt_say``, an option's
    ``group_say`` and ``path_say``): the view is shared by every phone, English or German.
    """
    if game.finished:
        over = Msg("The game is over: {reason}.", reason=words.end_reason(game.s.end_reason))
        return {"actor": None, "prompt": over.english(), "prompt_say": over.to_json(), "options": []}
    actor = game.to_move
    pending = game.pending
    said: Msg | None = None
    if pending is not None:
        prompt = str(pending["prompt"])
        asked = prompt_of(pending)
        said = asked if isinstance(asked, Msg) else None
    else:
        name = game.name(int(str(actor)))
        if game.phase == "roll":
            said = Msg("{player}: roll the market die — what does it show?", player=name)
        elif game.phase == "scout":
            said = Msg("{player}: move the rooftop pawn to scout stalls", player=name)
        elif game.s.placed and game.log and action_to_dict(game.log[-1])["type"] == "pass":
            said = Msg("{player} passed (no worker can be placed): end the turn, or first spend gold to swap cubes",
                       player=name)
        elif game.s.placed:
            said = Msg("{player}: spend gold or end the turn", player=name)
        elif game.can_place(int(str(actor))):
            said = Msg("{player}: place a worker", player=name)
        else:
            said = Msg("{player}: place a worker — none can be placed", player=name)
        prompt = said.english()
    options = []
    for action in game.legal_actions():
        data = action_to_dict(action)
        label, path, group = action_words(game, data)
        option: dict[str, Any] = {"label": label[0].upper() + label[1:], "group": group, "path": path, "action": data,
                                  "path_say": [_said(step) for step in _path_say(game, data)]}
        if group in GROUP_SAY:
            option["group_say"] = GROUP_SAY[group].to_json()
        if data["type"] == "place":  # its stall, tapped on the drawn market (the path's second step)
            at = words.place(_index(data["space"]))
            option["at"] = {"row": at["row"], "column": at["column"], "step": 1}
        options.append(option)
    out: dict[str, Any] = {"actor": actor, "prompt": prompt, "options": options}
    if said is not None:
        out["prompt_say"] = said.to_json()
    return out


def _path_say(game: Game, data: dict[str, Any]) -> list[Msg | str]:
    """An option's tap path (``action_words``) as messages: the same steps in the page's language."""
    kind = data["type"]
    if kind == "roll":
        face = str(data["face"])
        return [Msg("Wild (each picks a cube)") if face == board.WILD else words.CUBE_BUTTONS.get(face, face)]
    if kind == "scout":
        space = int(data["space"])
        left, right = board.rooftop_neighbours(space)
        return [Msg("Space {n}: take {a} + {b}", n=space, a=words.cube_name(game.s.rooftop[left - 1]),
                    b=words.cube_name(game.s.rooftop[right - 1]))]
    if kind == "place":
        at = words.place(_index(data["space"]))
        path: list[Msg | str] = [WORKER_SAY[data["worker"]], Msg("Row {row}, column {column}", row=at["row"],
                                                                column=at["column"]),
                                 Msg("{space} space", space=_capital(at["corner"]))]
        if data.get("extra"):
            path.append(Msg("Extra cube: {colour}", colour=words.cube_name(str(data["extra"]))))
        if data.get("second"):
            second = words.place(_index(data["second"]))
            path.append(Msg("Second: {corner} space of row {row}, column {column}", **second))
        return path
    if kind == "pass":
        return [Msg("Pass (no worker can be placed)")]
    if kind == "end_turn":
        return [Msg("End the turn")]
    if kind == "swap":
        a, b = data["lines"]
        return [Msg("Spend 1 gold: swap cubes"), Msg("Swap {a} and {b}", a=words.line_name(a), b=words.line_name(b))]
    return [option_say(data.get("option", data.get("value")), capital=True)]


def option_say(option: Any, *, capital: bool) -> Msg | str:
    """``option_words`` as a message (``capital``: as on a button; else as inside a sentence, lower case)."""
    if isinstance(option, list) and len(option) == 2:
        at = words.place(_index(option))
        return Msg("{corner} space of the stall in row {row}, column {column}", row=at["row"], column=at["column"],
                   corner=_capital(at["corner"]) if capital else at["corner"])
    if isinstance(option, str) and option in words.DIRECTIONS:
        direction = words.DIRECTIONS[option]
        if capital:
            return Msg("Point {direction}", direction=direction)
        return Msg("point {direction}", direction=direction)
    if option == "gold":
        return Msg("1 gold coin")
    if option == "bodyguard":
        return Msg("1 bodyguard")
    if isinstance(option, str) and option in words.CUBE_BUTTONS:
        return words.CUBE_BUTTONS[option] if capital else words.CUBE_NAMES[option]
    return str(option)


def _capital(corner: Any) -> Msg:
    """A stall corner's word as it starts a button (``"top-left"`` -> ``"Top-left"``)."""
    return words.CORNER_BUTTONS[words.CORNERS.index(corner)]


def describe(before: Game, action: dict[str, Any]) -> str:
    """One log line for ``action`` applied to ``before`` (the game as it was), in English: the stored log."""
    return describe_say(before, action).english()


def describe_say(before: Game, action: dict[str, Any]) -> Msg:
    """The log line of ``action`` applied to ``before`` as a message (each page renders it in its language)."""
    kind = action["type"]
    pending = before.pending or {}
    if kind == "answer":
        asked = prompt_of(pending) if pending else Msg("the question")
        return Msg("The table answers “{prompt}”: {value}", prompt=asked, value=action["value"])
    who = before.name(int(action["player"]))
    if kind == "roll":
        return Msg("{player} rolls the market die: {face}", player=who, face=words.cube_name(str(action["face"])))
    if kind == "scout":
        space = int(action["space"])
        left, right = board.rooftop_neighbours(space)
        return Msg("{player} moves the rooftop pawn to space {n}: take {a} + {b}", player=who, n=space,
                   a=words.cube_name(before.s.rooftop[left - 1]), b=words.cube_name(before.s.rooftop[right - 1]))
    if kind == "place":
        return _placement_say(before, who, action)
    if kind == "pass":
        return Msg("{player} cannot place a worker and passes", player=who)
    if kind == "end_turn":
        return Msg("{player} ends the turn", player=who)
    if kind == "swap":
        a, b = action["lines"]
        return Msg("{player} spends a gold coin to swap the cubes of {a} and {b}", player=who, a=words.line_name(a),
                   b=words.line_name(b))
    return Msg("{player} chooses {option} (“{prompt}”)", player=who,
               option=option_say(action.get("option"), capital=False), prompt=prompt_of(pending) if pending else "")


def _placement_say(before: Game, who: str, action: dict[str, Any]) -> Msg:
    """A placement's log line: the worker, where, the extra cube and the cousins' second space, the cost."""
    at = words.place(_index(action["space"]))
    row, column = before.cost(board.stall_of(_index(action["space"])))
    said = {"player": who, "worker": words.A_WORKER[str(action["worker"])], "space": at["corner"], "row": at["row"],
            "column": at["column"], "a": words.cube_name(row), "b": words.cube_name(column)}
    if not action.get("extra"):
        return Msg("{player} places {worker} in the {space} space of the stall in row {row}, column {column} "
                   "(pays {a} + {b})", **said)
    said["extra"] = words.cube_name(str(action["extra"]))
    if not action.get("second"):
        return Msg("{player} places {worker} in the {space} space of the stall in row {row}, column {column}, "
                   "paying an extra {extra} (pays {a} + {b})", **said)
    second = words.place(_index(action["second"]))
    return Msg("{player} places {worker} in the {space} space of the stall in row {row}, column {column}, "
               "paying an extra {extra}; second assistant in the {space2} space of the stall in row {row2}, "
               "column {column2} (pays {a} + {b})", **said, space2=second["corner"], row2=second["row"],
               column2=second["column"])


# -- the board -----------------------------------------------------------------------------------
def board_view(game: Game) -> dict[str, Any]:
    """Everything the screen draws; juice values stay hidden (face down) until the final scoring."""
    s = game.s
    stalls = []
    for stall in range(board.STALLS):
        r, c = board.stall_row_col(stall)
        spaces = []
        for space in board.stall_spaces(stall):
            occupant = s.spaces[space]
            spaces.append({"seat": occupant[0], "worker": occupant[1]} if occupant else None)
        stalls.append({"row": r + 1, "column": c + 1, "cost": list(game.cost(stall)), "tile": s.tiles[stall],
                       "arrow": s.arrows[stall], "overflow": s.overflow[stall],
                       "count": game.count(stall) if OVERFLOW_KEY in s.profile or not s.overflow[stall] else None,
                       "spaces": spaces})
    players = []
    for seat, p in enumerate(s.players):
        players.append({
            "seat": seat, "name": p.name, "score": p.score,
            "breakdown": {CATEGORIES.get(k, k.replace("_", " ").capitalize()): v for k, v in p.breakdown.items() if v},
            "cubes": dict(p.cubes), "gold": p.gold, "assistants": p.assistants, "bodyguards": p.bodyguards,
            "quarters": p.quarters, "tourists": p.tourists, "cousins": p.cousins, "market_tiles": p.market_tiles,
            "juice_tokens": len(p.juice), "juice_points": sum(p.juice) if s.finished else None,
            "start": seat == s.start_player,
        })
    return {
        "round": s.round, "phase": PHASES.get(s.phase, s.phase), "final_round": s.final_round,
        "phase_say": PHASE_SAY[s.phase].to_json() if s.phase in PHASE_SAY else None,
        "end_reason": s.end_reason, "end_reason_say": _said(words.end_reason(s.end_reason)) if s.finished else None,
        "rows": list(s.rows), "columns": list(s.columns), "rooftop": list(s.rooftop),
        "pawn": s.pawn, "stalls": stalls, "juice": list(s.juice), "gold_supply": s.gold_supply,
        "empty_tiles": s.empty_tiles, "open_stalls": s.open_stalls(), "players": players,
        "colours": list(board.CUBE_COLOURS), "categories": _categories(game),
    }


def _categories(game: Game) -> list[dict[str, Any]]:
    """The score categories any family has points in, in the rulebook's order (1st to 3rd places, juice, largest
    district, gold): the final scoring table's rows, the same order for every family."""
    used = {k for p in game.s.players for k, v in p.breakdown.items() if v}
    keys = [k for k in CATEGORIES if k in used] + sorted(used - CATEGORIES.keys())
    return [{"label": CATEGORIES.get(k, k.replace("_", " ").capitalize()),
             "say": CATEGORY_SAY[k].to_json() if k in CATEGORIES else None} for k in keys]


def _said(message: Msg | str) -> dict[str, Any] | str:
    """A message as data for the page (a text the engine did not word stays as it is)."""
    return message.to_json() if isinstance(message, Msg) else message
