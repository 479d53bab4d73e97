"""The Pi path (hardware mode) on gpiozero's MockFactory: the tower's running estimate of what it holds.

On a Pi nobody sees inside the tower: the service keeps a running estimate (held before + tossed in −
counted out). It must start from empty when the tower is emptied by hand (between games), follow the
table's corrections (the game's count wins), and a toss from the physical button must say what went
in when a game waits for a toss. Here the rig is the real ``TowerRig``/``BreakBeam``/``DropTimer`` on a
``ScaledMockFactory`` installed as gpiozero's default factory (as lgpio is on a Pi); the test drives
the receiver pin like falling pieces, and a stand-in camera reports the counts the test chooses.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero import Device

from companion import COLOURS
from companion.events import EventBus
from companion.i18n import Msg
from companion.store import Store
from companion.table.service import GameService
from companion.table.tower_link import TowerLink
from companion.tower import service as service_module
from companion.tower.record import TossRecord, iter_tosses
from companion.tower.service import TowerService
from firmware.capture import CameraCount
from firmware.mockpins import EmitterMockPin, ScaledMockFactory, TimedMockPin
from firmware.pins import PinMap
from firmware.tray_camera import TrayScene
from tests.web.test_i18n import untranslated

SCALE = 0.01  # the factory's clock runs 100x faster than real time


class ChosenCamera:
    """A calibrated camera that counts whatever the test put in ``next_counts``."""

    name = "test"
    calibrated = True

    def __init__(self) -> None:
        self.next_counts: dict[str, int] = {}

    def show(self, scene: TrayScene) -> None:
        """The Pi's camera is never told what lies in the tray."""

    def settle(self) -> None:
        """Nothing to lock."""

    def capture(self) -> np.ndarray:
        return np.zeros((8, 8, 3), np.uint8)

    def count(self, frame: np.ndarray) -> CameraCount:
        return CameraCount(dict(self.next_counts), 0)

    def load_calibration(self, path: Path | None) -> None:
        """Keeps its calibration."""

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class PiTower:
    service: TowerService
    camera: ChosenCamera
    factory: ScaledMockFactory
    bus: EventBus
    store: Store

    def receiver(self) -> TimedMockPin:
        pin = self.factory.pin(PinMap().beam)
        assert isinstance(pin, TimedMockPin)
        return pin

    def drops(self, n: int) -> None:
        """``n`` pieces cross the exit beam, 40 ms apart, each blocking it 4 ms."""
        start = self.factory.ticks()
        pin = self.receiver()
        for i in range(n):
            at = start + (0.02 + 0.04 * i)
            pin.drive_at(at, False)
            pin.drive_at(at + 0.004, True)

    def result_of(self, start: Any, out: Mapping[str, int]) -> TossRecord:
        """Start a toss with ``start()``, let ``out`` fall (as counted by the camera), wait for its record."""
        self.camera.next_counts = dict(out)
        with self.bus.subscribe() as sub:
            toss_id = start()
            self.drops(sum(out.values()))
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                event = sub.get(timeout=0.05)
                if event is not None and event.topic == "toss.result" and toss_id in (None, event.data["toss_id"]):
                    return next(r for r in iter_tosses(self.store) if r.toss_id == event.data["toss_id"])
        raise AssertionError("no toss.result within 10 s")


@pytest.fixture
def pi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PiTower]:
    previous = Device.pin_factory
    factory = ScaledMockFactory(SCALE)
    pins = PinMap()
    receiver = factory.pin(pins.beam)
    assert isinstance(receiver, TimedMockPin)
    factory.pin(pins.emitter, pin_class=EmitterMockPin, receiver=receiver)  # the beam's self-test passes
    Device.pin_factory = factory
    camera = ChosenCamera()
    lights: list[object] = []

    def pi_camera(_instance: Path | None, light: object, _frames: Path | None = None) -> ChosenCamera:
        lights.append(light)
        return camera

    monkeypatch.setattr(service_module, "hardware_camera", pi_camera)
    store = Store(tmp_path / "keshi.sqlite3")
    bus = EventBus()
    service = TowerService(bus, store, mode="hardware", instance_dir=None)
    try:
        service.start()
        assert service.camera_ready.wait(10) and service.status()["beam"] == "ok"
        assert service.rig is not None and lights == [service.rig.light]  # the camera pairs frames with the light
        yield PiTower(service, camera, factory, bus, store)
    finally:
        service.stop()
        store.close()
        factory.reset()
        Device.pin_factory = previous


def refusal_after(pi: PiTower, deed: Callable[[], None]) -> dict[str, Any] | None:
    """What the tower's ``tower.refused`` event says within 5 s of ``deed`` (None when none came)."""
    with pi.bus.subscribe() as sub:
        deed()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            event = sub.get(timeout=0.05)
            if event is not None and event.topic == "tower.refused":
                return event.data
    return None


def held(counts: Mapping[str, int]) -> dict[str, int]:
    return {c: n for c, n in counts.items() if n}


def test_emptying_the_tower_by_hand_between_games_resets_the_running_estimate(pi: PiTower) -> None:
    first = pi.result_of(lambda: pi.service.toss({"red": 3, "white": 1}), {"red": 1})
    assert held(first.contents_after) == {"red": 2, "white": 1}  # 3 pieces stayed inside, as far as we know
    assert pi.service.empty({"red": 2, "white": 1}) == first.contents_after  # the table emptied it
    assert not any(pi.service.contents().values())
    second = pi.result_of(lambda: pi.service.toss({"green": 2}), {"green": 2})
    assert not any(second.contents_before.values())  # the next game starts from an empty tower


