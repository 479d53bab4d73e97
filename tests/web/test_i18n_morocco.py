"""Issue 14 for Morocco: every prompt, rule error, tap step and log line of whole games has its German.

Seeded random games (2 to 5 players) are played to the end. Before each move the test tries wrong
moves a table makes (someone else's turn, the wrong phase, a legal placement with one detail
changed, an illegal swap, a choice that is not offered) and keeps what the engine answers; each
refusal must be a ``Msg`` (so a German phone reads it in German). Every message met — prompts, the
buttons' tap steps, the log lines, the board's words, the refusals — must have its German in the
catalog, and its English must be the English the page and the API show today.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.events import EventBus
from companion.games.morocco import (
    ActionFormatError,
    Answer,
    Choose,
    EndTurn,
    Game,
    Pass,
    Place,
    Roll,
    RuleError,
    Scout,
    SetupError,
    SetupOptions,
    Swap,
    action_from_dict,
    action_to_dict,
)
from companion.games.morocco.board import stall_of
from companion.games.morocco.game import LINES
from companion.games.morocco.log import write_log
from companion.games.morocco.simulate import RandomPlayer, play_random_game
from companion.i18n import Msg, use_locale
from companion.i18n.catalogs import js_catalog
from companion.table.kinds import morocco as adapter
from companion.table.kinds.view import undo_view
from companion.table.service import GameService
from tests.web.conftest import csrf_of, share
from tests.web.test_i18n import GERMAN, message_ids

NAMES = ("Ana", "Ben", "Cem", "Dora", "Eli")


def wrong_moves(game: Game, rng: random.Random) -> Iterator[Any]:
    """Moves a table gets wrong now: other seats, other phases, a legal placement changed in one detail."""
    n = len(game.players)
    seat = rng.randrange(n)
    yield Roll(seat, rng.choice(["green", "wild", "purple"]))
    yield Scout(seat, rng.choice([0, 1, 3, 6]))
    yield Pass(seat)
    yield EndTurn(seat)
    yield Swap(seat, tuple(rng.sample((*LINES, "row9"), 2)))  # type: ignore[arg-type]
    yield Swap(seat, ("row2", "row2"))
    yield Choose(seat, rng.choice(["gold", "up", [0, 0], "white", 7]))
    yield Answer(rng.choice(["overflow.market_tile", "stall.size"]), rng.choice([1, 2, 3]))
    yield Place(n + 1, "assistant", (0, 0))
    placements = [a for a in game.legal_actions() if isinstance(a, Place)]
    if placements:
        legal = rng.choice(placements)
        elsewhere = (rng.randrange(10), rng.randrange(10))
        yield dataclasses.replace(legal, space=elsewhere)
        yield dataclasses.replace(legal, space=(10, 0))
        yield dataclasses.replace(legal, worker=rng.choice(["assistant", "bodyguard", "tourist", "cousins", "camel"]))
        yield dataclasses.replace(legal, extra=None if legal.extra else "green")
        yield dataclasses.replace(legal, extra="purple")
        yield dataclasses.replace(legal, second=None if legal.second else legal.space)
        yield dataclasses.replace(legal, worker="cousins", extra="green", second=elsewhere)


def refusal(game: Game, action: Any) -> Msg | None:
    """The engine's refusal of ``action`` as the message it raised (None when the move was legal)."""
    try:
        game.apply(action)
    except RuleError as error:
        message = error.args[0]
        assert isinstance(message, Msg), f"an English-only rule error: {error}"
        return message
    game.undo()
    return None


def steps(option: dict[str, Any]) -> list[Msg]:
    return [Msg.from_json(step) for step in option["path_say"] if isinstance(step, dict)]


def play(players: int, seed: int) -> Iterator[tuple[Game, dict[str, Any] | None, list[Msg]]]:
    """Each position of a whole random game: the game, the move made from it (None at the end) and the
    refusals of the wrong moves tried there."""
    rng = random.Random(seed)
    game = Game.new(SetupOptions(players=NAMES[:players], seed=seed))
    player = RandomPlayer(rng)
    while not game.finished:
        refused = [m for m in (refusal(game, a) for a in wrong_moves(game, rng)) if m is not None]
        action = adapter.to_json(player.action(game))
        yield game, action, refused
        game.apply(adapter.parse_action(action))
    yield game, None, []


