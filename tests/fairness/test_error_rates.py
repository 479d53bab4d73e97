"""The verdict's error rates, in small checks (the full study is ``python -m companion.fairness.study``).

These play a handful of sessions with the product's game model (12-toss games) and with the
independent study tower (48-toss games), and check that ``build_report`` decides exactly what
``monitor.monitor_layer`` decides, that fair logs read at every look stay quiet, that stickiness
in held pieces alone is seen, and that the "about N more tosses" promise comes from the power.
"""

from __future__ import annotations

import numpy as np

from companion import COLOURS
from companion.fairness.monitor import monitor_layer
from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.report import BIAS, NO_BIAS, NOT_ENOUGH, build_report
from companion.fairness.sequential import TARGET_POWER, look_at, look_points
from companion.fairness.study_tower import StudyTower, game_index, play
from companion.tower.model import TowerParams
from tests.fairness.conftest import toss_data

PRODUCT_GAME = 12


def test_fair_logs_stay_quiet_however_often_they_are_read() -> None:
    """Flags never go away and only change at the looks, so one pass over 1,500 tosses covers a
    table that read the report after every game; 40 fair logs should give (almost) none."""
    grids = simulate_sessions(TowerParams(layer="B1"), 40, 1500, np.random.default_rng(31))
    game = np.arange(1500) // PRODUCT_GAME
    flagged = [bool(monitor_layer(grids.held_before[s], grids.pieces_in[s], grids.pieces_out[s], game).flagged)
               for s in range(40)]
    assert sum(flagged) <= 2


def test_stickiness_in_held_pieces_alone_is_flagged() -> None:
    """The audit's blind spot: red's held pieces are shaken loose 25 points less often, new ones not."""
    tosses = 48 * 60
    grids = play(StudyTower(held_shift=-0.25), 1, tosses, np.random.default_rng(5),
                 np.array([COLOURS.index("red")]))
    held, tossed, out = grids.counts(0)
    monitor = monitor_layer(held, tossed, out, game_index(tosses))
    assert monitor.flagged == {"red": "stickier"}
    score = monitor.tests.flag("red")
    assert score is not None and score.rates == "held pieces"


def test_build_report_flags_what_the_monitor_flags() -> None:
    grids = simulate_sessions(TowerParams(layer="B1", bias={"red": 0.15}), 2, 1200, np.random.default_rng(9))
    for session in range(2):
        report = build_report(toss_data(grids, session))
        monitor = monitor_layer(grids.held_before[session], grids.pieces_in[session], grids.pieces_out[session],
                                np.arange(1200) // PRODUCT_GAME)
        assert {c for c, s in report.colours.items() if s.flagged} == set(monitor.flagged) == {"red"}
        assert report.verdict == BIAS and "red" in report.detail and "however often" in report.detail


def test_the_verdict_waits_for_the_promised_count_and_then_says_no_bias() -> None:
    grids = simulate_sessions(TowerParams(layer="B1"), 1, 20_000, np.random.default_rng(12))
    data = toss_data(grids, 0)
    pilot = build_report(data.select(np.arange(20_000) < 300))
    power = pilot.layers["B1"].power
    assert pilot.verdict == NOT_ENOUGH and not power.enough and power.promised_tosses is not None
    assert power.tosses_needed == power.promised_tosses - 300
    assert f"about {power.tosses_needed:,} more tosses" in pilot.detail
    assert power.promised_tosses in [look_at(j) for j in range(30)]  # promises name a look
    # at twice the promise (a pilot of 300 tosses is a rough guide) the claim "would have been caught" holds
    full = build_report(data.select(np.arange(20_000) < min(2 * power.promised_tosses, 20_000)))
    assert full.layers["B1"].power.power_now >= TARGET_POWER and full.verdict == NO_BIAS
    assert "would have been caught with at least 80 %" in full.detail


def test_more_tosses_counts_to_the_first_check_where_the_chance_reaches_the_target() -> None:
    """A fair 6,000-toss log between two checks: the chance quoted is the latest check's, and "about N
    more tosses" leads to the first check whose expected chance reaches 80 %, which the detail names."""
    tosses = 6000
    grids = simulate_sessions(TowerParams(layer="B1"), 1, tosses, np.random.default_rng(2026))
    report = build_report(toss_data(grids, 0))
    power = report.layers["B1"].power
    assert report.verdict == NOT_ENOUGH and power.promised_tosses is not None
    assert power.latest_look == look_points(tosses)[-1] < tosses
    assert power.power_by_look[power.latest_look] == power.power_now < TARGET_POWER
    assert all(chance < TARGET_POWER for look, chance in power.power_by_look.items() if look < power.promised_tosses)
    assert power.power_at_promise is not None and power.power_at_promise >= TARGET_POWER
    assert f"{power.power_now:.0%} chance at the latest check ({power.latest_look:,} tosses)" in report.detail
    assert (f"about {power.promised_tosses - tosses:,} more tosses to the check at {power.promised_tosses:,}, "
            f"where the chance should be about {power.power_at_promise:.0%}") in report.detail
