"""How full the tower is: its effect on release, colour tests that allow for it, and whether it fits.

A tower may grip harder when it holds more pieces. The log knows how many it holds at each toss
(``h``: the pieces of every colour inside before the toss, tossed minus released so far). The model:
a tossed-in piece falls with ``p_new(h) = expit(a_new + beta h)``, a piece already inside with
``p_held(h) = expit(a_held + beta h)`` — one logit shift ``beta`` per piece held, pooled over colours
and both rates (a property of the tower, not of a colour).

**Why the colour tests need it.** Players favour some colours and throw them at their own moments
of a game (early in a season, say), when the tower holds fewer pieces. With a constant-rate
reference such a colour falls more often than the pooled rate *because the tower was emptier*, and
with enough tosses every favoured or shunned colour gets flagged (the audit: 2–12 colours flagged in
every one of 281 sessions at ``beta = -0.08``). So each colour is tested against the fitted curve
at the fill level of each of its pieces: its score ``sum x (o - i p_new(h) - b p_held(h))`` with
``x = (tossed, held)``, robust by game, projected past the fit of ``(a_new, a_held, beta)`` on the
reference colours (``fill_scores``: the same form as ``score_sums.colour_scores``, so the tests,
their step-down and their error budget are unchanged). Where the slope is not clearly off 0
(``load_matters``: 3 standard errors) the constant rates describe the tower as well, and the tests
use them: they cost a fraction.

**Estimating equations.** ``(a_new, a_held, beta)`` solve ``sum dmu/dtheta (o - mu) = 0`` over all
cells of the reference colours (Gauss-Newton). ``mu`` depends on a toss only through ``h``, so the
fit needs only sums per fill level (``FillLog.levels``, per look segment and colour): a fit at any
look costs microseconds. The interval of ``beta`` is cluster-robust by game (sandwich).

**Does the model describe the tower?** ``misfit`` is a robust score test of the two likeliest ways
out of the model: held pieces feeling the load differently from new ones, and a grip that is not
linear in the fill level on the logit scale (it jams at a certain height, say). A tower that leaves
the model that way is then reported as such, rather than its mismatch being read as colour bias.
Like the tests it is evaluated only at the looks and spends ``ALPHA_FIT / ((j + 1)(j + 2))`` at
look ``j``, and once it finds a misfit it says so from that look on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.fairness.score_sums import MIN_GAMES, ScoreSums, quadratic_form, robust_p_value
from companion.fairness.two_rate import Counts

#: How many standard errors the slope must be from 0 for the tests to use the fill-level curve.
LOAD_Z = 3.0
#: Error budget of the goodness-of-fit check over all looks ever.
ALPHA_FIT = 0.01
Z_95 = 1.959963984540054
_NEWTON_STEPS = 30


@dataclass(frozen=True)
class FillLog:
    """A layer's log prepared for the fill-level model.

    ``level`` is each toss's fill level ``h`` (32-bit: at most 12 ``load.MAX_COUNT``); ``game`` its game
    (0, 1, ... in order of first toss); ``levels[s, h, c]`` the sums of ``i o, b o, i i, i b, b b, o o,
    i^3, i^2 b, i b^2, b^3`` of colour ``c`` over look segment ``s``'s tosses (``sequential.look_points``)
    at fill level ``h``.
    """

    held: Counts
    tossed: Counts
    out: Counts
    level: npt.NDArray[np.int32]
    game: npt.NDArray[np.int64]
    levels: npt.NDArray[np.float64]


@dataclass(frozen=True)
class FillFit:
    """``(a_new, a_held, beta)`` fitted on some colours at some look (``theta``)."""

    theta: npt.NDArray[np.float64]

    def rates(self, level: npt.NDArray[np.floating]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """``p_new`` and ``p_held`` at each fill level of ``level``."""
        shift = self.theta[2] * level
        return _expit(self.theta[0] + shift), _expit(self.theta[1] + shift)


@dataclass(frozen=True)
class FillEffect:
    """The tower's logit shift per piece held, with its 95 % interval, and the model check."""

    beta: float | None
    interval: tuple[float, float] | None
    p_new_empty: float | None
    p_held_empty: float | None
    #: The look (toss count) at which the goodness-of-fit check first found the model wrong (None: never).
    misfit_at: int | None
    #: The check's p-value at the latest look (None before the first look with enough games).
    fit_p_value: float | None

    def new_rate_at(self, pieces: int, beta: float | None = None) -> float | None:
        """How often a tossed-in piece falls with ``pieces`` inside (at ``beta``, else the estimate)."""
        beta = self.beta if beta is None else beta
        if beta is None or self.p_new_empty is None:
            return None
        return float(_expit(_logit(self.p_new_empty) + beta * pieces))


