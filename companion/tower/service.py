"""The tower service: runs tosses and publishes what happens on the event bus.

The table service and the dashboard only call ``toss()`` and read ``status()``; everything else arrives as events
(``toss.started``, ``toss.drop``, ``toss.settled``, ``toss.result``, ``tower.fault``). Each toss is
stored as a ``TossRecord`` before its result is published, so nothing the table saw is lost.

Both modes run the same code from the pins up: a ``TowerRig`` (gpiozero devices), its ``BreakBeam``
edges through a ``DropTimer``, and the capture step. On a Pi the rig sits on gpiozero's default
(lgpio) factory; in simulated mode on a ``ScaledMockFactory`` whose receiver pin a ``BeamPlayer``
drives with the simulated tower's drop times, and whose "camera" renders the pieces that fell out
(``firmware.tray_camera``). One worker thread owns the timer; the pin callbacks only enqueue edges.

A toss the camera counted keeps its frame as ``<instance>/snapshots/<toss_id>.jpg`` (written before
the result is published, which names it with the detector's pieces). The same camera serves the
calibration wizard: ``capture_frame()`` takes a lit photo of the tray, ``place_in_tray()`` lays
pieces out in the simulated one, and ``reload_calibration()`` makes a newly saved
``calibration.json`` count the next toss without a restart.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import COLOURS
from companion.errors import ConfigError, KeshiError
from companion.events import EventBus
from companion.i18n import Msg, as_msg, error_words, render_words
from companion.store import Store
from companion.tower.count_words import check_json
from companion.tower.model import SimulatedTower, TossOutcome, TowerParams
from companion.tower.record import ColourCounts, TossRecord, colour_counts, save_toss
from firmware.capture import CameraCount, capture_count, lit_frame, save_snapshot
from firmware.config import load_beam_calibration, load_tower_config, save_beam_calibration
from firmware.crosscheck import BeamCalibration, BeamLearner, cross_check
from firmware.pins import PinMap
from firmware.rig import TowerRig, simulated_rig
from firmware.simulated import TOGETHER_P, BeamPlayer, beam_edges, drop_times_ms
from firmware.timing import Drop, DropTimer, Fault, Settled, TimingConfig, TimingEvent, TossStarted
from firmware.tray_camera import (
    CameraUnavailableError,
    TrayCamera,
    TrayScene,
    calibration_path,
    hardware_camera,
    missing_calibration,
    simulated_camera,
)

log = logging.getLogger(__name__)

#: How often the worker looks at the clock when no edge arrives (real seconds).
POLL_INTERVAL_S = 0.005
#: On the Pi, edges reach Python a little after their kernel timestamp: the timer's idea of "now"
#: stays this far behind the clock, so a bounce edge still in flight is never taken for silence.
EDGE_LATENCY_S = 0.005
#: Where toss snapshots go, inside the instance folder (``companion.web.snapshots`` serves them).
SNAPSHOT_DIR = "snapshots"
#: How long the camera's users (the calibration wizard) wait for a camera still opening (seconds).
CAMERA_START_WAIT_S = 120.0


#: Faults whose English comes from the rig's firmware (``firmware.timing``, ``firmware.devices``), by kind.
FIRMWARE_FAULTS: dict[str, Msg] = {
    "beam_stuck": Msg("the beam has been blocked for more than {seconds} s: a piece is stuck at the tower exit or "
                      "the beam is misaligned"),
    "beam_disconnected": Msg("the receiver did not see the emitter switch off: it is disconnected or unpowered"),
    "beam_obstructed": Msg("the receiver reads blocked with the emitter on: the beam is obstructed or misaligned"),
}


def _firmware_fault(kind: str, english: str, **values: str) -> Msg:
    """A firmware fault in player words: its known message (with ``values``), else its English as it came."""
    known = FIRMWARE_FAULTS.get(kind)
    return Msg(known.text, **values) if known is not None else as_msg(english)


def next_contents(before: Mapping[str, int], pieces_in: Mapping[str, int], out: Mapping[str, int]) -> ColourCounts:
    """The Pi's running estimate of what the tower holds after a toss: held + tossed in − counted out.

    A piece counted out that was not believed inside cannot make the estimate negative (it was a
    leftover); a piece the camera missed stays "held" until the table's correction (``set_contents``)
    or an emptied tower says otherwise.
    """
    return {c: max(0, before.get(c, 0) + pieces_in.get(c, 0) - out.get(c, 0)) for c in COLOURS}


def misread_count(camera: CameraCount, change: Mapping[str, int]) -> CameraCount:
    """``camera`` off by ``change`` per colour (never below 0), as a misreading camera would report it
    (``TowerService.misread_next``): the pieces it names change with the counts."""
    counts = {c: max(0, camera.counts.get(c, 0) + change.get(c, 0)) for c in COLOURS}
    pieces: list[dict[str, Any]] = [p for p in camera.pieces if p.get("colour") not in counts]
    for colour, n in counts.items():
        named = [p for p in camera.pieces if p.get("colour") == colour][:n]
        pieces += named + [{"colour": colour, "confidence": 1.0}] * (n - len(named))
    return CameraCount(counts, camera.unknown, tuple(pieces))


class TowerBusyError(KeshiError, RuntimeError):
    """A toss was asked for while the previous one has not settled yet."""


@dataclass
class _Toss:
    """The toss in progress: who asked, what went in, and (simulated) what the tower did."""

    toss_id: str
    source: str
    pieces_in: ColourCounts
    started_at: float
    context: dict[str, Any]
    outcome: TossOutcome | None = None
    camera: TrayCamera | None = None  # the camera as it was when the toss started
    drops: list[Drop] = field(default_factory=list)
    settled: bool = False  # from here on its record is being made: what went in is fixed


class TowerService:
    """Runs tosses of one tower (real on a Pi, simulated elsewhere) and reports them on ``bus``."""

    def __init__(
        self,
        bus: EventBus,
        store: Store,
        *,
        mode: str = "simulated",
        instance_dir: Path | None = None,
        layer: str = "B1",
        tower: str = "default",
        seed: int | None = None,
        time_scale: float = 1.0,
        pins: PinMap | None = None,
        timing: TimingConfig | None = None,
        together_p: float = TOGETHER_P,
        camera_frames: Path | None = None,
    ) -> None:
        """``together_p``: how often the simulated tower's pieces leave together (its beam's clumping);
        ``camera_frames``: hardware mode's camera replays this folder's images instead of Picamera2."""
        if mode not in ("simulated", "hardware"):
            raise ConfigError(f"tower mode must be simulated or hardware, not {mode!r}")
        self.bus = bus
        self.store = store
        self.mode = mode
        self.instance_dir = instance_dir
        self.tower_name = tower
        self.rng = random.Random(seed)
        self.tower = SimulatedTower(TowerParams(layer=layer), self.rng)
        self.time_scale = time_scale
        self.camera_frames = camera_frames
        file_pins, file_timing = load_tower_config(instance_dir)
        self.pins = pins or file_pins
        self.timer = DropTimer(timing or file_timing)
        #: How long one piece blocks the beam (``tower.json``'s ``beam``, else a default) for the cross-check.
        self.beam_calibration = load_beam_calibration(instance_dir) or BeamCalibration()
        #: Refines ``beam_calibration`` from the tosses the camera counts (kept in ``tower.json``).
        self.beam_learner = BeamLearner()
        #: Simulated: how often a piece leaves the tower together with the one before (the clumping knob).
        self.together_p = together_p
        self.rig: TowerRig | None = None
        self.player: BeamPlayer | None = None
        self.camera: TrayCamera | None = None
        self._held = colour_counts()  # hardware: what the tower holds, as far as the camera and table know
        #: Called when the toss button is pressed; starts the toss itself (for the game waiting for one)
        #: and returns its id, or returns None to let the button toss with nothing known to go in.
        self.button_handler: Callable[[], str | None] | None = None
        #: Called with the toss's id when pieces fall without anyone starting a toss (on the worker
        #: thread, before it goes on): the dashboard may ``claim`` it for the game waiting for a toss.
        self.beam_handler: Callable[[str], None] | None = None
        self._unclaimed: str | None = None  # a toss the beam just started, for ``beam_handler``
        self._misread: dict[str, int] | None = None  # simulated: a miscount for the next result
        self._lock = threading.Lock()
        self._camera_lock = threading.Lock()  # one capture (or calibration reload) at a time
        self._camera_problem: Msg = Msg("the tower has no camera")
        self._current: _Toss | None = None
        self._horizon = float("inf")  # simulated: no edge before this time is still to come
        self._beam_state = "unknown"
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None
        self._players: list[threading.Thread] = []
        self._camera_opener: threading.Thread | None = None
        #: Set once the camera has been opened (or found missing); see ``_open_camera``.
        self.camera_ready = threading.Event()

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Set up the pins and camera, self-test the beam and start watching it."""
        self._stopping.clear()
        if self.mode == "simulated":
            self.rig = simulated_rig(self.pins, time_scale=self.time_scale)
            self.player = BeamPlayer(self.rig)
        else:
            self.rig = TowerRig(self.pins)
        camera_seed = self.rng.getrandbits(32)
        self._camera_opener = threading.Thread(
            target=self._open_camera, args=(camera_seed,), name="tower-camera", daemon=True
        )
        self._camera_opener.start()
        if self.rig.button is not None:
            self.rig.button.when_toss_requested = self._button_pressed
        self._self_test()
        self._worker = threading.Thread(target=self._watch, name="tower-beam", daemon=True)
        self._worker.start()

    def _open_camera(self, seed: int) -> None:
        """Open the camera in the background: the detector's calibration takes seconds to load or
        (simulated) to compute, and the dashboard should not wait for it. Until it is ready,
        simulated tosses are counted from the simulator's truth and hardware tosses are flagged."""
        try:
            if self.mode == "simulated":
                camera = simulated_camera(seed, self.instance_dir)
            else:
                light = self.rig.light if self.rig is not None else None
                camera = hardware_camera(self.instance_dir, light, self.camera_frames)
            if self._stopping.is_set() and camera is not None:
                camera.close()  # stopped while the camera was opening
                return
            self.camera = camera
            if camera is None:
                self._camera_problem = Msg("the simulated tower has no camera (the vision package did not load)")
            if camera is not None and not camera.calibrated:
                self._fault("camera_uncalibrated", missing_calibration(self.instance_dir),
                            Msg("the tower's camera has no calibration yet: calibrate it in Setup → Calibrate camera"))
        except (KeshiError, OSError) as exc:
            self._camera_problem = Msg("the tower's camera could not be opened: {problem}", problem=error_words(exc))
            self._fault("camera_unavailable", str(exc), Msg("the tower's camera could not be opened ({problem})",
                                                            problem=error_words(exc)))
        finally:
            self.camera_ready.set()

    def stop(self) -> None:
        """Stop watching and release the pins; an unfinished toss is abandoned. Returns within 1 s."""
        self._stopping.set()
        deadline = time.monotonic() + 0.9
        for thread in [self._worker, *self._players, self._camera_opener]:
            if thread is not None:
                thread.join(timeout=max(0.0, deadline - time.monotonic()))
        if self.camera is not None:
            self.camera.close()
        if self.rig is not None:
            self.rig.close()
            self.rig = None

    def status(self) -> dict[str, Any]:
        """What the dashboard shows about the tower."""
        return {
            "mode": self.mode,
            "camera": self.camera.name if self.camera is not None else (
                "none" if self.camera_ready.is_set() else "starting"),
            "calibrated": self.camera is not None and self.camera.calibrated,
            "beam": self._beam_state,
            "layer": self.tower.params.layer,
            "tower": self.tower_name,
        }

    # -- the camera, for the calibration wizard -------------------------------------------------
    def capture_frame(self) -> Any:
        """One photo of the tray with the tower's camera (BGR numpy array), the light at full for it.

        Refused while a toss runs (its frame and light belong to the toss); ``CameraUnavailableError``
        when there is no camera.
        """
        camera = self._idle_camera()
        assert self.rig is not None
        with self._camera_lock:
            return lit_frame(self.rig.light, camera)

    def settle_camera(self) -> Any:
        """Let the camera's exposure and white balance settle on the tray under the full tray light,
        then lock them; return the settings (``vision.calibrate.CameraSettings``) for the calibration,
        or None when the camera has nothing to lock (simulated). The calibration wizard calls this
        on the empty tray, before its first photo."""
        camera = self._idle_camera()
        assert self.rig is not None
        with self._camera_lock, self.rig.light.for_capture():
            return camera.settle()

    def place_in_tray(self, scene: TrayScene) -> None:
        """Simulated tower only: lay these pieces in its tray (what the table does by hand on a Pi).

        ``scene`` is colour counts or ``vision.synthetic.PlacedPiece`` s; the next ``capture_frame``
        shows them.
        """
        if self.mode != "simulated":
            raise KeshiError(Msg("only the simulated tower's tray can be filled from the dashboard; "
                                 "on the Pi put the pieces in the tray by hand"))
        self._idle_camera().show(scene)

    def reload_calibration(self) -> None:
        """Load ``<instance>/calibration.json`` into the camera: the next toss counts with it.

        In simulated mode without the file the simulated tower's default calibration is used again.
        Waits for a camera that is still opening. A toss being counted meanwhile counts with the old or
        the new calibration, never a mix. A bad file raises vision's ``CalibrationError`` and the
        camera keeps its previous calibration.
        """
        camera = self._opened_camera()
        with self._camera_lock:
            camera.load_calibration(calibration_path(self.instance_dir))
        log.info("tower camera calibration reloaded (calibrated: %s)", camera.calibrated)

    def _idle_camera(self) -> TrayCamera:
        """The camera, when no toss is using it (its frame and light belong to the toss)."""
        with self._lock:
            if self._current is not None or self.timer.in_toss:
                raise TowerBusyError(Msg("the tower is tossing; wait for its result before using the camera"))
        return self._opened_camera()

    def _opened_camera(self) -> TrayCamera:
        """The camera of the running tower, waiting for it to open; ``CameraUnavailableError`` if none."""
        if self.rig is None:
            raise KeshiError("the tower service is not running; start() it first")
        if not self.camera_ready.wait(CAMERA_START_WAIT_S):
            raise CameraUnavailableError(Msg("the tower's camera did not open within {seconds} s",
                                             seconds=f"{CAMERA_START_WAIT_S:.0f}"))
        if self.camera is None:
            raise CameraUnavailableError(self._camera_problem)
        return self.camera

    # -- what the tower holds -----------------------------------------------------------------
    def contents(self) -> ColourCounts:
        """What the tower holds: the simulator's truth, or on the Pi the running estimate."""
        with self._lock:
            return dict(self.tower.held) if self.mode == "simulated" else dict(self._held)

    def set_contents(self, counts: Mapping[str, int], reason: str) -> ColourCounts:
        """Make the tower hold ``counts`` as far as it knows, because the table said so (``reason``):
        the game's count after a confirmed or corrected release, an undo, or a tower emptied by hand.

        On the Pi this replaces the running estimate (the next toss's ``contents_before``); the
        simulated tower follows too, so it never holds what the table says is not there. Refused with
        ``TowerBusyError`` while a toss runs (its record is being made from the old contents).
        Returns what it held before.
        """
        wanted = colour_counts(counts)
        with self._lock:
            if self._current is not None or self.timer.in_toss:
                raise TowerBusyError(Msg("the tower is tossing: wait for its result before changing what it holds"))
            before = dict(self.tower.held) if self.mode == "simulated" else dict(self._held)
            if self.mode == "simulated":
                self.tower.held = dict(wanted)
            else:
                self._held = dict(wanted)
        if before != wanted:
            log.info("tower contents set by the table (%s): %s", reason, {c: n for c, n in wanted.items() if n})
            self.bus.publish("tower.contents", {"contents": wanted, "before": before, "reason": reason})
        return before

    def empty(self, found: Mapping[str, int] | None = None) -> ColourCounts:
        """The table emptied the tower by hand (``found``: what fell out, when counted): it now holds
        nothing. Returns what it was believed to hold."""
        found_counts = colour_counts(found)
        before = self.set_contents(colour_counts(), "emptied by hand")
        self.bus.publish("tower.emptied", {"believed": before, "found": found_counts})
        return before

    def misread_next(self, change: Mapping[str, int]) -> None:
        """Simulated tower only: the next toss's reported counts are off by ``change`` (per colour,
        may be negative; never below 0), as a camera that misreads would be — the truth is untouched.
        For rehearsing (and testing) the table's correction of a wrong count."""
        if self.mode != "simulated":
            raise KeshiError(Msg("only the simulated tower can be told to misread; on the Pi the camera does that"))
        unknown = sorted(set(change) - set(COLOURS))
        if unknown:
            raise KeshiError(Msg("unknown keshi colour(s) {colours}", colours=unknown))
        self._misread = {c: int(n) for c, n in change.items()}

    @property
    def busy(self) -> bool:
        """True while a toss runs (from its start until its result is published)."""
        with self._lock:
            return self._current is not None or self.timer.in_toss

    # -- tosses -------------------------------------------------------------------------------
    def toss(
        self,
        pieces_in: Mapping[str, int] | None = None,
        *,
        game_id: str | None = None,
        season: int | None = None,
        round: int | None = None,
        source: str = "dashboard",
    ) -> str:
        """Start a toss and return its id at once; its events follow on the bus.

        Without ``pieces_in`` the simulator tosses a random table's handful; on the Pi the pieces
        are then unknown and recorded as none.
        """
        if self.rig is None:
            raise KeshiError("the tower service is not running; start() it first")
        if pieces_in is not None:
            pieces = colour_counts(pieces_in)
        elif self.mode == "simulated":
            pieces = self._random_handful()
        else:
            pieces = colour_counts()
        with self._lock:
            if self._current is not None or self.timer.in_toss:
                raise TowerBusyError(Msg("the tower is still settling from the previous toss; wait for its result"))
            now = self.rig.ticks()
            toss = _Toss(uuid.uuid4().hex[:12], source, pieces, time.time(),
                         {"game_id": game_id, "season": season, "round": round}, camera=self.camera)
            self._current = toss
            if self.mode == "simulated":
                self._drop_simulated(toss, now)
            for event in self.timer.start(now, source):
                self._publish(event)
        return toss.toss_id

    def claim(self, toss_id: str, pieces_in: Mapping[str, int], context: Mapping[str, Any],
              held_before: Mapping[str, int]) -> bool:
        """Say what went into toss ``toss_id``, which the beam started (pieces dropped in before
        anyone pressed Toss), and for which game (``context``: game_id, season, round); on the Pi
        the running estimate becomes ``held_before`` (the game's word). False, changing nothing,
        when that toss is over, settled, or was not the beam's."""
        pieces, held = colour_counts(pieces_in), colour_counts(held_before)
        with self._lock:
            toss = self._current
            if toss is None or toss.toss_id != toss_id or toss.source != "beam" or toss.settled:
                return False
            toss.pieces_in = pieces
            toss.context = {key: context.get(key) for key in ("game_id", "season", "round")}
            if self.mode != "simulated":
                self._held = held
        return True

    def _button_pressed(self) -> None:
        """The toss button: for the game waiting for a toss (via ``button_handler``, which says what
        goes in), else a toss with nothing known to go in."""
        try:
            if self.button_handler is not None and self.button_handler() is not None:
                return
            self.toss(source="button")
        except TowerBusyError:
            log.info("toss button pressed while a toss is running; ignored")
        except KeshiError as exc:  # the game refused the toss (e.g. a result still waits): say why
            log.info("toss button refused: %s", exc)  # ... on that game's phones (its stream forwards it)
            self.bus.publish("tower.refused", {"source": "button", "message": str(exc),
                                               "say": as_msg(error_words(exc)).to_json(),
                                               "game_id": getattr(exc, "game_id", None)})

    def _random_handful(self) -> ColourCounts:
        pieces = dict.fromkeys(COLOURS, 0)
        for colour in self.rng.choices(COLOURS, k=self.rng.randint(6, 12)):
            pieces[colour] += 1
        return pieces

    def _drop_simulated(self, toss: _Toss, start: float) -> None:
        """Toss into the simulated tower and play its beam edges on the receiver pin (in a thread)."""
        assert self.player is not None
        toss.outcome = self.tower.toss(toss.pieces_in)
        if toss.camera is not None:
            toss.camera.show(toss.outcome.released)  # the tray fills while the pieces fall
        edges = beam_edges(drop_times_ms(sum(toss.outcome.released.values()), self.rng), self.rng,
                           together_p=self.together_p)
        self._horizon = start + edges[0].t_ms / 1000.0 if edges else float("inf")
        player = self.player

        def play() -> None:
            for i, edge in enumerate(edges):
                if not player.play([edge], start, self._stopping):
                    return
                following = edges[i + 1].t_ms / 1000.0 if i + 1 < len(edges) else float("inf")
                self._horizon = start + following

        self._players = [t for t in self._players if t.is_alive()]
        thread = threading.Thread(target=play, name=f"tower-sim-{toss.toss_id}", daemon=True)
        self._players.append(thread)
        thread.start()

    # -- the worker ---------------------------------------------------------------------------
    def _now(self) -> float:
        assert self.rig is not None
        if self.mode == "simulated":
            return min(self.rig.ticks(), self._horizon)
        return self.rig.ticks() - EDGE_LATENCY_S

    def _watch(self) -> None:
        """Feed edges and the clock to the timer; act on its events. The only thread that settles."""
        assert self.rig is not None
        beam = self.rig.beam
        while not self._stopping.is_set():
            try:
                first = beam.edges.get(timeout=POLL_INTERVAL_S)
            except queue.Empty:  # no edge: just let time pass
                first = None
            settled: tuple[_Toss, Settled] | None = None
            with self._lock:
                events: list[TimingEvent] = []
                if first is not None:
                    events += self.timer.edge(first.ticks, first.blocked)
                for edge in beam.drain():
                    events += self.timer.edge(edge.ticks, edge.blocked)
                events += self.timer.poll(self._now())
                for event in events:
                    done = self._publish(event)
                    if done is not None:
                        settled = done
                unclaimed, self._unclaimed = self._unclaimed, None
            if unclaimed is not None and self.beam_handler is not None:
                try:  # before this thread goes on, so the toss cannot settle before it is claimed
                    self.beam_handler(unclaimed)
                except Exception:
                    log.exception("the beam's toss %s could not be given to a game", unclaimed)
            if settled is not None:
                self._finish(*settled)

    def _publish(self, event: TimingEvent) -> tuple[_Toss, Settled] | None:
        """Publish one timing event (lock held); a settled toss is returned for the capture step."""
        if isinstance(event, TossStarted):
            if self._current is None:  # the beam started it: nobody said what went in
                self._current = _Toss(uuid.uuid4().hex[:12], "beam", colour_counts(), time.time(),
                                      {"game_id": None, "season": None, "round": None}, camera=self.camera)
                self._unclaimed = self._current.toss_id
            toss = self._current
            self.bus.publish("toss.started", {"toss_id": toss.toss_id, "pieces_in": toss.pieces_in,
                                              "started_at": toss.started_at, "source": toss.source})
        elif isinstance(event, Drop) and self._current is not None:
            self._current.drops.append(event)
            self.bus.publish("toss.drop", {"toss_id": self._current.toss_id, "index": event.index,
                                           "t_ms": event.t_ms, "gap_ms": event.gap_ms,
                                           "blocked_ms": event.blocked_ms, "double": event.double})
        elif isinstance(event, Fault):
            self._beam_state = "fault"
            self._fault(event.kind, event.message, _firmware_fault(event.kind, event.message,
                                                                   seconds=f"{self.timer.config.stuck_s:g}"))
        elif isinstance(event, Settled) and self._current is not None:
            self._current.settled = True
            self.bus.publish("toss.settled", {"toss_id": self._current.toss_id, "drops": len(event.drops)})
            return self._current, event
        return None

    # -- capture, record, result ----------------------------------------------------------------
    def _finish(self, toss: _Toss, settled: Settled) -> None:
        """Capture and count, cross-check with the beam, store the record, then publish the result."""
        try:
            frame, camera = self._capture(toss)
            beam_count = settled.beam_count
            misread, self._misread = self._misread, None
            if misread is not None and toss.outcome is not None and camera is not None:
                camera = misread_count(camera, misread)
            if toss.outcome is not None and camera is None:
                counts, source, check = toss.outcome.released, "simulator-truth", None
                if misread is not None:  # the simulator's truth misread: flagged as today's rule would
                    counts = {c: max(0, counts[c] + misread.get(c, 0)) for c in COLOURS}
                    misread_flag = sum(counts.values()) != beam_count
            else:
                # no camera count: nothing is known of what fell out until the table says ("none")
                counts = colour_counts(camera.counts) if camera is not None else colour_counts()
                source = "camera" if camera is not None else "none"
                check = cross_check(settled.drops, camera, self.beam_calibration, self._could_release(toss))
                if camera is not None and misread is None:
                    self._learn_beam(settled.drops, camera)
            flagged = check.flagged if check is not None else misread is not None and misread_flag
            camera_total = camera.total if camera is not None else None
            snapshot = self._save_snapshot(toss.toss_id, frame) if camera is not None else None
            before, after = self._contents(toss, counts)
            record = TossRecord(
                toss_id=toss.toss_id, tower=self.tower_name, layer=self.tower.params.layer, mode=self.mode,
                started_at=toss.started_at, pieces_in=toss.pieces_in, pieces_out=counts,
                contents_before=before, contents_after=after,
                drop_times_ms=[d.t_ms for d in settled.drops], beam_count=beam_count,
                camera_count=camera_total,
                counts_source=source, flagged=flagged, **toss.context,
            )
            verdict = check_json(check) if check is not None else None
            save_toss(self.store, record, verdict)
            self.bus.publish("toss.result", {
                "toss_id": toss.toss_id, "counts": counts, "unknown": camera.unknown if camera else 0,
                "source": source, "beam_count": beam_count, "camera_count": record.camera_count,
                "flagged": flagged, "check": verdict, "snapshot": snapshot,
                "pieces": list(camera.pieces) if camera is not None else [], "record": record.to_dict(),
            })
            if settled.silent:
                self._report_silent_beam(toss, camera)
            elif not self.timer.stuck:
                self._beam_state = "ok"
        except Exception as exc:  # a failure here must not kill the tower: report it, go on
            log.exception("toss %s could not be finished", toss.toss_id)
            self._fault("toss_failed", Msg("toss {toss} could not be recorded: {problem}", toss=toss.toss_id,
                                           problem=error_words(exc)), toss_id=toss.toss_id)
        finally:
            with self._lock:
                self._current = None
                self._horizon = float("inf")

    def _could_release(self, toss: _Toss) -> ColourCounts | None:
        """The most of each colour that can have fallen out: held before plus what went in (the
        simulator's truth, or on the Pi the running estimate); None when nothing known went in."""
        if not sum(toss.pieces_in.values()):
            return None
        held = toss.outcome.held_before if toss.outcome is not None else self._held
        return {c: held.get(c, 0) + toss.pieces_in.get(c, 0) for c in COLOURS}

    def _learn_beam(self, drops: Sequence[Drop], camera: CameraCount) -> None:
        """Refine this tower's beam calibration from one counted toss; a new one is used from the next
        toss on and written to ``tower.json`` (a file that cannot be written costs the keeping only)."""
        learned = self.beam_learner.observe(drops, camera)
        if learned is None or learned == self.beam_calibration:
            return
        self.beam_calibration = learned
        log.info("tower %s: beam calibration learned from its tosses: %s", self.tower_name, learned)
        if self.instance_dir is not None:
            try:
                save_beam_calibration(self.instance_dir, learned)
            except (OSError, ConfigError) as exc:
                log.warning("the learned beam calibration could not be kept in tower.json: %s", exc)

    def _capture(self, toss: _Toss) -> tuple[Any, CameraCount | None]:
        """``_count``, but a camera that fails costs the count, not the toss: the record keeps the
        beam's drop times and what went in, flagged for the table, and a fault says why."""
        try:
            return self._count(toss)
        except Exception as exc:  # any camera or detector failure
            log.exception("toss %s could not be counted", toss.toss_id)
            self._fault("capture_failed", Msg("toss {toss} could not be counted: {problem}", toss=toss.toss_id,
                                              problem=error_words(exc)))
            return None, None

    def _count(self, toss: _Toss) -> tuple[Any, CameraCount | None]:
        """The counted frame and its count; (None, None) without a camera that can count."""
        camera = toss.camera
        if camera is None or not camera.calibrated or self.rig is None:
            return None, None
        with self._camera_lock:
            return capture_count(self.rig.light, camera, camera)

    def _save_snapshot(self, toss_id: str, frame: Any) -> str | None:
        """Keep the counted frame as ``snapshots/<toss_id>.jpg`` (relative to the instance folder).

        A snapshot that cannot be written costs the picture, not the toss: a fault says why.
        """
        if self.instance_dir is None:
            return None
        relative = f"{SNAPSHOT_DIR}/{toss_id}.jpg"
        try:
            save_snapshot(frame, self.instance_dir / relative)
        except KeshiError as exc:
            log.warning("%s", exc)
            self._fault("snapshot_failed", str(exc), Msg("the toss's picture could not be saved ({problem})",
                                                         problem=error_words(exc)))
            return None
        return relative

    def _contents(self, toss: _Toss, counts: ColourCounts) -> tuple[ColourCounts, ColourCounts]:
        """What the tower held before and after: the simulator knows; on the Pi, a running estimate."""
        if toss.outcome is not None:
            return toss.outcome.held_before, toss.outcome.held_after
        before = self._held
        after = next_contents(before, toss.pieces_in, counts)
        self._held = after
        return before, after

    def _report_silent_beam(self, toss: _Toss, camera: CameraCount | None) -> None:
        """A toss the beam never saw: a disconnected sensor, a blind beam, or truly nothing fell."""
        problem = self._self_test()
        if problem is not None:
            return  # _self_test published the disconnected fault
        if camera is not None and camera.total == 0:
            return  # nothing fell out: the beam was right to stay quiet
        self._beam_state = "fault"
        if camera is not None:
            self._fault("beam_dead", Msg("no piece crossed the beam during toss {toss} (the camera counted {n}); "
                                         "check the beam's alignment at the tower exit",
                                         toss=toss.toss_id, n=camera.total))
        else:
            self._fault("beam_dead", Msg("no piece crossed the beam during toss {toss} (there is no camera to check); "
                                         "check the beam's alignment at the tower exit", toss=toss.toss_id))

    def _self_test(self) -> str | None:
        """Switch the emitter off and on; publish ``beam_disconnected`` if the receiver did not follow."""
        assert self.rig is not None
        wait = (lambda _s: None) if self.mode == "simulated" else time.sleep
        with self._lock:
            problem = self.rig.emitter.self_test(self.rig.beam, wait)
            for _ in self.rig.beam.drain():
                pass  # the test's own edges are not pieces
        if problem is None:
            self._beam_state = "ok"
            return None
        self._beam_state = "fault"
        kind = "beam_disconnected" if "disconnected" in problem else "beam_obstructed"
        self._fault(kind, problem, _firmware_fault(kind, problem))
        return problem

    def _fault(self, kind: str, message: Msg | str, say: Msg | None = None, **extra: Any) -> None:
        """Publish ``tower.fault``: its ``kind``, the ``message`` in English (logs, the hub, Home
        Assistant) and the same in player words as ``say`` (``Msg.to_json``), which a phone shows in its
        own language. ``say`` defaults to ``message`` when that is already a ``Msg``."""
        said = (say or as_msg(message)).to_json()
        self.bus.publish("tower.fault", {"kind": kind, "message": render_words(message, "en"), "say": said, **extra})
