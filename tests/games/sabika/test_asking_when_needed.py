"""A new game asks each printed value when play first needs it; a game saved before asks as it did.

The lazy game is checked against the game that asked everything at setup: given the same printed
values and the same moves, both end in the same state (an effect paused for a question runs again
from its start, so nothing may happen twice).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.games.sabika import Answer, Game, Rest, SetupOptions, Work
from companion.games.sabika import log as sabika_log
from companion.games.sabika.actions import Action
from companion.games.sabika.errors import IllegalAnswer
from companion.games.sabika.questions import BY_COMPONENT, LAZY, LAZY_TOKENS
from companion.games.sabika.setup import resolve_setup
from companion.games.sabika.simulate import random_profile

DATA = Path(__file__).parent / "data"
SAVED = DATA / "saved-before-asking-when-needed.jsonl"
"""A game written by the engine before lazy asking (commit e1258ea): its setup has no ``asks``."""


def middle(game: Game) -> Answer:
    """The middle answer of the pending question (what a table might answer)."""
    options = list(game.legal_actions())
    answer = options[len(options) // 2]
    assert isinstance(answer, Answer)
    return answer


def questions_before_first_move(players: tuple[str, ...], when_needed: bool) -> list[str]:
    """The keys asked before the first Worker moves (or rests), answering each with the middle option."""
    game = Game.new(SetupOptions(players=players, seed=21, solo=len(players) == 1, when_needed=when_needed))
    asked: list[str] = []
    while True:
        actions = list(game.legal_actions())
        if any(isinstance(action, (Work, Rest)) for action in actions):
            return asked
        if game.pending is not None and game.pending["kind"] == "question":
            answer = middle(game)
            asked.append(answer.key)
            game.apply(answer)
        else:
            game.apply(actions[0])


def test_an_old_saved_game_loads_and_replays_unchanged() -> None:
    game = sabika_log.read_log(SAVED.read_text(encoding="utf-8"), SAVED.name)
    assert "asks" not in game.s.setup
    replayed = Game.replay(game.s.setup, list(game.log))
    assert replayed.to_dict() == game.to_dict()
    first_move = next(i for i, action in enumerate(game.log) if isinstance(action, (Work, Rest)))
    asked = [action.key for action in game.log[:first_move] if isinstance(action, Answer)]
    assert "rondel.small.outer.1.action" in asked  # it asked the whole Rondel at setup, as it did when saved
    assert len(asked) > 150


@pytest.mark.parametrize("name", ["3p", "4p"])
def test_a_game_saved_asking_one_value_at_a_time_replays_to_the_same_end(name: str) -> None:
    """Whole random games saved by the engine of commit ef805b4 (``asks``: "when needed, tokens too"), which
    asked each ring's size and each turn position's starting Dinars on its own, with the final state reached."""
    game = sabika_log.read_log((DATA / f"saved-asking-tokens-too-{name}.jsonl").read_text(encoding="utf-8"), name)
    final = json.loads((DATA / f"saved-asking-tokens-too-{name}.final.json").read_text(encoding="utf-8"))
    assert game.s.setup["asks"] == LAZY_TOKENS
    asked = [action.key for action in game.log if isinstance(action, Answer)]
    assert "rondel.large.middle.size" in asked and "start_dinars.2" in asked  # one by one, as saved
    assert json.loads(json.dumps(game.to_dict(), sort_keys=True)) == final


@pytest.mark.parametrize("name", ["2p", "solo"])
def test_a_game_saved_asking_when_needed_replays_to_the_same_end(name: str) -> None:
    """Whole random games saved by the engine of commit 1dea28c (``asks``: "when needed", the bag and the
    Secondary squares asked at setup), with the final state that engine reached."""
    game = sabika_log.read_log((DATA / f"saved-asking-when-needed-{name}.jsonl").read_text(encoding="utf-8"), name)
    final = json.loads((DATA / f"saved-asking-when-needed-{name}.final.json").read_text(encoding="utf-8"))
    assert game.s.setup["asks"] == "when needed"
    assert json.loads(json.dumps(game.to_dict(), sort_keys=True)) == final


def test_a_new_table_game_asks_only_what_its_first_move_needs() -> None:
    eager = questions_before_first_move(("Ana", "Ben"), when_needed=False)
    lazy = questions_before_first_move(("Ana", "Ben"), when_needed=True)
    assert len(eager) > 150
    assert not [key for key in lazy if key.endswith(".action") or key.startswith(("city_tile.", "minor_card."))]
    assert not [key for key in lazy if key.startswith("bag.") or key.endswith("_spots")]  # tokens: when reached
    assert "sultan.2p.squares" in lazy and "sultan.2p.count" not in lazy  # their squares at once
    assert len(lazy) <= 5, lazy  # 8 when each ring's size and each player's Dinars were a question


@pytest.mark.parametrize(("players", "most"), [(("Ana", "Ben"), 5), (("Ana", "Ben", "Cy"), 7),
                                               (("Ana", "Ben", "Cy", "Dee"), 6)])
def test_a_new_game_asks_what_one_look_at_a_component_reads_in_one_question(players: tuple[str, ...],
                                                                             most: int) -> None:
    """The Rondel's three ring sizes are one question, every turn position's starting Dinars another (11 before
    the first move with 3 or 4 players when each was asked alone); the Starting Tiles stay one each."""
    asked = questions_before_first_move(players, when_needed=True)
    side = "small" if len(players) == 2 else "large"
    assert asked[0] == f"rondel.{side}.sizes" and "start_dinars.by_position" in asked
    assert not [key for key in asked if key.endswith(".size") or key.startswith("start_dinars.")
                and key != "start_dinars.by_position"]
    assert len([key for key in asked if key.startswith("start_tile.")]) == len(players)
    assert len(asked) <= most <= 10, asked


def test_a_grouped_answer_sets_the_values_the_questions_one_by_one_set() -> None:
    grouped = Game.new(SetupOptions(players=("Ana", "Ben", "Cy"), seed=4, when_needed=True))
    alone = Game({**resolve_setup(SetupOptions(players=("Ana", "Ben", "Cy"), seed=4, when_needed=True)),
                  "asks": LAZY_TOKENS})
    sizes = {"rondel.large.outer.size": 12, "rondel.large.middle.size": 9, "rondel.large.inner.size": 7}
    assert grouped.pending is not None and [part["key"] for part in grouped.pending["parts"]] == list(sizes)
    grouped.apply(Answer("rondel.large.sizes", sizes))
    for key, value in sizes.items():
        alone.apply(Answer(key, value))
    assert grouped.layout.squares == alone.layout.squares and len(grouped.layout.squares["outer"]) == 12
    assert {key: grouped.s.profile[key] for key in sizes} == sizes
    assert grouped.s.pending == alone.s.pending  # the covered squares next, among the squares just counted


@pytest.mark.parametrize(("value", "words"), [
    ({"rondel.large.outer.size": 12, "rondel.large.middle.size": 9}, "expected 3 values, one each for Outer Rondel, "
                                                                       "Middle Rondel, Inner Rondel"),
    ([12, 9, 7], "expected 3 values"),
    ({"rondel.large.outer.size": 12, "rondel.large.middle.size": 40, "rondel.large.inner.size": 7},
     "40 is not possible for Middle Rondel (possible: 3 to 16)"),
    ({"rondel.large.outer.size": True, "rondel.large.middle.size": 9, "rondel.large.inner.size": 7},
     "True is not possible for Outer Rondel"),
])
def test_a_bad_grouped_answer_is_refused_naming_the_ring_and_changes_nothing(value: object, words: str) -> None:
    game = Game.new(SetupOptions(players=("Ana", "Ben", "Cy"), seed=4, when_needed=True))
    before = game.to_dict()
    with pytest.raises(IllegalAnswer, match=re.escape(words)) as refused:
        game.apply(Answer("rondel.large.sizes", value))
    assert "each ring of the Rondel" in str(refused.value)  # the component the question is about
    assert game.to_dict() == before and not game.log


def test_a_three_player_game_asks_the_three_covered_squares_at_once() -> None:
    asked = questions_before_first_move(("Ana", "Ben", "Cy"), when_needed=True)
    assert "rondel.large.four_only" in asked and not [key for key in asked if key.endswith(".four_only")
                                                      and key != "rondel.large.four_only"]


def test_a_new_solo_game_asks_only_what_yusufs_first_turn_reads() -> None:
    asked = questions_before_first_move(("Ana",), when_needed=True)  # Yusuf starts (L1224-1226)
    trade = next(key for key in asked if key.startswith("solo.trade."))
    assert asked[asked.index(trade) + 1] == "start_dinars.2"  # his first Ship: one City meets the Card, no Map
    assert asked.index(trade) <= 2  # the ring sizes, the Sultan's Workers, then what Yusuf's first turn reads
    assert not [key for key in asked if key.startswith(("map.", "favour.", "bag.")) or key.endswith(".type")]
    assert len(asked) <= 18, asked  # 37 before, 20 when each ring's size was a question


def _run(game: Game, seed: int) -> tuple[dict[str, Any], list[Action]]:
    """``game`` played to its end by random legal moves: the answers it was asked for, its moves."""
    rng = random.Random(seed)
    answers: dict[str, Any] = {}
    played: list[Action] = []
    while not game.finished:
        if game.pending is not None and game.pending["kind"] == "question":
            answer = middle(game)
            answers[answer.key] = answer.value
            game.apply(answer)
            continue
        action = rng.choice(list(game.legal_actions()))
        played.append(action)
        game.apply(action)
    return answers, played


def _asking(game: Game, played: list[Action], values: dict[str, Any]) -> int:
    """Apply ``played`` to ``game``, answering each question from ``values``: how many it asked."""
    asked = 0
    for action in [*played, None]:
        while game.pending is not None and game.pending["kind"] == "question":
            key, parts = game.pending["key"], game.pending.get("parts")
            game.apply(Answer(key, {part["key"]: values[part["key"]] for part in parts} if parts else values[key]))
            asked += 1
        if action is not None:
            game.apply(action)
    return asked


def _same_end(one: Game, other: Game) -> None:
    mine, theirs = one.to_dict(), other.to_dict()
    for view in (mine, theirs):
        view.pop("profile")
        view.pop("setup")
    assert mine == theirs
    assert Game.replay(one.s.setup, list(one.log)).to_dict() == one.to_dict()


@pytest.mark.parametrize(("players", "seed"), [(("Ana", "Ben"), 3), (("Ana", "Ben"), 8), (("Ana",), 5)])
def test_a_game_saved_asking_when_needed_ends_where_the_eager_game_ends(players: tuple[str, ...],
                                                                        seed: int) -> None:
    """Games saved on 2026-11-26 ask when needed but set out the Rondel's tokens at setup (``LAZY``)."""
    eager = Game.new(SetupOptions(players=players, seed=seed, solo=len(players) == 1))
    answers, played = _run(eager, seed)  # to the end: Era II removes 2-player tiles
    lazy = Game({**resolve_setup(SetupOptions(players=players, seed=seed, solo=len(players) == 1,
                                              when_needed=True)), "asks": LAZY})
    assert _asking(lazy, played, answers) < len(answers)  # only values the eager game was asked, and fewer
    _same_end(lazy, eager)


@pytest.mark.parametrize(("players", "seed"), [(("Ana", "Ben"), 3), (("Ana", "Ben"), 8), (("Ana",), 5),
                                               (("Ana", "Ben", "Cy"), 6)])
def test_a_new_game_asked_as_it_goes_ends_where_a_game_knowing_every_value_ends(players: tuple[str, ...],
                                                                               seed: int) -> None:
    """A table that filled in every printed value ahead, and one answering as play reaches them, play the
    same game: the same tokens on the Rondel (set out later), the same draws, the same end."""
    solo = len(players) == 1
    ahead = Game.new(SetupOptions(players=players, seed=seed, solo=solo, when_needed=True,
                                  profile=random_profile(max(2, len(players)), seed)))
    answers, played = _run(ahead, seed)
    assert all(key.startswith(("yusuf.", "solo.")) for key in answers)  # only the automa's cards: not in it
    asked = Game.new(SetupOptions(players=players, seed=seed, solo=solo, when_needed=True))
    assert _asking(asked, played, ahead.profile) > 20
    assert asked.s.setup["asks"] == BY_COMPONENT
    _same_end(asked, ahead)
