"""Issue 14 for Sabika: every prompt, option, rule error, log line and board word a game meets has its German.

Whole random games are played (3 players with every printed value asked, the advanced mode; 2 players at
a real table whose draws are entered; the solo mode against Yusuf). At every step the test gathers the
messages a phone is sent — the pending decision's prompt (``say``) and options (each a ``Said``), the
adapter's prompt, buttons, groups and log line (``*_say``), the board's words — and provokes the rule
errors a player can meet there (out of turn, a lying Worker, an unreachable square, a wrong option or
answer); each error must be a ``Msg``. Every catalog id used must have a German translation.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games.sabika import Answer, Choose, Game, Rest, SetupOptions, Work
from companion.games.sabika.actions import action_from_dict
from companion.games.sabika.components import ACTION_WORDS, RING_WORDS, WORDS, WORKER_WORDS, WORKERS
from companion.games.sabika.errors import ActionFormatError, LogError, RuleError, SetupError
from companion.games.sabika.log import read_log
from companion.games.sabika.say import Said
from companion.games.sabika.simulate import random_action, random_profile, table_setup
from companion.i18n import Msg
from companion.i18n.catalogs import js_catalog
from companion.table.kinds import sabika as kind
from tests.games.sabika.helpers import BASE_PROFILE
from tests.web.conftest import csrf_of, share
from tests.web.test_i18n import GERMAN, message_ids, untranslated

NEUTRAL = re.compile(r"^[^A-Za-z]*$")
"""A message with no words of its own (``"{first} + {second}"``): the same in every language."""


def _neutral(key: str) -> bool:
    return "\u0004" not in key and bool(NEUTRAL.match(re.sub(r"\{\w+(?:!r)?\}", "", key)))


def _said(value: Any) -> Iterator[dict[str, Any]]:
    """Every message (``Msg.to_json``) inside a JSON view: under a ``say`` or ``*_say`` key."""
    if isinstance(value, dict):
        for key, item in value.items():
            if (key == "say" or key.endswith("_say")) and item:
                for said in item if isinstance(item, list) else [item]:
                    if isinstance(said, dict) and "text" in said:
                        yield said
                    else:
                        yield from _said(said)
            else:
                yield from _said(item)
    elif isinstance(value, list):
        for item in value:
            yield from _said(item)


def _errors(game: Game) -> Iterator[Any]:
    """Actions that break a rule now (each must be refused with a ``Msg``)."""
    s = game.s
    pending = s.pending
    seats = len(s.players)
    if pending is not None and pending["kind"] == "choice":
        yield Choose(pending["player"], "no such option")
        yield Choose((pending["player"] + 1) % seats, pending["options"][0])
        yield Answer("map.routes", ["0-1"])
        yield Rest(pending["player"], "poet")
    elif pending is not None:
        yield Answer("no.such.key", 1)
        yield Answer(pending["key"], "no such answer")
        yield Choose(0, "anything")
        yield Work(0, "poet", 1)
    elif s.phase == "actions" and not game.finished:
        seat = s.turn
        yield Rest((seat + 1) % seats, "poet")
        yield Work(seat, "nobody", 1)
        yield Work(seat, "poet", 99)
        lying = [w for w in WORKERS if not s.players[seat].workers[w].active]
        if lying:
            yield Rest(seat, lying[0])
        standing = s.players[seat].active_workers()
        if standing:
            worker = standing[0]
            legal = {a.square for a in game.legal_actions() if isinstance(a, Work) and a.worker == worker}
            blocked = [sq for ring in (game.layout.squares[kind.WORKER_RING[worker]],) for sq in ring
                       if sq not in legal]
            if blocked:
                yield Work(seat, worker, blocked[0])


def _walk(game: Game, rng: random.Random, every: int) -> set[str]:
    """Play ``game`` to its end; the catalog ids of every message met (errors tried every ``every`` steps)."""
    ids: set[str] = set()
    step = 0
    while not game.finished:
        step += 1
        if game.pending is not None:
            ids |= message_ids(game.pending["say"])
            assert Msg.from_json(game.pending["say"]).english() == game.pending["prompt"]  # the English as stored
            for option in game.pending["options"]:
                if isinstance(option, Said):  # an option in words: its English is its message's
                    assert option == option.msg.english()
                    ids |= message_ids(option.msg.to_json())
        shown = kind.choices(game)
        ids |= set().union(*(message_ids(said) for said in _said(shown)))
        if step % every == 0:
            ids |= set().union(*(message_ids(said) for said in _said(kind.board_view(game))))
            for bad in _errors(game):
                with pytest.raises(RuleError) as refused:
                    game.apply(bad)
                message = refused.value.args[0]
                assert isinstance(message, Msg), f"an English-only rule error: {message!r}"
                ids |= message_ids(message.to_json())
        action = random_action(game, rng)
        ids |= message_ids(kind.describe_say(game, kind.to_json(action)).to_json())
        game.apply(action)
    return ids | set().union(*(message_ids(said) for said in _said(kind.board_view(game))))


GAMES = {
    "3 players, every value asked, advanced": lambda: Game.new(SetupOptions(
        players=("Ana", "Ben", "Cai"), seed=7, advanced=True)),
    "2 players at a real table": lambda: Game.new(SetupOptions(
        players=("Ana", "Ben"), seed=3, table_draws=True, draws=table_setup(2, 3),
        profile=random_profile(2, 3, BASE_PROFILE))),
    "solo against Yusuf": lambda: Game.new(SetupOptions(players=("Ana",), seed=4, solo=True)),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_every_message_of_a_whole_sabika_game_has_its_german(name: str) -> None:
    ids = _walk(GAMES[name](), random.Random(2), every=3)
    catalog = js_catalog("de")
    missing = {key for key in ids if key not in catalog and not _neutral(key)}
    assert len(ids) > 60 and not missing, sorted(missing)


def test_the_words_the_board_sends_in_english_are_game_words_with_german() -> None:
    catalog = js_catalog("de")  # kind-sabika.js renders these with Keshi.word("sabika", ...)
    words = {*ACTION_WORDS.values(), *RING_WORDS.values(), *WORKER_WORDS.values(), *WORDS.values(), "blue", "red"}
    missing = {w for w in words if f"sabika\u0004{w}" not in catalog}
    assert not missing, missing
    assert catalog["sabika\u0004Glazed Ceramic"] == "Glasierte Keramik"


BAD_SETUPS = [
    SetupOptions(players=("Ana",)), SetupOptions(players=("Ana", "Ben"), solo=True),
    SetupOptions(players=("Yusuf",), solo=True), SetupOptions(players=("Ana",), solo=True, yusuf_pp=7),
    SetupOptions(players=("Ana", "Ana")), SetupOptions(players=("Ana", "Ben"), draws={"dice": 1}),
    SetupOptions(players=("Ana", "Ben"), table_draws=True), SetupOptions(players=("Ana", "Ben"), events=(1, 1, 2)),
    SetupOptions(players=("Ana", "Ben"), draws={"trade_card": 0}),
    SetupOptions(players=("Ana", "Ben"), draws={"city_tiles": [1, 2]}),
    SetupOptions(players=("Ana", "Ben"), draws={"wish_tiles": ["A1"]}),
    SetupOptions(players=("Ana", "Ben"), draws={"major_poems": ["A1"]}),
]
BAD_ACTIONS = [[], {"type": "fly"}, {"type": "work", "player": 0, "worker": "poet"},
               {"type": "rest", "player": "0", "worker": "poet"}, {"type": "rest", "player": 0, "worker": 1},
               {"type": "rest", "player": 0, "worker": "poet", "why": "tired"}]


def test_every_kind_of_sabika_setup_action_and_log_error_has_its_german() -> None:
    catalog = js_catalog("de")
    refused: list[Any] = []
    for options in BAD_SETUPS:
        with pytest.raises(SetupError) as setup_error:
            Game.new(options)
        refused.append(setup_error.value)
    for data in BAD_ACTIONS:
        with pytest.raises(ActionFormatError) as format_error:
            action_from_dict(data)
        refused.append(format_error.value)
    bad_options: list[tuple[list[str], dict[str, Any]]] = [
        (["Ana", "Ben", "Cai", "Dina", "Eve"], {}), (["Ana", "Ben"], {"colour": "red"}),
        (["Ana", "Ben"], {"profile": [1]}), (["Ana", "Ben"], {"events": 3})]
    for players, chosen in bad_options:
        with pytest.raises(SetupError) as adapter_error:
            kind.new_game(players, 1, chosen)
        refused.append(adapter_error.value)
    header = kind.write_log(Game.new(SetupOptions(players=("Ana", "Ben")))).splitlines()[0]
    with pytest.raises(LogError) as log_error:
        read_log(header.replace('"sabika"', '"morocco"', 1), "upload")
    refused.append(log_error.value)
    for error in refused:
        message = error.args[0]
        assert isinstance(message, Msg), f"English only: {message!r}"
        missing = {key for key in message_ids(message.to_json()) if key not in catalog and not _neutral(key)}
        assert not missing, (message.english(), missing)


def test_a_sabika_rule_error_comes_back_in_german_naming_the_rule_and_the_player(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    players = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]
    created = client.post("/api/games", json={"game": "sabika", "players": players, "seed": 21,
                                              "options": {"profile": random_profile(2, 21, BASE_PROFILE)}},
                          headers={"X-CSRF-Token": csrf}).get_json()
    share(client, csrf, created["id"])
    view = created["view"]
    while view["choices"]["actor"] == "table" or "secretly" in view["choices"]["prompt"]:
        acted = client.post(f"/api/games/{created['id']}/actions", headers={"X-CSRF-Token": csrf},
                            json={"action": view["choices"]["options"][0]["action"], "version": view["version"]})
        view = acted.get_json()["view"]
    mover = view["choices"]["actor"]
    wrong = {"type": "rest", "player": 1 - mover, "worker": "poet"}
    refused = client.post(f"/api/games/{created['id']}/actions", json={"action": wrong, "version": view["version"]},
                          headers={"X-CSRF-Token": csrf, **GERMAN})
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    names = ["Ana", "Ben"]
    # the rule by its name; its rulebook lines are for developers and the CLI, not a phone (issue 25)
    assert error == f"Zugreihenfolge: {names[mover]} ist am Zug, nicht {names[1 - mover]}"
    assert untranslated(error) == []
    english = client.post(f"/api/games/{created['id']}/actions", json={"action": wrong, "version": view["version"]},
                          headers={"X-CSRF-Token": csrf}).get_json()["error"]
    assert english == f"turn order: it is {names[mover]}'s turn, not {names[1 - mover]}'s"


def test_a_question_asking_a_rondels_three_ring_sizes_at_once_and_its_refusals_read_in_german() -> None:
    game = Game.new(SetupOptions(players=("Ana", "Ben", "Cai"), seed=4, when_needed=True))
    pending = game.pending
    assert pending is not None and pending["key"] == "rondel.large.sizes"
    said = [Msg.from_json(pending["say"]), *(Msg.from_json(part["name_say"]) for part in pending["parts"])]
    refused = []
    for bad in ({"rondel.large.outer.size": 12},
                {"rondel.large.outer.size": 12, "rondel.large.middle.size": 40, "rondel.large.inner.size": 7}):
        with pytest.raises(RuleError) as error:
            game.apply(Answer("rondel.large.sizes", bad))
        refused.append(error.value.args[0])
    good = {"type": "answer", "key": "rondel.large.sizes",
            "value": {"rondel.large.outer.size": 12, "rondel.large.middle.size": 9, "rondel.large.inner.size": 7}}
    line = kind.describe_say(game, good)
    catalog = js_catalog("de")
    for message in [*said, *refused, line]:
        missing = {key for key in message_ids(message.to_json()) if key not in catalog and not _neutral(key)}
        assert not missing, (message.english(), missing)
    assert said[0].render("de") == "Wie viele Felder hat jeder Ring des Rondells (große Spielplanseite)?"
    assert refused[0].render("de").endswith("erwartet werden 3 Werte, je einer für Äußeres Rondell, Mittleres "
                                            "Rondell, Inneres Rondell")
    assert refused[1].render("de").endswith(": 40 ist für Mittleres Rondell nicht möglich (möglich: 3 bis 16)")
    assert line.render("de").endswith("Äußeres Rondell: 12, Mittleres Rondell: 9, Inneres Rondell: 7")
