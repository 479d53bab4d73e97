"""The simulated tower: a probabilistic model of which keshis stay stuck inside and which fall out.

The rulebook only says layer B1 keeps a "moderate" number of keshis and B2 "more" (digest §7, D1);
no numbers are printed anywhere. So the simulator uses a two-rate model, the same one the fairness
statistics fit: every newly tossed piece falls straight through with probability ``p_new``, and every
piece already held inside is shaken loose with probability ``p_held``. A per-colour ``bias`` (how
much more often that colour stays stuck, e.g. ``{"red": 0.10}``) lowers both rates for that colour,
so a known unfair tower can be simulated to test the statistics.

The layer defaults are our assumptions (marked as such on the pages that show them), chosen so B1
keeps about one in five pieces and B2 about one in three in the long run.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion import COLOURS
from companion.errors import KeshiError
from companion.tower.record import ColourCounts, colour_counts

#: (p_new, p_held) per layer. Assumed values: the rulebook prints none (digest §7, §16 D1).
LAYER_DEFAULTS: dict[str, tuple[float, float]] = {"B1": (0.80, 0.55), "B2": (0.65, 0.45)}


class TowerModelError(KeshiError, ValueError):
    """Bad simulated-tower parameters."""


@dataclass(frozen=True)
class TowerParams:
    """The simulated tower's behaviour: release rates and an optional per-colour stickiness bias."""

    layer: str = "B1"
    p_new: float | None = None
    p_held: float | None = None
    bias: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.layer not in LAYER_DEFAULTS:
            raise TowerModelError(f"tower layer must be B1 or B2, not {self.layer!r}")
        for colour, delta in self.bias.items():
            if colour not in COLOURS:
                raise TowerModelError(f"bias names unknown colour {colour!r}; expected one of {', '.join(COLOURS)}")
            if not -1.0 <= delta <= 1.0:
                raise TowerModelError(f"bias for {colour} must be between -1 and 1, not {delta}")
        for name in ("p_new", "p_held"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise TowerModelError(f"{name} must be a probability between 0 and 1, not {value}")

    def release_new(self, colour: str) -> float:
        """Probability that a newly tossed piece of ``colour`` falls straight through."""
        base = self.p_new if self.p_new is not None else LAYER_DEFAULTS[self.layer][0]
        return _clamp(base - self.bias.get(colour, 0.0))

    def release_held(self, colour: str) -> float:
        """Probability that a held piece of ``colour`` is shaken loose by a toss."""
        base = self.p_held if self.p_held is not None else LAYER_DEFAULTS[self.layer][1]
        return _clamp(base - self.bias.get(colour, 0.0))


def _clamp(p: float) -> float:
    return min(1.0, max(0.0, p))


@dataclass
class TossOutcome:
    """What one simulated toss did: held before, released (by origin), held after."""

    held_before: ColourCounts
    released: ColourCounts
    released_new: ColourCounts
    released_held: ColourCounts
    held_after: ColourCounts


class SimulatedTower:
    """A tower whose hidden contents evolve by ``TowerParams``; randomness comes from ``rng`` only."""

    def __init__(self, params: TowerParams | None = None, rng: random.Random | None = None) -> None:
        self.params = params or TowerParams()
        self.rng = rng or random.Random()
        self.held: ColourCounts = colour_counts()

    def toss(self, pieces_in: Mapping[str, int]) -> TossOutcome:
        """Toss ``pieces_in`` into the tower; return what fell out and what it now holds."""
        pieces = colour_counts(pieces_in)
        before = dict(self.held)
        released_held = {c: _binomial(self.rng, before[c], self.params.release_held(c)) for c in COLOURS}
        released_new = {c: _binomial(self.rng, pieces[c], self.params.release_new(c)) for c in COLOURS}
        released = {c: released_held[c] + released_new[c] for c in COLOURS}
        self.held = {c: before[c] + pieces[c] - released[c] for c in COLOURS}
        return TossOutcome(before, released, released_new, released_held, dict(self.held))

    def empty(self) -> ColourCounts:
        """Release everything still held (e.g. at the end of a game); return it."""
        released, self.held = self.held, colour_counts()
        return released


def _binomial(rng: random.Random, n: int, p: float) -> int:
    return sum(1 for _ in range(n) if rng.random() < p)
