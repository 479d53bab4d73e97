"""The sums every colour test is computed from: the log summed per game, and each colour's score.

The estimating-equation terms of the two-rate model are linear in the rates (``x o - x x' theta``,
``x = (tossed, held)``), so a look, a fit or a variance needs only a few sums per game and colour.
``sequential`` sums the log once (``prepare``: a ``PreparedLog`` per look segment), takes
``GameSums`` over the looks it evaluates and tests each colour's score (``colour_scores``);
``shifted`` builds the ``GameSums`` a shifted colour would give and scores them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats

#: A look with fewer games than this tests nothing (its share of the budget goes unspent): a variance
#: estimated from a handful of games has tails no small-sample reference tames (the error-rate study
#: saw most false alarms at 5-game looks before this rule).
MIN_GAMES = 20


@dataclass(frozen=True)
class PreparedLog:
    """The log reduced to sums, once: per (game, look segment) row and colour, the sums of ``i o``,
    ``b o``, ``i i``, ``i b`` and ``b b`` (``i`` tossed in, ``b`` held, ``o`` out).

    The estimating-equation terms are linear in the rates, ``x o - x x' theta``, so every look, fit
    and variance below is computed from these few numbers per game instead of from the tosses.
    Segment ``j`` holds the tosses after look ``j - 1`` up to look ``j``; the last segment the tosses
    after the latest look.
    """

    tosses: int
    game: npt.NDArray[np.int64]
    segment: npt.NDArray[np.int64]
    products: npt.NDArray[np.float64]


@dataclass(frozen=True)
class GameSums:
    """Per game and colour, over a prefix of the log: ``x o`` (games, 12, 2) and ``x x'`` (games, 12,
    2, 2); and per colour the sums of ``i^3, i^2 b, i b^2, b^3`` (12, 4) for the binomial variance."""

    xo: npt.NDArray[np.float64]
    xx: npt.NDArray[np.float64]
    cubes: npt.NDArray[np.float64]

    @classmethod
    def of(cls, prepared: PreparedLog, upto_segment: int | None = None) -> GameSums:
        """The sums of the segments up to ``upto_segment`` (None: all tosses)."""
        keep = slice(None) if upto_segment is None else prepared.segment <= upto_segment
        codes, game = np.unique(prepared.game[keep], return_inverse=True)
        products = prepared.products[keep]
        summed = np.zeros((codes.shape[0],) + products.shape[1:])
        np.add.at(summed, game, products)
        xo = summed[:, :, 0:2]
        xx = np.stack([np.stack([summed[:, :, 2], summed[:, :, 3]], axis=-1),
                       np.stack([summed[:, :, 3], summed[:, :, 4]], axis=-1)], axis=-2)
        return cls(xo, xx, summed[:, :, 5:9].sum(axis=0))

    def model_variance(self, p_new: float, p_held: float) -> npt.NDArray[np.float64]:
        """Per colour, the variance of its score if pieces were independent binomial trials:
        ``sum x x' (i p_new (1 - p_new) + b p_held (1 - p_held))`` (12, 2, 2)."""
        a, b = p_new * (1 - p_new), p_held * (1 - p_held)
        i3, i2b, ib2, b3 = (self.cubes[:, k] for k in range(4))
        top, middle, bottom = a * i3 + b * i2b, a * i2b + b * ib2, a * ib2 + b * b3
        return np.stack([np.stack([top, middle], axis=-1), np.stack([middle, bottom], axis=-1)], axis=-2)

    @property
    def games(self) -> int:
        """How many games (clusters) the sums run over."""
        return int(self.xo.shape[0])

    def with_colour(self, colour: int, other: GameSums) -> GameSums:
        """These sums with one colour's taken from ``other`` (the same games)."""
        xo, xx, cubes = self.xo.copy(), self.xx.copy(), self.cubes.copy()
        xo[:, colour], xx[:, colour], cubes[colour] = other.xo[:, colour], other.xx[:, colour], other.cubes[colour]
        return GameSums(xo, xx, cubes)

    def rates(self, colours: list[int]) -> tuple[float | None, float | None]:
        """(p_new, p_held) solving the estimating equations over ``colours`` (None: not informed)."""
        a = self.xx[:, colours].sum(axis=(0, 1))
        b = self.xo[:, colours].sum(axis=(0, 1))
        return solve_rates(a, b)


