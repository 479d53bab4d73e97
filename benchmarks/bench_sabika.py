"""Sabika rules-engine benchmark: log replay and random complete games per second.

Run: ``make bench-sabika`` (or ``.venv/bin/python benchmarks/bench_sabika.py``); one core. Targets
(issue 15): replay of a 4-player game <= 20 ms, >= 50 random complete games/s. A random game's log
also holds the simulated table's ~300 answers about printed values (a real table with a saved board
profile answers none), so the replay is measured both ways. The machine may be shared: each figure
is given as wall-clock time and as this process's CPU time (``time.process_time``), which other
processes disturb far less; the load average is printed first.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable

from companion.sabika import Answer, Game
from companion.sabika.log import read_log, write_log
from companion.sabika.simulate import play_random_game


def timed(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds of ``repeat`` calls of ``fn`` by ``clock`` (wall clock by default)."""
    out = []
    for _ in range(repeat):
        start = clock()
        fn()
        out.append(clock() - start)
    return out


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1e3:.2f} ms, max {max(samples) * 1e3:.2f} ms"


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores, load average {load:.1f}, {platform.system()} "
          f"{platform.release()}, Python {platform.python_version()}")
    game = play_random_game(4, 2026)
    text = write_log(game)
    answers = sum(1 for a in game.log if isinstance(a, Answer))
    print(f"4-player log: {len(game.log)} actions ({answers} table answers), {len(text)} bytes")

    def replay() -> None:
        Game.replay(game.setup, game.log)

    print(f"replay of the 4-player game (Game.replay), wall: {ms(timed(replay, 30))}  (target <= 20 ms)")
    print(f"                                           CPU:  {ms(timed(replay, 30, time.process_time))}")
    profiled = {**game.setup, "profile": game.profile}
    plays = [a for a in game.log if not isinstance(a, Answer)]
    saved = timed(lambda: Game.replay(profiled, plays), 30)
    print(f"replay with a saved board profile ({len(plays)} actions), wall: {ms(saved)}")
    print(f"replay from JSON-lines text (read_log), wall: {ms(timed(lambda: read_log(text, 'bench'), 30))}")

    games, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < 6.0:
        play_random_game(4, 10_000 + games)
        games += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"random complete 4-player games on one core: {games / wall:.1f} games/s wall, "
          f"{games / cpu:.1f} games/s CPU  (target >= 50)")


if __name__ == "__main__":
    main()
