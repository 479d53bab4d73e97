"""B1 versus B2: does the second layer really keep more keshis, and by how much?

Two views, both from what each layer's report already holds:

* first-pass release: the pooled first-pass trials of each layer in a 2 x 2 (fell, stuck) table,
  tested with ``scipy.stats.chi2_contingency``;
* tower memory: the difference of the fitted rates (B2 minus B1) for ``p_new`` and ``p_held``, with a
  95 % interval from the two fits' standard errors (delta method: a logit-scale standard error ``s``
  at rate ``p`` is ``p (1 - p) s`` on the rate scale; the layers' fits are independent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from companion.fairness.two_rate import Z_95, RateFit, TwoRateFit


@dataclass(frozen=True)
class Difference:
    """B2 minus B1 for one fitted rate, with its 95 % interval (None when either fit is unknown)."""

    estimate: float | None
    interval: tuple[float, float] | None


@dataclass(frozen=True)
class LayerComparison:
    """First-pass release rates of both layers, their chi-square test, and the model differences."""

    first_pass_b1: float | None
    first_pass_b2: float | None
    chi_square_statistic: float | None
    p_value: float | None
    p_new_difference: Difference
    p_held_difference: Difference


def compare_layers(
    first_pass: dict[str, tuple[int, int]], models: dict[str, TwoRateFit]
) -> LayerComparison:
    """Compare B1 and B2 from each layer's (first-pass releases, trials) and two-rate fit."""
    (k1, n1), (k2, n2) = first_pass["B1"], first_pass["B2"]
    statistic = p_value = None
    table = np.array([[k1, n1 - k1], [k2, n2 - k2]])
    if n1 and n2 and (table.sum(axis=0) > 0).all():
        result = stats.chi2_contingency(table, correction=False)
        statistic, p_value = float(result.statistic), float(result.pvalue)
    return LayerComparison(
        first_pass_b1=k1 / n1 if n1 else None,
        first_pass_b2=k2 / n2 if n2 else None,
        chi_square_statistic=statistic,
        p_value=p_value,
        p_new_difference=_difference(models["B1"].p_new, models["B2"].p_new),
        p_held_difference=_difference(models["B1"].p_held, models["B2"].p_held),
    )


def _rate_se(fit: RateFit) -> float | None:
    """The rate-scale standard error implied by a logit-scale Wald interval (None if unknown)."""
    low, high = fit.interval
    if fit.estimate is None or not 0.0 < low < high < 1.0:
        return None
    logit_se = float(special.logit(high) - special.logit(low)) / (2 * Z_95)
    return fit.estimate * (1 - fit.estimate) * logit_se


def _difference(b1: RateFit, b2: RateFit) -> Difference:
    se1, se2 = _rate_se(b1), _rate_se(b2)
    if b1.estimate is None or b2.estimate is None or se1 is None or se2 is None:
        return Difference(None, None)
    estimate = b2.estimate - b1.estimate
    half = Z_95 * math.hypot(se1, se2)
    return Difference(estimate, (estimate - half, estimate + half))
