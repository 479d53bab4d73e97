"""Benchmark: the full fairness report over 100,000 recorded tosses (target <= 2 s).

Run: ``.venv/bin/python benchmarks/bench_fairness.py [--tosses N] [--instance DIR] [--repeat R]``

It records the tosses with the same code as ``keshi tower simulate`` (``save_toss`` one toss at a
time, as played tosses are stored) into a fresh instance, unless ``--instance`` names one that
already holds them, then times a full report (read the log, every statistic, the HTML page with its
three plots, and the CSV and JSON forms) ``--repeat`` times and prints the figures.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion.fairness.load import load_tosses
from companion.fairness.render import render
from companion.fairness.report import build_report
from companion.fairness.simulate import simulate_into_store
from companion.store import open_instance_store
from companion.tower.model import TowerParams


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tosses", type=int, default=100_000)
    parser.add_argument("--instance", type=Path, help="reuse (or fill) this instance folder")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    instance = args.instance or Path(tempfile.mkdtemp(prefix="bench-fairness-"))
    instance.mkdir(parents=True, exist_ok=True)
    with open_instance_store(instance) as store:
        have = store.query("SELECT COUNT(*) FROM tosses")[0][0]
        if have < args.tosses:
            start = time.perf_counter()
            simulate_into_store(store, args.tosses - have, TowerParams(layer="B1", bias={"red": 0.10}), seed=1)
            print(f"recorded {args.tosses - have} simulated tosses in {time.perf_counter() - start:.1f} s "
                  f"({instance})")
        phases: dict[str, list[float]] = {"load": [], "statistics": [], "html": [], "csv+json": [], "full": []}
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            data = load_tosses(store)
            t1 = time.perf_counter()
            report = build_report(data)
            t2 = time.perf_counter()
            html = render(report, "html")
            t3 = time.perf_counter()
            render(report, "csv")
            render(report, "json")
            t4 = time.perf_counter()
            for name, seconds in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t3 - t0), strict=True):
                phases[name].append(seconds)
    print(f"report over {data.n_tosses} tosses ({len(html) // 1024} KiB HTML), verdict: {report.verdict}")
    for name, values in phases.items():
        print(f"  {name:<11} median {statistics.median(values):6.3f} s   first {values[0]:6.3f} s   "
              f"best {min(values):6.3f} s")
    print("full = read the log + every statistic + the HTML page with its plots (target <= 2 s)")


if __name__ == "__main__":
    main()
