"""The robust variance a colour's score test would see if that colour really were 10 points off.

The power of the colour tests depends on the variance of the shifted colour's per-game scores *under
the shift*, and a fair log cannot show it directly: a colour whose held pieces stick more piles up in
the tower during a game, so its per-game scores swing far more (in the product's 12-toss games the
held-held variance of a colour 10 points stickier in ``p_held`` is nearly twice a fair colour's).
Taking the fair variance promised about 89 % power at the look where the tests caught such a colour
in 68 % of sessions.

So both are simulated on the table's own games: the pieces the table tossed in, toss by toss (up to
``MAX_GAMES`` of its games, each a run of tosses with one game code, starting empty), are replayed
through the two-rate tower at the pooled rates with one colour shifted, and that colour's information
and cluster-robust score variance are computed exactly as the tests compute them
(``score_sums.colour_scores``), then scaled to the log's games. A fixed seed keeps the report
reproducible. With them, the power promised at 4,101 and 6,151 tosses (44 % and 75 %) matched the
tests' 47 % and 68 % in the product's model.

**A tower that grips harder when fuller** (``curve``: the fill-level fit of ``fill_level``). The replay
then releases each piece at the rates of the tower's fill level at that toss (the fair replay's fill:
one shifted colour barely changes it), and a colour 10 points stickier is 10 points below that curve,
but never below 0: in a clogged tower, where almost nothing falls, there is no 10-point shift to
find. So the score a shifted colour moves by is summed from the replay itself (``expected``: its
cells' ``x`` times how many fewer pieces the shift lets out), not taken as ``A_c d``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.fairness.score_sums import GameSums, colour_scores
from companion.fairness.two_rate import Counts

#: Games replayed: enough for a variance within about 7 %, few enough to stay fast.
MAX_GAMES = 400
SEED = 2026


@dataclass(frozen=True)
class Shifted:
    """One kind of shift, per colour, scaled to all the log's games: the information ``sum x x'`` and
    robust score variance (12, 2, 2) with that colour alone shifted, and how far the shift moves the
    colour's score on average (12, 2; None without a fill-level curve: then ``A_c d``)."""

    information: npt.NDArray[np.float64]
    variance: npt.NDArray[np.float64]
    expected: npt.NDArray[np.float64] | None


def shifted_variances(
    tossed: Counts, game: npt.NDArray[np.int64], p_new: float, p_held: float,
    shifts: dict[str, npt.NDArray[np.float64]], curve: tuple[float, float, float] | None = None,
) -> dict[str, Shifted]:
    """Per kind of shift, per colour: the colour's sums when it alone is shifted by ``-shift``
    (stickier), scaled to all the log's games (the information grows too: the shifted colour's pieces
    pile up); ``curve``: the tower's fill-level curve ``(a_new, a_held, beta)``, when known."""
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    lengths = np.diff(np.r_[starts, game.shape[0]])
    games_total = starts.shape[0]
    rng = np.random.default_rng(SEED)
    chosen = np.sort(rng.choice(games_total, size=min(MAX_GAMES, games_total), replace=False))
    longest = int(lengths[chosen].max())
    colours = tossed.shape[1]
    stream = np.zeros((chosen.shape[0], longest, colours), dtype=np.int64)
    present = np.zeros((chosen.shape[0], longest), dtype=bool)
    for row, g in enumerate(chosen):
        stream[row, : lengths[g]] = tossed[starts[g]: starts[g] + lengths[g]]
        present[row, : lengths[g]] = True
    # scenario 0: every colour at the pooled rates; then one per kind with every colour shifted.
    # Given what is tossed in (and the tower's fill), the colours of the two-rate tower are
    # independent, so one colour's sums from a shifted scenario beside the other colours' from the
    # fair one are exactly a log in which that colour alone is shifted: 1 + 3 replays instead of 36
    kinds = list(shifts)
    down = np.array([[0.0, 0.0]] + [list(shifts[k]) for k in kinds])
    fair, *replayed = _replay(stream, present, (p_new, p_held), down, curve, rng)
    scale = games_total / chosen.shape[0]
    result = {}
    for kind, (shifted, moved) in zip(kinds, replayed, strict=True):
        variances, information = np.zeros((colours, 2, 2)), np.zeros((colours, 2, 2))
        for c in range(colours):
            sums = fair[0].with_colour(c, shifted)
            pooled = sums.rates(list(range(colours)))
            fitted = (p_new if pooled[0] is None else pooled[0], p_held if pooled[1] is None else pooled[1])
            scores = colour_scores(sums, *fitted)
            variances[c], information[c] = scores.variance[c], scores.information[c]
        result[kind] = Shifted(information * scale, variances * scale, None if curve is None else moved * scale)
    return result


def _replay(
    stream: npt.NDArray[np.int64], present: npt.NDArray[np.bool_], rates: tuple[float, float],
    down: npt.NDArray[np.float64], curve: tuple[float, float, float] | None, rng: np.random.Generator,
) -> list[tuple[GameSums, npt.NDArray[np.float64]]]:
    """Play the tossed-in ``stream`` (games, tosses, 12) through the two-rate tower once per scenario
    (``down[k]``: how far scenario ``k`` lowers both rates of every colour), all games side by side,
    each starting empty, at constant ``rates`` or along the fill-level ``curve`` (at the fair
    scenario's fill); return each scenario's per-game sums as the tests use them (less the cubes
    behind the binomial-model variance, left at zero: only the robust variance and the information
    are taken from a replay) and, per colour, its cells' ``x`` times the pieces the shift held back."""
    games, _, colours = stream.shape
    scenarios = down.shape[0]
    inside = np.zeros((scenarios, games, colours), dtype=np.int64)
    xo = np.zeros((scenarios, games, colours, 2))
    xx = np.zeros((scenarios, games, colours, 2, 2))
    moved = np.zeros((scenarios, colours, 2))
    cubes = np.zeros((colours, 4))
    for t in range(stream.shape[1]):
        if curve is None:
            fair_new, fair_held = np.full((1, games, 1), rates[0]), np.full((1, games, 1), rates[1])
        else:
            level = inside[0].sum(axis=1)[None, :, None]
            fair_new, fair_held = (1.0 / (1.0 + np.exp(-(curve[k] + curve[2] * level))) for k in (0, 1))
        new = np.clip(fair_new - down[:, 0, None, None], 0.0, 1.0)
        held = np.clip(fair_held - down[:, 1, None, None], 0.0, 1.0)
        i = np.broadcast_to(stream[:, t] * present[:, t, None], inside.shape)
        b = inside
        o = rng.binomial(i, new * np.ones_like(inside, dtype=np.float64)) + rng.binomial(b, held * np.ones(b.shape))
        fi, fb, fo = (a.astype(np.float64) for a in (i, b, o))
        held_back = fi * (fair_new - new) + fb * (fair_held - held)
        moved[..., 0] += (fi * held_back).sum(axis=1)
        moved[..., 1] += (fb * held_back).sum(axis=1)
        xo[..., 0] += fi * fo
        xo[..., 1] += fb * fo
        xx[..., 0, 0] += fi * fi
        xx[..., 0, 1] += fi * fb
        xx[..., 1, 1] += fb * fb
        inside = b + i - o
    xx[..., 1, 0] = xx[..., 0, 1]
    return [(GameSums(xo[k], xx[k], cubes), moved[k]) for k in range(scenarios)]
