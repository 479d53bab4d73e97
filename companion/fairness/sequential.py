"""Per-colour tests on both rates that stay honest however often the report is read.

**The test.** Each colour is compared with the pooled tower on both of its rates at once: a robust
score test, 2 degrees of freedom, of "this colour's (p_new, p_held) equal the pooled ones". The
pooled rates solve the linear estimating equations of ``moments`` (``E[out] = tossed p_new + held
p_held``); each (toss, colour) cell contributes ``x (out - x' theta)`` with ``x = (tossed, held)``,
and a colour's contributions sum to near zero when it behaves like the rest. Their variance is
taken **cluster-robustly by game**: per-game sums, less the part the pooled fit already absorbed
(``u_c - A_c A^-1 u``), centred, outer products summed. A game's pieces share one tower, may stick
or fall together, and a fuller tower may hold more, so the model's own variance would be too small
(the audit's 5 % false alarms). The statistic ``U' V^+ U`` is referred to Hotelling's
``F(df, games - df)`` (the variance is estimated from a finite number of games); ``df`` is the rank
of ``V`` (1 while a colour was never held). The p-value used is the larger of that one and the
binomial-model score test's (same score, variance as if pieces were independent): each is valid
when its variance is right, and with few games or rare held pieces the robust variance can come
out small by chance (the product's 12-toss games then gave 11 % false alarms without this). A look
with fewer than ``MIN_GAMES`` games tests nothing. All exposures count, held ones included, so
stickiness (``p_held``) is seen too.

**Optional stopping.** A table that reads the report after every game must not get a false alarm
more often than promised. The tests are therefore only *evaluated* at fixed toss counts of a layer,
the looks ``FIRST_LOOK * LOOK_RATIO**j`` (240, 360, 540, 810, ... tosses), and look ``j`` (from 0)
spends ``ALPHA_TESTS / ((j + 1)(j + 2))`` of the error budget, split evenly over the colours and
layers (Bonferroni). These amounts sum to ``ALPHA_TESTS`` over all looks ever, so the chance that
a fair tower ever gets a colour flagged, however long the log and however often it is read, is at
most ``ALPHA_TESTS`` (to the accuracy of the F approximation). A flag, once raised, stays (with the
look it was raised at); between looks the report shows the latest look's result.

**Power.** How likely is a colour 10 points off to be flagged at a look? Per colour, a shift ``d``
of its rates moves its summed contributions by ``A_c d (11/12)`` (``A_c = sum x x'`` over its
cells; the pooled rates contain the colour's 1/12 share), giving the non-centrality
``(A_c d)' V_c^+ (A_c d)`` with the robust ``V_c`` — both summed over the table's own games, so the
table's own mix of players, colours and tower behaviour sets them. Both grow in proportion to the
tosses, so the power at a later look is the non-central F's tail at that look's threshold. The
power reported is the mean over colours (a bias may hide in any of them) for the *weakest* of the
three kinds of bias — ``p_new`` only, ``p_held`` only, both — and the toss count promised is the
first look at which it reaches 80 %.

**Stages.** The kinds answer two questions a table asks, which the data settle at very different
lengths (``STAGES``): how often a tossed-in keshi stays inside (a bias in ``p_new``, or in both
rates, which moves ``p_new`` too and is the easiest to see), and how often a keshi already inside
stays stuck (``p_held`` only: few pieces are held, so it is learnt several times more slowly). Each
stage has its own power (the weakest of its kinds) and its own promised look, so the report can say
"no colour bias detected" for the first question long before the second is answered.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from scipy import special, stats

from companion import COLOURS
from companion.fairness.fill_level import FillFit, FillLog, fill_log, fill_scores, load_matters
from companion.fairness.moments import robust_rates
from companion.fairness.score_sums import (
    MIN_GAMES,
    GameSums,
    PreparedLog,
    ScoreSums,
    colour_scores,
    quadratic_form,
    robust_p_value,
)
from companion.fairness.shifted import shifted_variances
from companion.fairness.two_rate import Counts, RateFit

#: Error budget of the colour tests over all looks ever (the change monitor has its own).
ALPHA_TESTS = 0.03
FIRST_LOOK = 240
LOOK_RATIO = 1.5
TARGET_BIAS = 0.10
TARGET_POWER = 0.80
BIAS_KINDS = ("p_new", "p_held", "both")
#: The two questions, in the order the data answer them, and the kinds of bias each must catch.
STAGES: dict[str, tuple[str, ...]] = {"new_pieces": ("p_new", "both"), "held_pieces": ("p_held",)}
#: The pooled fit contains the tested colour: one stray colour of 12 sits 11/12 of its bias away.
SHARE_OUTSIDE = (len(COLOURS) - 1) / len(COLOURS)
#: Looks considered when promising a toss count (240 * 1.5**30 is far beyond any table).
MAX_LOOKS = 30


def look_points(up_to: int) -> list[int]:
    """The toss counts at which the tests are evaluated, up to ``up_to`` tosses."""
    return [n for n in (look_at(j) for j in range(MAX_LOOKS)) if n <= up_to]


def look_at(j: int) -> int:
    """Toss count of look ``j`` (0-based)."""
    return int(round(FIRST_LOOK * LOOK_RATIO**j))


def look_alpha(j: int, family: int) -> float:
    """The per-colour level of look ``j`` when ``family`` colour tests share the budget."""
    return ALPHA_TESTS / ((j + 1) * (j + 2)) / max(family, 1)


@dataclass(frozen=True)
class ColourScore:
    """One colour's robust score test at one look."""

    statistic: float
    df: int
    p_value: float
    z_new: float | None
    z_held: float | None
    flagged: bool
    direction: str | None
    rates: str | None


