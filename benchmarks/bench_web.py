"""Dashboard benchmark: many phones on a game's event stream while the table plays, two designs side by side.

For each design — ``broadcaster`` (``keshi serve`` today: streams leave waitress's 8 request threads
for one broadcaster thread) and ``threads`` (the design before issue 23: each open stream holds one
of waitress's 48 threads) — and each number of open streams (default 30, 100 and 300), it starts a
real ``keshi serve --simulate``, creates a 2-player game, opens the streams from one ``selectors``
loop on one thread of this process (the client side costs no thread per stream), then plays the first legal
action again and again over HTTP (the tower's release typed in). It prints per run:

* action latency (POST until the answer, with every stream open): p50 / p99;
* fan-out: from sending an action until its event has reached *every* stream: p99;
* ``/healthz`` latency: p50 / p99;
* events lost: deliveries that never arrived (10 s of grace after the last action);
* the server's threads and resident memory (RSS now, and its peak) with every stream open.

A request that gets no answer within ``--timeout`` seconds counts as that long and is reported as a
time-out (that is what happens to the old design once the streams take every thread).

Run: ``make bench-web`` or ``.venv/bin/python benchmarks/bench_web.py [--streams 30,100,300] [--actions 100]``.
Targets at 300 streams: action p99 <= 200 ms, /healthz p99 <= 50 ms, fan-out p99 <= 500 ms, 0 lost.
"""

from __future__ import annotations

import argparse
import http.client
import json
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import LiveServer, start_server  # noqa: E402
from tests.web.conftest import PLAYERS  # noqa: E402
from tests.web.http_table import HttpTable  # noqa: E402
from tests.web.play import first_action  # noqa: E402

DESIGNS = {"broadcaster": (), "threads": ("--stream-mode", "threads")}


