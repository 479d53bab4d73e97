"""An independent tower simulator for error-rate studies, written apart from ``companion.tower.model``.

Figures measured on the product's own game model flatter the statistics built around it, so the
error-rate study (``python -m companion.fairness.study``) plays a tower written separately, shaped as
an outside audit plays it:

* **Game-shaped streams.** A game has ``tosses_per_game`` tosses (default ``TOSSES_PER_GAME``, 48)
  and 3 or 4 players. Each season every player holds one keshi of each of the 12 colours behind the
  screen and throws 3 of the colours still there each round, so a season is 4 rounds and every colour
  goes in once per player per season. The tower starts each game empty and nothing empties it during
  the game. The 48-toss default is what the error-rate study's documented figures were measured
  with; ``REAL_GAME_TOSSES`` (12) is the real game's 3 seasons of 4 rounds, as the product's own
  games are stored. The game length matters most for a tower that grips harder when fuller: with
  the audit's logit shift of -0.15 per piece held, 48-toss games fill the tower to about 200 pieces
  on average, 12-toss games to about 23, the audit's "clogging tower, about 23 pieces held"
  (``study_load`` plays 12-toss games for that reason).
* **Pieces that move together** (``cohesion``): with that probability a toss is one shake for every
  piece in it: one shared uniform draw decides each piece (a piece falls when the draw is below its
  own release probability), so pieces stick or fall together while each piece keeps its own rate.
* **A load-dependent tower** (``load_effect``): a new piece falls with ``p_new - load_effect * held``,
  where ``held`` is the number of pieces (any colour) in the tower at the toss's start; or
  (``load_logit``) both rates move by ``load_logit`` on the logit scale per piece held (the audit's
  tower: -0.08, and -0.15 for a clogging one).
* **Colour preferences** (``preferences``): each session draws colour weights from a symmetric
  Dirichlet with this concentration, and each season every player throws the colours behind the
  screen in a weighted random order (a favoured colour tends to go in early in a season, when the
  tower holds fewer pieces). 0: every order equally likely.
* **Biases and dents**: one colour per session (chosen by the caller) gets ``new_shift`` added to its
  ``p_new`` and ``held_shift`` to its ``p_held`` from toss ``shift_from`` on (0: from the start).

Everything is vectorised over sessions (one numpy step per toss for all sessions at once).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion import COLOURS

TOSSES_PER_GAME = 48
ROUNDS_PER_SEASON = 4
#: The real game: 3 seasons of 4 rounds, one toss per round.
REAL_GAME_TOSSES = 3 * ROUNDS_PER_SEASON
KESHIS_PER_ROUND = 3
PLAYER_COUNTS = (3, 4)
NO_COLOUR = -1


@dataclass(frozen=True)
class StudyTower:
    """How the study's tower behaves (rates per piece; shifts apply to one colour per session)."""

    p_new: float = 0.80
    p_held: float = 0.55
    new_shift: float = 0.0
    held_shift: float = 0.0
    shift_from: int = 0
    cohesion: float = 0.0
    load_effect: float = 0.0
    load_logit: float = 0.0
    preferences: float = 0.0
    tosses_per_game: int = TOSSES_PER_GAME

    def __post_init__(self) -> None:
        """Refuse a game that does not end with a whole season (every colour goes in once per season)."""
        if self.tosses_per_game <= 0 or self.tosses_per_game % ROUNDS_PER_SEASON:
            raise ValueError(f"a game must be a whole number of {ROUNDS_PER_SEASON}-round seasons, "
                             f"not {self.tosses_per_game} tosses")


@dataclass(frozen=True)
class StudyGrids:
    """Per-session, per-toss, per-colour counts, shape ``(sessions, tosses, 12)`` (small integers)."""

    pieces_in: npt.NDArray[np.int16]
    pieces_out: npt.NDArray[np.int16]
    held_before: npt.NDArray[np.int16]
    #: The game length the sessions were played with (``StudyTower.tosses_per_game``).
    tosses_per_game: int = TOSSES_PER_GAME

    @property
    def tosses(self) -> int:
        """Tosses per session."""
        return int(self.pieces_in.shape[1])

    def games(self, upto: int | None = None) -> npt.NDArray[np.int64]:
        """The game of each of the first ``upto`` tosses (default: all) of a session."""
        return game_index(self.tosses if upto is None else upto, self.tosses_per_game)

    def counts(self, session: int, upto: int | None = None) -> tuple[npt.NDArray[np.int64], ...]:
        """One session's first ``upto`` tosses (default: all) as the report reads a layer: its held,
        tossed-in and fallen-out counts, ``(tosses, 12)`` in 64-bit integers."""
        n = self.tosses if upto is None else upto
        return tuple(a[session, :n].astype(np.int64) for a in (self.held_before, self.pieces_in, self.pieces_out))


