"""Hub benchmark: ingest rate and end-to-end latency through real Mosquitto and PostgreSQL.

Starts Debian's Mosquitto and PostgreSQL 15 on free loopback ports (as ``tests/hub`` does), a real
``keshi hub`` process, and three simulated towers (each a companion store with its publisher). It
prints

* ingest: a backlog of tosses stored on the three towers while nothing published, then all three
  publishers started at once: tosses stored by the hub per second, from its first stored toss to
  its last (target >= 500 tosses/s), and the wall time from starting the publishers;
* end-to-end: tosses stored one by one on the towers at a steady pace (each its own transaction,
  as the tower service stores them), the time from each toss's commit on its tower to its commit in
  the hub's PostgreSQL: p50 / p95 / p99 / max (target p99 <= 500 ms). The publishers here are not
  woken by the event bus (no tower service runs), so they find new tosses by polling every 100 ms,
  the slow path; on a table the tower's bus events wake them at once.

Run: ``.venv/bin/python benchmarks/bench_hub.py [--backlog 6000] [--rate 60] [--seconds 15]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from companion.fairness.simulate import simulate_into_store  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.tower.model import TowerParams  # noqa: E402
from companion.tower.record import TossRecord, iter_tosses, save_toss  # noqa: E402
from tests.hub.conftest import start_hub, tower_publisher  # noqa: E402
from tests.hub.servers import Mosquitto, Postgres, missing_binaries  # noqa: E402

TOWERS = ("Table 1", "Table 2", "Table 3")


def wait_for_count(database: str, count: int, timeout: float) -> float:
    """Wait until the hub holds ``count`` tosses; return when (monotonic)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(database) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT COUNT(*) FROM hub_tosses").fetchone()
            if row is not None and row[0] >= count:
                return time.monotonic()
            time.sleep(0.02)
    raise SystemExit(f"the hub did not store {count} tosses within {timeout} s")


def ingest(work: Path, broker: Mosquitto, database: str, backlog: int) -> None:
    stores = [Store(work / f"ingest-{i}.sqlite3") for i in range(len(TOWERS))]
    for i, (store, name) in enumerate(zip(stores, TOWERS, strict=True)):
        simulate_into_store(store, backlog // len(TOWERS), TowerParams(), seed=i, tower=name)
    total = backlog // len(TOWERS) * len(TOWERS)
    start = time.monotonic()
    publishers = [tower_publisher(store, name, broker, poll_s=0.1) for store, name in zip(stores, TOWERS, strict=True)]
    done = wait_for_count(database, total, timeout=300)
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT MIN(stored_at), MAX(stored_at) FROM hub_tosses").fetchone()
    assert row is not None
    span = row[1] - row[0]
    print(f"ingest: {total:,} tosses from {len(TOWERS)} towers; hub stored {total / span:,.0f} tosses/s "
          f"(first to last stored, {span:.2f} s; target >= 500); {done - start:.2f} s from starting the publishers")
    for publisher in publishers:
        publisher.stop()
    for store in stores:
        store.close()


def end_to_end(work: Path, broker: Mosquitto, database: str, rate: float, seconds: float) -> None:
    stores = [Store(work / f"e2e-{i}.sqlite3") for i in range(len(TOWERS))]
    # a supply of realistic tosses per tower, made up front and stored one by one below
    for i, (store, name) in enumerate(zip(stores, TOWERS, strict=True)):
        simulate_into_store(store, int(rate * seconds / len(TOWERS)) + 1, TowerParams(), seed=100 + i, tower=name)
    supplies = [list(iter_tosses(store)) for store in stores]
    for store in stores:
        with store.write() as db:
            db.execute("DELETE FROM tosses")
    publishers = [tower_publisher(store, name, broker, poll_s=0.1) for store, name in zip(stores, TOWERS, strict=True)]
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT COUNT(*) FROM hub_tosses").fetchone()
    before = int(row[0]) if row else 0
    written: dict[str, float] = {}
    lock = threading.Lock()

    def table(store: Store, supply: list[TossRecord]) -> None:
        interval = len(TOWERS) / rate
        next_at = time.monotonic()
        for record in supply:
            record.toss_id = f"e2e-{record.toss_id}"
            save_toss(store, record)
            with lock:
                written[record.toss_id] = time.time()
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))

    threads = [threading.Thread(target=table, args=(s, sup)) for s, sup in zip(stores, supplies, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wait_for_count(database, before + len(written), timeout=60)
    with psycopg.connect(database) as conn:
        query = "SELECT toss_id, stored_at FROM hub_tosses WHERE toss_id LIKE 'e2e-%'"
        stored: dict[str, float] = dict(conn.execute(query).fetchall())
    delays = sorted((stored[toss_id] - at) * 1000 for toss_id, at in written.items())
    quantiles = statistics.quantiles(delays, n=100)
    print(f"end-to-end toss -> hub stored: {len(delays)} tosses at {rate:g}/s: p50 {quantiles[49]:.0f} ms, "
          f"p95 {quantiles[94]:.0f} ms, p99 {quantiles[98]:.0f} ms, max {delays[-1]:.0f} ms (target p99 <= 500 ms)")
    for publisher in publishers:
        publisher.stop()
    for store in stores:
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, default=6000, help="tosses in the ingest backlog (all towers)")
    parser.add_argument("--rate", type=float, default=60.0, help="tosses per second, all towers, end-to-end run")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of the end-to-end run")
    args = parser.parse_args()
    missing = missing_binaries()
    if missing:
        print(f"bench_hub: skipped: {missing}", file=sys.stderr)
        return 0
    broker, postgres = Mosquitto(), Postgres()
    with tempfile.TemporaryDirectory(prefix="keshi-bench-hub-") as tmp:
        work = Path(tmp)
        try:
            broker.start()
            postgres.start()
            database = postgres.create_database("bench_hub")
            hub = start_hub(broker, database, work / "hub.log")
            try:
                ingest(work, broker, database, args.backlog)
                end_to_end(work, broker, database, args.rate, args.seconds)
            finally:
                hub.stop()
        finally:
            broker.close()
            postgres.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
