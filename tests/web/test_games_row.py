"""The games list reads each game's row only: its moves (the table's answers left out) and winners are kept
there when a change commits, stay right through undo and import, are backfilled once for a database stored
before, and listing never rebuilds a game. An imported game's moves are its history: Undo leaves them alone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from flask.testing import FlaskClient

from companion.events import EventBus
from companion.games.marrakesh import RuleError
from companion.games.marrakesh.log import write_log as marrakesh_log
from companion.games.marrakesh.simulate import play_random_game as random_marrakesh
from companion.games.morocco import Game as MoroccoGame
from companion.games.morocco import action_to_dict
from companion.games.morocco.log import write_log as morocco_log
from companion.games.morocco.simulate import RandomPlayer, play_random_game
from companion.games.sabika.simulate import play_random_game as random_sabika
from companion.store import Store
from companion.table import game_records, kinds, marrakesh_engine
from companion.table.service import IMPORTED_HISTORY, GameService, LiveGame
from tests.web.conftest import csrf_of, share

PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "keshi.sqlite3") as opened:
        yield opened


def listed(games: GameService, game_id: str) -> dict[str, Any]:
    """The games list's entry of ``game_id``."""
    return next(g for g in games.summaries() if g["id"] == game_id)


def figures(games: GameService, game_id: str) -> tuple[int, bool, list[str]]:
    """``(moves, finished, winners)`` as the games list shows them."""
    entry = listed(games, game_id)
    return entry["moves"], entry["finished"], entry["winners"]


def from_the_game(games: GameService, game_id: str) -> tuple[int, bool, list[str]]:
    """The same figures worked out from the live game itself: its log's actions that are not answers, and
    the names of the seats its engine says won."""
    live = games.get(game_id)
    adapter = kinds.adapter(live.kind)
    moves = sum(adapter.to_json(action)["type"] != "answer" for action in live.game.log)
    finished = bool(live.game.finished)
    return moves, finished, [live.names[seat] for seat in adapter.winners(live.game)] if finished else []


def new_morocco(games: GameService) -> str:
    return games.create({"game": "morocco", "players": PLAYERS, "seed": 28}).id


def play_until(games: GameService, game_id: str, player: RandomPlayer, until: Any) -> None:
    """Act with ``player``'s choices through the service until ``until(game)`` holds."""
    live = games.get(game_id)
    game = cast(MoroccoGame, live.game)
    for _ in range(5000):
        if until(game):
            return
        games.act(game_id, action_to_dict(player.action(game)), live.version, None)
    raise AssertionError("the game never reached the awaited point")


def asks(game: MoroccoGame) -> bool:
    return game.pending is not None and game.pending["kind"] == "question"


def test_the_row_keeps_moves_and_winners_through_play_answers_and_undo(store: Store) -> None:
    games = GameService(store, EventBus())
    game_id = new_morocco(games)
    live = games.get(game_id)
    player = RandomPlayer(random.Random(2))
    play_until(games, game_id, player, asks)
    before = figures(games, game_id)
    assert before == from_the_game(games, game_id) and before[0] == len(live.game.log)
    answer = next(o["action"] for o in kinds.adapter("morocco").choices(live.game)["options"])
    games.act(game_id, answer, live.version, None)
    assert figures(games, game_id) == before  # an answer is no move
    assert listed(games, game_id)["actions"] == before[0] + 1
    games.undo(game_id, live.version, None)  # the answer taken back: still no move less
    assert figures(games, game_id) == before
    games.undo(game_id, live.version, None)  # a move taken back
    assert figures(games, game_id) == (before[0] - 1, False, []) == from_the_game(games, game_id)

    play_until(games, game_id, player, lambda game: game.finished)
    finished = figures(games, game_id)
    assert finished == from_the_game(games, game_id) and finished[1] and finished[2]
    games.undo(game_id, live.version, None)  # the last move of a finished game: it is open again, nobody won
    assert figures(games, game_id) == (finished[0] - 1, False, []) == from_the_game(games, game_id)
    play_until(games, game_id, player, lambda game: game.finished)
    assert figures(games, game_id) == from_the_game(games, game_id)


def test_an_imported_game_is_listed_with_its_moves_and_winners(store: Store) -> None:
    games = GameService(store, EventBus())
    played = random_marrakesh(2, 3, names=("Sarah", "Jan"))
    imported = games.import_log(marrakesh_log(played), "test")
    answers = sum(marrakesh_engine.to_json(action)["type"] == "answer" for action in played.log)
    assert answers > 0  # the game asked the table, so leaving the answers out is seen
    assert figures(games, imported.id) == (len(played.log) - answers, True,
                                           [played.player_names()[seat] for seat in played.winners()])
    morocco = play_random_game(2, 11, names=("Ana", "Ben"))
    second = games.import_log(morocco_log(morocco), "test")
    assert figures(games, second.id) == from_the_game(games, second.id)


