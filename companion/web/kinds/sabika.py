"""Sabika at the dashboard: the adapter between the generic game page and ``companion.sabika``.

Implements the contract of ``/work/coord/15-kinds.md`` (the registry in ``companion.web.kinds`` maps
``"sabika"`` to this module): create and replay games, JSON actions, the board the screen draws
(``static/kind-sabika.js``), the legal choices of whoever must act (labelled in player words and
grouped so no screen shows more than ``MAX_GROUP`` buttons), one log line per action, scores.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import Msg
from companion.sabika import Game, SetupOptions
from companion.sabika import log as sabika_log
from companion.sabika.actions import Action, Answer, Choose, Rest, Work, action_from_dict, action_to_dict
from companion.sabika.components import (
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
from companion.sabika.errors import RuleError, SetupError
from companion.sabika.rondel import move_cost
from companion.sabika.rules import occupancy
from companion.sabika.scoring import metric
from companion.sabika.words import METRIC_WORDS, PHASE_WORDS, answer_group, answer_label, icons_label, place_words

KEY = "sabika"
NAME = "Sabika"
PLAYERS = (2, 4)
"""2-4 players (L56-162); the solo mode (L1187-1489) is not modelled."""

MAX_GROUP = 20
"""Most options one group holds: a page showing a long list group by group stays within this."""

REST_WORDS = "+3 Dinars, \u22121 PP"
"""Resting a Worker (L489-494)."""

BREAKDOWN_WORDS = {
    "start": "Start", "rest": "Resting", "constructions": "Constructions", "storehouses": "Storehouses",
    "favour": "Sultan's Favour", "export": "Exports", "consolidation": "Consolidation", "city_bonus": "City Bonuses",
    "poems": "Poems", "income": "Income", "wishes": "Sultan's Wishes", "tribute": "Tribute",
    "major_poems": "Major Poems", "trade": "Trade Card", "leftovers": "Leftovers",
}

OPTION_KEYS = {"advanced", "profile", "events"}

LONG_LIST_GROUPS = {"work": "Your Workers", "rest": "Your Workers", "choose": "Options", "answer": "Answers"}
"""One heading over a long list's first step (its buttons are the groups themselves)."""

#: The setup wizard's Sabika field (docs/sabika.md): the advanced mode's Events.
OPTIONS: list[dict[str, Any]] = [
    {"key": "advanced", "label": Msg("Mode"), "kind": "choice",
     "help": Msg("The advanced mode adds 3 Event Tiles (L1120-1186): the companion draws them."),
     "choices": [{"value": False, "label": Msg("Basic game")},
                 {"value": True, "label": Msg("Advanced mode: 3 Events")}]},
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
                "minor_poem.", "balance.", "start_tile.")

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.startswith(self.PREFIXES)

    def __getitem__(self, key: str) -> _AnyValue:
        return _AnyValue()


class _AnyValue:
    """Every answer the engine accepted is a value worth keeping."""

    def __contains__(self, value: object) -> bool:
        return True


PROFILE = _Remembered()
"""Printed values remembered per table for the next Sabika game (``companion.web.kinds.profile``)."""


def new_game(players: list[str], seed: int, options: dict[str, Any]) -> Game:
    """A new game: ``options`` may hold ``advanced`` (3 Events), ``events`` (chosen) and ``profile`` (saved answers)."""
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise SetupError(f"unknown Sabika option(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(OPTION_KEYS))})")
    profile = options.get("profile") or {}
    if not isinstance(profile, dict):
        raise SetupError("the Sabika option profile must be an object of saved answers")
    events = options.get("events") or ()
    if not isinstance(events, (list, tuple)):
        raise SetupError("the Sabika option events must be a list of 3 Event Tile numbers")
    return Game.new(SetupOptions(players=tuple(players), seed=int(seed), profile=dict(profile),
                                 advanced=bool(options.get("advanced")), events=tuple(events)))


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
    """Who acts, what they are asked and every legal action as a labelled, grouped button."""
    actor = game.to_move
    options = _cap_groups([_option(game, action) for action in game.legal_actions()])
    if len(options) <= MAX_GROUP:
        for option in options:
            option["path"] = [option["label"]]
    else:  # a long list is tapped in two steps: its group (the first screen's buttons), then the option
        for option in options:
            option["path"] = [option["group"], option["label"]]
            option["group"] = LONG_LIST_GROUPS[option["action"]["type"]]
    return {"actor": actor, "prompt": _prompt(game), "options": options}


def _prompt(game: Game) -> str:
    s = game.s
    if s.pending is not None:
        return pending_prompt(s.pending)
    if s.phase == "actions":
        return f"{game.name(s.turn)}: move a Worker or rest one (round {s.round}, Era {s.era()})"
    if game.finished:
        names = " and ".join(game.name(i) for i in game.winners())
        return f"Game over: {names} {'wins' if len(game.winners()) == 1 else 'share the win'}"
    return PHASE_WORDS.get(s.phase, "Waiting")


