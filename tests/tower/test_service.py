"""The tower service on a simulated rig: MockFactory pins, the real BreakBeam and DropTimer."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import KeshiError
from companion.events import Event, EventBus
from companion.i18n import Msg, use_locale
from companion.store import Store
from companion.tower import service as service_module
from companion.tower.record import iter_tosses
from companion.tower.service import TowerBusyError, TowerService
from firmware import crosscheck, simulated
from firmware.capture import CameraCount
from firmware.config import load_beam_calibration
from firmware.simulated import beam_edges
from firmware.tray_camera import CameraUnavailableError, TrayScene
from tests.web.test_i18n import untranslated
from vision.calibrate import calibrate
from vision.errors import CalibrationError
from vision.synthetic import calibration_set, place_pieces

FAST = 0.01  # simulated tower time runs 100x faster than a real tower


class CheckingBus(EventBus):
    """Records, at the moment ``toss.result`` is published, whether its toss is already stored and
    whether the snapshot it names is already on disk."""

    def __init__(self, store: Store, instance: Path) -> None:
        super().__init__()
        self.store = store
        self.instance = instance
        self.stored_before_result: list[bool] = []
        self.snapshot_before_result: list[bool] = []

    def publish(self, topic: str, data: dict[str, Any] | None = None) -> Event:
        if topic == "toss.result" and data is not None:
            ids = [r.toss_id for r in iter_tosses(self.store)]
            self.stored_before_result.append(data["toss_id"] in ids)
            if data.get("snapshot"):
                self.snapshot_before_result.append((self.instance / data["snapshot"]).is_file())
        return super().publish(topic, data)


class TruthCamera:
    """A test camera that reports exactly what the simulated tower let fall (no vision needed).

    It also notes the tray light's level at each capture.
    """

    name = "test"
    calibrated = True

    def __init__(self, tower: TowerService | None = None) -> None:
        self.pieces: dict[str, int] = {}
        self.tower = tower
        self.light_at_capture: list[float] = []

    def show(self, scene: TrayScene) -> None:
        assert isinstance(scene, Mapping)
        self.pieces = dict(scene)

    def settle(self) -> None:
        """Nothing to lock: like the simulated camera."""

    def capture(self) -> np.ndarray:
        if self.tower is not None and self.tower.rig is not None:
            self.light_at_capture.append(self.tower.rig.light.value)
        return np.full((48, 64, 3), 120, np.uint8)

    def count(self, frame: np.ndarray) -> CameraCount:
        return CameraCount(dict(self.pieces), 0)

    def load_calibration(self, path: Path | None) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "keshi.sqlite3") as s:
        yield s


@pytest.fixture
def bus(store: Store, tmp_path: Path) -> CheckingBus:
    return CheckingBus(store, tmp_path)


@pytest.fixture
def tower(bus: CheckingBus, store: Store, tmp_path: Path) -> Iterator[TowerService]:
    service = TowerService(bus, store, instance_dir=tmp_path, seed=11, time_scale=FAST)
    service.start()
    assert service.camera_ready.wait(60)  # the simulated camera's calibration: seconds, once per process
    yield service
    service.stop()


def until_idle(tower: TowerService, timeout: float = 5.0) -> None:
    """Wait until the toss whose result was just published has ended (it ends right after), so the
    next toss is not refused as busy on a loaded machine."""
    deadline = time.monotonic() + timeout
    while tower.busy:
        assert time.monotonic() < deadline, "the toss did not end after its result"
        time.sleep(0.01)


def events_until(bus: EventBus, topic: str, timeout: float = 5.0, since: int = 0) -> list[Event]:
    """Events after ``since`` up to and including the first ``topic`` one."""
    with bus.subscribe(last_event_id=since) as sub:
        seen: list[Event] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            event = sub.get(timeout=0.05)
            if event is not None:
                seen.append(event)
                if event.topic == topic:
                    return seen
    raise AssertionError(f"no {topic} within {timeout} s; saw {[e.topic for e in seen]}")


def test_a_simulated_toss_runs_through_the_beam_and_is_stored_before_its_result(
    tower: TowerService, bus: CheckingBus, store: Store
) -> None:
    pieces = {"red": 3, "white": 2, "black": 4}
    toss_id = tower.toss(pieces, game_id="g1", season=2, round=3)
    events = events_until(bus, "toss.result")
    topics = [e.topic for e in events]
    assert topics[0] == "toss.started" and topics[-2:] == ["toss.settled", "toss.result"]
    assert all(e.data["toss_id"] == toss_id for e in events)
    drops = [e.data for e in events if e.topic == "toss.drop"]
    assert [d["index"] for d in drops] == list(range(len(drops)))
    assert events[-2].data["drops"] == len(drops)
    result = events[-1].data
    assert result["beam_count"] >= len(drops)
    assert sum(result["counts"].values()) <= sum(pieces.values())
    assert bus.stored_before_result == [True]
    (record,) = iter_tosses(store)
    assert record.toss_id == toss_id and record.pieces_in["red"] == 3 and record.game_id == "g1"
    assert record.drop_times_ms == [d["t_ms"] for d in drops]
    assert record.round == 3 and record.mode == "simulated"


def test_simulated_tosses_are_counted_by_the_vision_detector_on_a_rendered_tray(
    tower: TowerService, bus: CheckingBus
) -> None:
    assert tower.status()["camera"] == "simulated"
    results = []
    for pieces in ({"red": 4, "green": 3}, {"yellow": 2, "black": 5, "white": 1}, {"purple": 6}):
        since = bus.last_id
        tower.toss(pieces)
        results.append(events_until(bus, "toss.result", since=since)[-1].data)
        until_idle(tower)
    correct = 0
    for result in results:
        assert result["source"] == "camera"
        assert result["camera_count"] == sum(result["counts"].values()) + result["unknown"]
        assert result["flagged"] == result["check"]["flagged"] == bool(result["check"]["reasons"])
        record = result["record"]  # the simulator's truth: what left the tower
        fell = {c: record["contents_before"][c] + record["pieces_in"][c] - record["contents_after"][c]
                for c in record["pieces_in"]}
        correct += result["counts"] == fell
    assert correct >= 2  # the detector names what fell on (nearly) every toss


def test_a_second_toss_before_the_first_settles_is_refused(tower: TowerService) -> None:
    tower.toss({"red": 5})
    with pytest.raises(TowerBusyError, match="still settling") as refused:
        tower.toss({"red": 5})
    with use_locale("de"):  # a phone's request renders the refusal in its language
        assert str(refused.value) == "der Turm kommt vom letzten Wurf noch zur Ruhe; auf sein Ergebnis warten"


def test_stop_returns_within_a_second_mid_toss(bus: CheckingBus, store: Store) -> None:
    service = TowerService(bus, store, seed=1, time_scale=1.0)
    service.start()
    service.toss({"green": 12})
    time.sleep(0.05)
    began = time.monotonic()
    service.stop()
    assert time.monotonic() - began < 1.0


def test_a_stuck_beam_is_reported_as_a_fault(tower: TowerService, bus: CheckingBus) -> None:
    assert tower.player is not None
    tower.player.inject("stuck")
    fault = events_until(bus, "tower.fault")[-1]
    assert fault.data["kind"] == "beam_stuck" and "2 s" in fault.data["message"]
    assert tower.status()["beam"] == "fault"


def test_an_unplugged_receiver_is_found_after_a_silent_toss(tower: TowerService, bus: CheckingBus) -> None:
    assert tower.player is not None
    tower.player.inject("disconnected")
    tower.toss({"red": 6})
    events = events_until(bus, "tower.fault")
    assert "toss.result" in [e.topic for e in events]  # the toss is still counted and stored
    assert events[-1].data["kind"] == "beam_disconnected"
    assert "disconnected" in events[-1].data["message"]


def test_a_blind_beam_that_misses_every_piece_is_a_dead_beam_fault(tower: TowerService, bus: CheckingBus) -> None:
    assert tower.player is not None
    tower.player.inject("blind")
    tower.camera = TruthCamera()
    tower.toss({"red": 12})
    events = events_until(bus, "tower.fault")
    result = [e for e in events if e.topic == "toss.result"][0].data
    assert result["beam_count"] == 0 and result["camera_count"] > 0 and result["flagged"]
    assert events[-1].data["kind"] == "beam_dead" and "camera counted" in events[-1].data["message"]


def test_pieces_falling_together_make_the_camera_disagree_and_the_toss_flagged(
    tower: TowerService, bus: CheckingBus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "beam_edges", functools.partial(beam_edges, together_p=1.0))
    tower.camera = TruthCamera()
    tower.toss({"yellow": 12})
    result = events_until(bus, "toss.result")[-1].data
    assert result["source"] == "camera"
    assert result["camera_count"] >= 2 and result["beam_count"] < result["camera_count"]
    assert result["flagged"] and result["record"]["flagged"]  # that many cannot hide in one long block
    assert result["check"]["reasons"] == ["more"]
    assert result["check"]["say"][0]["params"]["pieces"] == result["camera_count"]


def test_agreeing_senses_are_not_flagged(
    tower: TowerService, bus: CheckingBus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "beam_edges", functools.partial(beam_edges, together_p=0.0))
    tower.camera = TruthCamera()
    tower.toss({"pink": 9})
    result = events_until(bus, "toss.result")[-1].data
    assert result["beam_count"] == result["camera_count"] and not result["flagged"]


def test_the_tower_learns_its_own_single_piece_block_from_agreeing_tosses_and_keeps_it(
    tower: TowerService, bus: CheckingBus, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tower whose pieces block the beam about 7 ms (longer than the default's single piece) looks like
    pairs to the default calibration; the tosses the camera agrees with teach it its own block."""
    monkeypatch.setattr(simulated, "SINGLE_BLOCK_MS", (7.0, 7.1))  # within the learned 2 % margin
    monkeypatch.setattr(service_module, "beam_edges", functools.partial(beam_edges, together_p=0.0))
    monkeypatch.setattr(crosscheck, "RELEARN_EVERY", 2)
    monkeypatch.setattr(crosscheck, "MIN_CALIBRATION_BLOCKS", 6)
    tower.camera = TruthCamera()
    reasons = []
    for _ in range(3):
        since = bus.last_id
        tower.toss({"pink": 5, "red": 5})
        result = events_until(bus, "toss.result", since=since)[-1].data
        reasons.append(result["check"]["reasons"])
        until_idle(tower)
    assert reasons[:2] == [["fewer"], ["fewer"]] and reasons[2] == []  # learned after the second toss
    learned = tower.beam_calibration
    assert 7.0 <= learned.single_block_ms <= 7.1 and learned.single_block_max_ms > 7.1
    assert load_beam_calibration(tmp_path) == learned  # kept in tower.json, for this tower's next start
    assert TowerService(bus, store, instance_dir=tmp_path).beam_calibration == learned


