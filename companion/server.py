"""Serve the app with waitress (a production WSGI server that streams SSE), and stop it cleanly.

Each open event stream holds one server thread, so the pool is sized for every phone at a table
plus ordinary requests. SIGTERM (systemd, ``kill``) and Ctrl-C both end the event streams first,
then let waitress finish its threads, stop the tower and close the database.
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

DEFAULT_THREADS = 48


def serve(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS) -> None:
    """Serve ``app`` on ``host:port`` until SIGTERM or Ctrl-C, then shut everything down."""
    try:
        server = waitress.create_server(app, host=host, port=port, threads=threads, ident="keshi")
    except OSError as exc:
        shutdown_app(app)
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    stopping = app.extensions["keshi.stopping"]

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()
        raise SystemExit(0)

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    mode = app.extensions["keshi.tower"].status()["mode"]
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Keshi Tower Companion on http://{shown_host}:{server.effective_port}/ ({mode} tower); "
          "Ctrl-C to stop", file=sys.stderr, flush=True)
    try:
        server.run()  # returns after SystemExit/KeyboardInterrupt, once its threads are done
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stopping.set()
        server.close()
        shutdown_app(app)
        logging.getLogger("keshi").info("stopped; database closed")
        print("keshi: stopped, database closed", file=sys.stderr, flush=True)
