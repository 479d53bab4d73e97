"""Expansions 1-4 (EN:L1420-1505, digest §13.1-13.4) and choosing expansions at setup (log, state view)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games.marrakesh import Game, SetupError, SetupOptions
from companion.games.marrakesh.expansion_setup import resolve_expansions
from companion.games.marrakesh.log import read_log, write_log
from tests.games.marrakesh.helpers import JAN, MARIE, NAMES, SARAH, choose, run_effects, to_assistants, use

STAIRS: dict[str, Any] = {"palace.segment_starts": [2, 6], "mosque.segment_starts": [2, 6]}


def exp_game(expansions: tuple[int, ...], profile: dict[str, Any] | None = None, players: int = 4,
             **draws: Any) -> Game:
    return Game.new(SetupOptions(players=NAMES[:players], seed=1, start_player=0, expansions=expansions,
                                 draws=draws, profile=profile or {}))


# --- setup -----------------------------------------------------------------------------------------

def test_expansions_are_recorded_in_the_setup_line_and_the_state_view() -> None:
    g = exp_game((5, 1, 3))
    assert g.setup["expansions"] == [1, 3, 5] and g.to_dict()["expansions"] == [1, 3, 5]
    header = json.loads(write_log(g).splitlines()[0])
    assert header["setup"]["expansions"] == [1, 3, 5]
    assert read_log(write_log(g)).to_dict() == g.to_dict()
    assert Game.new(SetupOptions(players=NAMES[:2])).to_dict()["expansions"] == []


def test_setup_rejects_unknown_expansions_and_asks_for_missing_table_draws() -> None:
    with pytest.raises(SetupError, match="unknown expansion 6"):
        exp_game((6,))
    with pytest.raises(SetupError, match="listed twice"):
        exp_game((2, 2))
    with pytest.raises(SetupError, match="staircase_tiles must list 12 distinct"):
        exp_game((1,), staircase_tiles=[[1, "A"]] * 12)
    with pytest.raises(SetupError, match="office_sides"):
        exp_game((3,), office_sides=["base", "back", "new"])
    setup = dict(exp_game(()).setup)
    asked: list[str] = []
    resolve_expansions((5,), {}, setup, random.Random(0), True, asked)  # named before the first toss
    assert asked[0] == "desert_towns" and setup["desert_towns"] == [0] * 7  # the 4-player display


def test_staircase_tiles_drawn_or_chosen() -> None:
    g = exp_game((1,))
    tiles = g.setup["staircase_tiles"]
    assert len(tiles) == 12 and len({t for t, _ in tiles}) == 12 and {s for _, s in tiles} <= {"A", "B"}
    chosen = [[t, "B"] for t in range(9, 21)]
    assert exp_game((1,), staircase_tiles=chosen).setup["staircase_tiles"] == chosen


# --- expansion 1: staircase tiles ----------------------------------------------------------------------

def test_expansion_1_line_bonuses_come_from_the_tiles_it_passes() -> None:
    tiles = [[t, "A"] for t in range(1, 13)]
    profile = {**STAIRS, "line.2.1.spaces": [3, 7], "line.2.1.fixed": ["dinars:2"], "stair_tile.3.A": "water",
               "stair_tile.7.A": "keshi:gray", "line.2.1": ["points:7"]}  # the printed line is covered
    g = exp_game((1,), profile=profile, staircase_tiles=tiles)
    sarah = g.players[SARAH]
    run_effects(g, {"k": "stair", "p": SARAH, "which": "palace", "steps": 2})
    assert g.pending is not None and g.pending["options"] == ["dinars:2", "water", "keshi:gray"]
    choose(g, "keshi:gray")
    assert sarah.markers["gray"] == 1 and "line_bonus" not in sarah.breakdown


# --- expansion 2: Imam & Sultan ----------------------------------------------------------------------

def test_expansion_2_taking_along_passing_and_handing_on() -> None:
    profile = {**STAIRS, "palace.sultan_step": 3, "palace.final_step": 8,
               **{f"line.{a}.1": ["date"] for a in (2, 3, 4)}}
    g = exp_game((2,), profile=profile, players=3)
    sarah, jan, marie = (g.players[i] for i in (SARAH, JAN, MARIE))
    run_effects(g, {"k": "stair", "p": SARAH, "which": "palace", "steps": 2})
    assert g.s.figures["sultan"]["holder"] is None
    run_effects(g, {"k": "stair", "p": SARAH, "which": "palace", "steps": 1})
    assert g.s.figures["sultan"]["holder"] == SARAH  # reached the sultan's stair
    run_effects(g, {"k": "stair", "p": JAN, "which": "palace", "steps": 3})
    assert g.s.figures["sultan"]["holder"] == SARAH  # drawing level is not enough
    run_effects(g, {"k": "stair", "p": JAN, "which": "palace", "steps": 1})
    assert g.s.figures["sultan"]["holder"] == JAN  # passed
    marie.palace = 2
    run_effects(g, {"k": "stair", "p": JAN, "which": "palace", "steps": 4})
    assert jan.palace == 8 and g.s.figures["sultan"]["holder"] == SARAH  # handed on to the 2nd (Sarah on 3)
    sarah.palace = 2  # now Sarah and Marie tie for 2nd: the sultan waits one stair above them
    g.s.figures["sultan"]["holder"] = JAN
    run_effects(g, {"k": "stair_step", "p": JAN, "which": "palace"})
    assert g.s.figures["sultan"] == {"holder": JAN, "step": None}  # Jan was already on the final space
    jan.palace = 7
    run_effects(g, {"k": "stair_step", "p": JAN, "which": "palace"})
    assert g.s.figures["sultan"] == {"holder": None, "step": 3}


def test_expansion_2_jumping_over_the_stair_takes_the_figure() -> None:
    """Digest A23: passing the figure's stair in one move counts as reaching it."""
    g = exp_game((2,), profile={**STAIRS, "mosque.imam_step": 2, "line.1.2": ["date"]})
    run_effects(g, {"k": "stair", "p": MARIE, "which": "mosque", "steps": 3})
    assert g.s.figures["imam"]["holder"] == MARIE


