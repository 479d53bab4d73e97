"""Benchmark: the full fairness report over 100,000 and 1,000,000 stored tosses (targets 2 s; 10 s, 500 MB).

Run: ``make bench-fairness`` or
``.venv/bin/python benchmarks/bench_fairness.py [--tosses N ...] [--cache DIR] [--repeat R]``

For each size it fills an instance (kept in ``--cache``, default ``$TMPDIR/keshi-bench-fairness``, so
later runs skip this) with game-shaped tosses of the study tower (``companion.fairness.study_tower``:
48-toss games, 3-4 players, red 10 points stickier), written row for row as ``save_tosses`` writes
them (every map ``json.dumps`` of the 12 colours, drop times as a JSON list). Then, in a fresh child
process per repeat, it times one full report: read the log, every statistic, the HTML page with its
plots, and the CSV and JSON forms — after one untimed report, as in a running dashboard (a cold
``keshi tower report`` pays about half a second more for first-use fonts and imports). It times
the report twice: read from the parsed-log cache the untimed report left (``load_cache``: what the
dashboard does once a log has been read; with tosses stored since, those are parsed too), and read
from scratch. The child's peak resident memory (``ru_maxrss``, over both) is the report's memory,
the interpreter and libraries included; the load average is printed beside it.

The child runs on one core (``taskset -c 0``; ``--cores all`` lifts it): the target holds for a Pi
whose other cores are busy, so a free second core must not help (numpy and SciPy's threads included).
A target is judged by the median processor time of all phases (on a shared machine core 0 runs other
work too, so wall clock counts that as well) and the peak memory, from the cache and from scratch
alike: an audit reads a fresh log, and the exit status is 1 if either misses.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from companion import COLOURS
from companion.fairness.study_tower import TOSSES_PER_GAME, StudyTower, play
from companion.store import Store, open_instance_store
from companion.tower.record import TossRecord

TARGETS = {100_000: (2.0, None), 1_000_000: (10.0, 500.0)}
_COLUMNS = tuple(TossRecord.__dataclass_fields__)
FILL_SESSIONS = 1000  # tosses are played in blocks of this many sessions side by side, then written


def fill(store: Store, tosses: int, seed: int = 1) -> None:
    """Append ``tosses`` game-shaped tosses (red 10 points stickier) to the store's log."""
    rng = np.random.default_rng(seed)
    tower = StudyTower(new_shift=-0.10, held_shift=-0.10)
    per_block = TOSSES_PER_GAME * 21
    written = 0
    while written < tosses:
        sessions = min(FILL_SESSIONS, -(-(tosses - written) // per_block))
        grids = play(tower, sessions, per_block, rng, np.full(sessions, COLOURS.index("red")))
        rows: list[list[object]] = []
        for s in range(sessions):
            for t in range(per_block):
                if written + len(rows) >= tosses:
                    break
                rows.append(_row(written + len(rows), grids.pieces_in[s, t], grids.pieces_out[s, t],
                                 grids.held_before[s, t], rng))
        with store.write() as conn:
            conn.executemany(
                f"INSERT INTO tosses ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})", rows
            )
        written += len(rows)


def _row(
    index: int, pieces_in: np.ndarray, out: np.ndarray, held: np.ndarray, rng: np.random.Generator
) -> list[object]:
    def counts(values: np.ndarray) -> str:
        return json.dumps(dict(zip(COLOURS, (int(v) for v in values), strict=True)))

    released = int(out.sum())
    drops = sorted(round(float(t), 1) for t in 180.0 + rng.gamma(2.0, 15.0, released))
    game = index // TOSSES_PER_GAME
    values = {
        "toss_id": f"bench-{index}", "tower": "bench", "layer": "B1", "mode": "simulated",
        "started_at": 1.7e9 + 90.0 * index, "pieces_in": counts(pieces_in), "pieces_out": counts(out),
        "contents_before": counts(held), "contents_after": counts(held + pieces_in - out),
        "drop_times_ms": json.dumps(drops), "beam_count": released, "camera_count": None,
        "counts_source": "simulator-truth", "flagged": False, "correction": None,
        "game_id": f"bench-g{game}", "season": index % TOSSES_PER_GAME // 4 + 1, "round": index % 4 + 1,
        "session_id": f"bench-s{game // 20}",
    }
    return [values[c] for c in _COLUMNS]


def instance_with(cache: Path, tosses: int) -> Path:
    """An instance folder holding exactly ``tosses`` benchmark tosses (filled on first use)."""
    folder = cache / f"tosses-{tosses}"
    folder.mkdir(parents=True, exist_ok=True)
    with open_instance_store(folder) as store:
        have = int(store.query("SELECT COUNT(*) FROM tosses")[0][0])
        if have < tosses:
            start = time.perf_counter()
            fill(store, tosses - have, seed=have + 1)
            print(f"  recorded {tosses - have} tosses in {time.perf_counter() - start:.0f} s ({folder})")
    return folder


def one_report(instance: Path) -> None:
    """Child process: time one full report from the parsed-log cache and one from scratch, and print
    their phases and the peak memory as JSON."""
    import shutil

    import companion.fairness.plots  # noqa: F401  (imports are not the report's work: load them first)
    from companion.fairness import load_cache
    from companion.fairness.kept_word import MEMO
    from companion.fairness.load import load_tosses
    from companion.fairness.render import render
    from companion.fairness.report import build_report

    with open_instance_store(instance) as store:
        # one untimed report first, as a running dashboard has made one before: first-use costs
        # (matplotlib's fonts, SciPy's lazy imports, SQLite's cache) are not the report's; it leaves
        # the parsed log in the cache, as the dashboard's previous read would have
        render(build_report(load_tosses(store)), "html")
        result: dict[str, object] = {}
        for case in ("cached", "cold"):
            if case == "cold":  # no parsed log kept: every row read and parsed (and the cache written)
                shutil.rmtree(instance / load_cache.FOLDER, ignore_errors=True)
            MEMO.clear()  # every check judged afresh
            data = report = None  # the previous case's log and report go first, as between reads
            cpu0 = time.process_time()
            t0 = time.perf_counter()
            data = load_tosses(store)
            t1 = time.perf_counter()
            report = build_report(data)
            t2 = time.perf_counter()
            render(report, "html")
            t3 = time.perf_counter()
            render(report, "csv")
            render(report, "json")
            t4 = time.perf_counter()
            cpu = time.process_time() - cpu0
            result[case] = {"load": t1 - t0, "statistics": t2 - t1, "html": t3 - t2, "csv+json": t4 - t3,
                            "full": t3 - t0, "cpu": cpu}
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert data is not None and report is not None
    print(json.dumps({"tosses": data.n_tosses, "verdict": report.verdict, **result, "peak_mb": peak_mb,
                      "load_average": os.getloadavg()[0]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tosses", type=int, nargs="+", default=list(TARGETS))
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "keshi-bench-fairness")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cores", choices=("one", "all"), default="one",
                        help="run the timed report on core 0 only (default) or on every core")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    pin = ["taskset", "-c", "0"] if args.cores == "one" else []
    if args.child:
        one_report(args.child)
        return
    failed = False
    for tosses in args.tosses:
        print(f"== report over {tosses} tosses ({'one core, taskset -c 0' if pin else 'all cores'})")
        instance = instance_with(args.cache, tosses)
        runs = []
        for _ in range(args.repeat):
            child = subprocess.run([*pin, sys.executable, __file__, "--child", str(instance)],
                                   check=True, capture_output=True, text=True)
            runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
        for case, what in (("cached", "from the parsed-log cache (the dashboard's case)"),
                           ("cold", "from scratch (no cache: the first read, or after a correction)")):
            print(f"  {what}:")
            for phase in ("load", "statistics", "html", "csv+json", "full", "cpu"):
                values = [r[case][phase] for r in runs]
                print(f"    {phase:<11} median {statistics.median(values):6.2f} s   best {min(values):6.2f} s")
        peak = max(r["peak_mb"] for r in runs)
        loads = [r["load_average"] for r in runs]
        print(f"  peak memory {peak:.0f} MB; load average {min(loads):.1f}-{max(loads):.1f}; "
              f"verdict: {runs[0]['verdict']}")
        seconds, megabytes = TARGETS.get(tosses, (None, None))
        if seconds is not None:
            for case in ("cached", "cold"):
                cpu = statistics.median(r[case]["cpu"] for r in runs)
                full = statistics.median(r[case]["full"] for r in runs)
                ok = cpu <= seconds and (megabytes is None or peak <= megabytes)
                failed |= not ok
                limit = f"<= {seconds:.0f} s" + (f", <= {megabytes:.0f} MB" if megabytes else "")
                print(f"  target {limit}, {case}: {'met' if ok else 'MISSED'} ({cpu:.2f} s of processor time, "
                      f"{full:.2f} s wall clock for read + statistics + HTML; judged by processor time: core 0 "
                      "is shared, so wall clock counts other work too)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