def fill_log(held: Counts, tossed: Counts, out: Counts, game: npt.NDArray[np.int64],
             looks: list[int]) -> FillLog:
    """Prepare a layer's ``(tosses, 12)`` grids (``game`` codes each toss's game; ``looks``: the
    look points reached) for the fits and scores below.

    The grids are put in (segment, fill level) order once, a colour per row (48 MB of 16-bit counts
    per million tosses), so each sum is a run-wise ``add.reduceat`` over contiguous counts; the
    products are formed in 32-bit integers (a count is at most ``load.MAX_COUNT``, so even a cube
    fits) and summed exactly in 64 bits."""
    n = held.shape[0]
    colours = held.shape[1] if held.ndim == 2 else 0
    level = held.sum(axis=1, dtype=np.int32) if n else np.zeros(0, dtype=np.int32)
    game_codes = np.unique(game, return_inverse=True)[1].astype(np.int64) if n else np.zeros(0, dtype=np.int64)
    top = int(level.max()) + 1 if n else 1
    segments = len(looks) + 1
    levels = np.zeros((segments * top, colours, 10))
    if n and colours:
        segment = np.searchsorted(np.array(looks, dtype=np.int64), np.arange(n), side="right")
        key = segment * top + level
        del segment
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        rows = key[starts]
        del key
        # (in 8 bits when every count fits: 12 MB per grid and million tosses instead of 24)
        small = all(int(a.max()) < 256 and int(a.min()) >= 0 for a in (tossed, held, out))
        by_colour = [np.ascontiguousarray(np.take(a, order, axis=0).astype(np.uint8 if small else a.dtype).T)
                     for a in (tossed, held, out)]
        del order
        for c in range(colours):
            i, b, o = (a[c].astype(np.int32) for a in by_colour)
            ii, ib, bb = i * i, i * b, b * b
            for k, (left, right) in enumerate(((i, o), (b, o), (ii, None), (ib, None), (bb, None), (o, o),
                                               (ii, i), (ii, b), (ib, b), (bb, b))):
                weights = left if right is None else left * right
                levels[rows, c, k] = np.add.reduceat(weights, starts, dtype=np.int64)
    return FillLog(held, tossed, out, level, game_codes, levels.reshape(segments, top, colours, 10))


