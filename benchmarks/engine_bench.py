"""Measuring helpers the game-engine benchmarks share (``bench_rules``, ``bench_morocco``, ``bench_sabika``).

Every engine benchmark prints the machine first, times replays by median and max, and counts random
complete games per second. The machine may be shared, so the machine line carries the load average and
the games/s figure is given both by wall clock and by this process's CPU time (``time.process_time``),
which other processes disturb far less.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable


def timed(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds of ``repeat`` calls of ``fn`` by ``clock`` (wall clock by default)."""
    out = []
    for _ in range(repeat):
        start = clock()
        fn()
        out.append(clock() - start)
    return out


def ms(samples: list[float]) -> str:
    """``median … ms, max … ms`` of ``samples`` (seconds)."""
    return f"median {statistics.median(samples) * 1e3:.2f} ms, max {max(samples) * 1e3:.2f} ms"


def cpu_name() -> str:
    """The CPU model from /proc/cpuinfo (or what platform knows)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine() -> str:
    """One line naming the CPU, the cores, the load average, the OS and Python."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"machine: {cpu_name()}, {os.cpu_count()} cores, load average {load:.1f}, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}")


def games_per_second(play: Callable[[int], object], seconds: float) -> tuple[float, float]:
    """Call ``play(0)``, ``play(1)``, … for ``seconds`` of wall clock: (games per wall second, per CPU second)."""
    games, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        play(games)
        games += 1
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def print_replays(replay: Callable[[], object], read_log: Callable[[], object], repeat: int = 30) -> None:
    """Print the times of replaying a 4-player game from its actions and from its JSON-lines text."""
    print(f"replay of the 4-player game (Game.replay): {ms(timed(replay, repeat))}  (target <= 20 ms)")
    parse = timed(read_log, repeat)
    print(f"replay from JSON-lines text (read_log): median {statistics.median(parse) * 1e3:.2f} ms")
