"""The change monitor: a colour dented part-way is found, with the toss where the change began."""

from __future__ import annotations

import numpy as np
import pytest

from companion import COLOURS
from companion.fairness.change import _first_alarm, change_alarms, describe, threshold
from companion.fairness.sequential import look_points
from companion.fairness.study_tower import StudyTower, game_index, play


def session(tower: StudyTower, tosses: int, seed: int) -> tuple[np.ndarray, ...]:
    grids = play(tower, 1, tosses, np.random.default_rng(seed), np.array([COLOURS.index("red")]))
    return tuple(a[0].astype(np.int64) for a in (grids.held_before, grids.pieces_in, grids.pieces_out))


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
