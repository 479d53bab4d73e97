"""The count cross-check on MockFactory pins: beam edges through ``BreakBeam`` and ``DropTimer``, then
the camera's count weighed against what the beam can know (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.i18n import use_locale
from companion.tower.count_words import check_json, flag_words
from firmware import crosscheck
from firmware.capture import CameraCount, needs_confirmation
from firmware.config import load_beam_calibration, load_tower_config, save_beam_calibration
from firmware.crosscheck import (
    BeamCalibration,
    BeamLearner,
    BeamReading,
    calibrate_single_block,
    cross_check,
    hidden_allowance,
    learn_calibration,
    read_beam,
)
from firmware.errors import TimingConfigError
from firmware.rig import TowerRig
from firmware.timing import Drop, DropTimer, Settled
from tests.firmware.conftest import feed, play, receiver

CALIBRATION = BeamCalibration(single_block_ms=4.5, single_block_max_ms=6.0)


def settle(rig: TowerRig, start: float) -> list[Drop]:
    """Every queued edge through a fresh timer, then time enough to settle: the toss's drops."""
    timer = DropTimer()
    events = feed(rig, timer) + timer.poll(start + 5.0)
    (settled,) = [e for e in events if isinstance(e, Settled)]
    return list(settled.drops)


def camera(n: int, *, unknown: int = 0, confidence: float = 0.99) -> CameraCount:
    pieces = tuple({"colour": "red", "confidence": confidence} for _ in range(n))
    return CameraCount({"red": n}, unknown, pieces)


def test_two_pieces_in_one_block_are_certain_and_not_flagged(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.5), (80.0, 8.0), (160.0, 4.0)])  # the middle block: two pieces overlapping
    drops = settle(rig, start)
    assert len(drops) == 3 and not any(d.double for d in drops)  # the timer's 9 ms rule calls it one piece
    assert read_beam(drops, CALIBRATION).certain == 4
    check = cross_check(drops, camera(4), CALIBRATION)
    assert not check.flagged and check.reasons == ()
    assert needs_confirmation(sum(d.pieces for d in drops), camera(4))  # today's rule asks for a check
    said = check_json(check)["say"]
    assert said == [{"text": "the beam saw {drops} drops; two pieces probably fell together", "params": {"drops": 3}}]


def test_a_bounce_inside_a_block_is_one_piece(rig: TowerRig) -> None:
    start = rig.ticks()
    pin = receiver(rig)
    pin.drive_at(start, False)
    pin.drive_at(start + 0.0020, True)  # the beam flickers clear for 0.3 ms: bounce
    pin.drive_at(start + 0.0023, False)
    pin.drive_at(start + 0.0045, True)
    drops = settle(rig, start)
    assert [round(d.blocked_ms, 1) for d in drops] == [4.5]
    assert read_beam(drops, CALIBRATION) == BeamReading(drops=1, certain=1, plausible=1)
    assert not cross_check(drops, camera(1), CALIBRATION).flagged
    assert cross_check(drops, camera(2), CALIBRATION).reasons == ("more",)


def test_a_glitch_is_no_piece(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 0.1), (50.0, 4.0)])  # a 0.1 ms block is noise
    drops = settle(rig, start)
    assert len(drops) == 1
    assert not cross_check(drops, camera(1), CALIBRATION).flagged
    assert cross_check(drops, camera(0), CALIBRATION).reasons == ("fewer",)


def test_closely_spaced_blocks_may_hide_a_piece(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 5.0), (7.0, 4.0)])  # 2 ms of clear beam between them: a cluster
    drops = settle(rig, start)
    beam = read_beam(drops, CALIBRATION)
    assert (beam.drops, beam.certain, beam.plausible) == (2, 2, 3)
    assert not cross_check(drops, camera(3), CALIBRATION).flagged
    assert cross_check(drops, camera(4), CALIBRATION).reasons == ("more",)


def test_fewer_pieces_than_the_beam_saw_fall_are_flagged_and_said(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (80.0, 11.0)])  # 11 ms: at least two pieces
    drops = settle(rig, start)
    check = cross_check(drops, camera(2), CALIBRATION)
    assert check.flagged and check.reasons == ("fewer",)
    with use_locale("de"):
        words = check_json(check)["say"]
    assert words == [{"text": "the camera saw {pieces} pieces, but the beam saw at least {certain} fall",
                      "params": {"pieces": 2, "certain": 3}}]


def test_more_pieces_than_could_hide_in_the_drops_are_flagged(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (80.0, 4.5), (200.0, 3.5)])  # three single blocks, far apart
    drops = settle(rig, start)
    assert cross_check(drops, camera(3), CALIBRATION).reasons == ()
    check = cross_check(drops, camera(4), CALIBRATION)
    assert check.flagged and check.reasons == ("more",)


def test_an_unknown_piece_and_an_unsure_colour_are_flagged(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (80.0, 4.5)])
    drops = settle(rig, start)
    unknown = CameraCount({"red": 1}, 1, ({"colour": "red", "confidence": 0.99},
                                          {"colour": "unknown", "confidence": 0.3}))
    assert cross_check(drops, unknown, CALIBRATION).reasons == ("unknown",)
    unsure = CameraCount({"red": 1, "green": 1}, 0, ({"colour": "red", "confidence": 0.99},
                                                     {"colour": "green", "confidence": 0.62}))
    check = cross_check(drops, unsure, CALIBRATION)
    assert check.reasons == ("unsure",) and check.unsure == ("green",)
    assert not cross_check(drops, camera(2, confidence=0.85), CALIBRATION).flagged