def test_hardware_mode_off_the_pi_fails_with_one_clear_error(bus: CheckingBus, store: Store) -> None:
    service = TowerService(bus, store, mode="hardware")
    with pytest.raises(KeshiError, match="Raspberry Pi"):
        service.start()
    service.stop()


def test_status_names_mode_beam_and_layer(bus: CheckingBus, store: Store) -> None:
    service = TowerService(bus, store, layer="B2", tower="club", time_scale=FAST)
    service.start()
    try:
        status = service.status()
        assert status["mode"] == "simulated" and status["beam"] == "ok"
        assert status["layer"] == "B2" and status["tower"] == "club"
    finally:
        service.stop()


def test_the_toss_button_starts_a_toss(tower: TowerService, bus: CheckingBus) -> None:
    assert tower.rig is not None
    button = tower.rig.factory.pin(tower.pins.button)
    button.drive_low()
    button.drive_high()
    started = events_until(bus, "toss.started")[-1]
    assert started.data["source"] == "button"
    assert events_until(bus, "toss.result", since=started.id)[-1].data["toss_id"] == started.data["toss_id"]


def test_a_toss_on_a_stuck_beam_is_still_counted_and_the_obstruction_reported(
    tower: TowerService, bus: CheckingBus
) -> None:
    assert tower.player is not None
    tower.player.inject("stuck")
    first = events_until(bus, "tower.fault")[-1]
    assert first.data["kind"] == "beam_stuck"
    tower.toss({"red": 4})
    events = events_until(bus, "tower.fault", since=first.id)
    assert "toss.result" in [e.topic for e in events]
    assert events[-1].data["kind"] == "beam_obstructed"


