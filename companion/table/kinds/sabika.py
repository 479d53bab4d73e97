"""Sabika at the dashboard: the adapter between the generic game page and ``companion.games.sabika``.

Implements the contract of ``/work/coord/15-kinds.md`` (the registry in ``companion.table.kinds`` maps
``"sabika"`` to this module): create and replay games, JSON actions, the board the screen draws
(``static/kind-sabika.js``), the legal choices of whoever must act (labelled in player words and
grouped so no screen shows more than ``MAX_GROUP`` buttons), one log line per action, scores.
"""

from __future__ import annotations

from typing import Any

from companion.games.sabika import Game, SetupOptions
from companion.games.sabika import log as sabika_log
from companion.games.sabika.actions import Action, Answer, Choose, Rest, Work, action_from_dict, action_to_dict
from companion.games.sabika.components import (
    ACTION_WORDS,
    GOODS,
    MATERIALS,
    RAWS,
    RING_WORDS,
    RINGS,
    WISH_SPACES,
    WORDS,
    WORKER_RING,
    WORKER_WORDS,
    WORKERS,
)
from companion.games.sabika.errors import RuleError, SetupError
from companion.games.sabika.questions import is_group_key, questions_before_play
from companion.games.sabika.rondel import move_cost
from companion.games.sabika.rules import occupancy
from companion.games.sabika.say import ACTION_SAY, RING_SAY, SPOT_SAY, WORKER_SAY, WORKER_TITLE, Said
from companion.games.sabika.scoring import metric
from companion.games.sabika.words import (
    METRIC_WORDS,
    PHASE_WORDS,
    answer_group,
    icons_label,
    option_label,
    parts_label,
    place_words,
)
from companion.i18n import Msg

KEY = "sabika"
NAME = "Sabika"
PLAYERS = (1, 4)
"""2-4 players (L56-162); 1 player plays the solo mode against the automa Yusuf (L1187-1489), who takes seat 1."""

MAX_GROUP = 20
"""Most options one group holds: a page showing a long list group by group stays within this."""

REST_WORDS = Msg("+3 Dinars, \u22121 PP")
"""Resting a Worker (L489-494)."""

BREAKDOWN_WORDS = {
    "start": Msg("Start"), "rest": Msg("Resting"), "constructions": Msg("Constructions"),
    "storehouses": Msg("Storehouses"), "favour": Msg("Sultan's Favour"), "export": Msg("Exports"),
    "consolidation": Msg("Consolidation"), "city_bonus": Msg("City Bonuses"), "poems": Msg("Poems"),
    "income": Msg("Income"), "wishes": Msg("Sultan's Wishes"), "tribute": Msg("Tribute"),
    "major_poems": Msg("Major Poems"), "trade": Msg("Trade Card"), "leftovers": Msg("Leftovers"),
    "yusuf_cards": Msg("Yusuf's Cards"),
}
"""Score categories (``PlayerState.breakdown``) as the score breakdown names them."""

OPTION_KEYS = {"advanced", "profile", "events", "yusuf_pp"}

LONG_LIST_GROUPS = {"work": Msg("Your Workers"), "rest": Msg("Your Workers"), "choose": Msg("Options"),
                    "answer": Msg("Answers")}
"""One heading over a long list's first step (its buttons are the groups themselves)."""

TRANSACTION_GROUPS = {"buy": Msg("Buy"), "sell": Msg("Sell"), "trade": Msg("Trade")}
"""Market options grouped by their first word."""
POEM_GROUPS = {"blue": Msg("Blue Poems"), "red": Msg("Red Poems"), "grey": Msg("Grey Poems")}
"""Poems to carve or reactivate grouped by colour."""
WAITING = Msg("Waiting")

