"""Morocco engine benchmark: log replay and random complete games per second.

Run: ``make bench-morocco`` or ``.venv/bin/python benchmarks/bench_morocco.py`` (one core; prints
the machine and the figures). Targets (issue 15): replay of a 4-player game <= 20 ms, >= 50 random
complete games/s.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable

from companion.morocco import Game
from companion.morocco.log import read_log, write_log
from companion.morocco.simulate import play_random_game


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall-clock seconds of ``repeat`` calls of ``fn``."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


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


def main() -> None:
    print(f"machine: {cpu_name()}, {platform.system()} {platform.release()}, Python {platform.python_version()}")
    game = play_random_game(4, 2026)
    text = write_log(game)
    print(f"4-player Morocco log: {len(game.log)} actions, {len(text)} bytes, {game.round} rounds")

    replay = timed(lambda: Game.replay(game.setup, game.log), 30)
    print(f"replay of the 4-player game (Game.replay): median {statistics.median(replay) * 1e3:.2f} ms, "
          f"max {max(replay) * 1e3:.2f} ms  (target <= 20 ms)")
    parse = timed(lambda: read_log(text), 30)
    print(f"replay from JSON-lines text (read_log): median {statistics.median(parse) * 1e3:.2f} ms")

    for players in (2, 4):
        games, start, cpu = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - start < 5.0:
            play_random_game(players, 10_000 + games)
            games += 1
        rate = games / (time.perf_counter() - start)
        cpu_rate = games / (time.process_time() - cpu)
        print(f"random complete {players}-player games: {rate:.1f} games/s wall clock, {cpu_rate:.1f} per CPU "
              f"second, one core  (target >= 50; on a shared machine the CPU figure is the engine's)")


if __name__ == "__main__":
    main()
