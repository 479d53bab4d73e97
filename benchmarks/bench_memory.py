"""Memory benchmark: the resident memory and threads of a real ``keshi serve`` through a whole game.

For each mode it starts ``keshi serve`` on a fresh instance, opens the pages a table opens (``/``,
``/games/new``, ``/tower``), creates a 4-player Marrakesh game (the "plays for everyone" role, as
the companion's own screen has), opens ``--streams`` event streams on it (one ``selectors`` loop in
this process, from ``bench_web``), plays the game to its end with ``tests.web.play.first_action``
while tossing the tower ``--tosses`` times (in the game's toss phases, then from the dashboard's
tower if the game ends first), then opens the fairness page and the board page (``/profile``).
It samples the server's RSS and threads (``/proc/<pid>/status``) after every stage, and every
50 ms in between, and prints a table with the peak (``VmHWM``) against the target.

Modes:

* ``simulated`` — ``keshi serve --simulate``: the simulated tower renders each tray in the server
  (target: peak <= 200 MB);
* ``hardware`` — the Pi's code path off a Pi: ``CAMERA_FRAMES_DIR`` makes the Pi camera's code
  (``firmware.tray_camera.PiTrayCamera``: light-on/off pairs, the detector with the instance's
  calibration, snapshots) replay image files rendered here beforehand, and the pins are gpiozero's
  ``MockFactory`` (``GPIOZERO_PIN_FACTORY=mock``, with PWM pins for the light). Nothing drives the
  beam's pin, so each toss settles "silent" after ``dead_s`` (set to 1 s in the instance's
  ``tower.json``) and the camera's count decides; the table's release is typed in as on the Pi
  (target: peak <= 150 MB).

Run: ``make bench-memory`` or ``.venv/bin/python benchmarks/bench_memory.py [--modes simulated,hardware]
[--streams 30] [--tosses 50]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_web import Phones, server_status  # noqa: E402  (this folder is on sys.path: run as a script)

from tests.conftest import LiveServer, free_port, start_server, wait_for_healthz  # noqa: E402
from tests.web.http_table import HttpTable  # noqa: E402
from tests.web.play import first_action  # noqa: E402

PLAYERS = [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"},
           {"name": "Cleo", "colour": "green"}, {"name": "Dev", "colour": "yellow"}]
TARGETS_MB = {"simulated": 200, "hardware": 150}
#: Rendered trays the hardware mode's camera replays (each a light-on and a light-off file).
FRAME_PAIRS = 6
#: gpiozero's documented environment: MockFactory, with pins that also do PWM (the tray light).
MOCK_PINS = {"GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}


@dataclass
class Sampler:
    """Samples the server's RSS and threads every 50 ms on a thread; ``mark`` notes a stage."""

    pid: int
    stages: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    max_threads: int = 0
    max_rss: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self._sample()

    def _sample(self) -> dict[str, int]:
        status = server_status(self.pid)
        self.max_threads = max(self.max_threads, status["threads"])
        self.max_rss = max(self.max_rss, status["rss"])
        return status

    def mark(self, stage: str) -> None:
        self.stages.append((stage, self._sample()))

    def stop(self) -> None:
        self._stop.set()


def render_frames(folder: Path) -> None:
    """Trays as the Pi camera would photograph them: each pair is the light-on frame and a dark one."""
    import numpy as np

    from vision.sources import write_image
    from vision.synthetic import render_scene

    folder.mkdir(parents=True)
    rng = np.random.default_rng(23)
    colours = ("blue", "red", "green", "yellow", "black", "white")
    for index in range(FRAME_PAIRS):
        counts = {c: int(n) for c, n in zip(colours, rng.integers(0, 3, len(colours)), strict=True)}
        lit, _ = render_scene(counts, rng)
        write_image(folder / f"{index:02d}a-light-on.png", lit)
        write_image(folder / f"{index:02d}b-light-off.png", np.zeros_like(lit))


def start_hardware_server(instance: Path) -> LiveServer:
    """``keshi serve`` without ``--simulate`` on a free port: hardware mode off a Pi (module doc)."""
    from vision.synthetic import DEFAULT_CALIBRATION_FILE

    instance.mkdir(parents=True)
    shutil.copy(DEFAULT_CALIBRATION_FILE, instance / "calibration.json")
    render_frames(instance / "frames")
    (instance / "tower.json").write_text(json.dumps({"timing": {"dead_s": 1.0}}))
    (instance / "config.json").write_text(json.dumps({"CAMERA_FRAMES_DIR": "frames"}))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--instance", str(instance)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env={**os.environ, **MOCK_PINS},
    )
    return wait_for_healthz(LiveServer(process, f"http://127.0.0.1:{port}", instance), 60)


