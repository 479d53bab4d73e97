"""Shared helpers for the Sabika tests: a known board profile, a game in the Actions Phase, choosing by label."""

from __future__ import annotations

from typing import Any

from companion.games.sabika import Answer, Choose, Game, SetupOptions

NAMES = ("Blue", "Yellow", "Pink", "Green")
BLUE, YELLOW, PINK, GREEN = 0, 1, 2, 3

#: Cities as the worked examples name them (the text numbers none; see docs/sabika.md).
ALGIERS, FLORENCE, RAGUSA, CONSTANTINOPLE, CAIRO, VENICE = 1, 2, 3, 4, 5, 6


def board(side: str) -> dict[str, Any]:
    """A complete Rondel, track and Map profile for one board side (values chosen for the tests)."""
    outer = ["minor_quarry", "major_quarry", "storehouse", "market", "construction", "minor_quarry", "storehouse",
             "construction"]
    middle = ["export", "consolidate", "produce", "export", "consolidate", "produce"]
    inner = ["carve", "reactivate", "artisanal", "carve", "reactivate", "artisanal"]
    prof: dict[str, Any] = {}
    for ring, actions in (("outer", outer), ("middle", middle), ("inner", inner)):
        prof[f"rondel.{side}.{ring}.size"] = len(actions)
        for sq, action in enumerate(actions, start=1):
            prof[f"rondel.{side}.{ring}.{sq}.action"] = action
            prof[f"rondel.{side}.{ring}.{sq}.four_only"] = "no"
    prof.update({f"rondel.{side}.raw_spots": 2, f"rondel.{side}.raw.1.outer": 1, f"rondel.{side}.raw.1.middle": 1,
                 f"rondel.{side}.raw.2.outer": 5, f"rondel.{side}.raw.2.middle": 4,
                 f"rondel.{side}.marble_spots": 2, f"rondel.{side}.marble.1.middle": 2,
                 f"rondel.{side}.marble.1.inner": 2, f"rondel.{side}.marble.2.middle": 5,
                 f"rondel.{side}.marble.2.inner": 5})
    return prof


ROUTES = {"0-1": 1, "0-2": 2, "2-3": 2, "3-4": 2, "4-5": 2, "3-6": 1, "0-7": 1, "7-8": 1, "8-9": 1}

BASE_PROFILE: dict[str, Any] = {
    **board("small"), **board("large"),
    "sultan.2p.count": 0, "sultan.3p.count": 0, "bag.tokens_per_type": 10,
    "tribute.2": 2, "tribute.3": 3, "tribute.4": 3, "tribute.5": 4,
    "start_dinars.1": 2, "start_dinars.2": 3, "start_dinars.3": 4, "start_dinars.4": 5,
    "favour.length": 5, "favour.1.bonus": ["dinars:1"], "favour.2.bonus": ["pp:2"], "favour.3.bonus": ["parias:1"],
    "favour.4.bonus": ["glazed:1"], "major.II.two_player_removed": [10, 11, 12],
    "map.routes": list(ROUTES), **{f"map.route.{r}.cost": c for r, c in ROUTES.items()},
}

DRAWS: dict[str, Any] = {"city_tiles": list(range(1, 10)), "trade_card": 7, "wish_tiles": ["A1", "B1", "C1"],
                         "minor_deck": list(range(1, 25)), "poem_deck": list(range(1, 22))}


def default_answer(question: dict[str, Any]) -> Any:
    """A fixed answer for questions a test does not care about."""
    options = question["options"]
    if question["multi"]:
        return options[: question["count"] or 1]
    return "no" if options == ["yes", "no"] else options[0]


def answer_questions(game: Game, answers: dict[str, Any] | None = None) -> None:
    """Answer every pending question (``answers`` first, then ``default_answer``)."""
    answers = answers or {}
    while game.pending is not None and game.pending["kind"] == "question":
        key = game.pending["key"]
        game.apply(Answer(key, answers[key] if key in answers else default_answer(game.pending)))


def new_game(players: int = 2, *, profile: dict[str, Any] | None = None, start: int = 0,
             draws: dict[str, Any] | None = None, events: tuple[int, ...] = ()) -> Game:
    """A game in the Actions Phase with ``start`` as Starting Player (start tiles chosen accordingly);
    ``events``: advanced mode with these Event Tiles (active, future, last)."""
    tiles = [[2 * i + 1, 2 * i + 2] for i in range(players)]
    tiles[start] = [20, 21]
    game = Game.new(SetupOptions(players=NAMES[:players], seed=11,
                                 draws={**DRAWS, "start_tiles": tiles, **(draws or {})},
                                 profile={**BASE_PROFILE, "events.change_spaces": [2, 4], **(profile or {})},
                                 events=events))
    answer_questions(game)
    while game.pending is not None:
        choose(game, game.pending["options"][0])
        answer_questions(game)
    assert game.phase == "actions" and game.s.turn == start, (game.phase, game.pending)
    return game


def choose(game: Game, label: Any) -> None:
    """Answer the pending choice with the option equal to (or starting with) ``label``."""
    pending = game.pending
    assert pending is not None and pending["kind"] == "choice", pending
    matches = [o for o in pending["options"] if o == label or (isinstance(o, str) and isinstance(label, str)
                                                                and o.startswith(label))]
    assert matches, f"{label!r} not in {pending['options']}"
    game.apply(Choose(pending["player"], matches[0]))


def give(game: Game, seat: int, **items: int) -> None:
    """Put Materials/Goods in a player's Storehouses (and Dinars with ``dinars=``)."""
    p = game.players[seat]
    for kind, n in items.items():
        if kind == "dinars":
            p.dinars = n
        else:
            p.items[kind] = n
