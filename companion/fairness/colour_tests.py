"""Does release depend on colour? Rates with intervals, a chi-square test, per-colour binomial tests.

What counts as a trial matters. Every piece in the tower at a toss's start (held) and every piece
tossed in is *exposed*; pieces out are *releases*. The all-exposure release rate is the natural thing
to show, but it is not a set of independent, identical trials: a held piece falls with ``p_held``, a
new one with ``p_new`` (B1: about 0.55 vs 0.80), and a colour that had bad luck early holds more
pieces, so its later exposures are mostly the slow kind. That feedback spreads the colours' rates far
more than the binomial allows: on a fair simulated tower a chi-square test on all exposures raises a
false alarm in about 30 % of sessions (measured with ``montecarlo``), not 5 %.

So the tests use *first-pass* trials: pieces tossed in while no piece of their colour was held. Their
releases are ``Binomial(tossed, p_new(colour))`` given everything before the toss, whatever the
tower held of other colours, so they are honest binomial trials (the selection of tosses depends only
on the past). On them:

* ``scipy.stats.chi2_contingency`` on the colours x (fell, stuck) table: does release depend on colour;
* ``scipy.stats.binomtest`` per colour against the pooled first-pass rate of the reference colours
  (the colour itself included, which makes the test slightly conservative rather than slightly
  liberal: a leave-one-out reference, treated as exact, raised 7-9 % false alarms in simulation),
  with the Benjamini-Hochberg correction (``scipy.stats.false_discovery_control``) over all colours
  tested; a colour is *flagged* when its adjusted p-value is below ``ALPHA``.
* The reference starts as all colours. A stray colour drags the pooled rate towards itself, so with
  enough tosses every *other* colour would look different too; ``robust_tests`` therefore removes the
  most significant flagged colour from the reference and tests again, one colour at a time, until
  no flagged colour is left in the reference. On a fair tower nothing is flagged in the first round
  in 95 % of logs and then nothing changes, so the false-alarm rate is the first round's.

Intervals are Wilson score intervals from ``binomtest(...).proportion_ci(method="wilson")``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
from scipy import stats

from companion import COLOURS
from companion.fairness.two_rate import Counts

ALPHA = 0.05
CONFIDENCE = 0.95


@dataclass(frozen=True)
class RateEstimate:
    """``successes`` of ``trials`` with its 95 % interval; no trials: rate None, interval [0, 1].

    ``design_effect`` > 1 means the trials were not independent and the interval was computed from the
    effective sample size ``trials / design_effect`` (see ``release_rates``).
    """

    successes: int
    trials: int
    rate: float | None
    interval: tuple[float, float]
    design_effect: float = 1.0


def rate_estimate(successes: int, trials: int, design_effect: float = 1.0) -> RateEstimate:
    """The observed rate and its 95 % Wilson score interval (SciPy's ``proportion_ci``).

    With a ``design_effect`` the interval is the Wilson interval at the effective sample size
    (Kish): ``round(trials / d)`` trials with the same rate, as Korn and Graubard (1998) do for
    proportions from clustered samples. With ``design_effect == 1`` it is exactly SciPy's interval.
    """
    if trials == 0:
        return RateEstimate(0, 0, None, (0.0, 1.0))
    effective_trials = max(1, round(trials / design_effect))
    effective_successes = min(effective_trials, round(successes * effective_trials / trials))
    ci = stats.binomtest(effective_successes, effective_trials).proportion_ci(CONFIDENCE, method="wilson")
    return RateEstimate(int(successes), int(trials), successes / trials, (float(ci.low), float(ci.high)),
                        float(design_effect))


@dataclass(frozen=True)
class ChiSquare:
    """The colours x (fell, stuck) contingency test over the colours that had trials."""

    statistic: float
    p_value: float
    dof: int
    min_expected: float


@dataclass(frozen=True)
class ColourTest:
    """One colour's first-pass trials, its binomial test and whether it is flagged."""

    colour: str
    first_pass: RateEstimate
    p_value: float | None
    p_adjusted: float | None
    flagged: bool
    direction: str | None


@dataclass(frozen=True)
class ColourTests:
    """All colours' tests for one set of tosses (one layer)."""

    reference_rate: float | None
    chi_square: ChiSquare | None
    colours: dict[str, ColourTest]
    excluded: frozenset[str] = frozenset()

    @property
    def flagged(self) -> list[str]:
        """The flagged colours, in canonical order."""
        return [c for c, t in self.colours.items() if t.flagged]


def first_pass_counts(
    pieces_in: Counts, pieces_out: Counts, held_before: Counts
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per colour: (releases, trials) over tosses in which that colour had nothing held."""
    clean = held_before == 0
    return (pieces_out * clean).sum(axis=0, dtype=np.int64), (pieces_in * clean).sum(axis=0, dtype=np.int64)


def chi_square(releases: npt.NDArray[np.int64], trials: npt.NDArray[np.int64]) -> ChiSquare | None:
    """``chi2_contingency`` on (fell, stuck) per colour; None when there is nothing to compare."""
    table = np.stack([releases, trials - releases], axis=1)[trials > 0]
    if table.shape[0] < 2 or (table.sum(axis=0) == 0).any():
        return None
    result = stats.chi2_contingency(table, correction=False)
    return ChiSquare(
        statistic=float(result.statistic),
        p_value=float(result.pvalue),
        dof=int(result.dof),
        min_expected=float(np.min(result.expected_freq)),
    )


def colour_tests(
    releases: npt.NDArray[np.int64], trials: npt.NDArray[np.int64], excluded: frozenset[str] = frozenset()
) -> ColourTests:
    """Each colour's first-pass rate, tested against the pooled rate of the colours not ``excluded``.

    The p-values are raw and nothing is flagged: flags come from ``correct``, which adjusts the
    p-values of every set of tests reported together.
    """
    in_reference = np.array([c not in excluded for c in COLOURS])
    total_trials = int(trials[in_reference].sum())
    reference = float(releases[in_reference].sum() / total_trials) if total_trials else None
    tests: dict[str, ColourTest] = {}
    for index, colour in enumerate(COLOURS):
        estimate = rate_estimate(int(releases[index]), int(trials[index]))
        p_value = None
        direction = None
        if estimate.rate is not None and reference is not None:
            p_value = float(stats.binomtest(estimate.successes, estimate.trials, reference).pvalue)
            if estimate.rate != reference:
                direction = "stickier" if estimate.rate < reference else "looser"
        tests[colour] = ColourTest(colour, estimate, p_value, None, False, direction)
    return ColourTests(reference, chi_square(releases, trials), tests, excluded)


def robust_tests(
    counts: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]],
) -> dict[str, ColourTests]:
    """Corrected, flagged tests per group (layer) from (releases, trials), with the step-down reference.

    Each round runs every group's tests and one correction over all of them; then, in each group
    whose flagged colours are not all out of the reference yet, the one with the smallest p-value
    leaves it. The rounds stop when no group changes (at most 11 colours can leave a reference).
    """
    excluded = {group: frozenset[str]() for group in counts}
    while True:
        tests = correct({g: colour_tests(r, t, excluded[g]) for g, (r, t) in counts.items()})
        changed = False
        for group, result in tests.items():
            candidates = [c for c in result.flagged if c not in excluded[group]]
            if candidates and len(excluded[group]) < len(COLOURS) - 1:
                worst = min(candidates, key=lambda c: _p_or_one(result.colours[c].p_value))
                excluded[group] = excluded[group] | {worst}
                changed = True
        if not changed:
            return tests


def correct(groups: dict[str, ColourTests]) -> dict[str, ColourTests]:
    """Adjust all groups' p-values together (Benjamini-Hochberg) and flag those below ``ALPHA``.

    The layers are tested separately (B1 and B2 release at different rates) but reported as one
    verdict, so their colours form one family: 12 tests per layer with data.
    """
    keys = [(g, c) for g, tests in groups.items() for c, t in tests.colours.items() if t.p_value is not None]
    raw = np.array([groups[g].colours[c].p_value for g, c in keys], dtype=np.float64)
    adjusted = stats.false_discovery_control(raw, method="bh") if raw.size else raw
    by_key = {key: float(p) for key, p in zip(keys, adjusted, strict=True)}
    result: dict[str, ColourTests] = {}
    for g, tests in groups.items():
        colours = {}
        for c, t in tests.colours.items():
            p_adj = by_key.get((g, c))
            colours[c] = replace(t, p_adjusted=p_adj, flagged=p_adj is not None and p_adj < ALPHA)
        result[g] = replace(tests, colours=colours)
    return result


def _p_or_one(p_value: float | None) -> float:
    return 1.0 if p_value is None else p_value