def test_expansion_2_sultan_one_date_fewer_per_scroll() -> None:
    g = exp_game((2,), scroll_display={"gray": [19, 20, 21], "pink": [43, 44, 45]})
    to_assistants(g, {SARAH: ("gray", "pink", "white")})
    sarah = g.players[SARAH]
    sarah.markers["gray"], sarah.resources["dates"] = 6, 1
    g.s.figures["sultan"]["holder"] = SARAH
    use(g, SARAH, "madrasa", "action", "scroll:45", "scroll:19")
    assert sorted(sarah.scrolls) == [19, 45] and sarah.resources["dates"] == 0  # 2 - 1 and 1 - 1 (floor 0)


def test_expansion_2_imam_any_one_goods_keshi_fewer_per_luxury_good() -> None:
    profile = {"luxury.1.cost": {"purple": 2, "orange": 1}, "luxury.1.reward": {"points": 9},
               "luxury.1.type": "tajine", **{f"luxury.{n}.cost": {"yellow": 3} for n in (2, 3, 4, 5)}}
    g = exp_game((2,), profile=profile, luxury_display=[1, 2, 3, 4, 5])
    to_assistants(g, {SARAH: ("orange", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.goods = {"yellow": 0, "orange": 1, "purple": 1}
    g.s.figures["imam"]["holder"] = SARAH
    use(g, SARAH, "souk", "action", "luxury:1")
    assert sarah.luxury_goods == [1] and sarah.goods == {"yellow": 0, "orange": 0, "purple": 0}


# --- expansion 3: new exchange-office sides ---------------------------------------------------------------

def test_expansion_3_new_office_side_gives_a_resource_and_a_bonus() -> None:
    profile = {"office.4.new.purple": {"resource": "dates", "bonus": "river_step"}, "river.space.1": "plain"}
    g = exp_game((3,), profile=profile, exchange_offices=[4, 1, 2], office_sides=["new", "base", "base"])
    sarah = g.players[SARAH]
    sarah.goods["purple"], sarah.resources["water"] = 1, 0
    run_effects(g, {"k": "office", "p": SARAH, "colour": "purple"})
    assert sarah.resources["dates"] == 2 and sarah.fisherman == 1 and sarah.goods["purple"] == 0


# --- expansion 4: purple audience discs --------------------------------------------------------------------

def test_expansion_4_purple_disc_side_is_asked_separately() -> None:
    g = exp_game((4,), profile={"square.position.water": 0, "disc.section.0": 1}, disc_orientation=[7, 0, 0, 0])
    to_assistants(g, {SARAH: ("pink", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.entertainers = ["water"]
    use(g, SARAH, "main_square", "action")
    assert g.pending is not None and g.pending["key"] == "disc.purple.section.0"
    assert g.pending["options"] == [0, 1, 2, 3, 4] and "purple side" in g.pending["prompt"]


def test_cli_random_game_with_every_expansion_names_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["game", "random", "--players", "3", "--seed", "4", "--expansions", "1,2,3,4,5",
                 "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["expansions"] == [1, 2, 3, 4, 5] and summary["finished"]
    assert json.loads(out.read_text().splitlines()[0])["setup"]["expansions"] == [1, 2, 3, 4, 5]
    assert main(["game", "replay", str(out)]) == 0
    assert "expansions 1, 2, 3, 4, 5" in capsys.readouterr().out.splitlines()[0]
    assert main(["game", "random", "--players", "2", "--seed", "1", "--expansions", "9"]) == 2
    assert "unknown expansion 9" in capsys.readouterr().err
