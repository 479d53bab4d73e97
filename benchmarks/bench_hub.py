"""Hub benchmark: ingest rate, end-to-end latency and recovery through real Mosquitto and PostgreSQL.

Starts Debian's Mosquitto with the shipped broker configuration (``companion/hub/mosquitto/keshi.conf``,
as ``tests/hub`` does) and PostgreSQL 15 on free loopback ports, a real ``keshi hub`` process, and
three simulated towers (each a companion store with its publisher). It prints

* ingest: a backlog of tosses stored on the three towers while nothing published, then all three
  publishers started at once: tosses stored by the hub per second, from its first stored toss to
  its last (target >= 500 tosses/s), and the wall time from starting the publishers;
* end-to-end: tosses stored one by one on the towers at a steady pace (each its own transaction,
  as the tower service stores them), the time from each toss's commit on its tower to its commit in
  the hub's PostgreSQL: p50 / p95 / p99 / max (target p99 <= 500 ms). The publishers here are not
  woken by the event bus (no tower service runs), so they find new tosses by polling every 100 ms,
  the slow path; on a table the tower's bus events wake them at once;
* recovery: a backlog queued by the broker for a paused hub, then the broker killed and restarted
  without its store (everything it had acknowledged is gone): the time from the restart until the
  hub holds every toss again, and how many were lost or stored twice (target: 0 and 0).

Run: ``make bench-hub`` or ``.venv/bin/python benchmarks/bench_hub.py [--backlog 20000] [--rate 60]
[--seconds 15] [--recovery 3000]``.
"""

from __future__ import annotations

import argparse
import signal
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
from tests.hub.conftest import HubProcess, start_hub, tower_publisher  # noqa: E402
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


def recovery(work: Path, broker: Mosquitto, database: str, hub: HubProcess, tosses: int) -> None:
    stores = [Store(work / f"recovery-{i}.sqlite3") for i in range(len(TOWERS))]
    names = [f"{name} (recovery)" for name in TOWERS]
    publishers = [tower_publisher(store, name, broker, poll_s=0.1) for store, name in zip(stores, names, strict=True)]
    before = hub_count(database)
    hub.process.send_signal(signal.SIGSTOP)  # the hub falls behind: the broker queues the tosses for it
    for i, (store, name) in enumerate(zip(stores, names, strict=True)):
        simulate_into_store(store, tosses // len(TOWERS), TowerParams(), seed=200 + i, tower=name)
    total = tosses // len(TOWERS) * len(TOWERS)
    deadline = time.monotonic() + 120
    while any(publisher.backlog() for publisher in publishers) and time.monotonic() < deadline:
        time.sleep(0.05)  # every toss acknowledged by the broker ...
    broker.restart_forgetting()  # ... which then loses them all, with the hub's session
    restarted = time.monotonic()
    hub.process.send_signal(signal.SIGCONT)
    done = wait_for_count(database, before + total, timeout=300)
    time.sleep(2.0)  # anything still arriving would be a duplicate
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT COUNT(*), COUNT(DISTINCT (tower, toss_id)) FROM hub_tosses"
                           " WHERE tower LIKE '%(recovery)'").fetchone()
    assert row is not None
    print(f"recovery: {total:,} tosses acknowledged by the broker, then the broker restarted without its store: "
          f"all stored {done - restarted:.1f} s after the restart; lost {total - row[1]}, "
          f"stored twice {row[0] - row[1]} (target 0 and 0)")
    for publisher in publishers:
        publisher.stop()
    for store in stores:
        store.close()


def hub_count(database: str) -> int:
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT COUNT(*) FROM hub_tosses").fetchone()
    return int(row[0]) if row else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, default=20000, help="tosses in the ingest backlog (all towers)")
    parser.add_argument("--rate", type=float, default=60.0, help="tosses per second, all towers, end-to-end run")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of the end-to-end run")
    parser.add_argument("--recovery", type=int, default=3000, help="tosses lost by the broker in the recovery run")
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
                recovery(work, broker, database, hub, args.recovery)
            finally:
                hub.stop()
        finally:
            broker.close()
            postgres.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