#: The setup wizard's Sabika field (docs/sabika.md): the advanced mode's Events.
OPTIONS: list[dict[str, Any]] = [
    {"key": "advanced", "label": Msg("Mode"), "kind": "choice",
     "help": Msg("The advanced mode adds 3 Event Tiles: the companion draws them."),
     "choices": [{"value": False, "label": Msg("Basic game")},
                 {"value": True, "label": Msg("Advanced mode: 3 Events")}]},
    {"key": "yusuf_pp", "label": Msg("Yusuf's start (1 player: the solo mode)"), "kind": "choice",
     "help": Msg("With 1 player you play against the automa Yusuf; he starts on 5 PP, or on 10 PP for a harder game."),
     "choices": [{"value": 5, "label": Msg("5 PP")}, {"value": 10, "label": Msg("10 PP: harder")}]},
]
#: A broken rule (the service answers 422 with its message, which names the rule and the player).
RULE_ERROR = RuleError


class _Remembered(dict[str, Any]):
    """Which printed values a table's answers may be kept for (``PROFILE``): every question key of
    the board and its components (open-ended: ``minor_card.17.base``...), never a draw turned up.

    ``key in PROFILE`` says whether the key is a printed value; ``value in PROFILE[key]`` accepts any
    value, because only answers the engine accepted are ever kept.
    """

    PREFIXES = ("rondel.", "sultan.", "bag.", "tribute.", "start_dinars.", "favour.", "major.", "events.",
                "wish.", "trade.", "major_poem.", "city_tile.", "map.", "storehouse.", "minor_card.",
                "minor_poem.", "balance.", "start_tile.", "yusuf.", "solo.trade.")

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.startswith(self.PREFIXES)

    def __getitem__(self, key: str) -> _AnyValue:
        return _AnyValue()


class _AnyValue:
    """Every answer the engine accepted is a value worth keeping."""

    def __contains__(self, value: object) -> bool:
        return True


PROFILE = _Remembered()
"""Printed values remembered per table for the next Sabika game (``companion.table.kinds.profile``)."""


def answer_values(key: str, value: Any) -> dict[str, Any]:
    """The printed values an answer gives (``companion.table.kinds.profile`` keeps each): an answer to a group's
    question (a Rondel's ring sizes, the starting Dinars) is an object of them, any other answer its key's."""
    return dict(value) if is_group_key(key) and isinstance(value, dict) else {key: value}


def new_game(players: list[str], seed: int, options: dict[str, Any]) -> Game:
    """A new game: ``options`` may hold ``advanced`` (3 Events), ``events`` (chosen), ``profile`` (saved answers)
    and ``yusuf_pp`` (5 or 10; one player plays the solo mode against Yusuf)."""
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise SetupError(Msg("unknown Sabika option(s): {options} (known: {known})", options=", ".join(sorted(unknown)),
                             known=", ".join(sorted(OPTION_KEYS))))
    profile = options.get("profile") or {}
    if not isinstance(profile, dict):
        raise SetupError(Msg("the Sabika option profile must be an object of saved answers"))
    events = options.get("events") or ()
    if not isinstance(events, (list, tuple)):
        raise SetupError(Msg("the Sabika option events must be a list of 3 Event Tile numbers"))
    solo = len(players) == 1
    yusuf_pp = options.get("yusuf_pp", 5)
    if not solo and yusuf_pp != 5:
        raise SetupError(Msg("the Sabika option yusuf_pp is for the solo mode (1 player) only"))
    if not isinstance(yusuf_pp, int) or isinstance(yusuf_pp, bool):
        raise SetupError(Msg("the Sabika option yusuf_pp must be 5 or 10"))
    return Game.new(SetupOptions(players=tuple(players), seed=int(seed), profile=dict(profile),
                                 advanced=bool(options.get("advanced")), events=tuple(events), solo=solo,
                                 yusuf_pp=yusuf_pp, when_needed=True))


def replay(setup: dict[str, Any], actions: list[dict[str, Any]]) -> Game:
    """The game rebuilt from its stored setup and JSON actions."""
    return Game.replay(setup, [parse_action(a) for a in actions])


def parse_action(data: Any) -> Action:
    """An engine action from its JSON form (``ActionFormatError`` names the bad field)."""
    return action_from_dict(data)


def to_json(action: Action) -> dict[str, Any]:
    """The JSON form of an engine action."""
    return action_to_dict(action)


def write_log(game: Game) -> str:
    """The game's JSON-lines log (export)."""
    return sabika_log.write_log(game)