def fit(log: FillLog, upto_segment: int | None, colours: list[int]) -> FillFit | None:
    """``(a_new, a_held, beta)`` on the tosses up to look ``upto_segment`` (None: all) and ``colours``
    (None when there is nothing to fit: no piece, or never a held one)."""
    sums = log.levels[: None if upto_segment is None else upto_segment + 1][:, :, colours].sum(axis=(0, 2))
    io, bo, ii, ib, bb, oo = sums.T[:6]
    h = np.arange(sums.shape[0], dtype=np.float64)
    if ii.sum() <= 0 or bb.sum() <= 0:
        return None

    def squares(theta: npt.NDArray[np.float64]) -> float:
        """The summed squared residual ``sum (o - mu)^2`` the equations minimise."""
        p_new, p_held = FillFit(theta).rates(h)
        return float(np.sum(oo - 2 * (p_new * io + p_held * bo) + p_new**2 * ii + 2 * p_new * p_held * ib
                            + p_held**2 * bb))

    # start at the constant rates of the emptier half of the exposures, beta 0 (in a clogging tower
    # the fuller half releases almost nothing, and constant rates over all would start far off)
    exposed = np.cumsum(ii + bb)
    low = slice(0, int(np.searchsorted(exposed, exposed[-1] / 2)) + 1)
    start = np.linalg.lstsq(np.array([[ii[low].sum(), ib[low].sum()], [ib[low].sum(), bb[low].sum()]]),
                            np.array([io[low].sum(), bo[low].sum()]), rcond=None)[0]
    # (kept off the edges: at a rate of 0 or 1 the curve is flat and Gauss-Newton cannot move it)
    theta = np.array([_logit(min(max(start[0], 0.05), 0.95)), _logit(min(max(start[1], 0.05), 0.95)), 0.0])
    current = squares(theta)
    for _ in range(_NEWTON_STEPS):
        p_new, p_held = FillFit(theta).rates(h)
        d_new, d_held = p_new * (1 - p_new), p_held * (1 - p_held)
        r_new = io - p_new * ii - p_held * ib  # sum i (o - mu) per level
        r_held = bo - p_new * ib - p_held * bb
        g = np.array([d_new @ r_new, d_held @ r_held, h @ (d_new * r_new + d_held * r_held)])
        # Gauss-Newton: sum dmu dmu' per level, dmu = (i d_new, b d_held, h (i d_new + b d_held))
        nn, nh, hh = d_new * d_new * ii, d_new * d_held * ib, d_held * d_held * bb
        m = np.array([
            [nn.sum(), nh.sum(), h @ (nn + nh)],
            [nh.sum(), hh.sum(), h @ (nh + hh)],
            [h @ (nn + nh), h @ (nh + hh), (h * h) @ (nn + 2 * nh + hh)],
        ])
        try:
            step = np.linalg.lstsq(m, g, rcond=1e-12)[0]
        except np.linalg.LinAlgError:
            return None
        step *= min(1.0, 2.0 / max(float(np.abs(step).max()), 1e-300))  # no leap far out of the data
        for _halving in range(30):  # backtrack until the squares fall (or the step is nothing)
            trial = squares(theta + step)
            if trial <= current:
                break
            step /= 2
        theta, current = theta + step, min(current, trial)
        if float(np.abs(step).max()) < 1e-9:
            break
    return FillFit(theta) if np.isfinite(theta).all() else None


def load_matters(log: FillLog, upto_segment: int, colours: list[int]) -> FillFit | None:
    """The fill-level curve of the tosses up to look ``upto_segment`` if its slope is clearly not 0
    (``|beta| >= LOAD_Z`` standard errors, binomial-model variance from the per-level sums), else
    None: the constant rates describe the tower there as well, and their tests cost a fraction.

    The binomial variance is the smaller one when pieces move together, so the curve is taken
    rather too often than too rarely (it is the safe reference: it holds either way)."""
    fitted = fit(log, upto_segment, colours)
    if fitted is None:
        return None
    sums = log.levels[: upto_segment + 1][:, :, colours].sum(axis=(0, 2))
    ii, ib, bb, i3, i2b, ib2, b3 = (sums[:, k] for k in (2, 3, 4, 6, 7, 8, 9))
    h = np.arange(sums.shape[0], dtype=np.float64)
    p_new, p_held = fitted.rates(h)
    d_new, d_held = p_new * (1 - p_new), p_held * (1 - p_held)
    # per level: sum dmu dmu' (M) and sum dmu dmu' v (S), v = i d_new + b d_held (the cell's variance)
    nn, nh, hh = d_new**2 * ii, d_new * d_held * ib, d_held**2 * bb
    vnn = d_new**2 * (d_new * i3 + d_held * i2b)
    vnh = d_new * d_held * (d_new * i2b + d_held * ib2)
    vhh = d_held**2 * (d_new * ib2 + d_held * b3)

    def matrix(a: npt.NDArray[np.float64], c: npt.NDArray[np.float64], e: npt.NDArray[np.float64]) -> npt.NDArray[
            np.float64]:
        return np.array([[a.sum(), c.sum(), h @ (a + c)], [c.sum(), e.sum(), h @ (c + e)],
                         [h @ (a + c), h @ (c + e), (h * h) @ (a + 2 * c + e)]])

    try:
        bread = np.linalg.inv(matrix(nn, nh, hh))
    except np.linalg.LinAlgError:
        return fitted
    variance = float((bread @ matrix(vnn, vnh, vhh) @ bread)[2, 2])
    if variance <= 0 or not math.isfinite(variance):
        return fitted
    return fitted if abs(float(fitted.theta[2])) >= LOAD_Z * math.sqrt(variance) else None


