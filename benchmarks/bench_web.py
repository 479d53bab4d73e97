"""Dashboard benchmark: 30 phones on a game's event stream while the table plays.

Starts a real ``keshi serve --simulate`` (waitress, ``--threads 64`` because each open stream holds
a server thread), creates a 2-player game, connects 30 SSE clients to it and then plays the first
legal action again and again over HTTP (the tower's release typed in, so the simulated tower's
timing does not enter the figures). It prints

* action request latency (POST until the answer, with the 30 streams open): p50 / p95 / p99;
* fan-out latency: from sending an action until its event has reached *all* 30 streams: p50 / p95
  / p99 / max.

Run: ``.venv/bin/python benchmarks/bench_web.py [--clients 30] [--actions 200]``.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import start_server  # noqa: E402
from tests.web.conftest import PLAYERS  # noqa: E402
from tests.web.http_table import HttpTable  # noqa: E402
from tests.web.play import first_action  # noqa: E402


class StreamClient(threading.Thread):
    """One phone: reads the game's SSE stream and notes when each event id arrived."""

    def __init__(self, host: str, port: int, path: str, last_id: int) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.conn.request("GET", path, headers={"Last-Event-ID": str(last_id), "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        current: int | None = None
        self.ready.set()
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    current = int(line[4:])
                elif line.startswith(b"data: ") and current is not None:
                    self.arrived[current] = time.perf_counter()
                    current = None
        except OSError:
            return

    def close(self) -> None:
        self.conn.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--threads", type=int, default=64)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp) / "instance", None, "--threads", str(args.threads))
        try:
            url = urlparse(server.url)
            phone = HttpTable(server.url)
            game_id = phone.create(PLAYERS, seed=11)["id"]
            view = phone.view(game_id)
            clients = [StreamClient(url.hostname or "127.0.0.1", url.port or 80, f"/api/games/{game_id}/events",
                                    view["event_id"]) for _ in range(args.clients)]
            for client in clients:
                client.start()
                client.ready.wait()
            time.sleep(0.5)
            request_ms: list[float] = []
            fanout_ms: list[float] = []
            sent: dict[int, float] = {}
            for _ in range(args.actions):
                if view["finished"]:
                    break
                action = first_action(view)
                start = time.perf_counter()
                status, body = phone.request("POST", f"/api/games/{game_id}/actions",
                                             {"action": action, "version": view["version"]})
                request_ms.append((time.perf_counter() - start) * 1000)
                assert status == 201, body
                sent[int(body["event_id"])] = start
                view = body["view"]
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not all(
                    all(i in c.arrived for i in sent) for c in clients):
                time.sleep(0.05)
            missing = sum(1 for c in clients for i in sent if i not in c.arrived)
            for event_id, start in sent.items():
                arrivals = [c.arrived[event_id] for c in clients if event_id in c.arrived]
                if len(arrivals) == len(clients):
                    fanout_ms.append((max(arrivals) - start) * 1000)
            for client in clients:
                client.close()
        finally:
            server.stop()

    print(f"bench_web: {args.clients} SSE clients, {len(request_ms)} actions, waitress threads {args.threads}")
    print(f"  action request latency ms: p50 {statistics.median(request_ms):.1f}  "
          f"p95 {percentile(request_ms, 95):.1f}  p99 {percentile(request_ms, 99):.1f}")
    print(f"  event reaches all {args.clients} clients ms: p50 {statistics.median(fanout_ms):.1f}  "
          f"p95 {percentile(fanout_ms, 95):.1f}  p99 {percentile(fanout_ms, 99):.1f}  max {max(fanout_ms):.1f}")
    print(f"  deliveries missing: {missing} of {len(sent) * args.clients}")
    print("  targets: request p50 <= 20 ms, fan-out p99 <= 200 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