def read_log(text: str, source: str) -> Game:
    """A game from an exported log; ``LogError`` names the source and the damaged line."""
    return sabika_log.read_log(text, source)


def scores(game: Game) -> list[int]:
    """PP per seat (running, final once finished)."""
    return [p.score for p in game.s.players]


def winners(game: Game) -> list[int]:
    """Winning seats once the game is over (most PP, then most Constructions, L1057-1061)."""
    return game.winners() if game.finished else []


# --- choices --------------------------------------------------------------------------------------


def choices(game: Game) -> dict[str, Any]:
    """Who acts, what they are asked and every legal action as a labelled, grouped button.

    The English (``prompt``, an option's ``label``, ``group`` and ``path``) is what the API gives; the
    same words come as messages (``prompt_say``, ``group_say``, ``path_say``) that a page renders in its
    own language: the view is built once for every phone (docs/i18n.md).
    """
    actor = game.to_move
    options = _cap_groups([_option(game, action) for action in game.legal_actions()])
    out = []
    for option in options:
        label, group = option.pop("label_say"), option.pop("group_say")
        if len(options) <= MAX_GROUP:
            path = [label]
        else:  # a long list is tapped in two steps: its group (the first screen's buttons), then the option
            path = [group, label]
            group = LONG_LIST_GROUPS[option["action"]["type"]]
        option.update(label=_english(label), group=_english(group), path=[_english(step) for step in path],
                      group_say=_json(group),
                      path_say=[_json(step) for step in path])
        out.append(option)
    prompt = _prompt(game)
    out_view = {"actor": actor, "prompt": _english(prompt), "prompt_say": _json(prompt), "options": out}
    progress = setup_progress(game)
    if progress is not None:
        out_view.update(progress=progress.english(), progress_say=progress.to_json())
    editor = several_options_question(game) or grouped_question(game)
    if editor is not None:
        out_view["question"] = editor
    return out_view


def grouped_question(game: Game) -> dict[str, Any] | None:
    """The question asking several printed values at once (a Rondel's three ring sizes), for a page to offer one
    stepper per value: its key and ``parts``, each with its key, its options and its name as a message; the answer
    is an object giving each part's key its value. None for any other decision. The legal actions (``options``)
    list only one answer per row of the parts' options, which would let the table give three equal sizes only."""
    pending = game.s.pending or {}
    if pending.get("kind") != "question" or not pending.get("parts"):
        return None
    return {"key": pending["key"], "parts": [{"key": part["key"], "options": list(part["options"]),
                                              "name_say": part["name_say"]} for part in pending["parts"]]}


def several_options_question(game: Game) -> dict[str, Any] | None:
    """The question waiting for several options at once (a printed bonus's icons, left to right), for a page to
    offer as toggles tapped in order: its key, options, each option's words as a message, and how many it takes
    (``count``; None: one or more). None for any other decision. The legal actions (``options``) list only one
    answer per option, which would let the table give a single icon where the Board page takes several."""
    pending = game.s.pending or {}
    if pending.get("kind") != "question" or not pending.get("multi"):
        return None
    key = pending["key"]
    return {"key": key, "options": list(pending["options"]), "count": pending.get("count"),
            "words_say": [_json(option_label(key, option)) for option in pending["options"]]}


SEVERAL = 5
"""Questions in a row before play from which the table is shown how far it is."""


def setup_progress(game: Game) -> Msg | None:
    """The words "Question 3 of about 12 before play starts" while the table answers the printed values a new
    game needs before its first move, when there are ``SEVERAL`` (None otherwise): the table sees how far it is."""
    if (game.s.pending or {}).get("kind") != "question":
        return None
    left = questions_before_play(game.s)
    if not left:
        return None
    asked = sum(1 for action in game.log if isinstance(action, Answer))
    if asked + left < SEVERAL:  # one or two questions in play need no count
        return None
    return Msg("Question {n} of about {total} before play starts", n=asked + 1, total=asked + left)


def _english(words: Msg | str) -> str:
    return words.english() if isinstance(words, Msg) else str(words)