@dataclass(frozen=True)
class Look:
    """The tests of all colours at one look."""

    tosses: int
    alpha_per_colour: float
    p_new: float | None
    p_held: float | None
    colours: dict[str, ColourScore]


@dataclass(frozen=True)
class StagePower:
    """One stage's power: the weakest of its ``kinds`` at the latest look, and the first look where
    it reaches the target (``promised_tosses``; None if no look within ``MAX_LOOKS`` does)."""

    kinds: tuple[str, ...]
    power_now: float
    enough: bool
    promised_tosses: int | None
    tosses_needed: int | None
    #: The power (weakest of ``kinds``) at each look from the latest reached up to the promised one.
    power_by_look: dict[int, float] = field(default_factory=dict)
    #: The look at which the power first reached the target (``kept_word``; None: not yet, or not kept).
    answered_at: int | None = None

    @property
    def power_at_promise(self) -> float | None:
        """The power expected at the promised look (None without a promise)."""
        return None if self.promised_tosses is None else self.power_by_look[self.promised_tosses]


@dataclass(frozen=True)
class SequentialPower:
    """How likely a colour 10 points off is caught, now and at the looks ahead (all kinds together,
    and per stage in ``stages``)."""

    target_bias: float
    target_power: float
    power_now: float
    power_by_kind: dict[str, float]
    enough: bool
    promised_tosses: int | None
    tosses_needed: int | None
    #: The toss count of the latest look reached (the look ``power_now`` is for; None before the first).
    latest_look: int | None = None
    #: The power (weakest kind) at each look from the latest reached up to the promised one.
    power_by_look: dict[int, float] = field(default_factory=dict)
    #: Per stage (``STAGES``), its own power now and promise.
    stages: dict[str, StagePower] = field(default_factory=dict)

    @property
    def power_at_promise(self) -> float | None:
        """The power (weakest kind) expected at the promised look (None without a promise)."""
        return None if self.promised_tosses is None else self.power_by_look[self.promised_tosses]


@dataclass(frozen=True)
class SequentialTests:
    """A layer's looks so far, its flags (colour -> first look that flagged it) and its power."""

    tosses: int
    family: int
    looks: list[Look]
    flagged_at: dict[str, int]
    next_look: int
    power: SequentialPower

    def flag(self, colour: str) -> ColourScore | None:
        """The colour's test at the look that first flagged it (None if never flagged)."""
        if colour not in self.flagged_at:
            return None
        look = next(k for k in self.looks if k.tosses == self.flagged_at[colour])
        return look.colours[colour]