@dataclass(frozen=True)
class _Cells:
    """Per-toss pieces of one colour (single precision) and what the fit expects of them."""

    x: npt.NDArray[np.float32]  # (2, n): tossed, held
    jacobian: npt.NDArray[np.float32]  # (3, n): d mu / d (a_new, a_held, beta)
    residual: npt.NDArray[np.float32]  # (n,): out - mu
    variance: npt.NDArray[np.float32]  # (n,): binomial variance of out


def _cells(log: FillLog, tosses: int, c: int, curve: tuple[npt.NDArray[np.float32], ...]) -> _Cells:
    p_new, p_held, d_new, d_held, level = curve
    i, b, o = (a[:tosses, c].astype(np.float32) for a in (log.tossed, log.held, log.out))
    mu = i * p_new + b * p_held
    slope_new, slope_held = i * d_new, b * d_held
    return _Cells(np.stack([i, b]), np.stack([slope_new, slope_held, level * (slope_new + slope_held)]),
                  o - mu, i * d_new + b * d_held)


def _curve(log: FillLog, tosses: int, fitted: FillFit) -> tuple[npt.NDArray[np.float32], ...]:
    level = log.level[:tosses].astype(np.float32)
    p_new, p_held = (p.astype(np.float32) for p in fitted.rates(level))
    return p_new, p_held, p_new * (1 - p_new), p_held * (1 - p_held), level