def test_listing_rebuilds_no_game(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    games = GameService(store, EventBus())
    marrakesh = games.import_log(marrakesh_log(random_marrakesh(2, 3, names=("Sarah", "Jan"))), "test").id
    morocco = games.import_log(morocco_log(play_random_game(2, 11, names=("Ana", "Ben"))), "test").id
    expected = {game_id: figures(games, game_id) for game_id in (marrakesh, morocco)}

    def no_replay(*_args: Any) -> Any:
        raise AssertionError("the games list rebuilt a game")

    monkeypatch.setattr(marrakesh_engine, "replay", no_replay)
    monkeypatch.setattr(kinds.adapter("morocco"), "replay", no_replay)
    after_a_restart = GameService(store, EventBus())
    assert {game_id: figures(after_a_restart, game_id) for game_id in expected} == expected
    assert all(winners for _moves, _finished, winners in expected.values())


def make_it_old(path: Path) -> None:
    """Turn the database at ``path`` into one stored before the games' rows kept the list's figures."""
    with Store(path) as store, store.write() as db:
        for column in ("moves", "winners", "imported"):
            db.execute(f"ALTER TABLE games DROP COLUMN {column}")
        db.execute("DELETE FROM schema_migrations WHERE component = ? AND version > 3", (game_records.COMPONENT,))


def test_a_database_stored_before_gets_the_figures_once_at_migration(tmp_path: Path) -> None:
    path = tmp_path / "keshi.sqlite3"
    with Store(path) as store:
        games = GameService(store, EventBus())
        finished = new_morocco(games)
        player = RandomPlayer(random.Random(2))
        play_until(games, finished, player, asks)
        live = games.get(finished)
        games.act(finished, next(o["action"] for o in kinds.adapter("morocco").choices(live.game)["options"]),
                  live.version, None)
        games.undo(finished, live.version, None)  # an undo in the log: the backfill folds it
        play_until(games, finished, player, lambda game: game.finished)
        open_game = new_morocco(games)
        play_until(games, open_game, RandomPlayer(random.Random(5)), lambda game: len(game.log) >= 6)
        sabika = random_sabika(2, 4, names=("Ana", "Ben"))
        imported = games.import_log(kinds.adapter("sabika").write_log(sabika), "test").id
        expected = games.summaries()
    make_it_old(path)
    with Store(path) as store:
        assert (game_records.COMPONENT, 5) in store.applied
        after = GameService(store, EventBus())
        assert after.summaries() == expected
        assert [g["winners"] != [] for g in expected] == [g["finished"] for g in expected]
        assert after.get(imported).imported == len(sabika.log)


def test_a_finished_imported_game_offers_no_undo(client: FlaskClient) -> None:
    text = morocco_log(play_random_game(2, 11, names=("Ana", "Ben")))
    csrf = csrf_of(client)
    imported = client.post("/api/games/import", data=text, headers={"X-CSRF-Token": csrf})
    assert imported.status_code == 201, imported.get_json()
    view = imported.get_json()["view"]
    share(client, csrf, view["id"])  # the host's device plays for everyone
    assert view["undo"]["available"] is False and view["undo"]["reason"] == IMPORTED_HISTORY
    refused = client.post(f"/api/games/{view['id']}/undo", json={}, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 400 and refused.get_json()["error"] == IMPORTED_HISTORY
    again = client.get(f"/api/games/{view['id']}").get_json()
    assert again["version"] == view["version"] and again["finished"] is True


def refusal(live: LiveGame) -> str | None:
    """Why Undo is refused for ``live`` now, in English (None: it is offered)."""
    said = live.undo_refusal_say(None)
    return said.english() if said is not None else None


def test_a_marrakesh_game_imported_mid_game_takes_back_only_what_was_played_here(store: Store) -> None:
    played = random_marrakesh(2, 3, names=("Sarah", "Jan"))
    half = marrakesh_engine.replay(played.setup, [marrakesh_engine.to_json(a) for a in played.log[:40]])
    games = GameService(store, EventBus())
    live = games.import_log(marrakesh_log(half), "test")
    assert refusal(live) == IMPORTED_HISTORY
    games.act(live.id, marrakesh_engine.to_json(played.log[40]), live.version, None)
    assert refusal(live) is None  # the move played here can be taken back ...
    games.undo(live.id, live.version, None)
    restarted = GameService(store, EventBus()).get(live.id)  # ... and after a restart, still nothing before it
    assert len(restarted.game.log) == 40 and refusal(restarted) == IMPORTED_HISTORY
    with pytest.raises(RuleError, match="imported"):
        games.undo(live.id, live.version, None)
    assert len(games.get(live.id).game.log) == 40