def test_no_camera_count_is_flagged(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0)])
    check = cross_check(settle(rig, start), None, CALIBRATION)
    assert check.flagged and check.reasons == ("no_camera",)


def test_the_single_block_is_calibrated_from_agreeing_blocks_and_kept_in_tower_json(tmp_path: Path) -> None:
    blocks = [3.0 + 3.0 * i / 399 for i in range(400)]  # 3 to 6 ms
    calibration = calibrate_single_block(blocks)
    assert calibration.single_block_ms == pytest.approx(4.5, abs=0.01)
    assert 6.0 <= calibration.single_block_max_ms <= 6.2  # the longest seen, with a small margin
    with pytest.raises(TimingConfigError, match="at least 200"):
        calibrate_single_block(blocks[:50])
    assert load_beam_calibration(tmp_path) is None
    (tmp_path / "tower.json").write_text(json.dumps({"timing": {"settle_ms": 700}}), encoding="utf-8")
    save_beam_calibration(tmp_path, calibration)
    assert load_beam_calibration(tmp_path) == calibration
    assert load_tower_config(tmp_path)[1].settle_ms == 700  # the rest of the file is kept


def test_a_colour_beyond_what_could_fall_out_is_flagged_whatever_the_beam_says(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (80.0, 8.0)])  # the second block: two pieces, so three is right
    drops = settle(rig, start)
    seen = CameraCount({"red": 2, "beige": 1}, 0, ())
    assert not cross_check(drops, seen, CALIBRATION, {"red": 2, "beige": 1}).flagged
    assert not cross_check(drops, seen, CALIBRATION).flagged  # nothing known of what went in: the beam alone
    check = cross_check(drops, seen, CALIBRATION, {"red": 3, "green": 2})  # no beige was in the tower
    assert check.flagged and check.reasons == ("beyond",) and check.beyond == ("beige",)
    with use_locale("de"):
        words = check_json(check)["say"]
    assert words == [{"text": "the camera saw more {colours} than the game expects: look in the tray",
                      "params": {"colours": [{"text": "beige", "params": {}, "context": "colour"}]}}]
    (said,) = flag_words(check)
    assert said.render("de") == "die Kamera sah mehr Beige, als das Spiel erwartet: in die Schale schauen"


def test_the_hidden_allowance_lets_a_clumpy_tower_hide_a_piece_and_no_more(rig: TowerRig) -> None:
    start = rig.ticks()
    play(rig, start, [(0.0, 4.0), (80.0, 4.5), (200.0, 3.5)])  # three single blocks, far apart
    drops = settle(rig, start)
    clumpy = BeamCalibration(single_block_ms=4.5, single_block_max_ms=6.0, hidden_allowance=1)
    assert read_beam(drops, clumpy) == BeamReading(drops=3, certain=3, plausible=4)
    assert not cross_check(drops, camera(4), clumpy).flagged
    assert cross_check(drops, camera(5), clumpy).reasons == ("more",)
    assert cross_check(drops, camera(2), clumpy).reasons == ("fewer",)  # the allowance never lowers certain


def test_the_allowance_is_learned_from_how_often_the_camera_counts_more_than_the_beam_can_show() -> None:
    single = Drop(index=0, ticks=0.0, t_ms=0.0, gap_ms=0.0, blocked_ms=4.5, double=False)
    three = [single, *(Drop(i, 0.0, 80.0 * i, 80.0, 4.5, False) for i in (1, 2))]
    steady = [(three, 3)] * 99 + [(three, 4)]  # one toss in a hundred hides a piece: within EXCESS_SHARE
    assert hidden_allowance(steady, CALIBRATION) == 0
    clumpy = [(three, 3)] * 90 + [(three, 4)] * 9 + [(three, 5)]
    assert hidden_allowance(clumpy, CALIBRATION) == 1
    miscounting = [(three, 3 + 5)] * 100  # a camera that always sees five too many: still flagged
    assert hidden_allowance(miscounting, CALIBRATION) == crosscheck.MAX_HIDDEN_ALLOWANCE == 2
    learned = learn_calibration([(three, 3)] * 70 + [(three, 4)] * 10)
    assert learned.hidden_allowance == 1 and learned.single_block_ms == 4.5  # blocks of agreeing tosses only
    with pytest.raises(TimingConfigError, match="hidden_allowance"):
        BeamCalibration(hidden_allowance=-1)


def test_the_learner_learns_again_every_few_tosses_from_its_recent_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crosscheck, "RELEARN_EVERY", 10)
    monkeypatch.setattr(crosscheck, "MIN_CALIBRATION_BLOCKS", 20)
    slow = [Drop(i, 0.0, 80.0 * i, 80.0, 7.5, False) for i in range(3)]  # pieces that block 7.5 ms
    learner = BeamLearner()
    learned = [learner.observe(slow, camera(3)) for _ in range(10)]
    assert learned[:9] == [None] * 9 and learned[9] is not None
    assert learned[9].single_block_ms == 7.5 and learned[9].single_block_max_ms > 7.5
    assert cross_check(slow, camera(3), CALIBRATION).reasons == ("fewer",)  # the default takes them for pairs
    assert not cross_check(slow, camera(3), learned[9]).flagged
    assert learner.observe(slow, CameraCount({"red": 2}, 1)) is None  # an unknown piece teaches nothing
