"""The change monitor: a colour dented part-way is found, with the toss where the change began."""

from __future__ import annotations

import numpy as np
import pytest

from companion import COLOURS
from companion.fairness.change import _first_alarm, change_alarms, describe, threshold
from companion.fairness.fill_level import fill_log
from companion.fairness.monitor import look_curves, look_rates
from companion.fairness.sequential import look_points, prepare
from companion.fairness.study_tower import StudyTower, game_index, play


def session(tower: StudyTower, tosses: int, seed: int) -> tuple[np.ndarray, ...]:
    grids = play(tower, 1, tosses, np.random.default_rng(seed), np.array([COLOURS.index("red")]))
    return grids.counts(0)


def test_a_dent_half_way_is_found_with_its_start() -> None:
    held, tossed, out = session(StudyTower(new_shift=-0.3, held_shift=-0.3, shift_from=960), 1920, seed=2)
    alarms = change_alarms(held, tossed, out, game_index(1920), [(0.8, 0.55)] * len(look_points(1920)))
    assert [(a.colour, a.direction) for a in alarms] == [("red", "stickier")]
    [alarm] = alarms
    assert 960 < alarm.alarm_toss <= 1260 and abs(alarm.start_toss - 961) <= 150
    assert describe(alarm).startswith(f"red became stickier from about toss {alarm.start_toss}")


def test_a_fair_tower_whose_pieces_move_together_raises_no_alarm() -> None:
    held, tossed, out = session(StudyTower(cohesion=0.4), 1920, seed=4)
    assert change_alarms(held, tossed, out, game_index(1920), [(0.8, 0.55)] * len(look_points(1920))) == []


def test_the_alarm_starts_after_the_walks_lowest_point() -> None:
    walk = np.cumsum([-1.0, -1.0, -1.0, 5.0, 5.0, 5.0])  # lowest after toss 3, then climbing
    levels = np.full(6, 9.0)
    alarm_toss, start_toss, statistic = _first_alarm(walk, levels)  # type: ignore[misc]
    assert (alarm_toss, start_toss, statistic) == (5, 4, pytest.approx(10.0))
    assert _first_alarm(walk, np.full(6, 100.0)) is None
    assert threshold(np.array([0.0]))[0] < threshold(np.array([10_000.0]))[0]


def test_a_dent_in_a_clogging_tower_is_found_within_600_tosses() -> None:
    """The audit's clogging tower (-0.15 logit per piece held, 12-toss games: late in a game a held
    piece falls a few times in a hundred) with one colour 10 points stickier from toss 312: walked as
    if the colour could be a full 10 points stickier at every toss, the dented colour's walks went
    down, and the dent was found by toss 912 in 0 of 8 of these sessions."""
    tower = StudyTower(p_new=0.78, p_held=0.5, load_logit=-0.15, tosses_per_game=12, preferences=5.0,
                       new_shift=-0.1, held_shift=-0.1, shift_from=312)
    dented = np.arange(8) % len(COLOURS)
    grids = play(tower, 8, 912, np.random.default_rng(6), dented)
    looks = look_points(912)
    found = 0
    for s in range(8):
        held, tossed, out = grids.counts(s)
        game = grids.games()
        curves = look_curves(fill_log(held, tossed, out, game, looks), len(looks))
        alarms = change_alarms(held, tossed, out, game, look_rates(prepare(held, tossed, out, game)), curves)
        found += any(a.colour == COLOURS[dented[s]] and a.direction == "stickier" for a in alarms)
    assert found >= 6


def test_the_alarms_do_not_depend_on_where_the_blocks_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walks and the over-dispersion are formed in one pass, a block at a time, with their sums
    carried from block to block: blocks of 100 tosses give the alarms of one block per look segment,
    statistic and start included. Every toss is recorded twice, so each game's contrasts vary about
    twice as much as single tosses would (an over-dispersion of 2-2.6 from the first look on, which
    scales every step)."""
    held, tossed, out = (np.repeat(a, 2, axis=0) for a in session(
        StudyTower(new_shift=-0.3, held_shift=-0.3, shift_from=480), 960, seed=2))
    game = np.repeat(game_index(960), 2)
    rates = look_rates(prepare(held, tossed, out, game))
    monkeypatch.setattr("companion.fairness.change.BLOCK_ROWS", 1 << 20)
    whole = change_alarms(held, tossed, out, game, rates)
    monkeypatch.setattr("companion.fairness.change.BLOCK_ROWS", 100)
    assert change_alarms(held, tossed, out, game, rates) == whole and whole
