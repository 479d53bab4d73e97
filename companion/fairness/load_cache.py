"""The parsed toss log kept beside the database, so a report reads only the tosses stored since.

Reading a million stored tosses costs about 8 s of processor time (SQLite hands over each row's
texts, numpy parses them): most of the report's budget, spent again on every read although a log
only grows. So ``load.load_tosses`` keeps what it parsed of a large selection (at least
``MIN_ROWS`` tosses) in ``fairness-cache/`` beside the database file, one file per selection
(tower and start time), and the next read parses only the rows after the cached ones.

The log changes in two ways besides new tosses: a table corrects a toss's count (or takes the
correction back), which can also bring a toss into the selection or take it out. So the cache holds
the last row id it covers, how many rows of the selection lie up to it, and a digest of every
correction among them; a read checks both against the database (``log_state``: one pass over the
table, which also counts the selection, as the read did before) and starts from scratch when
anything differs. A
cache file that does not read, or was written by other code, is ignored the same way; the database
is never changed.

The arrays are written as they lie in memory, after a JSON header that names each one's type,
shape and place in the file (``MAGIC``), and read back straight into the report's arrays
(``load._Filling``), so a restored log never sits in memory twice. (``numpy.savez`` wrote the same
arrays through a zip archive: a checksum and two more copies of every byte, 0.34 of a second per
million tosses where writing the bytes takes 0.05.) A cache is written again when ``REWRITE_ROWS``
tosses were read past it (writing 1,000,000 tosses' arrays, about 160 MB, takes a fraction of a
second; doing it after every game would not pay).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from companion.i18n import Msg

#: Selections smaller than this are read whole (100,000 tosses read in about 0.5 s).
MIN_ROWS = 50_000
#: A cache is written again once this many tosses were read past it.
REWRITE_ROWS = 20_000
#: Written into every cache; a file of another version is ignored.
VERSION = 2
FOLDER = "fairness-cache"
#: A cache file's first bytes; then the header's length (8 bytes, little-endian) and the header.
MAGIC = b"keshi-fairness-cache\n"
SUFFIX = ".cache"
#: Each array starts at a multiple of this many bytes.
ALIGN = 64


class _Query(Protocol):
    def query(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Sequence[Any]]: ...


@dataclass(frozen=True)
class CachedLog:
    """A cache that matches the database: its file, the last row id it covers, its arrays' names."""

    path: Path
    last_id: int
    rows: int
    tosses: int
    drops: int
    ids: dict[str, list[str]]
    set_aside: list[dict[str, Any]]
    #: Each stored array's type, shape and offset in the file.
    columns: dict[str, tuple[str, list[int], int]]


def cache_path(database: Path, where: str, params: Sequence[object]) -> Path | None:
    """The cache file of one selection of ``database`` (None: an in-memory store has no folder)."""
    if str(database) == ":memory:":
        return None
    key = hashlib.blake2b(json.dumps([where, list(params)], default=str).encode(), digest_size=12).hexdigest()
    return database.parent / FOLDER / f"{database.stem}-{key}{SUFFIX}"


@dataclass(frozen=True)
class LogState:
    """The selection in the database as one pass over the table sees it: its rows and corrections up
    to a cache's last row (to check the cache), and in all (to write the next one)."""

    rows_upto: int
    corrections_upto: str
    rows: int
    corrections: str
    last_id: int
    #: The selection's first row id (0 when it is empty): where reading from scratch starts.
    first_id: int = 0


#: A row's correction as the digest of corrections takes it (NULL without one).
CORRECTION = "CASE WHEN correction IS NOT NULL THEN id || '=' || correction END"


def log_state(store: _Query, where: str, params: Sequence[object], upto: int) -> LogState:
    """How many rows the selection has, up to row ``upto`` and in all, with a digest of the
    corrections among them (one pass over the table: what counting the selection costs anyway)."""
    row = store.query(
        f"SELECT count(*), max(id), sum(id <= ?), group_concat(CASE WHEN id <= ? THEN {CORRECTION} END),"
        f" group_concat({CORRECTION}), min(id) FROM tosses{where}", [upto, upto, *params],
    )[0]
    return LogState(int(row[2] or 0), _digest(row[3]), int(row[0]), _digest(row[4]), int(row[1] or 0),
                    int(row[5] or 0))


def read_state(rows: int, corrections: list[str], last_id: int) -> LogState:
    """The state of a selection read whole, in row id order, without ``log_state``: its ``rows``,
    the ``CORRECTION`` texts of its pages (each page's joined as SQLite joins them) and its last row
    id. The digest is ``log_state``'s: the same texts joined the same way."""
    return LogState(0, _digest(None), rows, _digest(",".join(corrections)), last_id)


def _digest(corrections: object) -> str:
    return hashlib.sha256(str(corrections or "").encode()).hexdigest()


