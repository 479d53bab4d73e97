"""Is there enough data yet? A power analysis for detecting one colour 10 points stickier.

The verdict stays "not enough data yet" until the per-colour binomial test (``colour_tests``) would
catch a colour whose first-pass release rate is ``TARGET_BIAS`` lower than the others' with
probability ``TARGET_POWER``, at the significance level it must reach after the multiple-testing
correction. With one stray colour among ``m`` tests the Benjamini-Hochberg step needs
``p <= ALPHA / m`` (its smallest threshold), so that is the level used. A bias could hide in any
colour, so the power reported is the average over the colours of each colour's power given its own
first-pass trials: the chance of catching a 10-point bias in a colour picked at random. (Requiring
the weakest colour to reach the target instead would make the verdict wait for the luckiest-unlucky
of 12 colours, and no prediction of the toss count would match it.)

A stickier colour is held more often, so fewer of its pieces are tossed in while none of its colour
is held: it gets fewer first-pass trials than a fair colour (about 17 % fewer on B1 for 10 points).
``trial_share`` carries that ratio (``montecarlo.biased_trial_share`` measures it on the fitted tower)
and each colour's power is computed at its trials times that share.

The test compares a colour with the pooled rate, which contains that colour too (a 1/12 share), so a
colour ``d`` below the others sits only ``d * 11/12`` below the pooled rate: that is the effect size.
The power and the sample size come from the normal approximation of the binomial test (Fleiss,
*Statistical Methods for Rates and Proportions*, 2nd ed., sec. 2.5), with the standard library's
``NormalDist`` (SciPy's distributions cost ~50 us a call, and the extrapolation makes hundreds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from scipy import optimize

from companion import COLOURS
from companion.fairness.colour_tests import ALPHA

TARGET_BIAS = 0.10
TARGET_POWER = 0.80
#: With no first-pass trials yet the pooled rate is unknown: 0.5 gives the largest variance,
#: so the sample size it asks for is enough whatever the tower's rate turns out to be.
UNKNOWN_RATE = 0.5
STANDARD_NORMAL = NormalDist()


@dataclass(frozen=True)
class PowerAnalysis:
    """Whether the first-pass trials can detect a ``target_bias`` with ``target_power``."""

    target_bias: float
    target_power: float
    alpha_per_test: float
    reference_rate: float
    trials_needed_per_colour: int
    trial_share: float
    mean_trials_per_colour: float
    weakest_colour: str | None
    weakest_trials: int
    power_now: float
    enough: bool
    tosses_needed: int | None


def effect_size(bias: float, colours: int = len(COLOURS)) -> float:
    """How far a colour ``bias`` below the others sits from the pooled rate that includes it."""
    return bias * (colours - 1) / colours


def _rates(reference: float, bias: float) -> tuple[float, float, float]:
    delta = effect_size(bias)
    p0 = min(max(reference, delta + 1e-6), 1.0 - 1e-6)
    return p0, p0 - delta, delta


def power_at(trials: int, reference: float, bias: float, alpha_per_test: float) -> float:
    """Probability that the two-sided test at ``alpha_per_test`` flags a colour ``bias`` stickier."""
    if trials <= 0:
        return 0.0
    p0, p1, delta = _rates(reference, bias)
    z_alpha = STANDARD_NORMAL.inv_cdf(1 - alpha_per_test / 2)
    z = (delta * math.sqrt(trials) - z_alpha * math.sqrt(p0 * (1 - p0))) / math.sqrt(p1 * (1 - p1))
    return STANDARD_NORMAL.cdf(z)


def trials_needed(reference: float, bias: float, alpha_per_test: float, power: float) -> int:
    """First-pass trials per colour for ``power_at`` to reach ``power``."""
    p0, p1, delta = _rates(reference, bias)
    z_alpha = STANDARD_NORMAL.inv_cdf(1 - alpha_per_test / 2)
    z_beta = STANDARD_NORMAL.inv_cdf(power)
    root = z_alpha * math.sqrt(p0 * (1 - p0)) + z_beta * math.sqrt(p1 * (1 - p1))
    return math.ceil((root / delta) ** 2)


def power_analysis(
    trials_by_colour: dict[str, int],
    reference_rate: float | None,
    tosses: int,
    tests: int = len(COLOURS),
    trial_share: float = 1.0,
) -> PowerAnalysis:
    """The power of ``tests`` corrected tests given each colour's first-pass trials after ``tosses``.

    ``trial_share``: first-pass trials of a colour ``TARGET_BIAS`` stickier per trial of a fair one.

    ``tosses_needed`` extrapolates: if every colour's trials grow in proportion to the tosses, how many
    more tosses bring the power to the target (``scipy.optimize.brentq`` on the growth factor)? None
    before the first trial, when there is nothing to extrapolate from.
    """
    reference = UNKNOWN_RATE if reference_rate is None else reference_rate
    alpha_per_test = ALPHA / max(tests, 1)
    needed = trials_needed(reference, TARGET_BIAS, alpha_per_test, TARGET_POWER)
    trials = [int(trials_by_colour.get(c, 0)) for c in COLOURS]
    mean_trials = sum(trials) / len(COLOURS)
    power_now = _mean_power(trials, 1.0, reference, alpha_per_test, trial_share)
    enough = power_now >= TARGET_POWER
    tosses_needed: int | None = 0 if enough else None
    if not enough and mean_trials > 0:
        # a colour not tossed yet is assumed to come up as often as the average colour from now on
        expected = [n if n > 0 else mean_trials for n in trials]
        ceiling = 2.0
        while _mean_power(expected, ceiling, reference, alpha_per_test, trial_share) < TARGET_POWER:
            ceiling *= 2.0
        growth = optimize.brentq(
            lambda g: _mean_power(expected, g, reference, alpha_per_test, trial_share) - TARGET_POWER,
            1.0, ceiling, xtol=1e-3,
        )
        tosses_needed = max(1, math.ceil(growth * tosses) - tosses)
    weakest = COLOURS[trials.index(min(trials))]
    return PowerAnalysis(
        target_bias=TARGET_BIAS,
        target_power=TARGET_POWER,
        alpha_per_test=alpha_per_test,
        reference_rate=reference,
        trials_needed_per_colour=needed,
        trial_share=trial_share,
        mean_trials_per_colour=mean_trials,
        weakest_colour=weakest if tosses else None,
        weakest_trials=min(trials),
        power_now=power_now,
        enough=enough,
        tosses_needed=tosses_needed,
    )


def _mean_power(
    trials: list[int] | list[float], growth: float, reference: float, alpha_per_test: float, trial_share: float
) -> float:
    """Mean over colours of the power with each colour's trials times ``growth`` and ``trial_share``."""
    powers = [power_at(int(n * growth * trial_share), reference, TARGET_BIAS, alpha_per_test) for n in trials]
    return sum(powers) / len(powers)
