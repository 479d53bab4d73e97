"""All-exposure release rates: intervals widened by the design effect cover the true rate."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from companion.fairness.colour_tests import rate_estimate
from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.release_rates import clusters, design_effects, release_rates
from companion.tower.model import TowerParams
from tests.fairness.conftest import toss_data


def test_interval_with_a_design_effect_is_wilson_at_the_effective_sample_size() -> None:
    estimate = rate_estimate(300, 400, design_effect=2.0)
    reference = stats.binomtest(150, 200).proportion_ci(method="wilson")
    assert estimate.rate == 0.75 and estimate.interval == pytest.approx((reference.low, reference.high))


def test_independent_clusters_have_no_design_effect_to_speak_of() -> None:
    rng = np.random.default_rng(3)
    exposed = np.full((4000, 1), 5)
    out = rng.binomial(exposed, 0.6)
    effect = design_effects(out, exposed, np.arange(4000))[0]
    assert effect == pytest.approx(1.0, abs=0.1)


def test_design_effect_corrected_intervals_cover_the_true_rate() -> None:
    params = TowerParams(layer="B1")
    long_run = simulate_sessions(params, 2, 30_000, np.random.default_rng(30))
    truth = long_run.pieces_out.sum() / (long_run.pieces_in + long_run.held_before).sum()
    sessions = simulate_sessions(params, 150, 600, np.random.default_rng(31))
    covered = plain = 0
    effects = []
    for s in range(150):
        data = toss_data(sessions, s)
        for estimate in release_rates(data).values():
            covered += estimate.interval[0] < truth < estimate.interval[1]
            effects.append(estimate.design_effect)
            ci = stats.binomtest(estimate.successes, estimate.trials).proportion_ci(method="wilson")
            plain += ci.low < truth < ci.high
    assert plain / 1800 < 0.91  # plain Wilson over all exposures is too narrow
    assert covered / 1800 >= 0.92
    assert np.mean(effects) > 1.2


def test_clusters_are_games_then_sessions_then_single_tosses() -> None:
    data = toss_data(simulate_sessions(TowerParams(), 1, 5, np.random.default_rng(1)))
    data.game_id[:] = np.array(["g", "g", None, None, None], dtype=object)
    data.session_id[:] = np.array(["s", "s", "s", "s", None], dtype=object)
    codes = clusters(data)
    assert codes[0] == codes[1] and codes[2] == codes[3] and len(set(codes.tolist())) == 3


def test_the_design_effect_sums_each_cluster_whether_its_tosses_come_together_or_not() -> None:
    """Clusters summed run by run: games in one run each, a session's tosses scattered between them
    and tosses of their own give the design effect of the definition (per-cluster sums of every toss)."""
    rng = np.random.default_rng(5)
    cluster = np.concatenate([np.repeat(np.arange(40), 12), np.arange(40, 140)])
    cluster[rng.choice(cluster.shape[0], 60, replace=False)] = 140  # one session's tosses, scattered
    exposed = rng.integers(0, 9, (cluster.shape[0], 3)).astype(np.int16)
    out = rng.binomial(exposed, 0.6 + 0.3 * rng.random((141, 1))[cluster]).astype(np.int16)
    count = 141
    for colour, effect in enumerate(design_effects(out, exposed, cluster)):
        out_g, exposed_g = (np.bincount(cluster, weights=a[:, colour], minlength=count) for a in (out, exposed))
        rate = out_g.sum() / exposed_g.sum()
        robust = count / (count - 1) * np.sum((out_g - rate * exposed_g) ** 2) / exposed_g.sum() ** 2
        assert effect == max(1.0, robust / (rate * (1 - rate) / exposed_g.sum())) and effect > 1.5