def _json(words: Msg | str) -> dict[str, Any]:
    """Words as a message (a plain text, e.g. a player's name, as a message with no translation)."""
    return (words if isinstance(words, Msg) else Msg("{text}", text=str(words))).to_json()


def _prompt(game: Game) -> Msg | str:
    s = game.s
    if s.pending is not None:
        return pending_prompt(s.pending)
    if s.phase == "actions":
        return Msg("{player}: move a Worker or rest one (round {n}, Era {era})", player=game.name(s.turn), n=s.round,
                   era=s.era())
    if game.finished:
        names = _names(game, game.winners())
        if len(game.winners()) == 1:
            return Msg("Game over: {names} wins", names=names)
        return Msg("Game over: {names} share the win", names=names)
    return PHASE_WORDS.get(s.phase, WAITING)


def _names(game: Game, seats: list[int]) -> Msg | str:
    """``"Ana and Ben"``: seats' names joined the way the prompt says them."""
    out: Msg | str = game.name(seats[0]) if seats else ""
    for seat in seats[1:]:
        out = Msg("{first} and {second}", first=out, second=game.name(seat))
    return out


def pending_prompt(pending: dict[str, Any]) -> Msg | str:
    """The pending decision's or question's prompt; a route's cost question names its places."""
    key = str(pending.get("key", ""))
    if key.startswith("map.route.") and key.endswith(".cost"):
        a, b = key[len("map.route."):-len(".cost")].split("-")
        return Msg("How many Dinars does the trade route {a} \u2013 {b} cost?", a=place_words(a), b=place_words(b))
    return Msg.from_json(pending["say"]) if "say" in pending else str(pending["prompt"])


def _option(game: Game, action: Action) -> dict[str, Any]:
    label, group = action_words(game, action)
    return {"label_say": label, "group_say": group, "action": to_json(action)}


def action_words(game: Game, action: Action) -> tuple[Msg | str, Msg]:
    """The button label and group heading of a legal action of ``game``."""
    if isinstance(action, Work):
        return _work_label(game, action), worker_group(game, action.player, action.worker)
    if isinstance(action, Rest):
        label = Msg("Rest the {worker} ({rest})", worker=WORKER_SAY[action.worker], rest=REST_WORDS)
        return label, worker_group(game, action.player, action.worker)
    if isinstance(action, Answer):
        return _answer_words(game, action.key, action.value), answer_group(action.key, action.value)
    return choice_label(game, action.option), choice_group(game, action.option)


def _answer_words(game: Game, key: str, value: Any) -> Msg | str:
    """An answer in player words; a table draw's answer (a word the engine offered) in the offer's words; an
    answer to a group's question part by part."""
    pending = game.s.pending or {}
    if pending.get("parts") and isinstance(value, dict):
        return parts_label(pending["parts"], value)
    offered = next((option for option in pending.get("options", []) if option == value), value)
    return option_label(key, offered)


def _option_say(pending: dict[str, Any], option: Any) -> Msg | None:
    """The message the engine gave option ``option`` of ``pending`` (a ``say.Said``), if any."""
    return next((offered.msg for offered in pending.get("options", [])
                 if isinstance(offered, Said) and offered == option), None)


def worker_group(game: Game, seat: int, worker: str) -> Msg:
    """``"Poet · Inner Rondel · on square 3"``: a Worker's moves and its rest go together."""
    at = game.s.players[seat].workers[worker].at
    where = Msg("in the Workshop") if at is None else Msg("on square {n}", n=at)
    return Msg("{worker} \u00b7 {ring} \u00b7 {where}", worker=WORKER_TITLE[worker], ring=RING_SAY[WORKER_RING[worker]],
               where=where)


def _work_cost(game: Game, action: Work) -> int:
    ring = WORKER_RING[action.worker]
    at = game.s.players[action.player].workers[action.worker].at
    steps = game.layout.steps(ring, at, action.square)
    return move_cost(steps, occupancy(game, action.player).get((ring, action.square), 0), game.event())