@dataclass
class Phones:
    """Many SSE clients read from one selectors loop; notes when each event id reached each stream."""

    host: str
    port: int
    path: str
    count: int
    selector: selectors.DefaultSelector = field(default_factory=selectors.DefaultSelector)
    arrived: list[dict[int, float]] = field(default_factory=list)
    buffers: list[bytes] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def open(self, last_id: int) -> None:
        for index in range(self.count):
            sock = socket.create_connection((self.host, self.port), timeout=10)
            sock.sendall(f"GET {self.path}?tab=bench{index} HTTP/1.1\r\nHost: {self.host}\r\n"
                         f"Accept: text/event-stream\r\nLast-Event-ID: {last_id}\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, index)
            self.arrived.append({})
            self.buffers.append(b"")

    def start(self) -> None:
        """Read every stream on one thread until ``close``, noting each arrival as it happens."""
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        while not self.stopping.is_set():
            for key, _ in self.selector.select(timeout=0.1):
                self._read(key.fileobj, key.data)  # type: ignore[arg-type]

    def _read(self, sock: socket.socket, index: int) -> None:
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.selector.unregister(sock)
            sock.close()
            return
        now = time.perf_counter()
        lines = (self.buffers[index] + data).split(b"\n")
        self.buffers[index] = lines.pop()
        for line in lines:
            if line.startswith(b"id: "):
                self.arrived[index][int(line[4:])] = now

    def close(self) -> None:
        self.stopping.set()
        if self._thread is not None:
            self._thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


def timed_request(host: str, port: int, method: str, path: str, timeout: float, body: bytes | None = None,
                  headers: dict[str, str] | None = None) -> tuple[float, int, bytes]:
    """(milliseconds, status, body); status 0 when no answer came within ``timeout``."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return (time.perf_counter() - start) * 1000, response.status, data
    except OSError:
        return timeout * 1000, 0, b""
    finally:
        conn.close()


def server_status(pid: int) -> dict[str, int]:
    """Threads, RSS and peak RSS (MB) of the server process."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.split()[0] if value.split() else ""
    return {"threads": int(fields["Threads"]), "rss": int(fields["VmRSS"]) // 1024,
            "peak": int(fields["VmHWM"]) // 1024}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def run(design: str, streams: int, actions: int, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server: LiveServer = start_server(Path(tmp) / "instance", None, *DESIGNS[design])
        try:
            url = urlparse(server.url)
            host, port = url.hostname or "127.0.0.1", url.port or 80
            phone = HttpTable(server.url)
            handlers = getattr(phone.opener, "handlers", [])
            jar = next(h.cookiejar for h in handlers if isinstance(h, urllib.request.HTTPCookieProcessor))
            game_id = phone.create(PLAYERS, seed=11)["id"]
            view = phone.view(game_id)
            csrf = phone.csrf
            cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
            phones = Phones(host, port, f"/api/games/{game_id}/events", streams)
            phones.open(view["event_id"])
            phones.start()
            time.sleep(1.0)
            healthz: list[float] = []
            while len(healthz) < 20 and sum(ms >= timeout * 1000 for ms in healthz) < 3:  # 3 time-outs: starved
                healthz.append(timed_request(host, port, "GET", "/healthz", timeout)[0])
            status = server_status(server.process.pid)
            request_ms: list[float] = []
            sent: dict[int, float] = {}
            timeouts = 0
            for _ in range(actions):
                if view["finished"]:
                    break
                body = json.dumps({"action": first_action(view), "version": view["version"]}).encode()
                start = time.perf_counter()
                ms, code, answer = timed_request(host, port, "POST", f"/api/games/{game_id}/actions", timeout, body,
                                                 {"Content-Type": "application/json", "X-CSRF-Token": csrf,
                                                  "Cookie": cookie})
                request_ms.append(ms)
                if code != 201:
                    timeouts += 1
                    if timeouts >= 3:  # starved: more tries only add time-outs
                        break
                    view = phone.view(game_id) if code else view
                    continue
                moved = json.loads(answer)
                sent[int(moved["event_id"])] = start
                view = moved["view"]
            grace = time.perf_counter() + 10
            while time.perf_counter() < grace and not all(i in a for a in phones.arrived for i in sent):
                time.sleep(0.1)
            fanout = [max(a[i] for a in phones.arrived) - t for i, t in sent.items()
                      if all(i in a for a in phones.arrived)]
            lost = sum(1 for a in phones.arrived for i in sent if i not in a)
            status["peak"] = server_status(server.process.pid)["peak"]
            phones.close()
        finally:
            server.stop(timeout=30)
    return {"design": design, "streams": streams, "actions": len(request_ms), "timeouts": timeouts,
            "action_p50": statistics.median(request_ms), "action_p99": percentile(request_ms, 99),
            "fanout_p99": percentile([f * 1000 for f in fanout], 99) if fanout else float("nan"),
            "healthz_p50": statistics.median(healthz), "healthz_p99": percentile(healthz, 99),
            "lost": lost, "deliveries": len(sent) * streams, **status}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--streams", default="30,100,300", help="open streams per run, comma-separated")
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds before a request counts as timed out")
    parser.add_argument("--designs", default="broadcaster,threads")
    args = parser.parse_args()
    rows = [run(design, int(n), args.actions, args.timeout)
            for n in args.streams.split(",") for design in args.designs.split(",")]
    print(f"bench_web: 2-player game, up to {args.actions} actions per run, time-out {args.timeout:.0f} s")
    print(f"{'design':<12}{'streams':>8}{'actions':>8}{'t/o':>5}{'act p50':>9}{'act p99':>9}{'fan p99':>9}"
          f"{'hz p50':>8}{'hz p99':>8}{'lost':>12}{'threads':>8}{'RSS MB':>7}{'peak':>6}")
    for r in rows:
        print(f"{r['design']:<12}{r['streams']:>8}{r['actions']:>8}{r['timeouts']:>5}{r['action_p50']:>9.1f}"
              f"{r['action_p99']:>9.1f}{r['fanout_p99']:>9.1f}{r['healthz_p50']:>8.1f}{r['healthz_p99']:>8.1f}"
              f"{str(r['lost']) + '/' + str(r['deliveries']):>12}{r['threads']:>8}{r['rss']:>7}{r['peak']:>6}")
    print("  (ms; t/o = requests with no answer within the time-out, counted at the time-out)")
    print("  targets at 300 streams: action p99 <= 200 ms, /healthz p99 <= 50 ms, fan-out p99 <= 500 ms, 0 lost")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
