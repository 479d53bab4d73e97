"""Many simulated sessions at once, vectorised with numpy, for checking the statistics' error rates.

``SimulatedTower`` plays one toss at a time in pure Python, which is right for recording a log but far
too slow to ask "how often does the report raise a false alarm over 1,000 fair sessions?". This
module plays the same model (the release probabilities come from the same ``TowerParams`` methods,
games of 12 tosses starting with an empty tower, 2-4 players revealing 3 different colours each)
for many independent sessions in lock-step, and returns the per-toss grids the statistics read.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.simulate import KESHIS_PER_PLAYER, PLAYER_COUNTS, ROUNDS_PER_SEASON, SEASONS
from companion.tower.model import TowerParams

TOSSES_PER_GAME = SEASONS * ROUNDS_PER_SEASON


@dataclass(frozen=True)
class SessionGrids:
    """Per-session, per-toss, per-colour counts: arrays of shape ``(sessions, tosses, 12)``."""

    pieces_in: npt.NDArray[np.int64]
    pieces_out: npt.NDArray[np.int64]
    held_before: npt.NDArray[np.int64]


def simulate_sessions(
    params: TowerParams, sessions: int, tosses: int, rng: np.random.Generator
) -> SessionGrids:
    """Play ``sessions`` independent logs of ``tosses`` tosses each with the tower ``params``."""
    colours = len(COLOURS)
    p_new = np.array([params.release_new(c) for c in COLOURS])
    p_held = np.array([params.release_held(c) for c in COLOURS])
    shape = (sessions, tosses, colours)
    pieces_in = np.zeros(shape, dtype=np.int64)
    pieces_out = np.zeros(shape, dtype=np.int64)
    held_before = np.zeros(shape, dtype=np.int64)
    held = np.zeros((sessions, colours), dtype=np.int64)
    players = np.zeros(sessions, dtype=np.int64)
    max_players = max(PLAYER_COUNTS)
    for t in range(tosses):
        if t % TOSSES_PER_GAME == 0:
            held[:] = 0
            players = rng.choice(PLAYER_COUNTS, size=sessions)
        # each player reveals KESHIS_PER_PLAYER different colours: the first k of a random permutation
        ranks = rng.random((sessions, max_players, colours)).argsort(axis=2).argsort(axis=2)
        seated = np.arange(max_players)[None, :, None] < players[:, None, None]
        chosen = (ranks < KESHIS_PER_PLAYER) & seated
        tossed = chosen.sum(axis=1)
        released = rng.binomial(held, p_held) + rng.binomial(tossed, p_new)
        pieces_in[:, t] = tossed
        pieces_out[:, t] = released
        held_before[:, t] = held
        held = held + tossed - released
    return SessionGrids(pieces_in, pieces_out, held_before)

