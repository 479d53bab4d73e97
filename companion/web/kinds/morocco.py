"""Morocco at the table: the engine (``companion.morocco``, docs/morocco.md) as the generic page needs it.

The board the screen draws (market stalls with their workers, tiles and overflow arrows, the cubes
beside rows and columns and on the rooftop, the juice sellers still on the board, every family's
supply and score), the choices of whoever must act with one tap per step (worker, stall, space,
extra cube, cousin's second space), and each action as one sentence in player words.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import Msg
from companion.morocco import Game, RuleError, SetupError, SetupOptions, action_from_dict, action_to_dict, board
from companion.morocco import log as morocco_log
from companion.morocco.setup import OVERFLOW_KEY, PROFILE_OPTIONS

KEY = "morocco"
NAME = "Morocco"
PLAYERS: tuple[int, int] = (2, 5)
#: The setup wizard's Morocco fields (docs/games.md): who starts, and draws entered from the table.
OPTIONS: list[dict[str, Any]] = [
    {"key": "start_player", "label": Msg("Start player (the one who most recently travelled to Morocco)"),
     "kind": "seat", "help": Msg("Leave it to the companion to draw one.")},
    {"key": "draws", "label": Msg("Cubes and juice sellers laid out at the table (JSON, optional)"), "kind": "json",
     "help": Msg('Any of "rows", "columns", "rooftop" (5 cube colours each) and "juice" (6 rows of 6 values); '
                 "the companion draws the rest. See docs/morocco.md.")},
]
#: Printed values the engine may ask (remembered per table): the overflow arrow's worth.
PROFILE: dict[str, tuple[Any, ...]] = dict(PROFILE_OPTIONS)
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
        raise SetupError(f"the draws must be a JSON object with rows, columns, rooftop or juice, not {draws!r}")
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

    The words this adapter chooses itself come as messages too (``prompt_say``, an option's ``group_say``
    and ``path_say``); the engine's own texts (a question's prompt, the end reason) stay English.
    """
    if game.finished:
        return {"actor": None, "prompt": f"The game is over: {game.s.end_reason}.", "options": []}
    actor = game.to_move
    pending = game.pending
    said: Msg | None = None
    if pending is not None:
        prompt = str(pending["prompt"])
    else:
        name = game.name(int(str(actor)))
        if game.phase == "roll":
            said = Msg("{player}: roll the market die — what does it show?", player=name)
        elif game.phase == "scout":
            said = Msg("{player}: move the rooftop pawn to scout stalls", player=name)
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
        option: dict[str, Any] = {"label": label[0].upper() + label[1:], "group": group, "path": path, "action": data}
        path_say = _path_say(data, path)
        if path_say is not None:
            option["path_say"] = [step.to_json() for step in path_say]
        if group in GROUP_SAY:
            option["group_say"] = GROUP_SAY[group].to_json()
        options.append(option)
    out: dict[str, Any] = {"actor": actor, "prompt": prompt, "options": options}
    if said is not None:
        out["prompt_say"] = said.to_json()
    return out


def _path_say(data: dict[str, Any], path: list[str]) -> list[Msg] | None:
    """An option's tap path as messages where every step is this adapter's own words (else None: English)."""
    kind = data["type"]
    if kind == "roll":
        return [Msg("Wild (each picks a cube)") if data["face"] == board.WILD else Msg(str(data["face"]).capitalize())]
    if kind == "place" and len(path) == 3:
        space = _index(data["space"])
        r, c = board.stall_row_col(board.stall_of(space))
        y, x = divmod(space, board.SPACES_PER_SIDE)
        return [WORKER_SAY[data["worker"]], Msg("Row {row}, column {column}", row=r + 1, column=c + 1),
                Msg("{space} space", space=Msg(_SPACE_WORDS[(y % 2) * 2 + x % 2].capitalize()))]
    if kind == "pass":
        return [Msg("Pass (no worker can be placed)")]
    if kind == "end_turn":
        return [Msg("End the turn")]
    return None


