"""The tower's two rates by their first moment: intervals that hold when pieces are not independent.

Given what a toss finds in the tower, the pieces out of one colour average ``E[out] = tossed * p_new +
held * p_held`` whatever ties the pieces of a toss together (they may stick or fall as one, or a
fuller tower may behave differently): only each piece's own chance enters a mean. So the rates
solve the linear estimating equations ``sum x (out - x' theta) = 0`` with ``x = (tossed, held)`` and
``theta = (p_new, p_held)`` — least squares over the (toss, colour) cells, computed on the distinct
cells with their counts. The full two-rate likelihood (``two_rate``) is more efficient when pieces
really are independent, but under within-toss dependence its estimates drift (the error-rate study
saw its 95 % intervals cover in well under half the sessions); these do not.

Intervals: the sandwich ``A^-1 B A^-1`` with ``A = sum x x'`` and ``B`` the outer products of the
per-game sums of ``x (out - x' theta)`` (cluster-robust by game, with the factor G / (G - 1)).
``sequential`` sums the log per game and solves the equations; this module turns the sums into
rates with intervals.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from companion.fairness.two_rate import Z_95, RateFit


def robust_rates(
    estimates: tuple[float | None, float | None], information: npt.NDArray[np.float64],
    per_game: npt.NDArray[np.float64],
) -> tuple[RateFit, RateFit]:
    """Both rates with 95 % cluster-robust intervals (clipped to [0, 1]); unknown: interval [0, 1]."""
    games = per_game.shape[0]
    fits = []
    informed = np.flatnonzero(np.diag(information) > 0)
    covariance = np.full((2, 2), np.inf)
    if games >= 2 and informed.size:
        try:  # only the informed rates enter (a colour never held has no p_held)
            bread = np.linalg.inv(information[np.ix_(informed, informed)])
            meat = per_game[:, informed].T @ per_game[:, informed] * games / (games - 1)
            covariance[np.ix_(informed, informed)] = bread @ meat @ bread
        except np.linalg.LinAlgError:
            pass
    for k, estimate in enumerate(estimates):
        if estimate is None:
            fits.append(RateFit(None, (0.0, 1.0)))
            continue
        variance = covariance[k, k]
        if not np.isfinite(variance):
            fits.append(RateFit(estimate, (0.0, 1.0)))
            continue
        half = Z_95 * float(np.sqrt(max(variance, 0.0)))
        fits.append(RateFit(estimate, (max(estimate - half, 0.0), min(estimate + half, 1.0))))
    return fits[0], fits[1]