def pending_prompt(pending: dict[str, Any]) -> str:
    """The pending decision's or question's prompt; a route's cost question names its places."""
    key = str(pending.get("key", ""))
    if key.startswith("map.route.") and key.endswith(".cost"):
        a, b = key[len("map.route."):-len(".cost")].split("-")
        return f"How many Dinars does the trade route {place_words(a)} \u2013 {place_words(b)} cost?"
    return str(pending["prompt"])


def _option(game: Game, action: Action) -> dict[str, Any]:
    label, group = action_words(game, action)
    return {"label": label, "group": group, "action": to_json(action)}


def action_words(game: Game, action: Action) -> tuple[str, str]:
    """The button label and group heading of a legal action of ``game``."""
    if isinstance(action, Work):
        return _work_label(game, action), worker_group(game, action.player, action.worker)
    if isinstance(action, Rest):
        label = f"Rest the {WORKER_WORDS[action.worker]} ({REST_WORDS})"
        return label, worker_group(game, action.player, action.worker)
    if isinstance(action, Answer):
        return answer_label(action.key, action.value), answer_group(action.key, action.value)
    return choice_label(game, action.option), choice_group(action.option)


def worker_group(game: Game, seat: int, worker: str) -> str:
    """``"Poet · Inner Rondel · on square 3"``: a Worker's moves and its rest go together."""
    at = game.s.players[seat].workers[worker].at
    where = "in the Workshop" if at is None else f"on square {at}"
    who = WORKER_WORDS[worker][:1].upper() + WORKER_WORDS[worker][1:]
    return f"{who} \u00b7 {RING_WORDS[WORKER_RING[worker]]} \u00b7 {where}"


def _work_cost(game: Game, action: Work) -> int:
    ring = WORKER_RING[action.worker]
    at = game.s.players[action.player].workers[action.worker].at
    steps = game.layout.steps(ring, at, action.square)
    return move_cost(steps, occupancy(game, action.player).get((ring, action.square), 0), game.event())


def _work_label(game: Game, action: Work) -> str:
    ring = WORKER_RING[action.worker]
    main = ACTION_WORDS[game.layout.action[ring][action.square]]
    extra = "".join(f" or {'Raw Material' if spot.kind == 'raw' else 'Marble'} square {spot.k}"
                    for spot in game.layout.spots_at(ring, action.square))
    cost = _work_cost(game, action)
    who = WORKER_WORDS[action.worker][:1].upper() + WORKER_WORDS[action.worker][1:]
    return f"{who} to square {action.square}: {main}{extra} \u00b7 {dinars(cost) if cost else 'free'}"


def dinars(n: int) -> str:
    """``"1 Dinar"``, ``"3 Dinars"``."""
    return f"{n} Dinar{'' if n == 1 else 's'}"


def _secret_start_tile(pending: dict[str, Any]) -> bool:
    """Whether ``pending`` is a player's secret choice of a Starting Tile (L151-162)."""
    return pending.get("kind") == "choice" and str(pending.get("prompt", "")).endswith("secretly keeps which "
                                                                                        "Starting Tile?")


def choice_label(game: Game, option: Any) -> str:
    """An option of the pending decision of ``game``: the engine states them in player words already;
    a secret Starting Tile (a bare number) is named with what it gives."""
    pending = game.s.pending or {}
    if _secret_start_tile(pending) and isinstance(option, int):
        bonus = game.s.profile.get(f"start_tile.{option}.bonus")
        return f"Starting Tile {option}" + (f": {icons_label(bonus)}" if bonus else "")
    return str(option)


def choice_group(option: Any) -> str:
    """A heading for a decision's option, so a long list (Market, tribute, Storehouses) reads in parts."""
    text = str(option)
    first = text.split(" ", 1)[0]
    if first in ("buy", "sell", "trade"):
        return first.capitalize()
    if text.startswith("Storehouse Tile") and " on Storehouse " in text:
        return f"On Storehouse {text.rsplit(' ', 1)[1]}"
    if " on the Paria Track" in text:
        return f"{first} from the Paria Track"
    if "Poem" in text and ("blue" in text or "red" in text or "grey" in text):
        return text.split(" ", 1)[0].capitalize() + " Poems"
    if text.startswith("Era ") and "Major Construction Tile" in text:
        return f"Era {text.split(' ')[1]} Tiles"
    return "Options"


