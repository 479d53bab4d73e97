"""The one place the table service touches the Marrakesh engine (``companion.games.marrakesh``, see
docs/rules-engine.md).

Everything here is a thin translation between the engine's API and what the table service stores and
sends: a game from its stored setup and actions, the legal actions of the actor to move as JSON,
and short human labels for the log and the screens (in English, and as messages each phone says in
its own language: ``taken_back_say``, ``option_say``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion import COLOURS
from companion.games.marrakesh import Game, SetupOptions, action_from_dict, action_to_dict
from companion.games.marrakesh.catalogue import river_tiles_by_season
from companion.games.marrakesh.expansion_setup import EXPANSION_NAMES
from companion.games.marrakesh.log import read_log as engine_read_log
from companion.games.marrakesh.log import write_log as engine_write_log
from companion.i18n import Msg, colour_name, figure_name, path_name, resource_name, sector_name, square_name

#: One line per expansion module for the setup wizard (names from the engine; rules EN:L1420-1570).
EXPANSION_HELP: dict[int, Msg] = dict(zip(EXPANSION_NAMES, (
    Msg("12 tiles cover the bonus spaces between the staircases with new line bonuses."),
    Msg("Escort the Sultan (1 date less per scroll) or the Imam (1 goods keshi less per luxury good)."),
    Msg("The exchange offices' other sides: each trade also gives a date, a step or a point."),
    Msg("The audience discs' purple side: one section with 0 and one with 4 spectators."),
    Msg("Desert towns: a 4th caravan space per upper Sahara path, +4 points, claimed with yellow + orange + purple."),
), strict=True))


EDITION_NAMES: dict[str, str] = {"essential": "Essential Edition (2023)", "classic": "Classic (2022)"}


def new_game(players: list[str], *, seed: int, start_player: int | None, tower_layer: str,
             draws: Mapping[str, Any] | None, profile: Mapping[str, Any] | None,
             edition: str = "essential", expansions: tuple[int, ...] = (), table_draws: bool = False) -> Game:
    """``Game.new`` for the setup wizard's answers; raises the engine's ``SetupError`` naming a bad field.

    ``table_draws``: the table drew the setup itself; what it did not enter is asked during play.
    """
    kwargs: dict[str, Any] = {"players": tuple(players), "seed": seed, "tower_layer": tower_layer,
                              "edition": edition, "expansions": expansions, "table_draws": table_draws}
    if start_player is not None:
        kwargs["start_player"] = start_player
    if draws:
        kwargs["draws"] = dict(draws)
    if profile:
        kwargs["profile"] = dict(profile)
    return Game.new(SetupOptions(**kwargs))


def river_tile_choices() -> dict[int, list[int]]:
    """Season -> the river tiles that may lie beside the river in it (the wizard's choices)."""
    return river_tiles_by_season()


#: The editions as messages (the same English as ``EDITION_NAMES``, in the reader's language).
EDITION_SAY: dict[str, Msg] = {"essential": Msg("Essential Edition (2023)"), "classic": Msg("Classic (2022)")}


def variant_text(edition: str, expansions: Iterable[int]) -> str:
    """The edition and expansions of a game in words, e.g. ``"Classic (2022) + expansions 2 Imam & Sultan"``."""
    return variant_say(edition, expansions).english()


def variant_say(edition: str, expansions: Iterable[int]) -> Msg:
    """``variant_text`` as a message, rendered in the reader's language."""
    modules = [Msg("{n} {name}", n=n, name=EXPANSION_NAMES.get(n, "?")) for n in expansions]
    name = EDITION_SAY.get(edition, edition)
    if not modules:
        return Msg("{edition}", edition=name)
    if len(modules) == 1:
        return Msg("{edition} + expansion {modules}", edition=name, modules=modules)
    return Msg("{edition} + expansions {modules}", edition=name, modules=modules)


def replay(setup: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> Game:
    """The game that ``setup`` plus ``actions`` (their JSON forms) make."""
    return Game.replay(dict(setup), [action_from_dict(a) for a in actions])


def parse_action(data: Any) -> Any:
    """An engine action from its JSON form; raises ``ActionFormatError`` naming the bad field."""
    return action_from_dict(data)


def to_json(action: Any) -> dict[str, Any]:
    """The JSON form of an engine action."""
    return action_to_dict(action)


def legal_json(game: Game, names: list[str]) -> list[dict[str, Any]]:
    """The legal actions of whoever must act now, labelled, except selections and tower releases.

    Selections are listed per player by ``selection_options`` (any player may reveal while others
    think); a release is what the tower did, entered from its result, not chosen from a list.
    """
    if game.finished or game.phase == "select" and game.pending is None:
        return []
    out: list[dict[str, Any]] = []
    for action in game.legal_actions():
        data = to_json(action)
        if data["type"] in ("choose", "answer"):
            out.append({"action": data, "label": option_text(data.get("option", data.get("value")))})
        elif data["type"] != "release":
            out.append({"action": data, "label": label(data, names)})
    return out


def selection_options(game: Game) -> dict[str, list[dict[str, Any]]]:
    """For each player still to select: the legal colour triples, each with its legal red-keshi sectors.

    The engine's public ``legal_actions`` lists only the first player in turn order; any player may
    reveal in phase 1, so this asks the engine's per-seat generator (see the report to the lead).
    """
    if game.phase != "select" or game.pending is not None:
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    for seat, player in enumerate(game.players):
        if player.has_selected:
            continue
        grouped: dict[tuple[str, ...], list[list[str]]] = {}
        for action in game.legal_selections(seat):
            grouped.setdefault(tuple(action.colours), []).append(list(action.wild_sectors))
        out[str(seat)] = [{"colours": list(c), "wild": [w for w in wild if w]} for c, wild in grouped.items()]
    return out


#: The game's phases in player words.
PHASE_TEXT: dict[str, str] = {
    "select": "choosing keshis", "toss": "tossing the tower", "claim": "claiming keshis",
    "exchange": "exchanging", "assistants": "using assistants", "round_end": "end of the round",
    "season_end": "season scoring", "final": "final scoring", "finished": "the game is over",
}


def phase_text(phase: str) -> str:
    """A phase in player words."""
    return PHASE_TEXT.get(phase, phase.replace("_", " "))


def pieces_in(game: Game) -> dict[str, int]:
    """The keshis that go into the tower this round: every player's revealed selection (all 12 colours)."""
    counts = dict.fromkeys(COLOURS, 0)
    for player in game.players:
        for colour in player.selected:
            if colour in counts:
                counts[colour] += 1
    return counts


def write_log(game: Game) -> str:
    """The engine's JSON-lines log of ``game``."""
    return engine_write_log(game)


def read_log(text: str, source: str) -> Game:
    """A game from a JSON-lines log; raises the engine's ``LogError`` naming the damaged line."""
    return engine_read_log(text, source=source)


#: Score breakdown categories in player words (the engine's keys are internal).
CATEGORY_LABELS: dict[str, str] = {
    "river_evaluation": "River evaluation", "river_bonus": "River bonus", "line_bonus": "Line bonus",
    "desert_towns": "Desert towns", "filled_sectors": "Filled sectors", "gates": "City gates",
    "green": "Green keshis", "green_steps": "Palace and mosque steps", "jetty": "Jetty",
    "luxury_goods": "Luxury goods", "main_square": "Main square", "oases": "Oases",
    "provisions": "Provisions", "resources": "Leftover resources", "sahara": "Sahara",
    "scrolls": "Scrolls", "exchange": "Exchange office",
}


def category_text(key: str) -> str:
    """A score category in player words (unknown keys: underscores become spaces, first letter up)."""
    return CATEGORY_LABELS.get(key) or key.replace("_", " ").replace(".", " ").capitalize()


def counts_text(counts: Mapping[str, Any] | None) -> str:
    """``{"green": 2, "white": 1}`` as ``"2 green, 1 white"`` (``"nothing"`` when empty)."""
    return ", ".join(f"{n} {c}" for c, n in (counts or {}).items() if n) or "nothing"


def taken_back_text(action: Mapping[str, Any], names: list[str], secret: bool) -> str:
    """What undoing ``action`` takes back, in player words, e.g. ``"Ben's claim (green + green)"``.

    ``secret``: the action is a selection that others must not see yet (only "choice of keshis").
    """
    kind = action.get("type")
    player = action.get("player")
    who = names[player] if isinstance(player, int) and 0 <= player < len(names) else "the table"
    if kind == "select":
        return f"{who}'s choice of keshis" if secret else f"{who}'s reveal ({' + '.join(action['colours'])})"
    if kind == "release":
        return f"the tower release ({counts_text(action.get('counts'))})"
    if kind == "claim":
        return f"{who}'s claim ({' + '.join(action['colours'])})"
    if kind == "use_assistant":
        return f"{who}'s {str(action['sector']).replace('_', ' ')} assistant"
    if kind == "choose":
        return f"{who}'s choice ({option_text(action.get('option'))})"
    if kind == "answer":
        return f"the table's answer ({option_text(action.get('value'))})"
    return "the last action"


def label(action: Mapping[str, Any], names: list[str], prompt: str | None = None) -> str:
    """A short sentence for the log and the screens, e.g. ``"Jan claims green + green"``.

    ``prompt``: for an answer or a choice, the question it answered (the question's key is never shown).
    """
    kind = action.get("type")

    def who() -> str:
        player = action.get("player")
        return names[player] if isinstance(player, int) and 0 <= player < len(names) else "The table"

    if kind == "select":
        wild = action.get("wild_sectors") or []
        return f"{who()} selects {' + '.join(action['colours'])}" + (f" (red to {', '.join(wild)})" if wild else "")
    if kind == "release":
        return f"The tower releases {counts_text(action.get('counts'))}"
    if kind == "claim":
        return f"{who()} claims {' + '.join(action['colours'])}"
    if kind == "use_assistant":
        what = "a new keshi" if action.get("mode") == "keshi" else "the sector action"
        return f"{who()} uses the {str(action['sector']).replace('_', ' ')} assistant for {what}"
    if kind == "choose":  # with the question when known: a bare option ("6") means nothing in the log
        return f"{who()} chooses {option_text(action.get('option'))}" + (f" (“{prompt}”)" if prompt else "")
    if kind == "answer":
        question = f"“{prompt}”" if prompt else "the question"
        return f"The table answers {question}: {option_text(action.get('value'))}"
    return str(kind)


def option_text(option: Any) -> str:
    """A decision option as English text (options may be strings, numbers, lists or small dicts)."""
    if isinstance(option, str):
        return option.replace("_", " ")
    if isinstance(option, dict):
        return _amounts(option).english()
    if isinstance(option, list):
        return " + ".join(option_text(v) for v in option)
    return str(option)


#: Amounts of a resource as players say them (the small dicts some decisions offer, e.g. how to pay
#: with scroll 33: ``{"dinars": 1, "water": 2}`` is "1 dinar, 2 water"): the word for one, for several.
AMOUNT_WORDS: dict[str, tuple[Msg, Msg]] = {
    "dinars": (Msg("1 dinar"), Msg("{n} dinars")),
    "water": (Msg("1 water"), Msg("{n} water")),
    "dates": (Msg("1 date"), Msg("{n} dates")),
}


def option_words(option: Any) -> Msg | str:
    """``option_text`` as a message in the reader's language where the option is a small dict of
    amounts ("2 Dinar, 1 Wasser"); any other option as ``option_text`` writes it."""
    return _amounts(option) if isinstance(option, dict) else option_text(option)


def _amounts(option: dict[Any, Any]) -> Msg:
    return Msg("{amounts}", amounts=[_amount(str(key), value) for key, value in option.items()])


def _amount(key: str, value: Any) -> Msg:
    """One entry of a small dict option: an amount of a resource, or else "key: value" as it is."""
    if key in AMOUNT_WORDS and isinstance(value, int):
        one, several = AMOUNT_WORDS[key]
        return one if value == 1 else Msg(several.text, n=value)
    return Msg("{key}: {value}", key=key.replace("_", " "), value=option_text(value))


def taken_back_say(action: dict[str, Any], names: list[str], secret: bool) -> Msg:
    """``taken_back_text`` as a message the page renders in its language (``say``)."""
    kind = action.get("type")
    player = action.get("player")
    who = names[player] if isinstance(player, int) and 0 <= player < len(names) else None
    if kind == "select" and who is not None:
        return (Msg("{player}'s choice of keshis", player=who) if secret else
                Msg("{player}'s reveal ({keshis})", player=who, keshis=_colours(action["colours"])))
    if kind == "release":
        counts = [Msg("{n} {colour}", n=n, colour=colour_name(c)) for c, n in (action.get("counts") or {}).items() if n]
        return Msg("the tower release ({keshis})", keshis=counts or Msg("nothing"))
    if kind == "claim" and who is not None:
        return Msg("{player}'s claim ({keshis})", player=who, keshis=_colours(action["colours"]))
    if kind == "use_assistant" and who is not None:
        return Msg("{player}'s {sector} assistant", player=who, sector=sector_name(str(action["sector"])))
    if kind == "choose" and who is not None:
        return Msg("{player}'s choice ({option})", player=who, option=option_say(action.get("option")))
    if kind == "answer":
        return Msg("the table's answer ({option})", option=option_say(action.get("value")))
    return Msg("the last action")


def option_say(option: Any) -> Msg | str | list[Msg | str]:
    """A decision's option in the rulebook's words where it is a game word (a colour, sector, main-square
    space, Sahara path, resource or figure), a list of options as a list; anything else as
    ``option_words`` writes it (a small dict of amounts as "2 dinars, 1 water")."""
    if isinstance(option, list):
        return [word for item in option for word in _listed(option_say(item))]
    if isinstance(option, str):
        for name in (colour_name, sector_name, square_name, path_name, resource_name, figure_name):
            found = name(option)
            if isinstance(found, Msg):
                return found
    return option_words(option)


def _listed(value: Msg | str | list[Msg | str]) -> list[Msg | str]:
    return value if isinstance(value, list) else [value]


def _colours(colours: list[str]) -> list[Msg | str]:
    return [colour_name(c) for c in colours]