def line_as_worded_before(before: Game, action: dict[str, Any]) -> str:
    """The English log line as the dashboard wrote it before the lines became messages (the oracle that
    keeps the stored log's English unchanged)."""
    kind = action["type"]
    if kind == "answer":
        prompt = (before.pending or {}).get("prompt", "the question")
        return f"The table answers “{prompt}”: {action['value']}"
    who = before.name(int(action["player"]))
    if kind == "roll":
        return f"{who} rolls the market die: {action['face']}"
    if kind == "scout":
        return f"{who} moves the rooftop pawn to {adapter.scout_words(before, int(action['space'])).lower()}"
    if kind == "place":
        label, _path, _group = adapter.action_words(before, action)
        row, column = before.cost(stall_of(adapter._index(action["space"])))
        return f"{who} places {label} (pays {row} + {column})"
    if kind == "pass":
        return f"{who} cannot place a worker and passes"
    if kind == "end_turn":
        return f"{who} ends the turn"
    if kind == "swap":
        a, b = action["lines"]
        return f"{who} spends a gold coin to swap the cubes of {adapter._line_words(a)} and {adapter._line_words(b)}"
    pending = before.pending or {}
    option = adapter.option_words(before, pending, action.get("option")).lower()
    return f"{who} chooses {option} (“{pending.get('prompt', '')}”)"


def worded(game: Game, action: dict[str, Any] | None) -> list[Msg]:
    """Every message the dashboard shows of this position and this move (and checks their English)."""
    choices = adapter.choices(game)
    prompt = Msg.from_json(choices["prompt_say"])
    assert prompt.english() == choices["prompt"]
    said = [prompt]
    for option in choices["options"]:
        assert [str(step) if isinstance(step, str) else Msg.from_json(step).english()
                for step in option["path_say"]] == option["path"]
        said += [*steps(option), Msg.from_json(option["group_say"])]
    board = adapter.board_view(game)
    said.append(Msg.from_json(board["phase_say"]))
    said += [Msg.from_json(c["say"]) for c in board["categories"] if c["say"]]  # the final table's rows
    if board["end_reason_say"]:
        said.append(Msg.from_json(board["end_reason_say"]))
    if action is not None:
        line = adapter.describe_say(game, action)
        assert line.english() == adapter.describe(game, action) == line_as_worded_before(game, action)
        said.append(line)
    return said


@pytest.mark.parametrize("players, seed", [(2, 28), (3, 4), (5, 11)])
def test_every_prompt_rule_error_and_log_line_of_a_whole_morocco_game_has_its_german(players: int, seed: int) -> None:
    catalog = js_catalog("de")
    ids: set[str] = set()
    refused: set[str] = set()
    kinds: set[str] = set()
    for game, action, refusals in play(players, seed):
        for message in worded(game, action):
            ids |= message_ids(message.to_json())
        if action is not None:
            kinds.add(action["type"] if action["type"] != "place" else f"place {action['worker']}")
        for message in refusals:
            refused |= message_ids(message.to_json())
    missing = {i for i in ids | refused if i not in catalog and any(c.isalpha() for c in i)}
    assert missing == set(), sorted(missing)
    assert {"scout", "place assistant", "place tourist", "choose", "answer", "swap", "end_turn"} <= kinds, kinds
    assert len(refused) > 25, sorted(refused)  # the wrong moves met most kinds of refusal


def test_the_rarer_refusals_come_in_german_too() -> None:
    game = Game.new(SetupOptions(players=NAMES[:2], seed=28))
    cases: dict[str, Any] = {}
    rng = random.Random(1)
    player = RandomPlayer(rng)
    while len(cases) < 4 and not game.finished:
        for action in wrong_moves(game, rng):
            message = refusal(game, action)
            if message is not None and ("cousin" in message.text or "additional cube" in message.text):
                cases.setdefault(message.text, message)
        game.apply(player.action(game))
    assert len(cases) >= 3, list(cases)
    with use_locale("de"):
        german = [str(m) for m in cases.values()]
    assert all(g != m.english() for g, m in zip(german, cases.values(), strict=True)), german