def solve_rates(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> tuple[float | None, float | None]:
    """Solve ``a theta = b`` for (p_new, p_held), clipped to [0, 1]; a rate with no information is None."""
    informed = np.diag(a) > 0
    theta: list[float | None] = [None, None]
    if informed.all() and abs(float(np.linalg.det(a))) > 1e-9 * float(a[0, 0] * a[1, 1]):
        theta = [float(v) for v in np.linalg.solve(a, b)]
    elif informed.any():
        k = int(np.flatnonzero(informed)[0])
        theta[k] = float(b[k] / a[k, k])
    return (None if theta[0] is None else min(max(theta[0], 0.0), 1.0),
            None if theta[1] is None else min(max(theta[1], 0.0), 1.0))


@dataclass(frozen=True)
class ScoreSums:
    """Per colour: score (12, 2), robust variance (12, 2, 2), binomial-model variance (12, 2, 2),
    information (12, 2, 2), and the per-game score of the reference colours together (games, 2)."""

    score: npt.NDArray[np.float64]
    variance: npt.NDArray[np.float64]
    model_variance: npt.NDArray[np.float64]
    information: npt.NDArray[np.float64]
    per_game_total: npt.NDArray[np.float64]

    @property
    def games(self) -> int:
        """How many games (clusters) the sums run over."""
        return int(self.per_game_total.shape[0])


def colour_scores(
    sums: GameSums, p_new: float, p_held: float, excluded: frozenset[int] = frozenset()
) -> ScoreSums:
    """Each colour's estimating-equation score at (p_new, p_held), with its robust variance.

    (p_new, p_held) were fitted on the colours not ``excluded`` (the reference). The reference's
    scores sum to zero there, so part of each colour's score moves with the fit: the per-game score
    ``u_c - A_c A_ref^-1 u_ref`` (A: the information ``sum x x'``) is what varies from game to game.
    """
    theta = np.array([p_new, p_held])
    per_game = sums.xo - sums.xx @ theta  # (games, 12, 2)
    information = sums.xx.sum(axis=0)
    score = per_game.sum(axis=0)
    reference = [c for c in range(per_game.shape[1]) if c not in excluded]
    total = per_game[:, reference].sum(axis=1)
    projection = _safe_inverse(information[reference].sum(axis=0))
    games = sums.games
    variance = np.full(information.shape, np.inf)
    if games >= 2:
        residual = per_game - np.einsum("cij,jk,gk->gci", information, projection, total)
        # centred: a stray colour's per-game scores share a non-zero mean, which is the signal,
        # not noise (uncentred, the variance would swallow the very bias it should reveal)
        residual = residual - residual.mean(axis=0)
        variance = np.einsum("gci,gcj->cij", residual, residual) * games / (games - 1)
    # the same under the binomial model (colours independent given the tower's contents)
    own = sums.model_variance(p_new, p_held)
    shared = own[reference].sum(axis=0)
    moved = information @ projection  # A_c A_ref^-1, (12, 2, 2)
    spread = moved @ shared @ moved.transpose(0, 2, 1)
    in_reference = np.isin(np.arange(own.shape[0]), reference)[:, None, None]
    cross = moved @ own + own @ moved.transpose(0, 2, 1)
    model = own + spread - np.where(in_reference, cross, 0.0)
    return ScoreSums(score, variance, model, information, total)


def _safe_inverse(matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    try:
        return np.asarray(np.linalg.inv(matrix), dtype=np.float64)
    except np.linalg.LinAlgError:
        return np.asarray(np.linalg.pinv(matrix), dtype=np.float64)


def quadratic_form(score: npt.NDArray[np.float64], variance: npt.NDArray[np.float64]) -> tuple[float, int]:
    """``U' V^+ U`` and the rank of ``V`` (directions with no variance carry no test)."""
    if not np.isfinite(variance).all():
        return 0.0, 0
    values, vectors = np.linalg.eigh(variance)
    keep = values > 1e-9 * max(float(values.max()), 1e-300)
    if not keep.any():
        return 0.0, 0
    projected = vectors[:, keep].T @ score
    return float(np.sum(projected**2 / values[keep])), int(keep.sum())


def robust_p_value(statistic: float, df: int, games: int) -> float:
    """The p-value of a cluster-robust score statistic over ``games`` clusters.

    The robust variance is itself estimated from ``games`` per-game sums, so the statistic has
    heavier tails than chi-square when games are few; Hotelling's small-sample reference
    ``F(df, games - df)`` after scaling by ``(games - df) / (df (games - 1))`` accounts for it (and
    tends to the chi-square as games grow).
    """
    scaled = statistic * (games - df) / (df * (games - 1))
    return float(stats.f.sf(scaled, df, games - df))