def prepare(
    held: Counts, tossed: Counts, out: Counts,
    game: npt.NDArray[np.int64],
) -> PreparedLog:
    """Sum the log per (game, look segment) and colour (one pass over the tosses).

    The tosses are put in (game, segment) order once, so each sum is a run-wise ``add.reduceat``;
    the products of counts are formed in 32-bit integers (a count is at most ``load.MAX_COUNT``, so
    even a cube fits) and summed in 64 bits.
    """
    n = int(held.shape[0])
    looks = np.array(look_points(n), dtype=np.int64)
    segment = np.searchsorted(looks, np.arange(n), side="right")
    game_code = game if n == 0 or int(game.min()) >= 0 else np.unique(game, return_inverse=True)[1]
    key = game_code.astype(np.int64) * (looks.shape[0] + 1) + segment
    del segment
    # a log whose games come one after another is in this order already: no sort, no gathers
    in_order = n < 2 or bool((key[1:] >= key[:-1]).all())
    order: slice | npt.NDArray[np.intp] = slice(None) if in_order else np.argsort(key, kind="stable")
    key = key[order]
    starts = np.concatenate(([0], np.flatnonzero(key[1:] != key[:-1]) + 1)) if n else np.zeros(0, dtype=np.int64)
    rows = key[starts]
    del key
    colours = held.shape[1] if held.ndim == 2 else 0
    products = np.zeros((rows.shape[0], colours, 9))
    for c in range(colours if n else 0):
        i, b, o = (a[order, c].astype(np.int32) for a in (tossed, held, out))
        ii, ib, bb = i * i, i * b, b * b
        # i o, b o, i i, i b, b b, i^3, i^2 b, i b^2, b^3: by multiplication (pow is several times
        # slower), each factor pair formed only as it is summed (bounded memory)
        for k, (left, right) in enumerate(((i, o), (b, o), (ii, None), (ib, None), (bb, None),
                                           (ii, i), (ii, b), (ib, b), (bb, b))):
            weights = left if right is None else left * right
            products[:, c, k] = np.add.reduceat(weights, starts, dtype=np.int64)
    return PreparedLog(n, rows // (looks.shape[0] + 1), rows % (looks.shape[0] + 1), products)


def sequential_tests(
    held: Counts, tossed: Counts, out: Counts,
    game: npt.NDArray[np.int64], family: int = len(COLOURS), prepared: PreparedLog | None = None,
    fill: FillLog | None = None,
) -> SequentialTests:
    """Run every look reached by this layer's ``(tosses, 12)`` grids; ``game`` codes each toss's game
    (``prepared``: the same grids already summed by ``prepare``; ``fill``: prepared by
    ``fill_level.fill_log``). Each colour is tested against the fill-level curve (``fill_level``)."""
    prepared = prepared or prepare(held, tossed, out, game)
    points = look_points(prepared.tosses)
    fill = fill or fill_log(held, tossed, out, game, points)
    looks = []
    flagged_at: dict[str, int] = {}
    colours = list(range(held.shape[1])) if held.ndim == 2 else []
    for j, tosses in enumerate(points):
        curve = load_matters(fill, j, colours) if colours else None

        def scorer(excluded: frozenset[int], j: int = j, tosses: int = tosses,
                   curve: FillFit | None = curve) -> ScoreSums | None:
            return fill_scores(fill, tosses, j, excluded, curve)

        # the fill-level curve where the tower's fill clearly moves its release, else constant rates
        look = evaluate_look(GameSums.of(prepared, j), tosses, look_alpha(j, family),
                             None if curve is None else scorer)
        looks.append(look)
        for colour, score in look.colours.items():
            if score.flagged and colour not in flagged_at:
                flagged_at[colour] = tosses
    whole = load_matters(fill, len(points), colours) if colours else None
    power = sequential_power(prepared, family, tossed, game,
                             None if whole is None else (float(whole.theta[0]), float(whole.theta[1]),
                                                         float(whole.theta[2])))
    return SequentialTests(prepared.tosses, family, looks, flagged_at, look_at(len(looks)), power)


def _pooled(sums: GameSums, excluded: frozenset[int] = frozenset()) -> tuple[float, float] | None:
    """The pooled (p_new, p_held) of the colours not ``excluded``; None before any piece."""
    p_new, p_held = sums.rates([c for c in range(sums.xo.shape[1]) if c not in excluded])
    if p_new is None:
        return None
    return p_new, 0.5 if p_held is None else p_held


def evaluate_look(sums: GameSums, tosses: int, alpha: float,
                  scorer: Callable[[frozenset[int]], ScoreSums | None] | None = None) -> Look:
    """Every colour's robust score test on the sums of a look's tosses, at level ``alpha`` each
    (``scorer``: the colours' scores against a reference without the colours it is given, when not
    the constant two-rate one of ``colour_scores``; the report's is the fill-level one).

    Step-down reference: one stray colour pulls the pooled rates towards itself, so with enough
    tosses every other colour would look different too. The most significant flagged colour leaves
    the reference and all colours are tested again, until no flagged colour is left in it. On a fair
    tower the first round flags nothing (with probability at least 1 - the look's level), so the
    false-alarm rate is the first round's.
    """
    excluded: frozenset[int] = frozenset()
    while True:
        pooled = _pooled(sums, excluded)
        if pooled is None:
            return Look(tosses, alpha, None, None, {})
        scores = colour_scores(sums, *pooled, excluded=excluded) if scorer is None else scorer(excluded)
        if scores is None:
            return Look(tosses, alpha, pooled[0], pooled[1], {})
        results = _round(scores, alpha)
        candidates = [c for c, colour in enumerate(COLOURS) if colour in results and results[colour].flagged
                      and c not in excluded]
        if not candidates or len(excluded) >= len(COLOURS) - 2:
            return Look(tosses, alpha, pooled[0], pooled[1], results)
        excluded = excluded | {min(candidates, key=lambda c: results[COLOURS[c]].p_value)}


def _round(scores: ScoreSums, alpha: float) -> dict[str, ColourScore]:
    """One round of the step-down: every colour's score against the reference, tested at ``alpha``."""
    score, variance = scores.score, scores.variance
    results = {}
    for c, colour in enumerate(COLOURS):
        statistic, df = quadratic_form(score[c], variance[c])
        model_statistic, model_df = quadratic_form(score[c], scores.model_variance[c])
        if df == 0 or model_df == 0 or scores.games < MIN_GAMES:
            continue
        # the larger of two p-values, each valid when its variance is right: the robust one (pieces
        # that move together, a load-dependent tower) and the binomial one (few games, or rare held
        # pieces, when the robust variance can come out too small by chance)
        p_value = max(robust_p_value(statistic, df, scores.games), float(stats.chi2.sf(model_statistic, model_df)))
        z = _shift_z(score[c], variance[c], scores.information[c])
        flagged = p_value < alpha
        direction, rates = _describe(z) if flagged else (None, None)
        results[colour] = ColourScore(float(statistic), df, p_value, z[0], z[1], flagged, direction, rates)
    return results


def _shift_z(
    score: npt.NDArray[np.float64], variance: npt.NDArray[np.float64], information: npt.NDArray[np.float64]
) -> list[float | None]:
    """How many standard errors each of the colour's rates sits from the reference's.

    The score is about ``A (theta_c - theta)``, so ``A^-1 U`` estimates the colour's shift in
    (p_new, p_held) and ``A^-1 V A^-1`` its variance; a rate the colour never exercised is None.
    (The score's own components mix the two: a colour whose held pieces stick also releases fewer
    pieces in tosses where it had new ones too.)
    """
    informed = np.flatnonzero(np.diag(information) > 0)
    result: list[float | None] = [None, None]
    if informed.size == 0 or not np.isfinite(variance).all():
        return result
    try:
        inverse = np.linalg.inv(information[np.ix_(informed, informed)])
    except np.linalg.LinAlgError:
        return result
    shift = inverse @ score[informed]
    spread = inverse @ variance[np.ix_(informed, informed)] @ inverse
    for position, k in enumerate(informed):
        if spread[position, position] > 0:
            result[k] = float(shift[position] / math.sqrt(spread[position, position]))
    return result


def _describe(z: list[float | None]) -> tuple[str, str]:
    """Direction (stickier / looser) and which rates stand out, from the per-rate z scores."""
    z_new, z_held = (0.0 if v is None else v for v in z)
    main = z_new if abs(z_new) >= abs(z_held) else z_held
    both = abs(z_new) > 2 and abs(z_held) > 2 and z_new * z_held > 0
    rates = "new and held pieces" if both else "new pieces" if main == z_new else "held pieces"
    return ("stickier" if main < 0 else "looser"), rates


def sequential_power(
    prepared: PreparedLog, family: int, tossed: Counts, game: npt.NDArray[np.int64],
    curve: tuple[float, float, float] | None = None,
) -> SequentialPower:
    """Power now (at the latest look reached) and the first look where it reaches the target
    (``tossed`` and ``game``: the layer's pieces tossed in and game codes, replayed under each shift;
    ``curve``: the tower's fill-level curve on these tosses, ``fill_level``, replayed when given)."""
    tosses = prepared.tosses
    sums = GameSums.of(prepared)
    pooled = _pooled(sums) if tosses else None
    if pooled is None:
        unknown = {name: StagePower(kinds, 0.0, False, None, None) for name, kinds in STAGES.items()}
        return SequentialPower(TARGET_BIAS, TARGET_POWER, 0.0, dict.fromkeys(BIAS_KINDS, 0.0), False, None, None,
                               stages=unknown)
    scores = colour_scores(sums, *pooled)
    # along a fill-level curve the replay itself keeps each toss's shifted rates within [0, 1]
    shifts = _shifts(*pooled) if curve is None else _shifts(1.0, 1.0)
    # the inverse of a variance estimated from G games overshoots by (G - 1) / (G - 4) on average
    # (inverse Wishart, 2 dimensions): without this, a short log promises too few tosses
    unbiased = max(scores.games - 4, 0) / max(scores.games - 1, 1)
    # the robust variance a shifted colour would show, replayed on the table's own games (a fair
    # log's variance is far too small for a colour whose held pieces pile up: see ``shifted``)
    shifted = shifted_variances(tossed, game, *pooled, shifts, curve)

    def moved(kind: str, c: int, information: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """How far the shift moves colour ``c``'s score (the fit absorbs its share of it): as replayed
        along the fill-level curve, else ``information @ shift``."""
        expected = shifted[kind].expected
        return (information[c] @ shifts[kind] if expected is None else expected[c]) * SHARE_OUTSIDE

    lambdas = {
        kind: np.array([
            min(unbiased * _noncentrality(moved(kind, c, shifted[kind].information), shifted[kind].variance[c]),
                _noncentrality(moved(kind, c, scores.information), scores.model_variance[c]))
            for c in range(len(COLOURS))
        ])
        for kind in shifts
    }

    def power_at(look: int, kind: str) -> float:
        growth = look_at(look) / tosses
        games = int(scores.games * growth)
        if games < MIN_GAMES:
            return 0.0
        df = 2
        # F's upper quantile and the non-central F's tail from SciPy's special functions: the same
        # numbers as ``stats.f.isf`` and ``stats.ncf.sf``, without their per-call overhead (the power
        # is asked at every look ahead for every kind, and at every check by ``kept_word``)
        critical = (games - df) / df * (1 / special.betaincinv((games - df) / 2, df / 2, look_alpha(look, family)) - 1)
        shifted = np.maximum(lambdas[kind], 1e-12) * growth
        values = 1 - special.ncfdtr(df, games - df, shifted, critical)
        lost = np.isnan(values)  # its series gives up for some large non-centralities: SciPy's own way there
        if lost.any():
            values[lost] = stats.ncf.sf(critical, df, games - df, shifted[lost])
        return float(np.mean(values))

    reached = len(look_points(tosses))
    first = max(reached - 1, 0)
    by_look_kind: dict[int, dict[str, float]] = {}

    def weakest(look: int, kinds: tuple[str, ...]) -> float:
        if look not in by_look_kind:
            by_look_kind[look] = {kind: power_at(look, kind) for kind in BIAS_KINDS}
        return min(by_look_kind[look][kind] for kind in kinds)

    by_kind = {kind: weakest(reached - 1, (kind,)) if reached else 0.0 for kind in BIAS_KINDS}
    stages = {name: _stage_power(kinds, first, tosses, weakest, by_kind) for name, kinds in STAGES.items()}
    overall = _stage_power(BIAS_KINDS, first, tosses, weakest, by_kind)
    latest = look_at(reached - 1) if reached else None
    return SequentialPower(TARGET_BIAS, TARGET_POWER, overall.power_now, by_kind, overall.enough,
                           overall.promised_tosses, overall.tosses_needed, latest, overall.power_by_look, stages)


def _stage_power(
    kinds: tuple[str, ...], first: int, tosses: int,
    weakest: Callable[[int, tuple[str, ...]], float], by_kind: dict[str, float],
) -> StagePower:
    """The power of ``kinds`` together (their weakest) now, and the first look from ``first`` on where
    it reaches the target (``weakest(look, kinds)``: that power at look ``look``)."""
    power_now = min(by_kind[kind] for kind in kinds)
    promised = None
    by_look: dict[int, float] = {}
    for look in range(first, MAX_LOOKS):
        by_look[look_at(look)] = weakest(look, kinds)
        if by_look[look_at(look)] >= TARGET_POWER:
            promised = look_at(look)
            break
    needed = None if promised is None else max(promised - tosses, 0)
    return StagePower(kinds, power_now, power_now >= TARGET_POWER, promised, needed, by_look)


def _shifts(p_new: float, p_held: float) -> dict[str, npt.NDArray[np.float64]]:
    """The shift of a colour ``TARGET_BIAS`` stickier, per kind of bias (rate scale; bounded by the rates)."""
    d_new, d_held = min(TARGET_BIAS, p_new), min(TARGET_BIAS, p_held)
    return {"p_new": np.array([d_new, 0.0]), "p_held": np.array([0.0, d_held]), "both": np.array([d_new, d_held])}


def _noncentrality(expected: npt.NDArray[np.float64], variance: npt.NDArray[np.float64]) -> float:
    """Non-centrality of the score test for a colour whose score is moved by ``expected`` on average."""
    statistic, df = quadratic_form(expected, variance)
    return statistic if df else 0.0


def robust_fits(prepared: PreparedLog) -> tuple[tuple[RateFit, RateFit], list[tuple[RateFit, RateFit]]]:
    """The pooled rates and each colour's own, over all tosses, with cluster-robust intervals."""
    sums = GameSums.of(prepared)
    colours = sums.xo.shape[1]
    pooled = _pooled(sums)
    unknown = (RateFit(None, (0.0, 1.0)), RateFit(None, (0.0, 1.0)))
    if pooled is None:
        return unknown, [unknown] * colours
    scores = colour_scores(sums, *pooled)
    overall = robust_rates(sums.rates(list(range(colours))), scores.information.sum(axis=0), scores.per_game_total)
    per_colour = []
    for c in range(colours):
        own = sums.rates([c])
        if own[0] is None and own[1] is None:
            per_colour.append(unknown)
            continue
        theta = np.array([v if v is not None else 0.0 for v in own])
        per_game = sums.xo[:, c] - sums.xx[:, c] @ theta
        per_colour.append(robust_rates(own, sums.xx[:, c].sum(axis=0), per_game))
    return overall, per_colour