def test_an_action_format_error_and_a_setup_error_are_messages_with_german() -> None:
    catalog = js_catalog("de")
    errors = []
    for data in ({"type": "dance"}, {"type": "place", "player": 0, "worker": "assistant", "space": [1]},
                 {"type": "place", "player": 0, "worker": "tourist", "space": [1, 1], "extra": 3},
                 {"type": "swap", "player": 0, "lines": ["row1"]}):
        with pytest.raises(ActionFormatError) as info:
            action_from_dict(data)
        errors.append(info.value.args[0])
    for players, draws in ((["Ana"] * 6, {}), (["Ana", "Ben"], {"juice": [[9] * 6] * 6}), (["Ana", "Ben"], [1])):
        with pytest.raises(SetupError) as raised:
            adapter.new_game(players, 1, {"draws": draws})
        errors.append(raised.value.args[0])
    assert all(isinstance(e, Msg) for e in errors), errors
    missing = {i for e in errors for i in message_ids(e.to_json()) if i not in catalog}
    assert missing == set(), missing
    with use_locale("de"):
        assert str(errors[-3]).startswith("Marokko ist für 2-5 Spieler, nicht für 6")


def test_a_refused_morocco_move_comes_back_in_the_phones_language_and_changes_nothing(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    created = client.post("/api/games", json={"game": "morocco", "players": [{"name": "Ana"}, {"name": "Ben"}],
                                              "seed": 5}, headers={"X-CSRF-Token": csrf}).get_json()
    share(client, csrf, created["id"])
    view = created["view"]
    roll = dict(view["choices"]["options"][0]["action"])
    roll["player"] = 1 - roll["player"]  # the player who is not on turn
    url = f"/api/games/{created['id']}/actions"
    answers = {}
    for language, headers in (("de", GERMAN), ("en", {})):
        response = client.post(url, json={"action": roll, "version": view["version"]},
                               headers={"X-CSRF-Token": csrf, **headers})
        assert response.status_code == 422
        answers[language] = response.get_json()["error"]
    assert answers["de"] == "Ana ist nicht am Zug (den Marktwürfel werfen): Ben ist jetzt dran", answers
    assert answers["en"] == "it is not Ana's turn to roll the market die: Ben must act now", answers
    assert client.get(f"/api/games/{created['id']}").get_json()["version"] == view["version"]


def test_undo_names_the_action_in_german_for_an_imported_game_and_after_a_restart(
    app: Flask, client: FlaskClient
) -> None:
    played = play_random_game(2, 11, names=("Ana", "Ben"))
    last = action_to_dict(played.log[-1])
    before_last = adapter.replay(played.setup, [action_to_dict(a) for a in played.log[:-1]])
    csrf = csrf_of(client)
    # imported before its last move, which is played here (an imported game's own moves are its history)
    imported = client.post("/api/games/import", data=write_log(before_last), headers={
        "X-CSRF-Token": csrf, "Content-Type": "application/x-ndjson"}).get_json()["view"]
    for seat in ("all", 0):  # the table plays the last move, then this phone plays for Ana
        role = client.post(f"/api/games/{imported['id']}/role", json={"seat": seat}, headers={"X-CSRF-Token": csrf})
        assert role.status_code == 200
    moved = client.post(f"/api/games/{imported['id']}/actions", json={"action": last, "version": imported["version"]},
                        headers={"X-CSRF-Token": csrf})
    assert moved.status_code == 201, moved.get_json()
    with use_locale("de"):
        german = str(adapter.describe_say(before_last, last))
    assert german != adapter.describe(before_last, last)  # the line reads differently in German

    restarted = GameService(app.extensions["keshi.games"].store, EventBus())  # rebuilt from the store
    for undo in (moved.get_json()["view"]["undo"], undo_view(restarted.get(imported["id"]))):
        with use_locale("de"):
            assert str(Msg.from_json(undo["label_say"])) == german

    took_back = client.post(f"/api/games/{imported['id']}/undo", json={"version": imported["version"] + 1},
                            headers={"X-CSRF-Token": csrf})
    assert took_back.status_code == 201, took_back.get_json()
    newest = client.get(f"/api/games/{imported['id']}").get_json()["history"][0]
    with use_locale("de"):
        assert str(Msg.from_json(newest["say"])) == f"Ana hat zurückgenommen: {german}"
