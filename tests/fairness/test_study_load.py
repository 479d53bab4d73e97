"""The extended study's coverage-only mode measures the interval the report gives."""

from __future__ import annotations

import numpy as np

from companion.fairness.study import judge
from companion.fairness.study_load import coverage_only, load_interval, tower
from companion.fairness.study_tower import play


def test_the_coverage_shortcut_gives_the_reports_own_interval() -> None:
    """Without judging a session, ``load_interval`` is the interval the report's monitor gives on it,
    to the last bit (so the coverage-only figures are the report's coverage)."""
    grids = play(tower(-0.08), 2, 720, np.random.default_rng(7))
    for session in range(2):
        assert load_interval(grids, session) == judge(grids, session).fill.interval


def test_coverage_only_reports_how_often_the_interval_holds_each_load() -> None:
    """One line per load, with the share of sessions whose interval holds it, over all sessions asked
    for (more than one batch)."""
    lines: list[str] = []
    coverage_only(21, 3, [-0.08], lines.append)
    assert len(lines) == 1
    assert "holds -0.08" in lines[0] and "(21 sessions, seed 3" in lines[0]
    share = float(lines[0].split(": ")[-1].split(" %")[0])
    assert 80 <= share <= 100
