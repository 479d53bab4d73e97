"""``keshi tower report`` and ``keshi tower simulate``: the fairness log from the command line.

``report`` prints (or writes) the fairness report of an instance's toss log as HTML, CSV or JSON;
``simulate`` records tosses of the simulated tower into the same log, exactly as played tosses are
recorded, so anyone can see what the statistics make of a tower whose bias they chose.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from companion import COLOURS
from companion.cli import positive_int
from companion.errors import ConfigError
from companion.i18n import Msg
from companion.instance_files import private_folder

#: The tower name of an instance whose config.json names none (the dashboard's default too).
DEFAULT_TOWER_NAME = "default"

DEFAULT_INSTANCE = Path("instance")
INSTANCE_HELP = "instance folder (default ./instance, as for keshi serve)"
FORMATS = ("html", "csv", "json")


def parse_bias(text: str) -> tuple[str, float]:
    """Parse ``COLOUR=DELTA`` (e.g. ``red=0.10``) into a colour and a stickiness delta."""
    colour, sep, delta_text = text.partition("=")
    colour = colour.strip().lower()
    if not sep or colour not in COLOURS:
        raise argparse.ArgumentTypeError(
            f"bias must be COLOUR=DELTA with COLOUR one of {', '.join(COLOURS)}, not {text!r}"
        )
    try:
        delta = float(delta_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bias delta must be a number, not {delta_text!r}") from None
    if not -1.0 <= delta <= 1.0:
        raise argparse.ArgumentTypeError(f"bias delta must be between -1 and 1, not {delta_text!r}")
    return colour, delta


def parse_since(text: str) -> float:
    """Parse an ISO date or date-time (``2026-11-21`` or ``2026-11-21T18:00``, local time) to UNIX time."""
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise ConfigError(Msg("since must be an ISO date like 2026-11-21, not {text!r}", text=text)) from None


def register(tower_subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` and ``simulate`` under ``keshi tower``."""
    report = tower_subparsers.add_parser(
        "report", help="fairness report of the toss log (html, csv or json)"
    )
    report.add_argument("--instance", type=Path, default=DEFAULT_INSTANCE, help=INSTANCE_HELP)
    report.add_argument("--tower", help="only tosses of this tower")
    report.add_argument("--since", dest="since_text", metavar="DATE", help="only tosses from this ISO date/time on")
    report.add_argument("--layer", choices=("B1", "B2"), help="only tosses with this tower layer")
    report.add_argument("--game", help="only the tosses of this game id")
    report.add_argument("--session", help="only the tosses of this session id")
    report.add_argument("--format", choices=FORMATS, default="json", help="output format (default json)")
    report.add_argument("--output", "-o", type=Path, help="write to this file instead of standard output")
    report.set_defaults(func=run_report)

    simulate = tower_subparsers.add_parser(
        "simulate", help="record tosses of the simulated tower into the toss log"
    )
    simulate.add_argument("--tosses", type=positive_int, required=True, help="how many tosses to record")
    simulate.add_argument("--layer", choices=("B1", "B2"), default="B1", help="tower layer (default B1)")
    simulate.add_argument(
        "--bias", type=parse_bias, action="append", default=[], metavar="COLOUR=DELTA",
        help="make COLOUR stay stuck DELTA more often (e.g. red=0.10); repeatable",
    )
    simulate.add_argument("--seed", type=int, help="random seed, for a repeatable log")
    simulate.add_argument("--instance", type=Path, default=DEFAULT_INSTANCE, help=INSTANCE_HELP)
    simulate.add_argument("--tower", help="tower name to record (default: the instance's TOWER_NAME, as the "
                                           "dashboard records its tosses)")
    simulate.set_defaults(func=run_simulate)


def _instance_dir(path: Path, create: bool) -> Path:
    if path.exists() and not path.is_dir():
        raise ConfigError(f"instance folder {path} is not a folder")
    if not path.exists():
        if not create:
            raise ConfigError(f"instance folder {path} does not exist")
        private_folder(path)  # as the app makes it (0700)
    return path


def run_report(args: argparse.Namespace) -> int:
    """Build the report of the instance's log and print or write it in the chosen format."""
    since = parse_since(args.since_text) if args.since_text else None
    from companion.fairness.load import load_tosses, narrow
    from companion.fairness.render import render
    from companion.fairness.report import build_report
    from companion.store import open_instance_store

    with open_instance_store(_instance_dir(args.instance, create=False)) as store:
        data = load_tosses(store, tower=args.tower, since=since)
    data = narrow(data, layer=args.layer, game=args.game, session=args.session)
    scope = {"tower": args.tower, "since": args.since_text, "layer": args.layer, "game": args.game,
             "session": args.session}
    report = build_report(data, scope)
    text = render(report, args.format)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.format} report of {data.n_tosses} tosses to {args.output}")
        print(report.headline)
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Record ``--tosses`` simulated tosses into the instance's toss log."""
    from companion.fairness.simulate import simulate_into_store
    from companion.store import open_instance_store
    from companion.tower.model import TowerParams

    params = TowerParams(layer=args.layer, bias=dict(args.bias))
    instance = _instance_dir(args.instance, create=True)
    tower = args.tower or _instance_tower(instance)
    with open_instance_store(instance) as store:
        summary = simulate_into_store(store, args.tosses, params, seed=args.seed, tower=tower)
    print(summary)
    return 0


def _instance_tower(instance: Path) -> str:
    """The instance's ``TOWER_NAME`` (config.json; ``default`` without one, as the dashboard has it)."""
    path = instance / "config.json"
    try:
        config = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    name = config.get("TOWER_NAME", DEFAULT_TOWER_NAME) if isinstance(config, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"TOWER_NAME in {path} must be a non-empty text, not {name!r}")
    return name