# -- snapshots and pieces in toss.result ---------------------------------------------------------
def released(result: dict[str, Any]) -> dict[str, int]:
    """The simulator's truth of a result: what left the tower."""
    record = result["record"]
    return {c: record["contents_before"][c] + record["pieces_in"][c] - record["contents_after"][c]
            for c in record["pieces_in"]}


def test_a_camera_counted_toss_saves_its_frame_and_reports_it_with_the_pieces(
    tower: TowerService, bus: CheckingBus, tmp_path: Path
) -> None:
    toss_id = tower.toss({"orange": 5, "turquoise": 4})
    result = events_until(bus, "toss.result")[-1].data
    assert result["source"] == "camera"
    assert result["snapshot"] == f"snapshots/{toss_id}.jpg"
    assert bus.snapshot_before_result == [True]  # written before the result went out
    snapshot = cv2.imread(str(tmp_path / result["snapshot"]))
    assert snapshot is not None and snapshot.shape == (480, 640, 3)  # the tray frame, as a JPEG
    pieces = result["pieces"]
    assert len(pieces) == result["camera_count"]
    assert all(set(p) == {"colour", "confidence", "x", "y"} and 0 <= p["confidence"] <= 1 for p in pieces)
    per_colour = {c: sum(p["colour"] == c for p in pieces) for c in result["counts"]}
    assert per_colour == result["counts"]  # the pieces are the detection that made the counts
    assert sum(p["colour"] == "unknown" for p in pieces) == result["unknown"]