def fill_scores(log: FillLog, tosses: int, upto_segment: int, excluded: frozenset[int],
                fitted: FillFit | None = None) -> ScoreSums | None:
    """Each colour's score against the fill-level curve fitted on the colours not ``excluded``, over the
    first ``tosses`` tosses (look ``upto_segment``), in the form ``colour_scores`` gives (None: no fit).

    Per game the colour's score less the part the reference's fit absorbed: ``u_c - D_c M^-1 g`` with
    ``D_c = sum x dmu'`` over the colour's cells, ``M = sum dmu dmu'`` and ``g`` the reference's
    estimating-equation terms; centred, summed as outer products (cluster-robust). The binomial-model
    variance of the same projected score is the floor's (as in ``colour_scores``)."""
    colours = log.held.shape[1]
    reference = [c for c in range(colours) if c not in excluded]
    fitted = fitted if fitted is not None and not excluded else fit(log, upto_segment, reference)
    if fitted is None:
        return None
    curve = _curve(log, tosses, fitted)
    game = log.game[:tosses]
    games = int(game.max()) + 1 if tosses else 0
    per_game = np.zeros((games, colours, 2))
    g_game = np.zeros((games, 3))
    d = np.zeros((colours, 2, 3))
    own = np.zeros((colours, 2, 2))
    cross = np.zeros((colours, 2, 3))
    information = np.zeros((colours, 2, 2))
    m = np.zeros((3, 3))
    s = np.zeros((3, 3))
    for c in range(colours):
        cells = _cells(log, tosses, c, curve)
        weighted = cells.x * cells.variance
        for k in range(2):
            per_game[:, c, k] = np.bincount(game, weights=cells.x[k] * cells.residual, minlength=games)
        d[c] = cells.x @ cells.jacobian.T
        own[c] = weighted @ cells.x.T
        cross[c] = weighted @ cells.jacobian.T
        information[c] = cells.x @ cells.x.T
        if c in reference:
            for k in range(3):
                g_game[:, k] += np.bincount(game, weights=cells.jacobian[k] * cells.residual, minlength=games)
            m += cells.jacobian @ cells.jacobian.T
            s += (cells.jacobian * cells.variance) @ cells.jacobian.T
    try:
        m_inverse = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return None
    moved = d @ m_inverse  # (12, 2, 3)
    variance = np.full((colours, 2, 2), np.inf)
    if games >= 2:
        residual = per_game - np.einsum("cij,gj->gci", moved, g_game)
        residual -= residual.mean(axis=0)
        variance = np.einsum("gci,gcj->cij", residual, residual) * games / (games - 1)
    in_reference = np.isin(np.arange(colours), reference)[:, None, None]
    shared = moved @ s @ moved.transpose(0, 2, 1)
    covariance = cross @ m_inverse @ d.transpose(0, 2, 1)
    model = own + shared - np.where(in_reference, covariance + covariance.transpose(0, 2, 1), 0.0)
    total = per_game[:, reference].sum(axis=1)
    return ScoreSums(per_game.sum(axis=0), variance, model, information, total)


def fill_effect(log: FillLog, looks: list[int]) -> FillEffect:
    """The tower's load effect on all tosses (all colours), with its robust 95 % interval, and the
    goodness-of-fit check at every look reached (``looks``)."""
    colours = list(range(log.held.shape[1]))
    misfit_at, p_value = None, None
    for j, look in enumerate(looks):
        if load_matters(log, j, colours) is None:  # constant rates serve there: nothing to check
            continue
        p_value = misfit(log, look, j, colours)
        if p_value is not None and misfit_at is None and p_value < look_alpha_fit(j):
            misfit_at = look
    fitted = fit(log, None, colours)
    tosses = log.held.shape[0]
    if fitted is None or tosses == 0:
        return FillEffect(None, None, None, None, misfit_at, p_value)
    games = int(log.game.max()) + 1
    g_game, m = _pooled_terms(log, fitted, games)
    interval = None
    if games >= 2:
        try:
            bread = np.linalg.inv(m)
        except np.linalg.LinAlgError:
            bread = None
        if bread is not None:
            covariance = bread @ (g_game.T @ g_game) @ bread * games / (games - 1)
            half = Z_95 * math.sqrt(max(float(covariance[2, 2]), 0.0))
            interval = (float(fitted.theta[2] - half), float(fitted.theta[2] + half))
    p_new, p_held = (float(v[0]) for v in fitted.rates(np.zeros(1)))
    return FillEffect(float(fitted.theta[2]), interval, p_new, p_held, misfit_at, p_value)


#: Tosses ``_pooled_terms`` handles at once (bounded temporaries: about 1 MB per array).
POOLED_ROWS = 1 << 17


