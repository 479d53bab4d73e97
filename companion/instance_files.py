"""The instance folder is this user's alone: the folder 0700, the files holding secrets 0600 from their
first byte (docs/security.md).

The instance holds the secret key (it signs every session: whoever reads it can forge a seat), the
SQLite database (every game's table PIN, the whole toss log) and the owner code. On a shared machine
(a Pi with a second account, a laptop) another user must not read them, not even for a moment:

* ``private_folder``: the folder is created 0700, an existing one is tightened to 0700. Other users
  cannot even enter it, which also covers the files written with the process's usual umask
  (calibration frames, snapshots: not secret, so no per-file step).
* ``write_private_file``: a secret is written to a fresh temporary name opened ``O_CREAT | O_EXCL``
  with mode 0600, synced, then renamed over the target, so it is never visible with another mode or
  half written (a crash leaves the old file or the new one).
* ``private_database``: SQLite gives its ``-wal`` and ``-shm`` files the mode of the database file, so
  the database is created empty with 0600 before SQLite opens it; an existing one (and its ``-wal`` and
  ``-shm``) made by an older version with 0644 is tightened.

The process-wide umask is never changed: it would leak into every thread and into the tests.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
#: The files SQLite keeps beside a database in WAL mode.
SQLITE_COMPANIONS = ("-wal", "-shm")


def private_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) with mode 0700, or tighten an existing one to 0700."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _tighten(folder, FOLDER_MODE)


def write_private_file(path: Path, text: str) -> None:
    """Replace ``path`` by ``text``, readable by this user only (0600) at every moment (see above)."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.part")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def private_database(path: Path) -> None:
    """Before SQLite opens ``path``: create it empty with 0600 if missing (an empty file is an empty
    database), else tighten it and its ``-wal`` and ``-shm`` files to 0600."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    for file in (path, *(path.with_name(path.name + suffix) for suffix in SQLITE_COMPANIONS)):
        if file.exists():
            _tighten(file, FILE_MODE)


def tighten_file(path: Path) -> None:
    """Make an existing file readable by this user only (0600), e.g. one an older version wrote 0644."""
    _tighten(path, FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    if stat.S_IMODE(path.stat().st_mode) & ~mode:
        path.chmod(mode)
