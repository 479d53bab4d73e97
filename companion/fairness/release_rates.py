"""Honest intervals for the all-exposure release rate: exposures of one game are not independent.

A piece that stays stuck is exposed again in the next toss, and a colour with bad luck early holds
more pieces later, so a colour's exposures within a game are correlated: the plain Wilson interval
over all exposures is too narrow (on the simulated B1 tower it covered the true rate in 88 % of
sessions, not 95 %). Games are independent of each other (the tower starts each game empty), so
they are the clusters: the variance of the ratio estimator ``r = sum(out) / sum(exposed)`` over
clusters (Cochran, *Sampling Techniques*, 3rd ed., sec. 6.11)::

    var(r) = G / (G - 1) * sum_g (out_g - r * exposed_g)^2 / (sum_g exposed_g)^2

divided by the binomial variance ``r (1 - r) / n`` is the design effect; the interval is Wilson's at
the effective sample size ``n / design effect`` (``colour_tests.rate_estimate``), never narrower than
plain Wilson. With the design effect the same simulation covers in 94 %.

Tosses without a game id are clustered by session, and tosses without either stand alone.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.colour_tests import RateEstimate, rate_estimate
from companion.fairness.load import TossData


def clusters(data: TossData) -> npt.NDArray[np.int64]:
    """One cluster code per toss: its game, else its session, else the toss itself."""
    codes: defaultdict[object, int] = defaultdict(itertools.count().__next__)
    keys = (
        ("game", game) if game is not None else ("session", session) if session is not None else ("toss", index)
        for index, (game, session) in enumerate(zip(data.game_id, data.session_id, strict=True))
    )
    return np.fromiter(map(codes.__getitem__, keys), dtype=np.int64, count=data.n_tosses)


def design_effects(
    out: npt.NDArray[np.int64], exposed: npt.NDArray[np.int64], cluster: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """Per colour: the cluster-robust variance of the release rate over the binomial one (>= 1)."""
    count = int(cluster.max()) + 1 if cluster.size else 0
    effects = np.ones(out.shape[1])
    if count < 2:
        return effects
    for colour in range(out.shape[1]):
        out_g = np.bincount(cluster, weights=out[:, colour], minlength=count)
        exposed_g = np.bincount(cluster, weights=exposed[:, colour], minlength=count)
        n = exposed_g.sum()
        if n == 0:
            continue
        rate = out_g.sum() / n
        if rate in (0.0, 1.0):
            continue
        robust = count / (count - 1) * np.sum((out_g - rate * exposed_g) ** 2) / n**2
        effects[colour] = max(1.0, float(robust / (rate * (1 - rate) / n)))
    return effects


def release_rates(data: TossData) -> dict[str, RateEstimate]:
    """Each colour's releases / exposures with its design-effect-corrected Wilson interval."""
    exposed = data.pieces_in + data.held_before
    effects = design_effects(data.pieces_out, exposed, clusters(data))
    released, exposures = data.pieces_out.sum(axis=0), exposed.sum(axis=0)
    return {
        colour: rate_estimate(int(released[i]), int(exposures[i]), float(effects[i]))
        for i, colour in enumerate(COLOURS)
    }