def _pooled_terms(
    log: FillLog, fitted: FillFit, games: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Over all colours and tosses: the per-game estimating-equation terms ``sum dmu (o - mu)`` (games, 3)
    and ``M = sum dmu dmu'`` (3, 3) at the curve ``fitted``.

    A toss's rates depend on its fill level alone, so the sums over its colours need only its sums of
    ``i o, b o, i i, i b, b b`` over colours (one pass over each pair of grids, no per-colour arrays),
    taken ``POOLED_ROWS`` tosses at a time."""
    g_game = np.zeros((games, 3))
    m = np.zeros((3, 3))
    for start in range(0, log.held.shape[0], POOLED_ROWS):
        rows = slice(start, start + POOLED_ROWS)
        tossed, held, out = log.tossed[rows], log.held[rows], log.out[rows]
        io, bo, ii, ib, bb = (np.einsum("ij,ij->i", left, right, dtype=np.int64).astype(np.float64)
                              for left, right in ((tossed, out), (held, out), (tossed, tossed), (tossed, held),
                                                  (held, held)))
        level = log.level[rows].astype(np.float64)
        p_new, p_held = fitted.rates(level)
        d_new, d_held = p_new * (1 - p_new), p_held * (1 - p_held)
        g_new = d_new * (io - p_new * ii - p_held * ib)
        g_held = d_held * (bo - p_new * ib - p_held * bb)
        for k, terms in enumerate((g_new, g_held, level * (g_new + g_held))):
            g_game[:, k] += np.bincount(log.game[rows], weights=terms, minlength=games)
        nn, nh, hh = d_new * d_new * ii, d_new * d_held * ib, d_held * d_held * bb
        m += np.array([
            [nn.sum(), nh.sum(), level @ (nn + nh)],
            [nh.sum(), hh.sum(), level @ (nh + hh)],
            [level @ (nn + nh), level @ (nh + hh), (level * level) @ (nn + 2 * nh + hh)],
        ])
    return g_game, m


def look_alpha_fit(j: int) -> float:
    """The goodness-of-fit check's level at look ``j`` (0-based)."""
    return ALPHA_FIT / ((j + 1) * (j + 2))


def misfit(log: FillLog, tosses: int, upto_segment: int, colours: list[int]) -> float | None:
    """The goodness-of-fit p-value on the first ``tosses`` tosses (None: too few games to say).

    A robust score test of the two ways a tower most plausibly leaves the model: held pieces feeling
    the load differently from new ones (a term ``gamma_1 h`` in ``p_held``'s logit alone) and a grip
    that is not linear in the fill level on the logit scale (``gamma_2 (h / 10)^2`` in both). Their
    scores ``sum dmu/dgamma (o - mu)`` at the fitted curve, per game, less the part the fit absorbed,
    against their per-game variance: Hotelling's F with 2 and ``games - 2`` degrees of freedom
    (``score_sums.robust_p_value``)."""
    fitted = fit(log, upto_segment, colours)
    if fitted is None:
        return None
    curve = _curve(log, tosses, fitted)
    game = log.game[:tosses]
    games = int(game.max()) + 1 if tosses else 0
    if games < MIN_GAMES:
        return None
    squared = np.square(curve[4] / np.float32(10.0))
    per_game = np.zeros((games, 2))
    moved = np.zeros((2, 3))  # sum dmu/dgamma dmu/dtheta'
    g_game = np.zeros((games, 3))
    m = np.zeros((3, 3))
    for c in colours:
        cells = _cells(log, tosses, c, curve)
        extra = np.stack([curve[4] * cells.jacobian[1], squared * (cells.jacobian[0] + cells.jacobian[1])])
        for k in range(2):
            per_game[:, k] += np.bincount(game, weights=extra[k] * cells.residual, minlength=games)
        for q in range(3):
            g_game[:, q] += np.bincount(game, weights=cells.jacobian[q] * cells.residual, minlength=games)
        moved += extra @ cells.jacobian.T
        m += cells.jacobian @ cells.jacobian.T
    try:
        projection = moved @ np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return None
    residual = per_game - g_game @ projection.T
    score = residual.sum(axis=0)
    residual -= residual.mean(axis=0)
    variance = residual.T @ residual * games / (games - 1)
    statistic, df = quadratic_form(score, variance)
    if df == 0 or games <= df:
        return None
    return robust_p_value(statistic, df, games)


def _expit(values: npt.NDArray[np.floating] | float) -> npt.NDArray[np.float64]:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * np.asarray(values, dtype=np.float64))))


def _logit(p: float) -> float:
    p = min(max(float(p), 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


