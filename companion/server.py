"""Serve the app with waitress (a production WSGI server), its event streams with one broadcaster.

waitress answers every request on a small thread pool, the opening of an event stream included;
the stream's socket then leaves waitress for the broadcaster thread (``companion.streaming``), so
hundreds of open phones take no request thread. ``stream_mode="threads"`` keeps the design before
that (each open stream holds a waitress thread), for side-by-side benchmarks only.

SIGTERM (systemd, ``kill``) and Ctrl-C both end the event streams first, then let waitress finish
its threads, stop the tower and close the database.
"""

from __future__ import annotations

import logging
import signal
import sys
from types import FrameType

import waitress
from flask import Flask

from companion.app import shutdown_app
from companion.errors import ConfigError
from companion.streaming import waitress_handoff
from companion.streaming.broadcaster import Broadcaster
from companion.streaming.capacity import stream_cap

#: Request threads: streams no longer hold one, so a few answer every action and page.
DEFAULT_THREADS = 8
#: Before issue 23 each open stream held a thread, so the pool was sized for every phone at a table.
THREAD_PER_STREAM_THREADS = 48
STREAM_MODES = ("broadcaster", "threads")


def serve(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS, *,
          max_streams: int | None = None, stream_mode: str = "broadcaster") -> None:
    """Serve ``app`` on ``host:port`` until SIGTERM or Ctrl-C, then shut everything down."""
    app.config["LISTEN_HOST"] = host  # the join QR names an address that works (companion/web/lan.py)
    try:
        server = waitress.create_server(app, host=host, port=port, threads=threads, ident="keshi")
    except OSError as exc:
        shutdown_app(app)
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    broadcaster: Broadcaster | None = None
    if stream_mode == "broadcaster":
        broadcaster = Broadcaster(app.extensions["keshi.bus"], max_streams or stream_cap())
        waitress_handoff.install(server, broadcaster)
        broadcaster.start()
    stopping = app.extensions["keshi.stopping"]

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()
        raise SystemExit(0)

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    mode = app.extensions["keshi.tower"].status()["mode"]
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    streams = f"up to {broadcaster.cap} live streams" if broadcaster else "a thread per live stream"
    print(f"Keshi Tower Companion on http://{shown_host}:{server.effective_port}/ ({mode} tower; {threads} "
          f"request threads, {streams}); Ctrl-C to stop", file=sys.stderr, flush=True)
    try:
        server.run()  # returns after SystemExit/KeyboardInterrupt, once its threads are done
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stopping.set()
        if broadcaster is not None:
            broadcaster.stop()
        server.close()
        shutdown_app(app)
        logging.getLogger("keshi").info("stopped; database closed")
        print("keshi: stopped, database closed", file=sys.stderr, flush=True)
