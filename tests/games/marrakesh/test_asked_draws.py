"""Table draws left out at setup are asked as ``draw`` decisions when play first needs them (issue 25):
nothing before the first move, the displays before the first toss, everything else at its first use;
a bad answer is refused and changes nothing; logs written before (every draw entered) replay exactly."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.games.common.decisions import NeedInput
from companion.games.marrakesh import Answer, Choose, Game, IllegalAnswer, Release, SetupError, SetupOptions
from companion.games.marrakesh.asked_draws import staircase_tile
from companion.games.marrakesh.board import STORAGE_KESHI_COLOURS
from companion.games.marrakesh.catalogue import river_tiles_by_season, scroll_tiers
from companion.games.marrakesh.expansion_setup import DESERT_TOWN_DISPLAY
from companion.games.marrakesh.log import read_log
from companion.games.marrakesh.simulate import RandomPlayer
from companion.i18n import use_locale
from companion.tower.model import SimulatedTower, TowerParams
from tests.games.marrakesh.helpers import NAMES, run_effects, select_all

DATA = Path(__file__).parent / "data"
ALL = (1, 2, 3, 4, 5)


def river_tiles(first: int | None = None) -> list[int]:
    """A valid river tile per season (``first`` for season 1 when given)."""
    by_season = river_tiles_by_season()
    return [first if first is not None else by_season[1][0], by_season[2][0], by_season[3][0]]


def table_game(players: int = 2, expansions: tuple[int, ...] = (), edition: str = "essential",
               **draws: Any) -> Game:
    """A real table's game from the wizard: start player and river tiles entered, nothing else."""
    draws.setdefault("river_tiles", river_tiles())
    return Game.new(SetupOptions(players=NAMES[:players], seed=1, start_player=0, draws=draws, table_draws=True,
                                 expansions=expansions, edition=edition))


def answer_draws(game: Game) -> list[dict[str, Any]]:
    """Answer every pending draw with its first option; the draws asked, in order."""
    asked = []
    while game.pending is not None and game.pending["kind"] == "draw":
        asked.append(game.pending)
        game.apply(Answer(game.pending["key"], game.pending["options"][0]))
    return asked


def refused_unchanged(game: Game, value: Any) -> str:
    """Answer the pending draw with ``value``: refused, the game unchanged; the refusal's words."""
    before = game.to_dict()
    with pytest.raises(IllegalAnswer) as refusal:
        game.apply(Answer(game.pending["key"], value))  # type: ignore[index]
    assert game.to_dict() == before
    return str(refusal.value)


def test_only_the_river_tiles_must_be_entered() -> None:
    """The old SetupError path stays for the one draw that decides the setup itself."""
    with pytest.raises(SetupError, match="the table must enter: river_tiles"):
        Game.new(SetupOptions(players=NAMES[:2], table_draws=True, draws={"workshops": None}))
    game = table_game()
    assert game.setup["asked"] == ["exchange_offices", "workshops", "storage_keshis", "provisions",
                                   "first_provisions", "disc_orientation", "scroll_display", "luxury_display"]


@pytest.mark.parametrize(("players", "expansions", "edition"), [
    (2, (), "essential"), (4, (), "essential"), (2, ALL, "essential"), (4, ALL, "essential"), (2, (), "classic"),
    (4, ALL, "classic")])
def test_nothing_before_the_first_move_and_the_displays_before_the_first_toss(
        players: int, expansions: tuple[int, ...], edition: str) -> None:
    game = table_game(players, expansions, edition)
    assert game.pending is None and game.phase == "select"  # 0 questions before the first move
    assert not any(game.s.scroll_display.values()) and game.s.luxury_display == []
    select_all(game, {})
    asked = answer_draws(game)
    towns = DESERT_TOWN_DISPLAY[players] if 5 in expansions else 0
    assert len(asked) == 4 * 3 + 5 + towns  # 3 scrolls of each colour, 5 luxury goods, the desert towns
    assert all(d["player"] is None and d["prompt"].endswith("?") and len(d["options"]) > 1 for d in asked)
    assert game.phase == "toss" and game.pending is None
    assert all(len(tiles) == 3 for tiles in game.s.scroll_display.values()) and len(game.s.luxury_display) == 5
    assert len(game.s.desert_town_display) == towns
    for colour, (first, last, _, _) in scroll_tiers().items():
        assert all(first <= n <= last for n in game.s.scroll_display[colour])


