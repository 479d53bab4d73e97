"""A fair tower on the Pi path, 6,000 tosses, a camera that misses 2 % of the pieces: with the table's
corrections flowing into the running estimate (and the tower emptied at each game start) the fitted
p_held stays within its interval of the true value, and the fairness loader hands the statistics
exactly what a perfectly observed tower would, so the verdict arrives in its two stages. At 6,000
tosses the first question is answered: "no colour bias detected" in how often tossed-in keshis stay
inside, with the chance (at least 80 %) and the check it rests on; the second, how often keshis
already inside stay stuck (a bias in held pieces alone, learnt from the few pieces the tower holds),
honestly says how many more tosses it needs, and at the check it names (about 9,200 tosses of
12-toss games) it says "no colour bias detected" too. Without the corrections (the estimate living
the whole server lifetime) p_held is fitted far too low and the drifting estimate raises a false
alarm instead.

The tosses are driven through the simulated tower model and the service's own estimate rule
(``next_contents``) directly, not through the beam and its 600 ms settle (that path is tested in
``test_pi_path.py``), so 6,000 tosses take well under a second before the fit.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from companion import COLOURS
from companion.fairness.load import load_tosses
from companion.fairness.render import render
from companion.fairness.report import BIAS, NO_BIAS, NOT_ENOUGH, FairnessReport, build_report
from companion.fairness.sequential import TARGET_POWER, look_points
from companion.fairness.simulate import PLAYER_COUNTS, ROUNDS_PER_SEASON, SEASONS, table_toss
from companion.fairness.two_rate import cells, fit_two_rate
from companion.fairness.verdict import format_percent
from companion.store import Store
from companion.tower.model import LAYER_DEFAULTS, SimulatedTower, TowerParams
from companion.tower.record import TossRecord, save_tosses
from companion.tower.service import next_contents

TOSSES = 6000
TOSSES_PER_GAME = SEASONS * ROUNDS_PER_SEASON  # 3 seasons of 4 rounds
MISS = 0.02
TRUE_P_NEW, TRUE_P_HELD = LAYER_DEFAULTS["B1"]


def play(seed: int, *, table_mends: bool, tosses: int = TOSSES) -> tuple[list[TossRecord], list[TossRecord]]:
    """``tosses`` tosses of a fair B1 tower as the Pi records them, and as the simulator knows them;
    ``table_mends``: each game starts with the tower emptied and the table's correction (the true
    count) becomes the running estimate."""
    rng = random.Random(seed)
    tower = SimulatedTower(TowerParams(layer="B1"), rng)
    estimate = dict.fromkeys(COLOURS, 0)
    records, truths = [], []
    for index in range(tosses):
        if table_mends and index % TOSSES_PER_GAME == 0:
            tower.empty()  # the game-start tower check: the table empties the tower ...
            estimate = dict.fromkeys(COLOURS, 0)  # ... and the service's estimate with it
        pieces_in = table_toss(rng, rng.choice(PLAYER_COUNTS))
        outcome = tower.toss(pieces_in)
        truth = outcome.released
        camera = {c: sum(1 for _ in range(n) if rng.random() >= MISS) for c, n in truth.items()}
        before = estimate
        after = next_contents(before, pieces_in, camera)
        corrected = camera != truth and table_mends
        records.append(TossRecord(
            toss_id=f"t{index}", tower="pi", layer="B1", mode="hardware", started_at=1e9 + 60 * index,
            pieces_in=pieces_in, pieces_out=camera, contents_before=before, contents_after=after,
            beam_count=sum(truth.values()), camera_count=sum(camera.values()), counts_source="camera",
            correction=truth if corrected else None, game_id=f"g{index // TOSSES_PER_GAME}",
            season=index % TOSSES_PER_GAME // ROUNDS_PER_SEASON + 1, round=index % ROUNDS_PER_SEASON + 1))
        truths.append(TossRecord(
            toss_id=f"truth{index}", tower="truth", layer="B1", mode="simulated", started_at=1e9 + 60 * index,
            pieces_in=pieces_in, pieces_out=truth, contents_before=outcome.held_before,
            contents_after=outcome.held_after, counts_source="simulator-truth"))
        estimate = next_contents(before, pieces_in, truth) if table_mends else after
    return records, truths


def fitted_p_held(records: list[TossRecord]) -> tuple[float, tuple[float, float]]:
    held = np.array([[r.contents_before[c] for c in COLOURS] for r in records], dtype=np.int64)
    tossed = np.array([[r.pieces_in[c] for c in COLOURS] for r in records], dtype=np.int64)
    out = np.array([[(r.correction or r.pieces_out)[c] for c in COLOURS] for r in records], dtype=np.int64)
    fit = fit_two_rate(cells(held, tossed, out)).p_held
    assert fit.estimate is not None
    return fit.estimate, fit.interval


def test_corrections_keep_p_held_true_and_the_report_as_good_as_full_knowledge(tmp_path: Path) -> None:
    records, truths = play(2026, table_mends=True)
    estimate, (low, high) = fitted_p_held(records)
    assert low <= TRUE_P_HELD <= high, (estimate, low, high)
    with Store(tmp_path / "keshi.sqlite3") as store:
        save_tosses(store, records + truths)
        pi, known = load_tosses(store, tower="pi"), load_tosses(store, tower="truth")
        assert not pi.set_aside and len(pi.pieces_in) == TOSSES  # nothing the loader must set aside
        for grid in ("held_before", "pieces_in", "pieces_out"):  # what the statistics see: the truth
            assert np.array_equal(getattr(pi, grid), getattr(known, grid)), grid


def test_without_the_tables_word_the_estimate_drifts_and_p_held_is_fitted_wrong() -> None:
    estimate, (low, high) = fitted_p_held(play(2026, table_mends=False, tosses=1500)[0])
    assert high < TRUE_P_HELD / 2, (estimate, low, high)  # missed pieces stay "held" for ever


def _report(tmp_path: Path, records: list[TossRecord]) -> FairnessReport:
    """The report on ``records`` as stored and loaded."""
    with Store(tmp_path / f"{len(records)}.sqlite3") as store:
        save_tosses(store, records)
        return build_report(load_tosses(store, tower="pi"))


def test_at_6000_tosses_the_first_stage_has_arrived_and_the_second_names_its_check(tmp_path: Path) -> None:
    records, _ = play(2026, table_mends=True, tosses=9300)
    report = _report(tmp_path, records[:TOSSES])
    p_held = report.layers["B1"].model.p_held  # the report's own (cluster-robust) interval
    assert p_held.interval[0] <= TRUE_P_HELD <= p_held.interval[1], p_held
    new, held = report.stages["new_pieces"], report.stages["held_pieces"]
    assert new.verdict == NO_BIAS and new.power is not None and new.power >= TARGET_POWER
    assert new.check is not None and new.check <= TOSSES
    assert held.verdict == NOT_ENOUGH and held.promised_tosses is not None
    assert TOSSES < held.promised_tosses <= len(records) and held.tosses_needed == held.promised_tosses - TOSSES
    assert report.verdict == NOT_ENOUGH  # the whole question is not settled yet
    assert report.headline.startswith(
        "No colour bias detected in how often tossed-in keshis stay inside (a 10-point bias would have been "
        f"caught with {format_percent(new.power)} at the check after {new.check:,} tosses). "
        f"Stickiness of keshis already inside: not enough data yet — about {held.tosses_needed:,} more tosses"
    ), report.headline
    html = render(report, "html")
    assert all(stage.sentence in html for stage in report.stages.values())
    # the answer arrives at the promised check or, the estimate having wobbled, at the next one (kept_word)
    next_check = next(look for look in look_points(len(records)) if look > held.promised_tosses)
    promised = _report(tmp_path, records[:next_check])
    stuck = promised.stages["held_pieces"]
    assert stuck.verdict == NO_BIAS and promised.verdict == NO_BIAS
    assert stuck.check in (held.promised_tosses, next_check)
    assert stuck.power is not None and stuck.power >= TARGET_POWER
    assert ("No colour bias detected in how often keshis already inside stay stuck (a 10-point bias would have "
            f"been caught with {format_percent(stuck.power)} at the check after {stuck.check:,} tosses).") \
        in promised.headline


def test_without_the_tables_word_the_drifting_estimate_raises_a_false_alarm(tmp_path: Path) -> None:
    assert _report(tmp_path, play(2026, table_mends=False, tosses=TOSSES)[0]).verdict == BIAS