def test_the_snapshot_shows_the_counted_tray(tower: TowerService, bus: CheckingBus, tmp_path: Path) -> None:
    """The saved JPEG, counted again, gives the toss's counts: it is the frame the camera counted."""
    tower.toss({"red": 4, "yellow": 3})
    result = events_until(bus, "toss.result")[-1].data
    assert tower.camera is not None
    again = tower.camera.count(cv2.imread(str(tmp_path / result["snapshot"])))
    assert again.counts == result["counts"]


def test_a_toss_without_a_camera_count_has_no_snapshot(
    tower: TowerService, bus: CheckingBus, tmp_path: Path
) -> None:
    tower.camera = None  # counted from the simulator's truth
    tower.toss({"red": 6})
    result = events_until(bus, "toss.result")[-1].data
    assert result["source"] == "simulator-truth"
    assert result["snapshot"] is None and result["pieces"] == []
    assert not (tmp_path / "snapshots").exists()


def test_a_snapshot_that_cannot_be_written_is_a_fault_not_a_lost_toss(
    tower: TowerService, bus: CheckingBus, tmp_path: Path
) -> None:
    (tmp_path / "snapshots").write_text("a file where the folder should be")
    toss_id = tower.toss({"green": 5})
    events = events_until(bus, "toss.result")
    faults = [e.data for e in events if e.topic == "tower.fault"]
    assert faults and faults[-1]["kind"] == "snapshot_failed" and toss_id in faults[-1]["message"]
    result = events[-1].data
    assert result["snapshot"] is None and result["source"] == "camera" and result["pieces"]
    assert bus.stored_before_result == [True]


# -- the camera for the calibration wizard -------------------------------------------------------
def test_capture_frame_takes_a_lit_photo_of_what_lies_in_the_simulated_tray(tower: TowerService) -> None:
    assert tower.camera is not None and tower.rig is not None
    scene = place_pieces({"purple": 3, "white": 2}, np.random.default_rng(4), touching=0.0, spacing=12)
    tower.place_in_tray(scene)
    frame = tower.capture_frame()
    assert isinstance(frame, np.ndarray) and frame.shape == (480, 640, 3) and frame.dtype == np.uint8
    counted = tower.camera.count(frame)
    assert counted.counts["purple"] == 3 and counted.counts["white"] == 2 and counted.total == 5
    assert tower.rig.light.value == pytest.approx(tower.rig.light.idle_level)  # dimmed again


def test_capture_frame_switches_the_light_to_full(tower: TowerService) -> None:
    camera = TruthCamera(tower)
    tower.camera = camera
    tower.capture_frame()
    assert camera.light_at_capture == [1.0]


def test_the_camera_is_refused_while_a_toss_runs(tower: TowerService, bus: CheckingBus) -> None:
    tower.toss({"black": 8})
    with pytest.raises(TowerBusyError, match="tossing"):
        tower.capture_frame()
    with pytest.raises(TowerBusyError):
        tower.place_in_tray({"black": 1})
    events_until(bus, "toss.result")


