"""The Sabika adapter of the generic game page (``companion.table.kinds.sabika``).

Random legal games (``companion.games.sabika.simulate``) walk through every kind of action and decision;
at every step the screen's choices must be exactly the engine's legal actions, labelled in player
words and grouped in screens of at most ``MAX_GROUP`` buttons; every action gets a log line in
player words; the board view is JSON and agrees with the engine's state.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games.sabika import Game
from companion.games.sabika.actions import Answer, Rest, Work
from companion.games.sabika.components import ACTION_WORDS, MATERIALS, WORDS, WORKER_RING
from companion.games.sabika.errors import ActionFormatError, SetupError
from companion.games.sabika.setup import SetupOptions
from companion.games.sabika.simulate import DEFAULT_NAMES, random_action, random_profile, table_setup
from companion.table.kinds import sabika as kind
from companion.table.kinds import wizard_games
from tests.games.sabika.helpers import BASE_PROFILE
from tests.web.conftest import csrf_of, share

ENGINE_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|[{}\[\]]|\b(?:builder1|builder2)\b|\d+-\d+(?! =)|\w+:\d")
"""Internal keys (``minor_quarry``, ``builder1``), raw lists/dicts, route keys (``0-3``; a range ``1-9 = the
Cities`` is words), icons (``pp:2``)."""


def _player_words(text: str) -> bool:
    return isinstance(text, str) and bool(text.strip()) and not ENGINE_WORDS.search(text)


def _walk(game: Game, rng: random.Random, visit: Any) -> Game:
    """Play ``game`` to its end with random legal actions, calling ``visit(game, action)`` before each."""
    while not game.finished:
        action = random_action(game, rng)
        visit(game, action)
        game.apply(action)
    return game


# (players, seed, options): random board answers, advanced mode, a known board
GAMES: list[tuple[int, int, dict[str, Any]]] = [
    (2, 1, {}),
    (3, 2, {"advanced": True}),
    (4, 3, {}),
    (2, 4, {"profile": random_profile(2, 4, BASE_PROFILE)}),
]


@pytest.fixture(scope="module")
def walked() -> list[tuple[Game, list[tuple[dict[str, Any], dict[str, Any], str]]]]:
    """Each game of ``GAMES`` played out, with (choices, action JSON, log line) at every step."""
    out = []
    for players, seed, options in GAMES:
        steps: list[tuple[dict[str, Any], dict[str, Any], str]] = []
        game = kind.new_game(list(DEFAULT_NAMES[:players]), seed, options)

        def visit(g: Game, action: Any, steps: list[Any] = steps) -> None:
            data = kind.to_json(action)
            steps.append((kind.choices(g), data, kind.describe(g, data)))
            if len(steps) % 25 == 1:  # the board view at a sample of states (it is the costly part)
                _check_board(g)

        out.append((_walk(game, random.Random(seed), visit), steps))
    return out


def test_choices_are_exactly_the_engine_legal_actions() -> None:
    game = kind.new_game(["Ana", "Ben", "Cai"], 9, {"advanced": True})
    rng = random.Random(9)

    def visit(g: Game, _action: Any) -> None:
        offered = [option["action"] for option in kind.choices(g)["options"]]
        assert offered == [kind.to_json(a) for a in g.legal_actions()]
        assert kind.choices(g)["actor"] == g.to_move

    _walk(game, rng, visit)


def test_every_label_group_prompt_and_log_line_is_player_words(walked: list[Any]) -> None:
    kinds_seen = set()
    for _game, steps in walked:
        for shown, action, line in steps:
            kinds_seen.add(action["type"])
            assert _player_words(shown["prompt"]), shown["prompt"]
            for option in shown["options"]:
                assert _player_words(option["label"]), option
                assert _player_words(option["group"]), option
            assert _player_words(line), line
    assert kinds_seen == {"work", "rest", "choose", "answer"}


def test_no_screen_has_more_than_max_group_buttons(walked: list[Any]) -> None:
    biggest = 0
    for _game, steps in walked:
        for shown, _action, _line in steps:
            options = shown["options"]
            screens: dict[tuple[str, ...], set[str]] = {}  # tap path so far -> the buttons shown next
            for option in options:
                path = option["path"]
                assert path[-1] == option["label"] and len(path) == (1 if len(options) <= kind.MAX_GROUP else 2)
                for depth in range(len(path)):
                    screens.setdefault(tuple(path[:depth]), set()).add(path[depth])
            assert max(len(buttons) for buttons in screens.values()) <= kind.MAX_GROUP, screens.keys()
            assert len({o["label"] for o in options}) == len(options)  # each button names one action
            biggest = max(biggest, len(options))
    assert biggest > kind.MAX_GROUP  # the long lists (a whole turn, tribute, icons) really were split


def test_labels_name_what_the_move_does() -> None:
    game = kind.new_game(["Ana", "Ben"], 4, {"profile": random_profile(2, 4, BASE_PROFILE)})
    while game.s.phase != "actions" or game.pending is not None:
        game.apply(next(iter(game.legal_actions())))
    shown = kind.choices(game)
    work = next(o for o in shown["options"] if o["action"]["type"] == "work")
    act = kind.parse_action(work["action"])
    assert isinstance(act, Work)
    action_words = ACTION_WORDS[game.layout.action[WORKER_RING[act.worker]][act.square]]
    assert f"to square {act.square}: {action_words}" in work["label"]
    heading = work["path"][0] if len(work["path"]) > 1 else work["group"]  # a long list's first step
    assert heading.endswith("in the Workshop")
    rest = next(o for o in shown["options"] if o["action"]["type"] == "rest")
    assert "+3 Dinars" in rest["label"]
    line = kind.describe(game, rest["action"])
    assert line.startswith(f"{game.name(game.s.turn)} rests the ")


def test_describe_covers_table_draws() -> None:
    draws = table_setup(2, 5)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:2], seed=5, table_draws=True, draws=draws))
    lines: list[str] = []

    def visit(g: Game, action: Any) -> None:
        if isinstance(action, Answer) and g.pending is not None and g.pending["kind"] == "draw":
            shown = kind.choices(g)
            assert all(_player_words(o["label"]) for o in shown["options"])
            lines.append(kind.describe(g, kind.to_json(action)))

    _walk(game, random.Random(5), visit)
    assert lines and all(line.startswith("The table turned up") and _player_words(line) for line in lines)


def _check_board(game: Game) -> None:
    """The board view is JSON and says what the engine's state says."""
    view = json.loads(json.dumps(kind.board_view(game)))
    s = game.s
    assert view["round"] == s.round and view["era"] == s.era()
    assert view["scores"] == [p.score for p in s.players]
    for seat, (shown, p) in enumerate(zip(view["players"], s.players, strict=True)):
        assert shown["name"] == p.name and shown["score"] == p.score
        assert (shown["dinars"], shown["parias"], shown["seals"]) == (p.dinars, p.parias, p.seals)
        assert {m["name"]: m["count"] for m in shown["materials"]} == {
            WORDS[m]: p.items[m] for m in MATERIALS}
        assert [c["city"] for c in shown["cities"]] == sorted(p.ships)
        assert shown["ships_home"] + len(shown["cities"]) == 9
        assert sum(b["points"] for b in shown["breakdown"]) == p.score
        for worker in shown["workers"]:  # each Worker on the board stands on the square the engine says
            if worker["at"] is not None:
                ring = next(r for r in view["rondel"] if r["ring"] == worker["ring"])
                square = next(sq for sq in ring["squares"] if sq["n"] == worker["at"])
                assert {"seat": seat, "name": p.name, "worker": worker["name"], "standing": worker["standing"]} \
                    in square["workers"]
    on_rondel = sum(len(sq["workers"]) for ring in view["rondel"] for sq in ring["squares"])
    assert on_rondel == sum(w.at is not None for p in s.players for w in p.workers.values())
    if s.phase == "actions":
        assert view["turn"] == s.turn


