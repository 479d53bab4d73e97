"""Against the simulated tower: false alarms on a fair tower, and when a 10-point bias gets flagged.

These run the report's own screening steps (first-pass counts, step-down binomial tests with one
Benjamini-Hochberg correction, the power analysis) on many simulated sessions. The power analysis
predicts, from a pilot log of ``PILOT_TOSSES`` tosses (what the report says after about ten games),
how many tosses the table needs; the tests then play whole sessions of that length.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from companion import COLOURS
from companion.fairness.colour_tests import chi_square, first_pass_counts, robust_tests
from companion.fairness.montecarlo import SessionGrids, biased_trial_share, simulate_sessions
from companion.fairness.power import TARGET_BIAS, TARGET_POWER, PowerAnalysis, power_analysis
from companion.fairness.report import build_report
from companion.tower.model import TowerParams
from tests.fairness.conftest import toss_data

PILOT_TOSSES = 120


def power_of(grids: SessionGrids, session: int, share: float) -> PowerAnalysis:
    """The power analysis of one session, as ``build_report`` runs it (pooled first-pass rate)."""
    releases, trials = first_pass_counts(grids.pieces_in[session], grids.pieces_out[session],
                                         grids.held_before[session])
    reference = float(releases.sum() / trials.sum())
    return power_analysis(dict(zip(COLOURS, trials.tolist(), strict=True)), reference,
                          grids.pieces_in.shape[1], trial_share=share)


def flagged(grids: SessionGrids, session: int) -> list[str]:
    """The colours ``build_report`` would flag for this session."""
    counts = first_pass_counts(grids.pieces_in[session], grids.pieces_out[session], grids.held_before[session])
    return robust_tests({"layer": counts})["layer"].flagged


def predicted_tosses(layer: str) -> tuple[int, float]:
    """The toss count the power analysis predicts from a fair pilot log, and the trial share it used."""
    params = TowerParams(layer=layer)
    share = biased_trial_share(params.release_new("red"), params.release_held("red"), TARGET_BIAS,
                               np.random.default_rng(1))
    pilot = simulate_sessions(params, 1, PILOT_TOSSES, np.random.default_rng(2))
    power = power_of(pilot, 0, share)
    assert not power.enough and power.tosses_needed is not None
    return PILOT_TOSSES + power.tosses_needed, share


@pytest.mark.parametrize(("layer", "sessions"), [("B1", 400), ("B2", 250)])
def test_fair_tower_false_alarms_stay_at_or_below_5_percent(layer: str, sessions: int) -> None:
    tosses, share = predicted_tosses(layer)
    grids = simulate_sessions(TowerParams(layer=layer), sessions, tosses, np.random.default_rng(3))
    alarms = sum(bool(flagged(grids, s)) for s in range(sessions))
    assert alarms / sessions <= 0.05
    # the analysis agrees with its own prediction: about the target power at the predicted count
    mean_power = np.mean([power_of(grids, s, share).power_now for s in range(sessions)])
    assert mean_power == pytest.approx(TARGET_POWER, abs=0.06)


def test_verdict_waits_until_the_predicted_count_and_not_much_longer() -> None:
    tosses, share = predicted_tosses("B1")
    params = TowerParams(layer="B1")
    early = simulate_sessions(params, 100, tosses // 2, np.random.default_rng(6))
    late = simulate_sessions(params, 100, 2 * tosses, np.random.default_rng(7))
    assert not any(power_of(early, s, share).enough for s in range(100))
    assert all(power_of(late, s, share).enough for s in range(100))


@pytest.mark.parametrize(("layer", "lengths"), [("B1", (1 / 3, 1, 2)), ("B2", (1,))])
def test_a_colour_10_points_stickier_is_flagged_after_the_predicted_tosses(
    layer: str, lengths: tuple[float, ...]
) -> None:
    tosses, _ = predicted_tosses(layer)
    params = TowerParams(layer=layer, bias={"red": TARGET_BIAS})
    sessions = 100
    red_rate: dict[float, float] = {}
    for factor in lengths:
        grids = simulate_sessions(params, sessions, int(tosses * factor), np.random.default_rng(4))
        results = [flagged(grids, s) for s in range(sessions)]
        red_rate[factor] = sum("red" in colours for colours in results) / sessions
        if factor == 1:
            others = sum(any(c != "red" for c in colours) for colours in results) / sessions
    # the power analysis aims at 80 % at the predicted count
    assert red_rate[1] >= 0.65
    assert others <= 0.1
    if 1 / 3 in red_rate:
        assert red_rate[1 / 3] <= 0.4  # a third of the tosses is far too few
        assert red_rate[2] >= 0.95  # twice as many is plenty


def test_screen_here_is_what_build_report_flags() -> None:
    """The screening above composes the same steps as ``build_report`` (so its error rates are the report's)."""
    grids = simulate_sessions(TowerParams(layer="B1", bias={"red": TARGET_BIAS}), 3, 700, np.random.default_rng(9))
    for session in range(3):
        report = build_report(toss_data(grids, session))
        assert [c for c, s in report.colours.items() if s.flagged] == flagged(grids, session)


def test_why_first_pass_trials_all_exposures_would_raise_false_alarms() -> None:
    """The design decision behind ``colour_tests``: on a fair tower, a chi-square test over *all*
    exposures (held pieces re-exposed toss after toss) rejects far more often than 5 %, while the same
    test over first-pass trials holds its level."""
    grids = simulate_sessions(TowerParams(layer="B1"), 200, 600, np.random.default_rng(12))
    all_exposures = first_pass = 0
    for s in range(200):
        released = grids.pieces_out[s].sum(axis=0)
        exposed = (grids.pieces_in[s] + grids.held_before[s]).sum(axis=0)
        table = np.stack([released, exposed - released], axis=1)
        all_exposures += stats.chi2_contingency(table, correction=False).pvalue < 0.05
        releases, trials = first_pass_counts(grids.pieces_in[s], grids.pieces_out[s], grids.held_before[s])
        result = chi_square(releases, trials)
        first_pass += result is not None and result.p_value < 0.05
    assert all_exposures / 200 > 0.15
    assert first_pass / 200 <= 0.08
