"""The one place the dashboard touches the rules engine (``companion.rules``, see docs/rules-engine.md).

Everything here is a thin translation between the engine's API and what the web layer stores and
sends: a game from its stored setup and actions, the legal actions of the actor to move as JSON,
and short human labels for the log and the screens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules import Game, SetupOptions, action_from_dict, action_to_dict
from companion.rules.expansion_setup import EXPANSIONS
from companion.rules.log import read_log as engine_read_log
from companion.rules.log import write_log as engine_write_log

EDITION_NAMES: dict[str, str] = {"essential": "Essential Edition (2023)", "classic": "Classic (2022)"}


def new_game(players: list[str], *, seed: int, start_player: int | None, tower_layer: str,
             draws: Mapping[str, Any] | None, profile: Mapping[str, Any] | None,
             edition: str = "essential", expansions: tuple[int, ...] = ()) -> Game:
    """``Game.new`` for the setup wizard's answers; raises the engine's ``SetupError`` naming a bad field."""
    kwargs: dict[str, Any] = {"players": tuple(players), "seed": seed, "tower_layer": tower_layer,
                              "edition": edition, "expansions": expansions}
    if start_player is not None:
        kwargs["start_player"] = start_player
    if draws:
        kwargs["draws"] = dict(draws)
    if profile:
        kwargs["profile"] = dict(profile)
    return Game.new(SetupOptions(**kwargs))


def variant_text(edition: str, expansions: Iterable[int]) -> str:
    """The edition and expansions of a game in words, e.g. ``"Classic (2022) + expansions 2 Imam & Sultan"``."""
    modules = [f"{n} {EXPANSIONS.get(n, '?')}" for n in expansions]
    name = EDITION_NAMES.get(edition, edition)
    return name + (f" + expansion{'s' if len(modules) > 1 else ''} " + ", ".join(modules) if modules else "")


def expansion_list() -> list[dict[str, Any]]:
    """The expansion modules the engine knows, as ``[{number, name}]`` (for the setup wizard)."""
    return [{"number": n, "name": name} for n, name in EXPANSIONS.items()]


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


def write_log(game: Game) -> str:
    """The engine's JSON-lines log of ``game``."""
    return engine_write_log(game)


def read_log(text: str, source: str) -> Game:
    """A game from a JSON-lines log; raises the engine's ``LogError`` naming the damaged line."""
    return engine_read_log(text, source=source)


def label(action: Mapping[str, Any], names: list[str]) -> str:
    """A short sentence for the log and the screens, e.g. ``"Jan claims green + green"``."""
    kind = action.get("type")

    def who() -> str:
        player = action.get("player")
        return names[player] if isinstance(player, int) and 0 <= player < len(names) else "The table"

    if kind == "select":
        wild = action.get("wild_sectors") or []
        return f"{who()} selects {' + '.join(action['colours'])}" + (f" (red to {', '.join(wild)})" if wild else "")
    if kind == "release":
        counts = action.get("counts", {})
        shown = ", ".join(f"{n} {c}" for c, n in counts.items()) or "nothing"
        return f"The tower releases {shown}"
    if kind == "claim":
        return f"{who()} claims {' + '.join(action['colours'])}"
    if kind == "use_assistant":
        what = "a new keshi" if action.get("mode") == "keshi" else "the sector action"
        return f"{who()} uses the {str(action['sector']).replace('_', ' ')} assistant for {what}"
    if kind == "choose":
        return f"{who()} chooses {option_text(action.get('option'))}"
    if kind == "answer":
        return f"The table answers {action.get('key')}: {option_text(action.get('value'))}"
    return str(kind)


def option_text(option: Any) -> str:
    """A decision option as text (options may be strings, numbers or small dicts)."""
    if isinstance(option, str):
        return option.replace("_", " ")
    if isinstance(option, dict):
        return ", ".join(f"{k}: {option_text(v)}" for k, v in option.items())
    if isinstance(option, list):
        return " + ".join(option_text(v) for v in option)
    return str(option)