def test_board_view_agrees_with_the_engine_at_the_end(walked: list[Any]) -> None:
    for game, _steps in walked:
        _check_board(game)
        view = kind.board_view(game)
        assert view["finished"] and view["winners"] == game.winners() == kind.winners(game)
        assert kind.scores(game) == [p.score for p in game.s.players]


def test_starting_tiles_stay_secret_until_everyone_has_chosen() -> None:
    game = kind.new_game(["Ana", "Ben"], 4, {"profile": random_profile(2, 4, BASE_PROFILE)})
    assert game.s.phase == "start_tiles"
    keep = next(iter(game.legal_actions()))
    shown = kind.choices(game)["options"][0]["label"]
    assert shown.startswith("Starting Tile ") and ":" in shown  # the chooser sees what the tile gives
    line = kind.describe(game, kind.to_json(keep))
    assert "secret" in line and str(getattr(keep, "option", "?")) not in line  # the log does not tell the others
    game.apply(keep)  # the first player keeps a tile
    assert game.s.players[0].start_tile is not None or game.s.players[1].start_tile is not None
    assert all(p["starting_tile"] is None and not p["starting_player"] for p in kind.board_view(game)["players"])
    while game.s.phase == "start_tiles" or game.pending is not None and "Starting Tile" in game.pending["prompt"]:
        game.apply(next(iter(game.legal_actions())))
    shown = kind.board_view(game)["players"]
    assert [p["starting_tile"] for p in shown] == [p.start_tile for p in game.s.players]
    assert [p["starting_player"] for p in shown] == [seat == game.s.start_player for seat in range(2)]