def _work_label(game: Game, action: Work) -> Msg:
    ring = WORKER_RING[action.worker]
    extra: Msg | str = ""
    for spot in _spots_known(game, ring, action.square):
        extra = Msg("{before} or {kind} square {n}", before=extra, kind=SPOT_SAY[spot.kind], n=spot.k)
    cost = _work_cost(game, action)
    return Msg("{worker} to square {n}: {action}{extra} \u00b7 {cost}", worker=WORKER_TITLE[action.worker],
               n=action.square, action=square_action(game, ring, action.square), extra=extra,
               cost=dinars(cost) if cost else Msg("free"))


UNKNOWN_ACTION = Msg("action not known yet: the table says it when the Worker lands")
"""A lazy game's square whose printed Main Action nobody has been asked yet."""


def square_action(game: Game, ring: str, square: int) -> Msg:
    """The Main Action printed on a square, in player words (``UNKNOWN_ACTION`` before the table gave it)."""
    action = game.layout.action[ring].get(square)
    return ACTION_SAY[action] if action is not None else UNKNOWN_ACTION


def _spots_known(game: Game, ring: str, square: int) -> list[Any]:
    """The Secondary Action squares of a square whose links the table has given (a lazy game asks them later)."""
    return [spot for spot in game.layout.raw + game.layout.marble if spot.links.get(ring) == square]


def dinars(n: int) -> Msg:
    """``"1 Dinar"``, ``"3 Dinars"``."""
    return Msg("{n} Dinar", n=n) if n == 1 else Msg("{n} Dinars", n=n)


def _secret_start_tile(pending: dict[str, Any]) -> bool:
    """Whether ``pending`` is a player's secret choice of a Starting Tile (L151-162)."""
    return pending.get("kind") == "choice" and str(pending.get("prompt", "")).endswith("secretly keeps which "
                                                                                        "Starting Tile?")


def choice_label(game: Game, option: Any) -> Msg | str:
    """An option of the pending decision of ``game`` in the words the engine gave it; a secret Starting
    Tile (a bare number) is named with what it gives; a bare value (a count, a name) as it is."""
    pending = game.s.pending or {}
    if _secret_start_tile(pending) and isinstance(option, int):
        bonus = game.s.profile.get(f"start_tile.{option}.bonus")
        if bonus:
            return Msg("Starting Tile {n}: {bonus}", n=option, bonus=icons_label(bonus))
        return Msg("Starting Tile {n}", n=option)
    said = _option_say(pending, option)
    return said if said is not None else str(option)


def choice_group(game: Game, option: Any) -> Msg:
    """A heading for a decision's option, so a long list (Market, tribute, Storehouses) reads in parts."""
    text = str(option)
    first = text.split(" ", 1)[0]
    if first in TRANSACTION_GROUPS:
        return TRANSACTION_GROUPS[first]
    if text.startswith("Storehouse Tile") and " on Storehouse " in text:
        return Msg("On Storehouse {k}", k=text.rsplit(" ", 1)[1])
    if " on the Paria Track" in text:
        return Msg("{n} from the Paria Track", n=first)
    if "Poem" in text and first in POEM_GROUPS:
        return POEM_GROUPS[first]
    if text.startswith("Era ") and "Major Construction Tile" in text:
        return Msg("Era {era} Tiles", era=text.split(" ")[1])
    return LONG_LIST_GROUPS["choose"]


