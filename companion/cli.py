"""The ``keshi`` command: one console script, one subcommand group per concern.

Each concern registers its own subcommands (``register(subparsers)``) from its own module, so the
vision, rules, tower and fairness code stay in their packages. Any ``KeshiError`` (and the usual
OS errors around files) becomes a one-line ``keshi: error: ...`` message and exit status 2; Ctrl-C
exits with 130. Nobody sees a traceback for a mistake they can fix.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__
from companion.errors import KeshiError

#: Modules that contribute subcommands, in the order ``keshi --help`` lists them.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "companion.serve_cli",
    "companion.owner_code",
    "companion.game_cli",
    "companion.tower.cli",
    "companion.hub.cli",
    "vision.cli",
)

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def positive_int(text: str) -> int:
    """An argparse type shared by the subcommands: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {text!r}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line, not a usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the full ``keshi`` parser with every registered subcommand."""
    parser = OneLineParser(prog="keshi", description="Keshi Tower Companion for Marrakesh.")
    parser.add_argument("--version", action="version", version=f"keshi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    subparsers.required = True
    for module_name in SUBCOMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``keshi`` with ``argv`` (default: the process arguments) and return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except KeshiError as exc:
        print(f"keshi: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"keshi: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("keshi: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status


if __name__ == "__main__":  # pragma: no cover - `python -m companion.cli`
    sys.exit(main())