def test_winners_are_empty_until_the_end() -> None:
    game = kind.new_game(["Ana", "Ben"], 4, {})
    assert kind.winners(game) == [] and kind.board_view(game)["winners"] == []


def test_a_saved_profile_means_no_questions() -> None:
    game = kind.new_game(["Ana", "Ben"], 7, {"profile": random_profile(2, 7, BASE_PROFILE)})
    assert kind.choices(game)["actor"] == 0  # straight to the secret Starting Tiles, nothing asked of the table
    fresh = kind.new_game(["Ana", "Ben"], 7, {})
    assert kind.choices(fresh)["actor"] == "table"


def test_replay_from_json_equals_the_live_game(walked: list[Any]) -> None:
    game, steps = walked[1]
    again = kind.replay(game.setup, [action for _shown, action, _line in steps])
    assert again.to_dict() == game.to_dict()


@pytest.mark.parametrize(("players", "options", "words"), [
    (["Ana", "Ben"], {"yusuf_pp": 10}, "yusuf_pp is for the solo mode (1 player) only"),
    (["A", "B", "C", "D", "E"], {}, "2 to 4 players"),
    (["Ana", "Ben"], {"colour": "red"}, "unknown Sabika option(s): colour"),
    (["Ana", "Ben"], {"profile": [1]}, "profile must be an object"),
    (["Ana", "Ben"], {"events": 3}, "events must be a list"),
])
def test_bad_setup_is_refused_naming_the_problem(players: list[str], options: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError, match=re.escape(words)):
        kind.new_game(players, 1, options)


def test_log_round_trip_and_remembered_printed_values(walked: list[Any]) -> None:
    game, _steps = walked[0]
    assert kind.read_log(kind.write_log(game), "export").to_dict() == game.to_dict()
    asked = {a.key for a in game.log if isinstance(a, Answer)}
    assert asked and all(key in kind.PROFILE for key in asked)  # every printed value answered is kept
    assert "draw.raw" not in kind.PROFILE  # a token turned up is not a printed value


def test_bad_json_action_is_refused_naming_the_field() -> None:
    with pytest.raises(ActionFormatError, match="square"):
        kind.parse_action({"type": "work", "player": 0, "worker": "poet"})
    assert kind.parse_action(kind.to_json(Rest(1, "poet"))) == Rest(1, "poet")


def test_a_second_sabika_game_at_the_table_asks_nothing_the_first_was_told(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    players = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]

    def create() -> dict[str, Any]:
        response = client.post("/api/games", json={"game": "sabika", "players": players, "seed": 5},
                               headers={"X-CSRF-Token": csrf})
        assert response.status_code == 201, response.get_json()
        body: dict[str, Any] = response.get_json()
        share(client, csrf, body["id"])
        return body

    def sizes() -> dict[str, Any] | None:  # the Board page's entry: the three sizes, as the game asks them
        entries = client.get("/api/board-profile?edition=sabika").get_json()["entries"]
        found: dict[str, Any] | None = next(e for e in entries if e["key"] == "rondel.small.sizes")["value"]
        return found

    first = create()
    asked = first["view"]["choices"]
    assert asked["actor"] == "table" and asked["prompt"].startswith("How many squares does each ring of the Rondel")
    answer = {"type": "answer", "key": "rondel.small.sizes", "value": {"rondel.small.outer.size": 11,
                                                                       "rondel.small.middle.size": 8,
                                                                       "rondel.small.inner.size": 6}}
    acted = client.post(f"/api/games/{first['id']}/actions", json={"action": answer, "version": 0},
                        headers={"X-CSRF-Token": csrf})
    assert acted.status_code == 201, acted.get_json()
    assert acted.get_json()["view"]["choices"]["prompt"] != asked["prompt"]
    assert sizes() == answer["value"]  # each ring's size kept, as three answers one by one would be
    second = create()["view"]["choices"]
    assert second["actor"] == "table" and second["prompt"] != asked["prompt"]  # the sizes are known now
    assert not any(o["action"]["key"] == answer["key"] for o in second["options"])
    undone = client.post(f"/api/games/{first['id']}/undo", json={"version": acted.get_json()["view"]["version"]},
                         headers={"X-CSRF-Token": csrf})
    assert undone.status_code == 201, undone.get_json()
    assert sizes() is None  # taken back: the three values are forgotten with it


def test_the_setup_wizard_offers_sabika_with_its_mode() -> None:
    offered = {game["key"]: game for game in wizard_games()}
    assert offered["sabika"]["players"] == [1, 4]  # 1 player: the solo mode against Yusuf
    mode = offered["sabika"]["options"][0]
    assert mode["key"] == "advanced" and [c["value"] for c in mode["choices"]] == [False, True]
