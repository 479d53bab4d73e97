"""The count cross-check measured on simulated tosses: today's rule beside the weighed one.

Each toss: 4–12 pieces of random colours cross the simulated beam (``drop_times_ms``, ``beam_edges``
at a clumping setting), the edges run through ``DropTimer``; the camera reports the truth with
confidences drawn like the vision detector's (docs/vision.md: 99.8 % of pieces at 0.99–1.0), then one
error is injected at a fixed rate per toss (``ERROR_RATE`` each, at most one per toss):

- ``missed``: one piece is not seen;
- ``phantom``: one piece too many, of a random colour, named as confidently as a real one (a split
  piece: only the count can catch it);
- ``wrong colour``: one piece named another colour, its confidence ``c`` drawn with density
  ∝ (1 − c) on [0.5, 1] — what calibrated confidences (wrong with probability 1 − c) imply for
  confidences spread evenly over that range. The real detector is more often sure, so this is the
  assumption the wrong-colour figure rests on.

The tower's single-piece block time is calibrated first (``CALIBRATION_TOSSES`` other tosses at the
same setting, blocks of the tosses on which the camera counted exactly as many pieces as drops).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from firmware.capture import CameraCount, needs_confirmation
from firmware.crosscheck import BeamCalibration, calibrate_single_block, cross_check
from firmware.simulated import beam_edges, drop_times_ms
from firmware.timing import Drop, DropTimer, Settled

COLOURS = ("turquoise", "green", "gray", "white", "black", "pink", "beige", "brown", "yellow", "orange",
           "purple", "red")
ERROR_KINDS = ("missed", "phantom", "wrong colour")
#: Share of tosses carrying each injected camera error.
ERROR_RATE = 0.01
CALIBRATION_TOSSES = 300


@dataclass
class Tally:
    """Counts over the tosses of one clumping setting, for one rule."""

    tosses: int = 0
    flagged_right: int = 0
    wrong_unflagged: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ERROR_KINDS, 0))
    fewer_than_certain_unflagged: int = 0

    def add(self, flagged: bool, error: str | None, fewer_than_certain: bool) -> None:
        self.tosses += 1
        if flagged and error is None:
            self.flagged_right += 1
        if not flagged and error is not None:
            self.wrong_unflagged[error] += 1
            self.fewer_than_certain_unflagged += fewer_than_certain


def beam_drops(pieces: int, rng: random.Random, together_p: float) -> list[Drop]:
    """The drops ``DropTimer`` reports for ``pieces`` crossing the simulated beam."""
    timer = DropTimer()
    start = 1000.0
    for edge in beam_edges(drop_times_ms(pieces, rng), rng, together_p=together_p):
        timer.start(start, "bench")
        timer.edge(start + edge.t_ms / 1000.0, edge.blocked)
    settled = [e for e in timer.poll(start + 10.0) if isinstance(e, Settled)]
    return list(settled[0].drops) if settled else []


def confidence(rng: random.Random) -> float:
    """A right piece's confidence, spread like the detector's reliability table."""
    roll = rng.random()
    if roll < 1 / 5663:
        return rng.uniform(0.7, 0.8)
    if roll < 9 / 5663:
        return rng.uniform(0.8, 0.9)
    return rng.uniform(0.99, 1.0)


def wrong_confidence(rng: random.Random) -> float:
    """A wrong piece's confidence: density ∝ (1 − c) on [0.5, 1] (inverse transform)."""
    return 1.0 - 0.5 * (rng.random() ** 0.5)


def camera_view(truth: list[str], rng: random.Random) -> tuple[CameraCount, str | None]:
    """What the camera reports of ``truth`` (one colour per piece), and the error injected if any."""
    pieces = [{"colour": c, "confidence": confidence(rng)} for c in truth]
    roll = rng.random()
    error = ERROR_KINDS[int(roll / ERROR_RATE)] if roll < ERROR_RATE * len(ERROR_KINDS) else None
    if error == "missed" and pieces:
        pieces.pop(rng.randrange(len(pieces)))
    elif error == "phantom":
        pieces.append({"colour": rng.choice(COLOURS), "confidence": confidence(rng)})
    elif error == "wrong colour" and pieces:
        i = rng.randrange(len(pieces))
        other = rng.choice([c for c in COLOURS if c != pieces[i]["colour"]])
        pieces[i] = {"colour": other, "confidence": wrong_confidence(rng)}
    counts: dict[str, int] = {}
    for piece in pieces:
        counts[str(piece["colour"])] = counts.get(str(piece["colour"]), 0) + 1
    return CameraCount(counts, 0, tuple(pieces)), error


def one_toss(rng: random.Random, together_p: float) -> tuple[list[Drop], CameraCount, str | None]:
    truth = [rng.choice(COLOURS) for _ in range(rng.randint(4, 12))]
    drops = beam_drops(len(truth), rng, together_p)
    camera, error = camera_view(truth, rng)
    return drops, camera, error


def calibrate(rng: random.Random, together_p: float) -> BeamCalibration:
    """The tower's single-piece block time from the tosses on which beam and camera agreed."""
    blocks: list[float] = []
    for _ in range(CALIBRATION_TOSSES):
        drops, camera, _error = one_toss(rng, together_p)
        if camera.total == len(drops):
            blocks += [d.blocked_ms for d in drops]
    return calibrate_single_block(blocks)


def measure(tosses: int, together_p: float, seed: int) -> tuple[BeamCalibration, Tally, Tally]:
    """Today's rule and the weighed one over ``tosses`` tosses at ``together_p``."""
    rng = random.Random(seed)
    calibration = calibrate(rng, together_p)
    today, weighed = Tally(), Tally()
    for _ in range(tosses):
        drops, camera, error = one_toss(rng, together_p)
        check = cross_check(drops, camera, calibration)
        fewer = camera.total < check.beam.certain
        today.add(needs_confirmation(sum(d.pieces for d in drops), camera), error, fewer)
        weighed.add(check.flagged, error, fewer)
    return calibration, today, weighed


def report(tosses: int, seed: int = 28) -> list[str]:
    """Lines of the benchmark's output: both rules at both clumping settings."""
    from firmware.simulated import CLUMPY_TOGETHER_P, TOGETHER_P

    lines = [f"{tosses} tosses per setting; injected per toss: "
             + ", ".join(f"{kind} {ERROR_RATE:.0%}" for kind in ERROR_KINDS)]
    for name, together_p in (("default", TOGETHER_P), ("clumpy", CLUMPY_TOGETHER_P)):
        calibration, today, weighed = measure(tosses, together_p, seed)
        lines.append(f"{name} tower (pieces together {together_p:.0%}), calibrated single block "
                     f"{calibration.single_block_ms:.2f} ms, longest {calibration.single_block_max_ms:.2f} ms:")
        for rule, tally in (("today (any difference)", today), ("weighed cross-check", weighed)):
            missed = sum(tally.wrong_unflagged.values())
            kinds = ", ".join(f"{k} {n}" for k, n in tally.wrong_unflagged.items())
            lines.append(
                f"  {rule:24s} right but flagged {tally.flagged_right / tally.tosses:6.2%}; "
                f"wrong and not flagged {missed / tally.tosses:6.2%} ({kinds}; "
                f"fewer than the beam's certain {tally.fewer_than_certain_unflagged})"
            )
    return lines
