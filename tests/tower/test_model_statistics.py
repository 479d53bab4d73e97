"""The simulated tower over 10,000 tosses: measured release and retention rates match the model.

Each check is a binomial proportion against its configured probability, accepted within a 99.9 %
normal confidence interval (z = 3.29), so a correct model fails about once in a thousand runs per
check and the fixed seeds make the run reproducible.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

from companion import COLOURS
from companion.tower.model import SimulatedTower, TowerParams
from firmware.simulated import FIRST_DROP_MS, MIN_GAP_MS, drop_times_ms

TOSSES = 10_000
Z_999 = 3.29


def within_ci(successes: int, trials: int, p: float) -> bool:
    half_width = Z_999 * math.sqrt(p * (1 - p) / trials)
    return abs(successes / trials - p) <= half_width


def run(params: TowerParams, seed: int) -> dict[str, dict[str, list[int]]]:
    """Per colour: [released, tossed] of new pieces and [released, held] of held pieces."""
    rng = random.Random(seed)
    tower = SimulatedTower(params, rng)
    tally = {c: {"new": [0, 0], "held": [0, 0]} for c in COLOURS}
    for _ in range(TOSSES):
        handful = dict.fromkeys(COLOURS, 0)
        for colour in rng.choices(COLOURS, k=rng.randint(6, 12)):
            handful[colour] += 1
        outcome = tower.toss(handful)
        for c in COLOURS:
            tally[c]["new"][0] += outcome.released_new[c]
            tally[c]["new"][1] += handful[c]
            tally[c]["held"][0] += outcome.released_held[c]
            tally[c]["held"][1] += outcome.held_before[c]
            assert outcome.held_after[c] == outcome.held_before[c] + handful[c] - outcome.released[c]
    return tally


@pytest.mark.parametrize("layer", ["B1", "B2"])
def test_release_and_retention_rates_match_the_layer(layer: str) -> None:
    params = TowerParams(layer=layer)
    tally = run(params, seed=2023)
    new_released = sum(t["new"][0] for t in tally.values())
    new_tossed = sum(t["new"][1] for t in tally.values())
    held_released = sum(t["held"][0] for t in tally.values())
    held_before = sum(t["held"][1] for t in tally.values())
    p_new, p_held = params.release_new("red"), params.release_held("red")
    assert within_ci(new_released, new_tossed, p_new)
    assert within_ci(new_tossed - new_released, new_tossed, 1 - p_new)  # retention of new pieces
    assert within_ci(held_released, held_before, p_held)
    assert held_before > 10_000  # enough held pieces for the interval to mean something


def test_a_biased_colour_is_retained_more_and_the_others_are_not() -> None:
    params = TowerParams(layer="B1", bias={"red": 0.15})
    tally = run(params, seed=7)
    red = tally["red"]
    assert within_ci(red["new"][0], red["new"][1], params.release_new("red"))
    assert within_ci(red["held"][0], red["held"][1], params.release_held("red"))
    base_new = params.release_new("white")
    assert not within_ci(red["new"][0], red["new"][1], base_new)  # the bias is visible
    for colour in ("white", "black", "turquoise"):
        assert within_ci(tally[colour]["new"][0], tally[colour]["new"][1], base_new)


def test_drop_times_are_plausible_for_a_20_cm_tower() -> None:
    rng = random.Random(5)
    for n in range(1, 40):
        times = drop_times_ms(n, rng)
        assert len(times) == n
        assert FIRST_DROP_MS <= times[0] <= FIRST_DROP_MS + 60
        assert all(later - earlier >= MIN_GAP_MS - 1e-6 for earlier, later in itertools.pairwise(times))