def stored(path: Path | None) -> tuple[CachedLog, str] | None:
    """The cache at ``path`` and the digest of the corrections it covers (None: none that reads)."""
    if path is None or not path.is_file():
        return None
    try:
        with open(path, "rb") as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            length = int.from_bytes(handle.read(8), "little")
            meta = json.loads(handle.read(length).decode())
        if meta.get("version") != VERSION:
            return None
        columns = {str(name): (str(kind), [int(n) for n in shape], int(offset))
                   for name, (kind, shape, offset) in meta["columns"].items()}
        if any(np.dtype(kind).hasobject for kind, _, _ in columns.values()):  # raw bytes are never objects
            return None
        end = max((offset + np.dtype(kind).itemsize * math.prod(shape) for kind, shape, offset in columns.values()),
                  default=0)
        if path.stat().st_size < end:  # cut short
            return None
        cached = CachedLog(path, int(meta["last_id"]), int(meta["rows"]), int(meta["tosses"]), int(meta["drops"]),
                           {k: list(v) for k, v in meta["ids"].items()}, list(meta["set_aside"]), columns)
        return cached, str(meta["corrections"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def matching(found: tuple[CachedLog, str] | None, state: LogState) -> CachedLog | None:
    """The cache if it still describes the database's first rows (None otherwise)."""
    if found is None:
        return None
    cached, corrections = found
    return cached if (state.rows_upto, state.corrections_upto) == (cached.rows, corrections) else None


def restore(cached: CachedLog, arrays: dict[str, npt.NDArray[Any]]) -> dict[str, npt.NDArray[Any]] | None:
    """Copy the cached arrays into the first rows of ``arrays`` (the report's, allocated for the whole
    selection); returns the drop counts and drop times (None: the file no longer reads)."""
    try:
        with open(cached.path, "rb") as handle:
            for name, target in arrays.items():
                if name in cached.ids:
                    codes = _read(handle, cached, name)
                    names = np.array([*cached.ids[name], None], dtype=object)
                    target[: cached.tosses] = names[codes]
                else:
                    _read(handle, cached, name, target[: cached.tosses])
            return {name: _read(handle, cached, name) for name in ("drop_counts", "drop_times")}
    except (OSError, ValueError, KeyError, IndexError):
        return None


def _read(
    handle: io.BufferedReader, cached: CachedLog, name: str, into: npt.NDArray[Any] | None = None
) -> npt.NDArray[Any]:
    """Stored array ``name``, read into ``into`` (its type and shape) or a new array; ValueError if
    the file does not hold it so."""
    kind, shape, offset = cached.columns[name]
    target = np.empty(shape, dtype=np.dtype(kind)) if into is None else into
    if target.dtype != np.dtype(kind) or list(target.shape) != shape or not target.flags.c_contiguous:
        raise ValueError(f"cached {name} is {kind} {shape}, not {target.dtype.str} {list(target.shape)}")
    handle.seek(offset)
    if handle.readinto(target.data.cast("B")) != target.nbytes:
        raise ValueError(f"cached {name} is cut short")
    return target


def set_aside_of(cached: CachedLog) -> list[dict[str, Any]]:
    """The cached tosses set aside, as ``SetAside`` keyword arguments."""
    result = []
    for entry in cached.set_aside:
        fields = dict(entry)
        say = fields.pop("reason_say", None)
        fields["reason_say"] = None if say is None else Msg.from_json(say)
        result.append(fields)
    return result


def write(path: Path, state: LogState, arrays: dict[str, npt.NDArray[Any]], drop_counts: npt.NDArray[np.int64],
          drop_times: npt.NDArray[Any], set_aside: list[dict[str, Any]]) -> None:
    """Keep the parsed selection (all of ``state``'s rows; written aside, then moved in place: a reader
    never sees half a file; a folder that cannot be written leaves no cache and no error)."""
    columns: dict[str, npt.NDArray[Any]] = {}
    ids: dict[str, list[str]] = {}
    for name, array in arrays.items():
        if array.dtype == object:
            ids[name], columns[name] = _codes(array)
        else:
            columns[name] = array
    said = [{**entry, "reason_say": None if entry.get("reason_say") is None else entry["reason_say"].to_json()}
            for entry in set_aside]
    meta = {"version": VERSION, "last_id": state.last_id, "rows": state.rows, "corrections": state.corrections,
            "tosses": int(next(iter(arrays.values())).shape[0]), "drops": int(drop_times.shape[0]),
            "ids": ids, "set_aside": said}
    columns.update(drop_counts=drop_counts, drop_times=drop_times)
    contiguous = {name: np.ascontiguousarray(array) for name, array in columns.items()}
    # the header names each array's place, which depends on the header's own length: lay the arrays
    # out after room for it, and make that room larger until the header fits
    room = ALIGN
    while True:
        places, offset = {}, _aligned(len(MAGIC) + 8 + room)
        for name, array in contiguous.items():
            places[name] = (array.dtype.str, list(array.shape), offset)
            offset = _aligned(offset + array.nbytes)
        header = json.dumps({**meta, "columns": places}).encode()
        if len(header) <= room:
            break
        room = _aligned(len(header))
    partial = path.with_suffix(f".{os.getpid()}.part")
    try:
        path.parent.mkdir(exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(MAGIC + len(header).to_bytes(8, "little") + header)
            for name, array in contiguous.items():
                handle.seek(places[name][2])
                handle.write(array.data.cast("B"))
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)


def _aligned(offset: int) -> int:
    return -(-offset // ALIGN) * ALIGN


def _codes(values: npt.NDArray[np.object_]) -> tuple[list[str], npt.NDArray[np.int32]]:
    """Ids as (their distinct texts, a code per toss; the code one past the last text for None).

    The column is runs of one id (a game's tosses come together): only each run's first id is looked up."""
    n = values.shape[0]
    starts = np.flatnonzero(np.concatenate(([n > 0], np.asarray(values[1:] != values[:-1], dtype=bool))))
    index: dict[object, int] = {}
    run_codes = np.fromiter((index.setdefault(v, len(index)) for v in values[starts]), dtype=np.int32,
                            count=starts.shape[0])
    codes = np.repeat(run_codes, np.diff(np.append(starts, n)))
    names = list(index)
    if None in index:
        none = index[None]
        names.pop(none)
        codes = np.where(codes == none, len(names), np.where(codes > none, codes - 1, codes)).astype(np.int32)
    return [str(name) for name in names], codes
