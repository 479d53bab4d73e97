"""``keshi hub``: run the café hub, or add a dashboard user.

* ``keshi hub --broker mqtt://broker.local --database postgresql://keshi@localhost/keshi`` — subscribe
  to every tower, store their tosses and game events, serve the hub dashboard (default port 8090).
* ``keshi hub --database URL --add-user NAME`` — create or reset a dashboard login (the password is
  asked for, or read from standard input when it is not a terminal) and exit.
* ``keshi hub --database URL --dead-letters`` — list the messages the hub could not store, with why;
  ``--clear-dead-letters`` forgets them once looked at (the dashboard then says "ok" again).

Passwords stay out of the command line (where ``ps`` would show them): the broker's comes from
``KESHI_MQTT_PASSWORD``, the database's from ``PGPASSWORD`` or ``~/.pgpass`` (libpq's usual places).
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys
from typing import TYPE_CHECKING

from companion.errors import ConfigError
from companion.serve_cli import port_number

if TYPE_CHECKING:
    from companion.hub.store import HubStore

DATABASE_ENV = "KESHI_HUB_DATABASE"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi hub``."""
    parser = subparsers.add_parser("hub", help="run the café hub: every tower's tosses in PostgreSQL, one dashboard")
    parser.add_argument("--broker", help="MQTT broker URL, mqtt://HOST[:PORT] or mqtts://HOST[:PORT]; "
                                         "the password comes from KESHI_MQTT_PASSWORD")
    parser.add_argument("--username", help="MQTT user name (or put it in the URL: mqtt://USER@HOST)")
    parser.add_argument("--ca-file", help="CA certificate for mqtts:// (default: the system's)")
    parser.add_argument("--database", default=os.environ.get(DATABASE_ENV),
                        help=f"PostgreSQL URL, postgresql://USER@HOST/DB (default: ${DATABASE_ENV})")
    parser.add_argument("--host", default="0.0.0.0", help="dashboard address (default: all)")
    parser.add_argument("--port", type=port_number, default=8090, help="dashboard TCP port (default: 8090)")
    parser.add_argument("--topic-prefix", default="keshi", help="the towers' MQTT topic prefix (default: keshi)")
    parser.add_argument("--client-id", default="keshi-hub",
                        help="MQTT client id; the broker keeps this hub's queue under it (default: keshi-hub)")
    parser.add_argument("--add-user", metavar="NAME", help="create or reset a dashboard login, then exit")
    parser.add_argument("--dead-letters", action="store_true",
                        help="list the messages the hub could not store (newest first), then exit")
    parser.add_argument("--clear-dead-letters", action="store_true", help="forget those messages, then exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the hub, or add a dashboard user."""
    try:
        from companion.hub.store import HubStore
    except ImportError as exc:
        raise ConfigError(f"the hub needs its extra packages ({exc.name} is missing): "
                          "pip install 'keshi-tower[hub]'") from None
    from companion.publish.broker import parse_broker
    from companion.publish.topics import check_prefix

    if not args.database:
        raise ConfigError(f"the hub needs --database postgresql://... (or ${DATABASE_ENV})")
    if args.add_user is not None:
        password = read_password()
        store = HubStore(args.database)
        try:
            store.migrate()
            store.add_user(args.add_user, password)
        finally:
            store.close()
        print(f"keshi hub: dashboard user {args.add_user.strip()} saved", file=sys.stderr)
        return 0
    if args.dead_letters or args.clear_dead_letters:
        return dead_letters(HubStore(args.database), clear=args.clear_dead_letters)
    if not args.broker:
        raise ConfigError("the hub needs --broker mqtt://HOST[:PORT]")
    broker = parse_broker(args.broker, username=args.username, ca_file=args.ca_file)
    prefix = check_prefix(args.topic_prefix, "--topic-prefix")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from companion.hub.service import serve_hub

    serve_hub(broker, HubStore(args.database), args.host, args.port, prefix, args.client_id)
    return 0


def dead_letters(store: HubStore, clear: bool) -> int:
    """Print the dead letters (or forget them)."""
    try:
        store.migrate()
        if clear:
            print(f"keshi hub: {store.clear_dead_letters()} dead letter(s) forgotten", file=sys.stderr)
            return 0
        for letter in store.dead_letters():
            print(f"{letter['id']}\t{letter['topic']}\t{letter['reason']}\t{letter['payload']!r}")
    finally:
        store.close()
    return 0


def read_password() -> str:
    """The new dashboard password: asked twice on a terminal, else the first line of standard input."""
    if sys.stdin.isatty():
        password = getpass.getpass("dashboard password: ")
        if getpass.getpass("again: ") != password:
            raise ConfigError("the two passwords differ; nothing was changed")
        return password
    return sys.stdin.readline().rstrip("\n")