def _cap_groups(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Split any group larger than ``MAX_GROUP`` into numbered parts (order kept)."""
    sizes: dict[str, int] = {}
    for option in options:
        sizes[option["group"]] = sizes.get(option["group"], 0) + 1
    seen: dict[str, int] = {}
    for option in options:
        group = option["group"]
        if sizes[group] > MAX_GROUP:
            index = seen.get(group, 0)
            seen[group] = index + 1
            option["group"] = f"{group}, part {index // MAX_GROUP + 1}"
    return options


# --- log lines ------------------------------------------------------------------------------------


def describe(before: Game, action: dict[str, Any]) -> str:
    """One log line in player words for ``action`` applied to the game ``before``."""
    act = parse_action(action)
    if isinstance(act, Work):
        name = before.name(act.player)
        ring = WORKER_RING[act.worker]
        at = before.s.players[act.player].workers[act.worker].at
        verb = "places" if at is None else "moves"
        cost = _work_cost(before, act)
        paid = f"paying {dinars(cost)}" if cost else "for free"
        main = ACTION_WORDS[before.layout.action[ring][act.square]]
        where = f"{'on' if at is None else 'to'} square {act.square} of the {RING_WORDS[ring]}"
        return f"{name} {verb} the {WORKER_WORDS[act.worker]} {where} ({main}), {paid}"
    if isinstance(act, Rest):
        return f"{before.name(act.player)} rests the {WORKER_WORDS[act.worker]} ({REST_WORDS})"
    pending = before.s.pending or {}
    prompt = pending_prompt(pending) if pending else ""
    if isinstance(act, Choose) and _secret_start_tile(pending):
        return f"{before.name(act.player)} keeps one Starting Tile (secret until everyone has chosen)"
    if isinstance(act, Choose):
        return f"{prompt.rstrip(':')} \u2192 {choice_label(before, act.option)}"
    assert isinstance(act, Answer)
    verb = "turned up" if pending.get("kind") == "draw" else "answers"
    return f"The table {verb} \u201c{prompt.rstrip('?')}\u201d: {answer_label(act.key, act.value)}"


# --- the board ------------------------------------------------------------------------------------


def board_view(game: Game) -> dict[str, Any]:
    """Everything ``kind-sabika.js`` draws, JSON-ready, in player words (no engine keys as text)."""
    s = game.s
    revealed = s.phase not in ("setup", "start_tiles")
    return {
        "round": s.round, "rounds": 5, "era": s.era(), "phase": PHASE_WORDS.get(s.phase, s.phase),
        "finished": game.finished, "start_player": s.start_player,
        "turn": s.turn if s.phase == "actions" and not game.finished else None,
        "event": game.event() or None,
        "rondel": _rondel(game), "raw_squares": _raw_squares(game), "marble_squares": _marble_squares(game),
        "map": _map(game), "tribute": _tribute(game), "wishes": _wishes(game),
        "displays": _displays(game),
        "players": [_player(game, seat, revealed) for seat in range(len(s.players))],
        "scores": scores(game), "winners": winners(game),
    }


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
            spots = [f"{'Raw Material' if spot.kind == 'raw' else 'Marble'} square {spot.k}"
                     for spot in layout.spots_at(ring, sq)]
            squares.append({"n": sq, "action": ACTION_WORDS[layout.action[ring][sq]], "workers": workers,
                            "sultan": sultan, "secondary": spots})
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
                       "ships": ships})
    routes = []
    for route in prof.get("map.routes", []):
        a, b = str(route).split("-")
        routes.append({"from": place_words(a), "to": place_words(b), "cost": prof.get(f"map.route.{route}.cost")})
    return {"cities": cities, "routes": routes}


def _bonus_words(prof: dict[str, Any], key: str) -> str | None:
    """A printed Bonus in player words, None while the table has not given it."""
    return icons_label(prof[key]) if key in prof else None


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
            out.append({"round": space - 1, "tile": tile, "scored": False, "counts": _wish_counts(prof, tile)})
    out += [{"round": None, "tile": tile, "scored": True, "counts": _wish_counts(prof, tile)} for tile in s.wish_tower]
    return out


def _wish_counts(prof: dict[str, Any], tile: str) -> str | None:
    elements = prof.get(f"wish.{tile}.elements")
    if elements is None:
        return None
    return ", ".join(f"{METRIC_WORDS[e]} \u00d7 {prof.get(f'wish.{tile}.{e}.points', '?')} PP" for e in elements)


def _displays(game: Game) -> dict[str, Any]:
    """The palace areas and cards on offer: Major Construction Tiles, Minor Cards, Poems, Storehouse Tiles."""
    s = game.s
    return {
        "major_tiles": {era: [f"Era {era} Tile {t}" for t in tiles] for era, tiles in s.major_tiles.items()},
        "minor_cards": [f"Minor Construction Card {c}" for c in s.minor_display if c is not None],
        "minor_poems": [f"Minor Poem {m}" for m in s.poem_display if m is not None],
        "major_poems": [f"Major Poem {m}" for m in s.major_poems if m is not None],
        "storehouse_tiles": [[f"Storehouse Tile {t}" for t in pair if t is not None] for pair in s.store_display],
        "trade_card": f"Trade Card {s.trade_card}",
    }


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
        "breakdown": [{"label": BREAKDOWN_WORDS.get(k, k.capitalize()), "points": v}
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
