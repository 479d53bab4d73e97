"""``keshi serve``: run the dashboard (real tower on a Pi, simulated tower elsewhere)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from companion.cli import positive_int


def port_number(text: str) -> int:
    """An argparse type: a TCP port 1–65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a whole number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 1 and 65535, not {port}")
    return port


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi serve``."""
    parser = subparsers.add_parser("serve", help="run the table dashboard and the tower")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, so phones can join)")
    parser.add_argument("--port", type=port_number, default=8080, help="TCP port (default: 8080)")
    parser.add_argument("--simulate", action="store_true", help="use the simulated tower even on a Raspberry Pi")
    parser.add_argument("--instance", type=Path, default=None,
                        help="instance folder for config, database and calibration (default: ./instance)")
    parser.add_argument("--threads", type=positive_int, default=None,
                        help="request threads (default: 8; open event streams take none)")
    parser.add_argument("--max-streams", type=positive_int, default=None,
                        help="open event streams before phones are told to poll (default: sized to the machine)")
    parser.add_argument("--stream-mode", choices=("broadcaster", "threads"), default="broadcaster",
                        help=argparse.SUPPRESS)  # "threads": the design before issue 23, for benchmarks
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the app and serve it until stopped."""
    from companion.app import create_app
    from companion.server import DEFAULT_THREADS, THREAD_PER_STREAM_THREADS, serve

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    overrides = {"SIMULATE": True} if args.simulate else None
    app = create_app(overrides, instance_path=args.instance)
    default_threads = DEFAULT_THREADS if args.stream_mode == "broadcaster" else THREAD_PER_STREAM_THREADS
    serve(app, args.host, args.port, threads=args.threads or default_threads,
          max_streams=args.max_streams, stream_mode=args.stream_mode)
    return 0