def _cap_groups(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Split any group larger than ``MAX_GROUP`` into numbered parts (order kept)."""
    sizes: dict[str, int] = {}
    for option in options:
        key = _english(option["group_say"])
        sizes[key] = sizes.get(key, 0) + 1
    seen: dict[str, int] = {}
    for option in options:
        key = _english(option["group_say"])
        if sizes[key] > MAX_GROUP:
            index = seen.get(key, 0)
            seen[key] = index + 1
            option["group_say"] = Msg("{group}, part {n}", group=option["group_say"], n=index // MAX_GROUP + 1)
    return options


# --- log lines ------------------------------------------------------------------------------------


def describe(before: Game, action: dict[str, Any]) -> str:
    """One log line in player words (English: the stored log) for ``action`` applied to the game ``before``."""
    act = parse_action(action)
    pending = before.s.pending or {}
    if isinstance(act, Choose) and not _secret_start_tile(pending):
        prompt = _english(pending_prompt(pending)) if pending else ""
        return f"{prompt.rstrip(':')} \u2192 {_english(choice_label(before, act.option))}"
    if isinstance(act, Answer):
        prompt = _english(pending_prompt(pending)) if pending else ""
        verb = "turned up" if pending.get("kind") == "draw" else "answers"
        answer = _english(_answer_words(before, act.key, act.value))
        return f"The table {verb} \u201c{prompt.rstrip('?')}\u201d: {answer}"
    return describe_say(before, action).english()


def describe_say(before: Game, action: dict[str, Any]) -> Msg:
    """The log line of ``describe`` as a message, which each phone renders in its language.

    A decision's or question's line quotes its prompt whole (the German reads "question? answer").
    """
    act = parse_action(action)
    if isinstance(act, Work):
        name = before.name(act.player)
        ring = WORKER_RING[act.worker]
        at = before.s.players[act.player].workers[act.worker].at
        cost = _work_cost(before, act)
        paid = Msg("paying {dinars}", dinars=dinars(cost)) if cost else Msg("for free")
        main = square_action(before, ring, act.square)
        words = {"player": name, "worker": WORKER_SAY[act.worker], "n": act.square, "ring": RING_SAY[ring],
                 "action": main, "paid": paid}
        if at is None:
            return Msg("{player} places the {worker} on square {n} of the {ring} ({action}), {paid}", **words)
        return Msg("{player} moves the {worker} to square {n} of the {ring} ({action}), {paid}", **words)
    if isinstance(act, Rest):
        return Msg("{player} rests the {worker} ({rest})", player=before.name(act.player),
                   worker=WORKER_SAY[act.worker], rest=REST_WORDS)
    pending = before.s.pending or {}
    prompt = pending_prompt(pending) if pending else ""
    if isinstance(act, Choose) and _secret_start_tile(pending):
        return Msg("{player} keeps one Starting Tile (secret until everyone has chosen)",
                   player=before.name(act.player))
    if isinstance(act, Choose):
        return Msg("{prompt} \u2192 {choice}", prompt=prompt, choice=choice_label(before, act.option))
    assert isinstance(act, Answer)
    answer = _answer_words(before, act.key, act.value)
    if pending.get("kind") == "draw":
        return Msg("The table turned up \u201c{prompt}\u201d: {answer}", prompt=prompt, answer=answer)
    return Msg("The table answers \u201c{prompt}\u201d: {answer}", prompt=prompt, answer=answer)


# --- the board ------------------------------------------------------------------------------------


def board_view(game: Game) -> dict[str, Any]:
    """Everything ``kind-sabika.js`` draws, JSON-ready, in player words (no engine keys as text)."""
    s = game.s
    revealed = s.phase not in ("setup", "start_tiles")
    return {
        "round": s.round, "rounds": 5, "era": s.era(), "phase": _english(PHASE_WORDS.get(s.phase, s.phase)),
        "phase_say": _json(PHASE_WORDS.get(s.phase, s.phase)),
        "finished": game.finished, "start_player": s.start_player,
        "turn": s.turn if s.phase == "actions" and not game.finished else None,
        "event": game.event() or None,
        "rondel": _rondel(game), "raw_squares": _raw_squares(game), "marble_squares": _marble_squares(game),
        "map": _map(game), "tribute": _tribute(game), "wishes": _wishes(game),
        "displays": _displays(game),
        "players": [_player(game, seat, revealed) for seat in range(len(s.players))],
        "scores": scores(game), "winners": winners(game),
        "categories": _categories(game),
    }


def _categories(game: Game) -> list[dict[str, Any]]:
    """The score categories any player has points in, in the rulebook's order: the final scoring table's rows
    (the same order for every player; a player's breakdown names them by ``label``)."""
    used = {k for p in game.s.players for k, v in p.breakdown.items() if v}
    keys = [k for k in BREAKDOWN_WORDS if k in used] + sorted(used - BREAKDOWN_WORDS.keys())
    return [{"label": _english(BREAKDOWN_WORDS.get(k, k.capitalize())),
             "say": _json(BREAKDOWN_WORDS.get(k, k.capitalize()))} for k in keys]


def _layout_known(game: Game) -> bool:
    try:
        game.layout  # noqa: B018 - built from the profile; missing answers during setup raise KeyError
    except KeyError:
        return False
    return True


def _rondel(game: Game) -> list[dict[str, Any]]:
    """Each ring's squares: Main Action, Secondary squares, Workers and Sultan's Workers standing there."""
    if not _layout_known(game):
        return []
    s, layout = game.s, game.layout
    out = []
    for ring in RINGS:
        squares = []
        for sq in layout.squares[ring]:
            workers = [{"seat": seat, "name": p.name, "worker": WORKER_WORDS[w], "standing": p.workers[w].active}
                       for seat, p in enumerate(s.players) for w in WORKERS
                       if WORKER_RING[w] == ring and p.workers[w].at == sq]
            sultan = sum(1 for r, at in s.sultan_workers if r == ring and at == sq)
            spots = [Msg("{kind} square {n}", kind=SPOT_SAY[spot.kind], n=spot.k)
                     for spot in _spots_known(game, ring, sq)]
            action = layout.action[ring].get(sq)
            squares.append({"n": sq, "action": ACTION_WORDS[action] if action else None, "workers": workers,
                            "sultan": sultan, "secondary": [spot.english() for spot in spots],
                            "secondary_say": [spot.to_json() for spot in spots]})
        out.append({"ring": RING_WORDS[ring], "squares": squares})
    return out


def _raw_squares(game: Game) -> list[dict[str, Any]]:
    return [{"n": k, "token": WORDS[token] if token else None} for k, token in enumerate(game.s.raw_spots, start=1)]


def _marble_squares(game: Game) -> list[dict[str, Any]]:
    return [{"n": k, "marble": bool(full)} for k, full in enumerate(game.s.marble_spots, start=1)]


def _map(game: Game) -> dict[str, Any]:
    """The Cities (tile, colour, Good in demand, Seal, Ships) and the trade routes with their costs."""
    s, prof = game.s, game.s.profile
    cities = []
    for city, tile in enumerate(s.city_tiles, start=1):
        demand = prof.get(f"city_tile.{tile}.demand")
        ships = [{"seat": seat, "name": p.name, "consolidated": p.ships[city] == "right"}
                 for seat, p in enumerate(s.players) if city in p.ships]
        cities.append({"n": city, "colour": prof.get(f"city_tile.{tile}.colour"),
                       "demand": WORDS.get(str(demand)) if demand else None, "seal": s.seals[city - 1],
                       "bonus": _bonus_words(prof, f"city_tile.{tile}.bonus"),
                       "bonus_say": _bonus_say(prof, f"city_tile.{tile}.bonus"), "ships": ships})
    routes = []
    for route in prof.get("map.routes", []):
        a, b = str(route).split("-")
        routes.append({"from": place_words(a).english(), "to": place_words(b).english(),
                       "from_say": place_words(a).to_json(), "to_say": place_words(b).to_json(),
                       "cost": prof.get(f"map.route.{route}.cost")})
    return {"cities": cities, "routes": routes}


def _bonus_words(prof: dict[str, Any], key: str) -> str | None:
    """A printed Bonus in player words, None while the table has not given it."""
    return icons_label(prof[key]).english() if key in prof else None


def _bonus_say(prof: dict[str, Any], key: str) -> dict[str, Any] | None:
    """``_bonus_words`` as a message."""
    return icons_label(prof[key]).to_json() if key in prof else None


def _tribute(game: Game) -> list[dict[str, Any]]:
    """Parias due at the end of each round (Round Track spaces 2-6, L920-935)."""
    prof = game.s.profile
    return [{"round": space - 1, "parias": prof.get(f"tribute.{space}")} for space in range(2, 7)]


def _wishes(game: Game) -> list[dict[str, Any]]:
    """Sultan's Wishes tiles on the Round Track and in the Tower, with what they count."""
    s, prof = game.s, game.s.profile
    out = []
    for space in WISH_SPACES:
        tile = s.wish_track.get(space)
        if tile is not None:
            out.append({"round": space - 1, "tile": tile, "scored": False, **_wish_counts(prof, tile)})
    out += [{"round": None, "tile": tile, "scored": True, **_wish_counts(prof, tile)} for tile in s.wish_tower]
    return out


def _wish_counts(prof: dict[str, Any], tile: str) -> dict[str, Any]:
    """``counts`` (``"Poems × 2 PP, ..."``) and ``counts_say``; None while the table has not given them."""
    elements = prof.get(f"wish.{tile}.elements")
    if elements is None:
        return {"counts": None, "counts_say": None}
    counts = [Msg("{what} \u00d7 {n} PP", what=METRIC_WORDS[e], n=prof.get(f"wish.{tile}.{e}.points", "?"))
              for e in elements]
    return {"counts": ", ".join(c.english() for c in counts), "counts_say": Msg("{list}", list=counts).to_json()}


def _displays(game: Game) -> dict[str, Any]:
    """The palace areas and cards on offer: Major Construction Tiles, Minor Cards, Poems, Storehouse Tiles."""
    s = game.s
    said: dict[str, Any] = {
        "major_tiles": {era: [Msg("Era {era} Tile {n}", era=era, n=t) for t in tiles]
                        for era, tiles in s.major_tiles.items()},
        "minor_cards": [Msg("Minor Construction Card {n}", n=c) for c in s.minor_display if c is not None],
        "minor_poems": [Msg("Minor Poem {n}", n=m) for m in s.poem_display if m is not None],
        "major_poems": [Msg("Major Poem {n}", n=m) for m in s.major_poems if m is not None],
        "storehouse_tiles": [[Msg("Storehouse Tile {n}", n=t) for t in pair if t is not None]
                             for pair in s.store_display],
        "trade_card": Msg("Trade Card {n}", n=s.trade_card),
    }
    return {**_plain(said, Msg.english), "say": _plain(said, Msg.to_json)}


def _plain(value: Any, as_words: Any) -> Any:
    """``value`` (dicts and lists of ``Msg``) with each message put as ``as_words`` gives it."""
    if isinstance(value, Msg):
        return as_words(value)
    if isinstance(value, dict):
        return {key: _plain(item, as_words) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item, as_words) for item in value]
    return value


def _player(game: Game, seat: int, revealed: bool) -> dict[str, Any]:
    """One player's Workshop: tracks, resources, Storehouses, Workers, Ships, Constructions, Poems."""
    s = game.s
    p = s.players[seat]
    try:
        boxes: int | None = metric(s, p, "store_boxes")
    except KeyError:  # a Storehouse Tile whose boxes the table has not given yet
        boxes = None
    return {
        "seat": seat, "name": p.name, "score": p.score,
        "breakdown": [{"label": _english(BREAKDOWN_WORDS.get(k, k.capitalize())),
                       "label_say": _json(BREAKDOWN_WORDS.get(k, k.capitalize())), "points": v}
                      for k, v in p.breakdown.items() if v],
        "dinars": p.dinars, "parias": p.parias, "seals": p.seals, "favour": p.favour,
        "materials": [{"name": WORDS[m], "count": p.items[m]} for m in MATERIALS],
        "goods": [{"name": WORDS[g], "count": p.items[g]} for g in GOODS],
        "raws": [{"name": WORDS[r], "count": p.raws.count(r)} for r in RAWS],
        "store": {"used": p.held(), "boxes": boxes},
        "workers": [{"name": WORKER_WORDS[w], "ring": RING_WORDS[WORKER_RING[w]], "at": p.workers[w].at,
                     "standing": p.workers[w].active} for w in WORKERS],
        "ships_home": p.ships_home(),
        "cities": [{"city": city, "consolidated": side == "right"} for city, side in sorted(p.ships.items())],
        "major_constructions": len(p.major_tiles), "minor_constructions": len(p.minor_row) - 1,
        "balances": p.balances,
        "poems": {"blue": len(p.blue_poems), "red": len(p.red_poems), "grey": len(p.grey_poems)},
        "starting_tile": p.start_tile if revealed else None,
        "starting_player": revealed and seat == s.start_player,  # the Starting Tiles decide it (L159-162)
    }