def play(
    tower: StudyTower, sessions: int, tosses: int, rng: np.random.Generator,
    shifted: npt.NDArray[np.int64] | None = None,
) -> StudyGrids:
    """Play ``sessions`` independent sessions of ``tosses`` tosses; ``shifted[s]`` is session s's
    shifted colour (an index into ``COLOURS``, or ``NO_COLOUR``)."""
    colours = len(COLOURS)
    target = np.full(sessions, NO_COLOUR) if shifted is None else np.asarray(shifted)
    one_hot = (np.arange(colours)[None, :] == target[:, None]).astype(np.float64)
    shape = (sessions, tosses, colours)
    pieces_in = np.zeros(shape, dtype=np.int16)
    pieces_out = np.zeros(shape, dtype=np.int16)
    held_before = np.zeros(shape, dtype=np.int16)
    held = np.zeros((sessions, colours), dtype=np.int64)
    max_players = max(PLAYER_COUNTS)
    seated = np.zeros((sessions, max_players, 1), dtype=bool)
    ranks = np.zeros((sessions, max_players, colours), dtype=np.int64)
    weights = (rng.dirichlet(np.full(colours, tower.preferences), size=sessions)[:, None, :]
               if tower.preferences > 0 else None)
    for t in range(tosses):
        in_game = t % tower.tosses_per_game
        if in_game == 0:
            held[:] = 0
            players = rng.choice(PLAYER_COUNTS, size=sessions)
            seated = (np.arange(max_players)[None, :] < players[:, None])[:, :, None]
        round_in_season = in_game % ROUNDS_PER_SEASON
        if round_in_season == 0:  # a new season: every player takes one keshi of each colour again
            if weights is not None:  # a weighted order (Plackett-Luce): exponential keys over the weights
                keys = rng.exponential(size=(sessions, max_players, colours)) / weights
            else:
                keys = rng.random((sessions, max_players, colours))
            ranks = keys.argsort(axis=2).argsort(axis=2)
        chosen = (ranks // KESHIS_PER_ROUND == round_in_season) & seated
        tossed = chosen.sum(axis=1)
        shift = one_hot if t >= tower.shift_from else 0.0
        load = held.sum(axis=1, keepdims=True)
        grip = tower.load_logit * load
        p_new = np.clip(_shifted(tower.p_new, grip) - tower.load_effect * load + tower.new_shift * shift, 0.0, 1.0)
        p_held = np.clip(_shifted(tower.p_held, grip) + tower.held_shift * shift, 0.0, 1.0) * np.ones_like(p_new)
        released = _release(held, tossed, p_held, p_new, tower.cohesion, rng)
        pieces_in[:, t] = tossed
        pieces_out[:, t] = released
        held_before[:, t] = held
        held = held + tossed - released
    return StudyGrids(pieces_in, pieces_out, held_before, tower.tosses_per_game)


def _shifted(p: float, logit_shift: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``p`` moved by ``logit_shift`` on the logit scale."""
    return np.asarray(1.0 / (1.0 + (1.0 - p) / p * np.exp(-logit_shift)))


def _release(
    held: npt.NDArray[np.int64], tossed: npt.NDArray[np.int64], p_held: npt.NDArray[np.float64],
    p_new: npt.NDArray[np.float64], cohesion: float, rng: np.random.Generator,
) -> npt.NDArray[np.int64]:
    """Pieces out per session and colour: independent pieces, or (with ``cohesion``) one shared shake."""
    independent = rng.binomial(held, p_held) + rng.binomial(tossed, p_new)
    if cohesion <= 0.0:
        return independent
    shake = rng.random((held.shape[0], 1))
    together = held * (shake < p_held) + tossed * (shake < p_new)
    one_shake = rng.random((held.shape[0], 1)) < cohesion
    return np.where(one_shake, together, independent)


def game_index(tosses: int, tosses_per_game: int = TOSSES_PER_GAME) -> npt.NDArray[np.int64]:
    """The game (0, 1, ...) of each toss of a study session of ``tosses_per_game``-toss games."""
    return np.arange(tosses, dtype=np.int64) // tosses_per_game