def test_river_tile_02s_leftover_oases_are_asked_before_the_first_toss() -> None:
    game = table_game(river_tiles=river_tiles(2), scroll_display={c: [first, first + 1, first + 2] for c, (
        first, _, _, _) in scroll_tiers().items()}, luxury_display=[1, 2, 3, 4, 5])
    select_all(game, {})
    asked = answer_draws(game)
    assert [d["key"] for d in asked] == ["draw.river_oasis.1", "draw.river_oasis.2", "draw.river_oasis.3"]
    assert game.s.river_oases == [1, 2, 3]


def test_a_bad_display_answer_is_refused_naming_the_possible_ones() -> None:
    game = table_game()
    select_all(game, {})
    assert game.pending is not None and game.pending["key"] == "draw.scroll.gray"
    words = refused_unchanged(game, 999)
    assert "999 is not a possible answer to 'Which gray scroll was revealed?'" in words


def test_the_exchange_office_and_its_side_are_asked_at_the_seasons_first_trade() -> None:
    game = table_game(expansions=(3,))
    game.p(0).goods["yellow"] = 1
    run_effects(game, {"k": "office", "p": 0, "colour": "yellow"})
    assert game.pending is not None and game.pending["key"] == "draw.exchange_office.1"
    assert game.pending["options"] == [1, 2, 3, 4, 5, 6]
    assert "each exchange office is in play for one season only" in refused_unchanged(game, 7)
    game.apply(Answer("draw.exchange_office.1", 4))
    assert game.pending is not None and game.pending["key"] == "draw.office_side.1"
    assert game.pending["prompt"] == "Which side of exchange office #4 is face up?"
    game.apply(Answer("draw.office_side.1", "new"))
    assert game.s.exchange_offices[0] == 4 and game.s.drawn["draw.office_side.1"] == "new"
    assert game.pending is not None and game.pending["key"] == "office.4.new.yellow"  # the printed reward next


def test_a_gate_from_a_workshop_not_entered_is_named_when_taken() -> None:
    game = table_game()
    game.s.workshops[0] = ["red", "red", "red", "?", "?", "?", "?", "?"]
    p = game.p(1)
    p.watchtower, p.resources["dinars"] = 1, 5
    run_effects(game, {"k": "build_gate", "p": 1, "workshop": 1, "colour": "?", "gained": []})
    pending = game.pending
    assert pending is not None and pending["key"] == "draw.city_gate.2.1" and pending["player"] is None
    assert pending["prompt"] == "Which colour is the city gate Jan takes from workshop 2?"
    assert "red" not in pending["options"] and "pink" in pending["options"]  # the bag has 3 red gates
    assert "the bag holds 32 city gates, 2 or 3 of each colour" in refused_unchanged(game, "red")
    game.apply(Answer("draw.city_gate.2.1", "pink"))
    assert game.pending is not None and game.pending["kind"] == "choice" and game.pending["player"] == 1
    assert "pink gate" in game.pending["prompt"]
    assert game.s.workshops[1] == ["?"] * 8  # nothing changes before the player has chosen the space
    game.apply(Choose(1, 3))
    while game.pending is not None and game.pending["kind"] == "question":  # printed values of this test board
        game.apply(Answer(game.pending["key"], game.pending["options"][0]))
    assert game.s.workshops[1] == ["?"] * 7 and p.gates[0]["colour"] == "pink"


def test_a_storage_keshi_not_entered_is_named_when_handed_out() -> None:
    game = table_game(players=2)
    game.p(1).storage_keshis = ["?", "?", "?"]
    game.p(0).storage_keshis = ["pink", "?", "?"]
    run_effects(game, {"k": "storage_keshi", "p": 1})
    pending = game.pending
    assert pending is not None and pending["key"] == "draw.storage_keshi.2.1"
    assert pending["options"] == [c for c in STORAGE_KESHI_COLOURS if c != "pink"]  # one bag for all players
    before = game.to_dict()
    with pytest.raises(IllegalAnswer) as refusal:
        game.apply(Answer("draw.storage_keshi.2.1", "pink"))
    assert game.to_dict() == before
    assert "the storage-track keshis come from one bag with one keshi of each of 8 colours" in str(refusal.value)
    with use_locale("de"):  # the rule in the reader's language
        assert "aus einem Beutel mit je einem Keshi von 8 Farben" in str(refusal.value)
    game.apply(Answer("draw.storage_keshi.2.1", "green"))
    assert game.p(1).storage_keshis == ["?", "?"] and game.p(1).markers["green"] > 0