def describe(before: Game, action: dict[str, Any]) -> str:
    """One log line for ``action`` applied to ``before`` (the game as it was)."""
    kind = action["type"]
    if kind == "answer":
        prompt = (before.pending or {}).get("prompt", "the question")
        return f"The table answers “{prompt}”: {action['value']}"
    who = before.name(int(action["player"]))
    if kind == "roll":
        return f"{who} rolls the market die: {action['face']}"
    if kind == "scout":
        return f"{who} moves the rooftop pawn to {scout_words(before, int(action['space'])).lower()}"
    if kind == "place":
        label, _path, _group = action_words(before, action)
        row, column = before.cost(board.stall_of(_index(action["space"])))
        return f"{who} places {label} (pays {row} + {column})"
    if kind == "pass":
        return f"{who} cannot place a worker and passes"
    if kind == "end_turn":
        return f"{who} ends the turn"
    if kind == "swap":
        a, b = action["lines"]
        return f"{who} spends a gold coin to swap the cubes of {_line_words(a)} and {_line_words(b)}"
    pending = before.pending or {}
    option = option_words(before, pending, action.get("option")).lower()
    return f"{who} chooses {option} (“{pending.get('prompt', '')}”)"


def describe_say(before: Game, action: dict[str, Any]) -> Msg | None:
    """``describe`` as a message the page renders in its language, for the lines this adapter words
    itself (a roll, a scout, a plain placement, a pass, the end of a turn); None for the rest (English)."""
    kind = action["type"]
    if kind == "answer":
        return None
    who = before.name(int(action["player"]))
    if kind == "roll":
        return Msg("{player} rolls the market die: {face}", player=who, face=Msg(str(action["face"])))
    if kind == "scout":
        space = int(action["space"])
        left, right = board.rooftop_neighbours(space)
        return Msg("{player} moves the rooftop pawn to space {n}: take {a} + {b}", player=who, n=space,
                   a=Msg(before.s.rooftop[left - 1]), b=Msg(before.s.rooftop[right - 1]))
    if kind == "place" and not action.get("extra") and not action.get("second"):
        space = _index(action["space"])
        stall = board.stall_of(space)
        r, c = board.stall_row_col(stall)
        y, x = divmod(space, board.SPACES_PER_SIDE)
        row, column = before.cost(stall)
        return Msg("{player} places {worker} in the {space} space of the stall in row {row}, column {column} "
                   "(pays {a} + {b})", player=who, worker=Msg(board.a_worker(action["worker"])),
                   space=Msg(_SPACE_WORDS[(y % 2) * 2 + x % 2]), row=r + 1, column=c + 1, a=Msg(row), b=Msg(column))
    if kind == "pass":
        return Msg("{player} cannot place a worker and passes", player=who)
    if kind == "end_turn":
        return Msg("{player} ends the turn", player=who)
    return None


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
            "breakdown_say": {CATEGORIES[k]: CATEGORY_SAY[k].to_json() for k, v in p.breakdown.items()
                              if v and k in CATEGORIES},
            "cubes": dict(p.cubes), "gold": p.gold, "assistants": p.assistants, "bodyguards": p.bodyguards,
            "quarters": p.quarters, "tourists": p.tourists, "cousins": p.cousins, "market_tiles": p.market_tiles,
            "juice_tokens": len(p.juice), "juice_points": sum(p.juice) if s.finished else None,
            "start": seat == s.start_player,
        })
    return {
        "round": s.round, "phase": PHASES.get(s.phase, s.phase), "final_round": s.final_round,
        "phase_say": PHASE_SAY[s.phase].to_json() if s.phase in PHASE_SAY else None,
        "end_reason": s.end_reason, "rows": list(s.rows), "columns": list(s.columns), "rooftop": list(s.rooftop),
        "pawn": s.pawn, "stalls": stalls, "juice": list(s.juice), "gold_supply": s.gold_supply,
        "empty_tiles": s.empty_tiles, "open_stalls": s.open_stalls(), "players": players,
        "colours": list(board.CUBE_COLOURS),
    }