def get(phone: HttpTable, path: str) -> None:
    """Open a page as the phone's browser would (its session cookie), reading the whole answer."""
    with phone.opener.open(phone.base + path, timeout=120) as response:
        response.read()


def dashboard_toss(phone: HttpTable, path: str = "/api/tower/toss", body: dict[str, Any] | None = None) -> None:
    """A toss from the tower page (no game) as soon as the tower takes it (a busy tower refuses)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status, answer = phone.request("POST", path, body or {})
        if status in (200, 201, 202):
            return
        time.sleep(0.1)
    raise AssertionError(f"the tower did not take {path} within 60 s: {answer}")


def play(phone: HttpTable, game_id: str, tosses: int) -> tuple[int, int]:
    """Play the game to its end, tossing in its toss phases (at most ``tosses``); (actions, tosses)."""
    view = phone.view(game_id)
    actions = tossed = 0
    while not view["finished"]:
        if view["phase"] == "toss" and not view["pending"] and not view["tower_result"] and tossed < tosses:
            view = phone.toss_and_wait(game_id, view["version"], timeout=60)
            tossed += 1
        view = phone.act(game_id, first_action(view), view["version"])
        actions += 1
    return actions, tossed


def run(mode: str, streams: int, tosses: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        server = start_server(instance) if mode == "simulated" else start_hardware_server(instance)
        sampler = Sampler(server.process.pid)
        try:
            sampler.mark("started")
            sampler.start()
            phone = HttpTable(server.url)
            for path in ("/", "/games/new", "/tower"):
                get(phone, path)
            sampler.mark("pages / new game / tower")
            game_id = phone.create(PLAYERS, seed=23)["id"]
            url = urlparse(server.url)
            phones = Phones(url.hostname or "127.0.0.1", url.port or 80, f"/api/games/{game_id}/events", streams)
            phones.open(phone.view(game_id)["event_id"])
            phones.start()
            get(phone, f"/games/{game_id}")
            sampler.mark(f"game + {streams} streams")
            actions, tossed = play(phone, game_id, tosses)
            while tossed < tosses:
                dashboard_toss(phone)
                tossed += 1
            dashboard_toss(phone, "/api/tower/empty", {"found": {}})  # taken once the last toss is over
            sampler.mark(f"game over ({actions} actions, {tossed} tosses)")
            started = time.perf_counter()
            get(phone, "/fairness/")
            first_ms = (time.perf_counter() - started) * 1000
            sampler.mark("fairness page opened")
            started = time.perf_counter()
            get(phone, "/fairness/")
            again_ms = (time.perf_counter() - started) * 1000
            get(phone, "/profile")
            sampler.mark("board page (/profile) opened")
            phones.close()
            sampler.stop()
            peak = server_status(server.process.pid)["peak"]
        finally:
            sampler.stop()
            server.stop(timeout=30)
    return {"mode": mode, "stages": sampler.stages, "peak": peak, "threads": sampler.max_threads,
            "sampled": sampler.max_rss,
            "fairness_ms": (first_ms, again_ms)}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--modes", default="simulated,hardware")
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--tosses", type=int, default=50)
    args = parser.parse_args()
    results = [run(mode, args.streams, args.tosses) for mode in args.modes.split(",")]
    print(f"bench_memory: keshi serve, 4-player Marrakesh game, {args.streams} open streams, {args.tosses} tosses")
    for result in results:
        print(f"\n{result['mode']} tower{'':<28}{'RSS MB':>8}{'threads':>9}")
        for stage, status in result["stages"]:
            print(f"  {stage:<40}{status['rss']:>8}{status['threads']:>9}")
        target = TARGETS_MB[result["mode"]]
        verdict = "met" if result["peak"] <= target else "MISSED"
        first, again = result["fairness_ms"]
        print(f"  {'peak RSS (VmHWM)':<40}{result['peak']:>8}{result['threads']:>9}  (max threads)"
              f"   target <= {target} MB: {verdict}")
        print(f"  highest RSS sampled every 50 ms: {result['sampled']} MB (the peak may be shorter than 50 ms)")
        print(f"  fairness page: {first:.0f} ms the first time, {again:.0f} ms again (cached)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
