"""The tower's memory: fit the two-rate model (p_new, p_held) by maximum likelihood, with intervals.

A newly tossed piece falls straight through with ``p_new``; a piece already held is shaken loose with
``p_held``. For one colour in one toss, with ``b`` pieces held before and ``i`` tossed in, the pieces
out ``o`` are the sum of two binomials, so the likelihood is their convolution::

    P(o | b, i) = sum_k Binom(k; b, p_held) * Binom(o - k; i, p_new)

The held counts come from the record (inferred contents before the toss); the tosses are
conditionally independent given them, so the log-likelihood is a sum over (toss, colour) cells.
Cells repeat a lot (counts are small), so the fit works on the distinct (b, i, o) triples with their
multiplicities: 100,000 tosses become a few hundred terms.

The fit runs on the logit scale (``scipy.optimize.minimize``, Powell's method); intervals are Wald intervals from the
observed Fisher information there (``scipy.differentiate.hessian``), mapped back, so they stay inside
(0, 1). Cells where nothing could move (no held and nothing tossed) carry no information and are
dropped; a rate with no cells to inform it is reported as unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import optimize, special, stats
from scipy.differentiate import hessian

Z_95 = float(stats.norm.isf(0.025))


@dataclass(frozen=True)
class RateFit:
    """One fitted rate with its 95 % interval; None when the data cannot inform it."""

    estimate: float | None
    interval: tuple[float, float]


@dataclass(frozen=True)
class TwoRateFit:
    """The fitted tower memory for one set of (toss, colour) cells."""

    p_new: RateFit
    p_held: RateFit
    cells: int
    log_likelihood: float | None


@dataclass(frozen=True)
class Cells:
    """Distinct (held, tossed, out) triples and how often each occurs."""

    held: npt.NDArray[np.int64]
    tossed: npt.NDArray[np.int64]
    out: npt.NDArray[np.int64]
    weight: npt.NDArray[np.int64]


#: Count arrays of any integer type (the loader keeps counts as 16-bit integers to save memory).
Counts = npt.NDArray[np.integer[Any]]


def cells(held: Counts, tossed: Counts, out: Counts) -> Cells:
    """Collapse same-shaped count arrays into distinct informative triples with multiplicities."""
    return _cells_from_keys(*_keys(held, tossed, out))


def cells_by_colour(held: Counts, tossed: Counts, out: Counts) -> tuple[Cells, list[Cells]]:
    """The pooled cells of ``(tosses, colours)`` grids, and each colour's (column's) own cells.

    Column by column, so a million tosses never need a million-by-12 array of keys.
    """
    base = int(max(held.max(initial=0), tossed.max(initial=0), out.max(initial=0))) + 1
    counts = [
        np.bincount(((held[:, c].astype(np.int64) * base + tossed[:, c]) * base + out[:, c]).ravel(), minlength=1)
        for c in range(held.shape[1])
    ]
    total = np.zeros(max((len(k) for k in counts), default=1), dtype=np.int64)
    for k in counts:
        total[: len(k)] += k
    return _cells_from_counts(total, base), [_cells_from_counts(k, base) for k in counts]


def _keys(held: Counts, tossed: Counts, out: Counts) -> tuple[npt.NDArray[np.int64], int]:
    """One integer per (held, tossed, out) triple, in base ``max count + 1``."""
    base = int(max(held.max(initial=0), tossed.max(initial=0), out.max(initial=0))) + 1
    return (held.astype(np.int64) * base + tossed) * base + out, base


def _cells_from_keys(keys: npt.NDArray[np.int64], base: int) -> Cells:
    # counts are small, so counting keys beats sorting them
    return _cells_from_counts(np.bincount(keys.ravel(), minlength=1), base)


def _cells_from_counts(counts: npt.NDArray[np.int64], base: int) -> Cells:
    # key 0 is "nothing held, nothing tossed" (then nothing can come out): no information, dropped
    counts = counts.copy()
    counts[0] = 0
    present = np.flatnonzero(counts)
    return Cells(present // (base * base), (present // base) % base, present % base,
                 counts[present].astype(np.int64))


def log_likelihood(c: Cells, p_new: float, p_held: float) -> float:
    """The convolution log-likelihood of the cells at (p_new, p_held)."""
    return _Convolution(c)(p_new, p_held)


class _Convolution:
    """The log-likelihood with its binomial coefficients precomputed, as the optimiser calls it often.

    Row ``j``, column ``k`` is the term "k of the held pieces fell, the rest of the out ones were
    new"; impossible terms have a log-coefficient of -inf, so they vanish in the sum.
    """

    def __init__(self, c: Cells) -> None:
        k = np.arange(int(c.held.max()) + 1 if c.held.size else 1, dtype=np.float64)[None, :]
        held, tossed, out = (a[:, None].astype(np.float64) for a in (c.held, c.tossed, c.out))
        new = out - k
        possible = (k <= held) & (new >= 0) & (new <= tossed)
        with np.errstate(invalid="ignore"):
            log_coef = (
                special.gammaln(held + 1) - special.gammaln(k + 1) - special.gammaln(held - k + 1)
                + special.gammaln(tossed + 1) - special.gammaln(new + 1) - special.gammaln(tossed - new + 1)
            )
        self.log_coef = np.where(possible, log_coef, -np.inf)
        self.k_held = np.where(possible, k, 0.0)
        self.stuck_held = np.where(possible, held - k, 0.0)
        self.k_new = np.where(possible, new, 0.0)
        self.stuck_new = np.where(possible, tossed - new, 0.0)
        self.weight = c.weight.astype(np.float64)

    def __call__(self, p_new: float, p_held: float) -> float:
        return float(self.many(np.array([p_new]), np.array([p_held]))[0])

    def many(self, p_new: npt.NDArray[np.float64], p_held: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The log-likelihood at each of several (p_new, p_held) points (1-D arrays of equal length)."""
        ph, pn = p_held[None, None, :], p_new[None, None, :]
        logs = (
            self.log_coef[..., None]
            + special.xlogy(self.k_held[..., None], ph) + special.xlog1py(self.stuck_held[..., None], -ph)
            + special.xlogy(self.k_new[..., None], pn) + special.xlog1py(self.stuck_new[..., None], -pn)
        )
        per_cell = np.log(np.maximum(np.exp(logs).sum(axis=1), 1e-300))
        return np.asarray(self.weight @ per_cell, dtype=np.float64)


