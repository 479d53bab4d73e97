"""The instance's owner code: what makes a phone the table's host (``docs/security.md``).

Table-wide things (the tower's controls, calibration, the board profile, creating, importing and
deleting games) belong to the host: the companion's own screen, or a device that typed this code on
the Host page. The code is made on the first start (``owner_code`` in the instance folder, mode 0600)
and printed in the terminal (the journal of a systemd service); ``keshi owner-code`` shows it again,
``keshi owner-code --new`` replaces it, which also signs every host device out.

A host device keeps a fingerprint of the code in its (signed) session, never the code; a new code
gives a new fingerprint, so the old host sessions stop counting by themselves.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from companion.errors import ConfigError
from companion.instance_files import write_private_file

FILENAME = "owner_code"
#: Letters that cannot be mistaken for one another when typed from a screen (no 0/O, 1/I/L).
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: 3 groups of 4 letters: 31**12 ≈ 2**59 codes, beyond any guessing at the throttle's pace.
GROUPS, GROUP_LENGTH = 3, 4


def new_code() -> str:
    """A fresh owner code, e.g. ``K7QM-3WTR-HX9P``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS))


def normalise(typed: str) -> str:
    """What was typed, as the code is written: capitals, groups joined by ``-`` (spaces ignored)."""
    letters = "".join(ch for ch in typed.upper() if ch.isalnum())
    return "-".join(letters[i:i + GROUP_LENGTH] for i in range(0, len(letters), GROUP_LENGTH))


def read_or_create(instance: Path) -> tuple[str, bool]:
    """The instance's owner code, and whether it was made just now (first start)."""
    path = instance / FILENAME
    if path.exists():
        return path.read_text().strip(), False
    return replace(instance), True


def replace(instance: Path) -> str:
    """A new owner code for the instance (every host device must type it again)."""
    code = new_code()
    write_private_file(instance / FILENAME, code + "\n")
    return code


class CodeFile:
    """The instance's owner code, read again whenever its file changes (``--new`` from the shell takes
    effect on the next request, signing every host device out)."""

    def __init__(self, instance: Path) -> None:
        self.path = instance / FILENAME
        self._seen: tuple[float, int] | None = None
        self._code = ""

    def code(self) -> str:
        stat = self.path.stat()
        if self._seen != (stat.st_mtime, stat.st_ino):
            self._code = self.path.read_text().strip()
            self._seen = (stat.st_mtime, stat.st_ino)
        return self._code


def fingerprint(code: str, secret_key: str) -> str:
    """What a host session keeps: a keyed hash of the code (the code itself never goes in a cookie)."""
    return hmac.new(secret_key.encode(), f"owner:{code}".encode(), hashlib.sha256).hexdigest()[:32]


def matches(typed: object, code: str) -> bool:
    """True when ``typed`` is the owner code (case, spaces and dashes as the person typed them)."""
    return isinstance(typed, str) and len(typed) <= 64 and hmac.compare_digest(normalise(typed).encode(), code.encode())


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi owner-code``."""
    parser = subparsers.add_parser("owner-code", help="show (or replace) the code that makes a phone the host")
    parser.add_argument("--instance", type=Path, default=None,
                        help="instance folder (default: ./instance, or $KESHI_INSTANCE)")
    parser.add_argument("--new", action="store_true",
                        help="make a new code; every host device must then type the new one")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the owner code (a new one with ``--new``)."""
    instance = Path(args.instance or os.environ.get("KESHI_INSTANCE", "instance")).resolve()
    if not instance.is_dir():
        raise ConfigError(f"there is no instance folder {instance} (start the companion once first)")
    if args.new:
        print(f"New owner code: {replace(instance)} (host devices must type it again)")
    else:
        code, made = read_or_create(instance)
        print(f"Owner code: {code}" + (" (made just now)" if made else ""))
    return 0
