"""The boards, score track, claim display and one-tap follow-ups of the JSON view (companion.table.views).

Games are played by the engine itself (first legal choice each time); every expectation is read from
the engine's own ``to_dict()`` and legal actions at that moment, not written into the test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.games.marrakesh import Game, action_from_dict
from companion.games.marrakesh.board import COLOUR_SECTOR
from companion.table import marrakesh_engine, views
from tests.web.play import first_action

NAMES = ["Ana", "Ben", "Cleo"]
SEATING = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}, {"name": "Cleo", "colour": "green"}]


def view_of(game: Game) -> dict[str, Any]:
    """The parts of the view a phone plays from (as ``views._fresh`` builds them)."""
    return {"phase": game.phase, "pending": game.pending, "selections": marrakesh_engine.selection_options(game),
            "state": game.to_dict(),
            "legal": views.with_follow_ups(game, marrakesh_engine.legal_json(game, NAMES), NAMES)}


def play_until(game: Game, stop: Callable[[Game], bool], limit: int = 3000) -> Game:
    for _ in range(limit):
        if stop(game):
            return game
        game.apply(action_from_dict(first_action(view_of(game))))
    raise AssertionError("the game never got there")


def new(edition: str = "essential", seed: int = 4) -> Game:
    return marrakesh_engine.new_game(NAMES, seed=seed, start_player=None, tower_layer="B1", draws=None, profile=None,
                           edition=edition)


@pytest.mark.parametrize("edition", ["essential", "classic"])
def test_every_board_shows_the_engines_numbers(edition: str) -> None:
    game = play_until(new(edition), lambda g: g.season == 1 and g.round == 3 and g.phase == "select")
    state = game.to_dict()
    boards = views.boards(state, SEATING)
    for seat, (board, player) in enumerate(zip(boards, state["players"], strict=True)):
        sectors = {s["sector"]: s for s in board["sectors"]}
        placed = player.get("sector_keshis") or player["markers"]
        for colour, count in placed.items():
            assert sectors[COLOUR_SECTOR[colour]]["value"] == count
            assert sectors[COLOUR_SECTOR[colour]]["colours"] == [colour]
        assert sectors["main_square"]["value"] == len(player["entertainers"])
        assert sectors["medina"]["value"] == player["watchtower"] + len(player["gates"])
        assert sectors["sahara"]["value"] == sum(player["sahara"].values())
        assert sectors["souk"]["value"] == sum(player["goods"].values())
        assert {s for s, info in sectors.items() if info["vendor"]} == set(player["water_vendors"])
        assert (board["seat"], board["name"], board["colour"], board["score"]) == (
            seat, player["name"], SEATING[seat]["colour"], player["score"])
        assert (board["river"]["space"], board["palace"], board["mosque"]) == (
            player["fisherman"], player["palace"], player["mosque"])
        assert board["scrolls"] == player["scrolls"] and board["resources"] == player["resources"]
        assert board["oases"]["discovered"] == sum(player["discovered"])
        assert all("_" not in s["label"] for s in board["sectors"])  # player words, never keys
    assert any(s["value"] for b in boards for s in b["sectors"]), "two rounds placed nothing: a useless check"


def test_the_score_track_orders_markers_and_counts_laps() -> None:
    game = play_until(new(), lambda g: g.season == 1 and g.round == 3)
    state = game.to_dict()
    state["players"][2]["score"] += type(game).lap  # one player a lap ahead
    track = views.score_track(state, SEATING, type(game).lap)
    scores = [p["score"] for p in state["players"]]
    assert [m["score"] for m in track["markers"]] == sorted(scores, reverse=True)
    top = track["markers"][0]
    assert top["seat"] == 2 and top["laps"] == 1 and top["space"] == scores[2] - type(game).lap


def test_the_claim_display_says_what_the_mover_may_take_and_where_it_goes() -> None:
    game = play_until(new(), lambda g: g.phase == "claim" and g.pending is None and isinstance(g.to_move, int))
    state = game.to_dict()
    legal = marrakesh_engine.legal_json(game, NAMES)
    rows = views.claim_display(state, legal, NAMES)
    display = state["tower"]["display"]
    assert [(r["colour"], r["count"]) for r in rows] == [(c, n) for c, n in display.items() if n]
    claims = [e["action"]["colours"] for e in legal if e["action"]["type"] == "claim"]
    for row in rows:
        assert row["who"] == NAMES[int(game.to_move)]  # type: ignore[arg-type]
        assert row["takes"] == max((c.count(row["colour"]) for c in claims), default=0)
        assert "_" not in row["to"]
    game.apply(action_from_dict(legal[0]["action"]))
    game = play_until(game, lambda g: g.phase != "claim")
    assert all(r["takes"] is None for r in views.claim_display(game.to_dict(), [], NAMES))


def test_a_follow_up_is_the_decision_the_action_really_leads_to_and_the_live_game_is_untouched() -> None:
    game = new(seed=5)
    found = 0
    for _ in range(3000):
        if game.season > 1:
            break
        before = game.to_dict()
        legal = views.with_follow_ups(game, marrakesh_engine.legal_json(game, NAMES), NAMES)
        assert game.to_dict() == before, "looking ahead changed the live game"
        chained = [e for e in legal if "then" in e]
        if chained:
            found += 1
            entry = chained[-1]
            game.apply(action_from_dict(entry["action"]))
            assert game.pending and game.pending["prompt"] == entry["then"]["prompt"]
            follow = [o["action"] for o in entry["then"]["options"]]
            assert follow == [e["action"] for e in marrakesh_engine.legal_json(game, NAMES)]
            game.apply(action_from_dict(follow[-1]))
            continue
        game.apply(action_from_dict(first_action(view_of(game))))
    assert found >= 3, "no action with a follow-up in a whole season: nothing was checked"