def fit_two_rate(c: Cells, start: tuple[float, float] | None = None) -> TwoRateFit:
    """Maximum-likelihood (p_new, p_held) with Fisher-information intervals on the logit scale.

    ``start`` (p_new, p_held) is where the search begins, e.g. the pooled fit when fitting one colour.
    """
    informs_new = bool(np.any(c.tossed > 0))
    informs_held = bool(np.any(c.held > 0))
    unknown = RateFit(None, (0.0, 1.0))
    if not informs_new and not informs_held:
        return TwoRateFit(unknown, unknown, 0, None)

    likelihood = _Convolution(c)

    def negative(theta: npt.NDArray[np.float64]) -> float:
        return -likelihood(float(special.expit(theta[0])), float(special.expit(theta[1])))

    first = start or (_start_rate(c.out, c.tossed + c.held),) * 2
    theta0 = special.logit(np.clip(np.array(first, dtype=np.float64), 0.01, 0.99))
    # Powell needs no gradient and no BLAS: L-BFGS-B's BLAS calls cost ~4 ms each on a busy machine
    result = optimize.minimize(negative, theta0, method="Powell", bounds=[(-12.0, 12.0)] * 2)
    theta = result.x
    def negative_many(t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        flat = t.reshape(2, -1)
        values = -likelihood.many(special.expit(flat[0]), special.expit(flat[1]))
        return values.reshape(t.shape[1:])

    info = hessian(negative_many, theta, maxiter=1).ddf
    errors = _standard_errors(np.asarray(info, dtype=np.float64))
    fits = []
    for index, informed in enumerate((informs_new, informs_held)):
        se = errors[index]
        if not informed or not np.isfinite(se):
            fits.append(unknown if not informed else RateFit(float(special.expit(theta[index])), (0.0, 1.0)))
            continue
        low, high = special.expit([theta[index] - Z_95 * se, theta[index] + Z_95 * se])
        fits.append(RateFit(float(special.expit(theta[index])), (float(low), float(high))))
    return TwoRateFit(fits[0], fits[1], int(c.weight.sum()), float(-result.fun))


def _start_rate(out: npt.NDArray[np.int64], exposed: npt.NDArray[np.int64]) -> float:
    total = int(exposed.sum())
    return min(max(int(out.sum()) / total if total else 0.5, 0.05), 0.95)


def _standard_errors(information: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Square roots of the inverse information's diagonal; inf where the information is singular."""
    try:
        covariance = np.linalg.inv(information)
    except np.linalg.LinAlgError:
        return np.full(information.shape[0], np.inf)
    diagonal = np.diag(covariance)
    return np.where(diagonal > 0, np.sqrt(np.abs(diagonal)), np.inf)

