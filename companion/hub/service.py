"""Run the hub: migrate the database, start the ingestor, serve the dashboard until stopped.

SIGTERM and Ctrl-C stop the dashboard, let the ingestor store (and acknowledge) what has arrived,
then close the database. A hub that is killed outright loses nothing either: what it had not
acknowledged, the broker redelivers to the next start.
"""

from __future__ import annotations

import logging
import signal
import sys
from types import FrameType

import waitress

from companion.errors import ConfigError
from companion.hub.dashboard import create_hub_app
from companion.hub.ingest import Ingestor
from companion.hub.store import HubStore
from companion.publish.broker import BrokerSettings

log = logging.getLogger("keshi.hub")


def serve_hub(broker: BrokerSettings, store: HubStore, host: str, port: int, prefix: str, client_id: str) -> None:
    """Ingest from ``broker`` into ``store`` and serve the dashboard on ``host:port`` until stopped."""
    store.migrate()
    if not store.has_users():
        log.warning("the hub dashboard has no user yet: add one with keshi hub --database URL --add-user NAME")
    ingestor = Ingestor(broker, store, prefix=prefix, client_id=client_id)
    app = create_hub_app(store, ingestor.status)
    try:
        server = waitress.create_server(app, host=host, port=port, threads=8, ident="keshi-hub")
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    ingestor.start()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Keshi hub on http://{shown}:{server.effective_port}/ (broker {broker.display}, "
          f"database {store.display}); Ctrl-C to stop", file=sys.stderr, flush=True)
    try:
        server.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.close()
        ingestor.stop()
        store.close()
        print("keshi hub: stopped", file=sys.stderr, flush=True)