def test_provision_tiles_are_named_when_turned_up() -> None:
    game = table_game(players=2)
    assert game.p(0).revealed_provisions == [0]
    run_effects(game, {"k": "name_provision", "p": 0})
    assert game.pending is not None and game.pending["key"] == "draw.provision.1.1"
    assert game.pending["prompt"] == "Which provision tile did Sarah turn face up at the start of the game?"
    game.apply(Answer("draw.provision.1.1", 7))
    assert game.p(0).revealed_provisions == [7] and game.p(0).provisions == [7, 0, 0]
    run_effects(game, {"k": "reveal_provision", "p": 1})
    assert game.pending is not None and 7 not in game.pending["options"]  # Sarah holds tile 7
    game.apply(Answer(game.pending["key"], 3))
    assert game.p(1).revealed_provisions == [0, 3] and game.p(1).provisions == [3, 0, 0]


def test_the_audience_disc_is_asked_at_the_first_main_square_action() -> None:
    game = table_game(players=2)
    game.p(0).entertainers = ["dinar"]
    run_effects(game, {"k": "act_main_square", "p": 0})
    assert game.pending is not None and game.pending["key"] == "draw.disc.1"
    assert game.pending["options"] == list(range(8))
    game.apply(Answer("draw.disc.1", 5))
    assert game.p(0).disc_orientation == 6  # turned one section on by the action itself


def test_a_staircase_tile_is_asked_when_a_line_over_it_scores() -> None:
    game = table_game(expansions=(1,))
    assert game.setup["staircase_tiles"][0] == [0, "?"]
    with pytest.raises(NeedInput) as waiting:
        staircase_tile(game, 4)
    decision = waiting.value.decision
    assert decision["kind"] == "draw" and decision["key"] == "draw.staircase_tile.4"
    assert "7A" in decision["options"] and "7B" in decision["options"]
    game.s.drawn["draw.staircase_tile.4"] = "7B"  # the table's answer
    assert staircase_tile(game, 4) == (7, "B")


@pytest.mark.parametrize(("players", "expansions", "edition", "seed"), [
    (2, ALL, "essential", 3), (4, (), "essential", 5), (3, ALL, "classic", 8)])
def test_a_whole_table_game_asks_each_draw_once_and_replays(players: int, expansions: tuple[int, ...],
                                                            edition: str, seed: int) -> None:
    rng = random.Random(seed)
    game = table_game(players, expansions, edition, river_tiles=river_tiles(2))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(), rng))
    kept: list[str] = []
    while not game.finished:
        pending = game.pending
        if pending is not None and pending.get("kept"):
            kept.append(pending["key"])
        game.apply(player.action(game))
    assert len(kept) == len(set(kept)) and set(kept) <= set(game.s.drawn)  # each named once, and remembered
    assert Game.replay(game.setup, game.log).to_dict() == game.to_dict()
    if edition == "classic":  # the storage keshis not named stayed in the supply's count
        assert all(game.wooden_in_play(c) == 25 for c in game.s.supply)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["essential-3p-all-expansions", "classic-2p"])
def test_a_log_saved_before_issue_25_replays_exactly(name: str) -> None:
    """Saved by the engine before this change: every draw entered at setup (``table_draws``)."""
    game = read_log((DATA / f"saved-table-draws-{name}.jsonl").read_text("utf-8"), source=name)
    saved = json.loads((DATA / f"saved-table-draws-{name}.final.json").read_text("utf-8"))
    now = json.loads(json.dumps(game.to_dict(), sort_keys=True))
    assert "asked" not in game.setup and now["drawn"] == {}
    assert {key: now[key] for key in saved} == saved  # every value the old engine had, unchanged
    assert game.finished


def test_a_release_before_the_displays_are_named_is_refused() -> None:
    game = table_game()
    select_all(game, {})
    with pytest.raises(Exception, match="must first answer"):
        game.apply(Release({}))