def test_a_camera_that_did_not_open_is_named_by_capture_frame_and_reload(
    bus: CheckingBus, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(seed: int, instance_dir: Path | None) -> None:
        raise OSError("camera cable unplugged")

    monkeypatch.setattr(service_module, "simulated_camera", broken)
    service = TowerService(bus, store, seed=2, time_scale=FAST)
    service.start()
    try:
        assert service.camera_ready.wait(5)
        with pytest.raises(CameraUnavailableError, match="could not be opened: camera cable unplugged"):
            service.capture_frame()
        with pytest.raises(CameraUnavailableError, match="camera cable unplugged"):
            service.reload_calibration()
    finally:
        service.stop()


@functools.lru_cache(maxsize=1)
def swapped_calibration_json() -> str:
    """A calibration of the simulated tray made by a table that put green where red belonged."""
    empty, frames = calibration_set(seed=5)
    frames["red"], frames["green"] = frames["green"], frames["red"]
    return json.dumps(calibrate(empty, frames).to_json())


def test_reload_calibration_makes_the_next_toss_count_with_the_new_file(
    tower: TowerService, bus: CheckingBus, tmp_path: Path
) -> None:
    tower.toss({"red": 6})
    before = events_until(bus, "toss.result")[-1]
    assert before.data["counts"]["green"] == released(before.data)["green"]  # the default calibration
    (tmp_path / "calibration.json").write_text(swapped_calibration_json())
    tower.reload_calibration()
    assert tower.status()["calibrated"]
    for _ in range(3):  # until a toss lets some red out
        since = bus.last_id
        tower.toss({"red": 6})
        result = events_until(bus, "toss.result", since=since)[-1].data
        fell = released(result)
        if fell["red"]:
            break
    assert fell["red"] and not fell["green"]
    assert result["counts"]["green"] == fell["red"] and result["counts"]["red"] == 0  # red now reads green


def test_a_bad_calibration_file_is_refused_and_the_old_one_kept(
    tower: TowerService, bus: CheckingBus, tmp_path: Path
) -> None:
    (tmp_path / "calibration.json").write_text('{"version": 1}')
    with pytest.raises(CalibrationError):
        tower.reload_calibration()
    assert tower.camera is not None and tower.camera.calibrated
    tower.toss({"red": 6})
    result = events_until(bus, "toss.result")[-1].data
    assert result["source"] == "camera" and result["counts"]["green"] == released(result)["green"]


def test_capture_frame_waits_for_a_camera_still_opening(
    bus: CheckingBus, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wizard may ask for a photo right after the companion starts: it gets one, a little later."""
    camera = TruthCamera()

    def slow(seed: int, instance_dir: Path | None) -> TruthCamera:
        time.sleep(0.3)
        return camera

    monkeypatch.setattr(service_module, "simulated_camera", slow)
    service = TowerService(bus, store, seed=2, time_scale=FAST)
    service.start()
    try:
        assert not service.camera_ready.is_set()
        assert service.capture_frame().shape == (48, 64, 3)
    finally:
        service.stop()


class BrokenCamera(TruthCamera):
    """A camera whose capture fails (a cable pulled mid-game)."""

    def capture(self) -> np.ndarray:
        raise OSError("camera cable pulled")


def test_a_camera_that_fails_costs_the_count_not_the_toss(
    tower: TowerService, bus: CheckingBus, store: Store
) -> None:
    tower.camera = BrokenCamera(tower)
    toss_id = tower.toss({"green": 5, "red": 2})
    events = events_until(bus, "toss.result")
    faults = [e.data for e in events if e.topic == "tower.fault"]
    assert faults and faults[-1]["kind"] == "capture_failed" and "camera cable pulled" in faults[-1]["message"]
    result = events[-1].data
    assert result["toss_id"] == toss_id and result["snapshot"] is None
    assert result["source"] == "simulator-truth"  # off the Pi the simulator still knows what fell
    assert bus.stored_before_result == [True]
    (record,) = iter_tosses(store)
    assert record.pieces_in["green"] == 5 and record.drop_times_ms == [
        e.data["t_ms"] for e in events if e.topic == "toss.drop"]


@pytest.mark.parametrize("trouble, kinds", [("stuck", ["beam_stuck", "beam_obstructed"]), ("blind", ["beam_dead"])])
def test_a_fault_carries_its_words_for_every_phone_beside_its_english(
    tower: TowerService, bus: CheckingBus, trouble: str, kinds: list[str]
) -> None:
    """Faults from the firmware (a stuck or obstructed beam) and the service's own (a dead beam) are
    published in English with their words as a message, which a German phone shows in German."""
    assert tower.player is not None
    tower.player.inject(trouble)
    tower.camera = TruthCamera()
    faults = [events_until(bus, "tower.fault")[-1].data] if trouble == "stuck" else []
    since = bus.last_id
    tower.toss({"red": 12})
    faults.append(events_until(bus, "tower.fault", since=since)[-1].data)
    assert [fault["kind"] for fault in faults] == kinds
    for fault in faults:
        said = Msg.from_json(fault["say"])
        german = said.render("de")
        assert said.english() == fault["message"] and german != fault["message"]
        assert untranslated(german) == [], german