@dataclass
class Table:
    games: GameService
    link: TowerLink
    game_id: str


@pytest.fixture
def table(pi: PiTower) -> Iterator[Table]:
    """A game on the Pi tower: the games follow the tower's results (as in the dashboard)."""
    stopping = threading.Event()
    games = GameService(pi.store, pi.bus, pi.service)
    link = TowerLink(pi.bus, games, stopping)
    pi.service.button_handler = link.button_toss
    link.start()
    live = games.create({"players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cem"}], "seed": 4})
    games.empty_tower(live.id, {})
    for seat in range(3):
        option = next(iter(live.game.legal_selections(seat)))
        games.act(live.id, {"type": "select", "player": seat, "colours": list(option.colours),
                            "wild_sectors": list(option.wild_sectors)}, None, None)
    assert live.game.phase == "toss"
    yield Table(games, link, live.id)
    stopping.set()


def wait_for_result(games: GameService, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        result = games.get(game_id).tower_result
        if result is not None:
            return result
        time.sleep(0.01)
    raise AssertionError("the game did not get its tower result")


def test_the_tables_correction_flows_into_the_running_estimate(pi: PiTower, table: Table) -> None:
    live = table.games.get(table.game_id)
    tossed = held(live.game.s.tower_inside)
    colour = next(iter(tossed))
    camera = dict(tossed)
    camera[colour] -= 1  # the camera missed one piece that did fall out
    record = pi.result_of(lambda: table.link.toss_game(table.game_id), camera)
    assert record.contents_after[colour] == 1  # the estimate believes the missed piece is still inside
    wait_for_result(table.games, table.game_id)
    table.games.act(table.game_id, {"type": "release", "counts": tossed}, None, None)  # corrected: all fell
    assert not any(pi.service.contents().values())  # the estimate follows the table's word
    (stored,) = [r for r in iter_tosses(pi.store) if r.toss_id == record.toss_id]
    assert stored.correction is not None and held(stored.correction) == tossed
    table.games.undo(table.game_id, None, None)  # the correction taken back: the result waits again
    assert pi.service.contents()[colour] == 1 and table.games.get(table.game_id).tower_result is not None


def test_a_toss_from_the_button_carries_what_went_in(pi: PiTower, table: Table) -> None:
    live = table.games.get(table.game_id)
    tossed = held(live.game.s.tower_inside)
    button = pi.factory.pin(PinMap().button)

    def press() -> None:
        button.drive_low()
        button.drive_high()

    record = pi.result_of(press, tossed)
    assert held(record.pieces_in) == tossed and record.game_id == table.game_id
    assert record.round == 1 and record.season == 1
    result = wait_for_result(table.games, table.game_id)
    assert result["toss_id"] == record.toss_id and held(result["counts"]) == tossed
    refused = refusal_after(pi, press)  # a second press while the result waits: refused, said, nothing tossed
    assert refused is not None and "confirm or correct" in refused["message"]
    said = Msg.from_json(refused["say"])  # the game's refusal as a message: each phone says it in its language
    assert said.english() == refused["message"] and said.render("de") != refused["message"]
    assert untranslated(said.render("de")) == []
    assert len(list(iter_tosses(pi.store))) == 1


def test_a_button_toss_without_a_game_waiting_records_nothing_known_in(pi: PiTower) -> None:
    button = pi.factory.pin(PinMap().button)

    def press() -> None:
        button.drive_low()
        button.drive_high()

    record = pi.result_of(press, {"black": 1})
    assert not any(record.pieces_in.values()) and record.game_id is None
    assert set(record.pieces_in) == set(COLOURS)


def test_pieces_dropped_before_anyone_pressed_toss_are_the_waiting_games_toss(pi: PiTower, table: Table) -> None:
    live = table.games.get(table.game_id)
    tossed = held(live.game.s.tower_inside)
    record = pi.result_of(lambda: None, tossed)  # nobody pressed anything: the beam started this toss
    assert held(record.pieces_in) == tossed and record.game_id == table.game_id and record.round == 1
    assert not any(record.contents_before.values())  # the game's word: nothing else was inside
    result = wait_for_result(table.games, table.game_id)
    assert result["toss_id"] == record.toss_id and held(result["counts"]) == tossed


def test_pieces_dropped_while_a_result_waits_are_refused_in_each_phones_language(pi: PiTower, table: Table) -> None:
    live = table.games.get(table.game_id)
    first = pi.result_of(lambda: None, held(live.game.s.tower_inside))  # the beam's toss: its result now waits
    wait_for_result(table.games, table.game_id)
    refused = refusal_after(pi, lambda: pi.drops(1))  # a stray piece falls before the table confirmed
    assert refused is not None and refused["source"] == "beam" and refused["game_id"] == table.game_id
    said = Msg.from_json(refused["say"])
    assert said.english() == refused["message"] and untranslated(said.render("de")) == []
    waiting = table.games.get(table.game_id).tower_result
    assert waiting is not None and waiting["toss_id"] == first.toss_id  # the waiting result stands
