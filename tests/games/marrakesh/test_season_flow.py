"""Turn order across rounds and seasons, the tower's hidden contents, and the 4-player placeholder rule."""

from __future__ import annotations

import random

import pytest

from companion import COLOURS
from companion.games.marrakesh import Choose, Game, IllegalSelection, Release, Select, SetupError, SetupOptions
from companion.games.marrakesh.simulate import DEFAULT_NAMES, RandomPlayer
from companion.tower.model import SimulatedTower, TowerParams
from tests.games.marrakesh.helpers import JAN, LUKAS, MARIE, SARAH, new_game, run_effects, select_all


@pytest.mark.parametrize(("players", "expected"), [
    (4, [0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1]),
    (3, [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]),
    (2, [0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1]),
])
def test_start_players_per_round(players: int, expected: list[int]) -> None:
    """Camel passes left each round; the season tracker passes left each season and takes the camel
    (EN:L1192-1198, L1306-1312; digest §5)."""
    rng = random.Random(5)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:players], seed=3, start_player=0))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(), rng))
    seen: dict[tuple[int, int], int] = {}
    while not game.finished:
        if game.phase == "select":
            seen.setdefault((game.season, game.round), game.start_player)
        game.apply(player.action(game))
    assert [seen[(s, r)] for s in (1, 2, 3) for r in (1, 2, 3, 4)] == expected


def test_tower_hides_tossed_minus_released() -> None:
    """The tower keeps what it did not release, across rounds (EN:L604-614)."""
    g = new_game()
    select_all(g, {SARAH: ("green", "gray", "white"), JAN: ("green", "black", "pink")})
    tossed = dict(g.s.tossed_total)
    assert sum(tossed.values()) == 12 and g.s.tower_inside == tossed
    g.apply(Release({"green": 1}))
    assert g.s.tower_inside["green"] == 1 and g.s.display["green"] == 1
    assert g.to_dict()["tower"]["inside"]["green"] == 1


def test_placeholder_for_the_leader_when_the_supply_is_short() -> None:
    """4 players, 3 pink keshis stuck in the tower: the leader gets a cardboard placeholder
    (EN:L1317-1330), may not select pink, and swaps it once a wooden pink is in the supply."""
    g = new_game()
    s = g.s
    for p in g.players:  # end of season 1: screens are empty
        p.screen = {c: 0 for c in COLOURS}
    for c in COLOURS:
        s.supply[c] += 4
    s.supply["pink"] -= 3
    s.tower_inside["pink"] = s.tossed_total["pink"] = 3
    g.players[MARIE].score = 30
    s.round, s.phase = 4, "season_end"
    g._run()
    assert s.season == 2 and s.phase == "select"
    assert g.players[MARIE].placeholders == ["pink"] and g.players[MARIE].screen["pink"] == 0
    assert all(g.players[i].screen["pink"] == 1 for i in (SARAH, JAN, LUKAS)) and s.supply["pink"] == 0
    with pytest.raises(IllegalSelection, match="placeholder"):
        g.apply(Select(MARIE, ("pink", "gray", "white")))
    s.supply["pink"] = 1  # a pink keshi came back to the supply during the round
    run_effects(g, {"k": "placeholder_swap", "p": MARIE})
    assert g.players[MARIE].placeholders == [] and g.players[MARIE].screen["pink"] == 1


def test_setup_validates_table_draws() -> None:
    with pytest.raises(SetupError, match="2-4 players"):
        Game.new(SetupOptions(players=("Solo",)))
    with pytest.raises(SetupError, match="river tile 3 does not belong to season 1"):
        Game.new(SetupOptions(players=("A", "B"), draws={"river_tiles": [3, 3, 5]}))
    with pytest.raises(SetupError, match="river_oases must list 3 distinct leftover oases"):
        Game.new(SetupOptions(players=("A", "B"), draws={"river_tiles": [2, 3, 5], "river_oases": [1, 1, 2]}))
    with pytest.raises(SetupError, match="oases must be distinct"):
        Game.new(SetupOptions(players=("A", "B"), draws={"oases": [[1, 2, 3, 4, 5, 6], [6, 7, 8, 9, 10, 11]]}))
    game = Game.new(SetupOptions(players=("A", "B"), draws={"river_tiles": [1, 3, 5], "storage_keshis": [
        ["green", "gray", "white"], ["black", "red", "pink"]]}))
    assert game.s.river_tiles == [1, 3, 5] and game.players[1].storage_keshis == ["black", "red", "pink"]


def test_timing_hooks_call_end_of_round_and_end_of_season_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The activation-timing hook points (EN:L1078-1090): a tile registered with an end-of-round or
    end-of-season timing runs at each of those moments, instant ones only on acquiring."""
    from companion.games.marrakesh import tiles

    calls: list[tuple[str, int]] = []

    def hook(name: str) -> tiles.TileEffect:
        def run(seat: int) -> list[dict[str, object]]:
            calls.append((name, seat))
            return [{"k": "points", "p": seat, "cat": "scrolls", "n": 1}]
        return tiles.TileEffect(900 if name == "round" else 901, "end_of_round" if name == "round"
                                else "end_of_season", run, name)

    monkeypatch.setitem(tiles.SCROLL_EFFECTS, 900, hook("round"))
    monkeypatch.setitem(tiles.SCROLL_EFFECTS, 901, hook("season"))
    rng = random.Random(1)
    game = Game.new(SetupOptions(players=("A", "B"), seed=2, start_player=0))
    game.players[0].scrolls += [900, 901]
    assert tiles.SCROLL_EFFECTS[900].on_acquire(0) == []
    player = RandomPlayer(rng, SimulatedTower(TowerParams(), rng))
    while not game.finished:
        game.apply(player.action(game))
    assert calls.count(("round", 0)) == 12 and calls.count(("season", 0)) == 3
    assert all(seat == 0 for _, seat in calls)


def test_placeholder_swap_for_any_missing_colour_after_round_3() -> None:
    """Still holding the placeholder at the end of round 3: swap it for any colour no longer behind
    the screen, or keep it (EN:L1326-1330)."""
    g = new_game()
    marie = g.players[MARIE]
    marie.placeholders = ["pink"]
    marie.screen = {c: 0 for c in COLOURS}
    marie.screen.update({"gray": 1, "white": 1})
    g.s.supply["pink"] = 0
    g.s.round = 3
    run_effects(g, {"k": "placeholder_swap", "p": MARIE})
    assert g.pending is not None and "gray" not in g.pending["options"] and "keep" in g.pending["options"]
    g.apply(Choose(MARIE, "black"))
    assert marie.placeholders == [] and marie.screen["black"] == 1
