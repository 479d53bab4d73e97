"""Games-list benchmark: the time and memory of listing a companion's games when most are finished.

A cafe hub keeps every game its tables played. This stores ``--games`` finished games (a third each of
Marrakesh, Morocco and Sabika: random legal games of 2 players, imported through ``GameService.import_log``
as a table imports an exported log) plus one game in progress, then, on a fresh ``GameService`` over
that database (a restarted companion), lists the games (``GameService.summaries()``, what the games
list page and ``GET /api/games`` call):

* the first list after the restart and the median of ``--repeat`` lists after it (wall time; the CPU
  time of the process is printed beside it);
* the memory the service still holds after listing (``tracemalloc``, after a garbage collection) and
  the peak while listing, in a separate pass (tracing slows the code down, so it is not timed).

The script uses only the service's public calls, so the same file run against an older checkout measures
that code ("before"): copy it into that checkout's ``benchmarks/`` and run it there.

Run: ``make bench-games_list`` or ``.venv/bin/python benchmarks/bench_games_list.py [--games 300]
[--repeat 5]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.events import EventBus  # noqa: E402
from companion.games.marrakesh.log import write_log as marrakesh_log  # noqa: E402
from companion.games.marrakesh.simulate import play_random_game as random_marrakesh  # noqa: E402
from companion.games.morocco.log import write_log as morocco_log  # noqa: E402
from companion.games.morocco.simulate import play_random_game as random_morocco  # noqa: E402
from companion.games.sabika.simulate import play_random_game as random_sabika  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.table.kinds import adapter  # noqa: E402
from companion.table.service import GameService  # noqa: E402

NAMES = ("Ana", "Ben")


def finished_logs(games: int) -> list[str]:
    """``games`` exported logs of finished random games, Marrakesh, Morocco and Sabika in turn."""
    sabika = adapter("sabika")
    makers: list[Callable[[int], str]] = [
        lambda seed: marrakesh_log(random_marrakesh(2, seed, names=NAMES)),
        lambda seed: morocco_log(random_morocco(2, seed, names=NAMES)),
        lambda seed: sabika.write_log(random_sabika(2, seed, names=NAMES)),
    ]
    return [makers[n % 3](n) for n in range(games)]


def fill(store: Store, logs: list[str]) -> None:
    """The finished games, and one Marrakesh game in progress, stored as a table's companion keeps them."""
    games = GameService(store, EventBus())
    for text in logs:
        games.import_log(text, "bench")
    games.create({"players": [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}], "seed": 1})


def timed_lists(store: Store, repeat: int) -> tuple[float, float, float, float, list[dict[str, Any]]]:
    """(first list's wall s, its CPU s, median wall s of the ``repeat`` lists after it, their median CPU s,
    the list) on a fresh service."""
    games = GameService(store, EventBus())
    walls, cpus = [], []
    listed: list[dict[str, Any]] = []
    for _ in range(repeat + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        listed = games.summaries()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls[0], cpus[0], statistics.median(walls[1:]), statistics.median(cpus[1:]), listed


def traced_list(store: Store) -> tuple[int, int]:
    """(bytes the service still holds after one list, peak bytes while listing) on a fresh service."""
    gc.collect()
    tracemalloc.start()
    games = GameService(store, EventBus())
    games.summaries()
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del games
    return held, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="finished games stored (default 300)")
    parser.add_argument("--repeat", type=int, default=5, help="lists timed after the first (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-games-list-") as folder:
        path = Path(folder) / "keshi.sqlite3"
        started = time.perf_counter()
        with Store(path) as store:
            fill(store, finished_logs(args.games))
        print(f"stored {args.games} finished games + 1 in progress in {time.perf_counter() - started:.1f} s "
              f"({path.stat().st_size / 1e6:.1f} MB database)")
        with Store(path) as store:
            first, first_cpu, again, again_cpu, listed = timed_lists(store, args.repeat)
        with Store(path) as store:
            held, peak = traced_list(store)
    winners = sum(bool(g["winners"]) for g in listed)
    print(f"listed {len(listed)} games ({winners} with their winners named)")
    print(f"first list after a restart: {first * 1000:.1f} ms wall ({first_cpu * 1000:.1f} ms CPU)")
    print(f"each list after it (median of {args.repeat}): {again * 1000:.1f} ms wall ({again_cpu * 1000:.1f} ms CPU)")
    print(f"memory the service holds after listing: {held / 1e6:.2f} MB (peak while listing {peak / 1e6:.2f} MB)")
    print(f"load average: {' / '.join(f'{n:.1f}' for n in os.getloadavg())}")


if __name__ == "__main__":
    main()
