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

The arrays are written uncompressed (``numpy.savez``), and read back one at a time straight into
the report's arrays (``load._Filling``), so a restored log never sits in memory twice. A cache is
written again when ``REWRITE_ROWS`` tosses were read past it (writing 1,000,000 tosses' arrays, about
170 MB, takes a fraction of a second; doing it after every game would not pay).
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
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
VERSION = 1
FOLDER = "fairness-cache"


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


def cache_path(database: Path, where: str, params: Sequence[object]) -> Path | None:
    """The cache file of one selection of ``database`` (None: an in-memory store has no folder)."""
    if str(database) == ":memory:":
        return None
    key = hashlib.blake2b(json.dumps([where, list(params)], default=str).encode(), digest_size=12).hexdigest()
    return database.parent / FOLDER / f"{database.stem}-{key}.npz"


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
        with np.load(path, allow_pickle=False) as stored:
            meta = json.loads(bytes(stored["meta"]).decode())
        if meta.get("version") != VERSION:
            return None
        cached = CachedLog(path, int(meta["last_id"]), int(meta["rows"]), int(meta["tosses"]), int(meta["drops"]),
                           {k: list(v) for k, v in meta["ids"].items()}, list(meta["set_aside"]))
        return cached, str(meta["corrections"])
    except (OSError, EOFError, ValueError, KeyError, TypeError, zipfile.BadZipFile):
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
        with np.load(cached.path, allow_pickle=False) as stored:
            for name, target in arrays.items():
                if name in cached.ids:
                    codes = stored[name]
                    names = np.array([*cached.ids[name], None], dtype=object)
                    target[: cached.tosses] = names[codes]
                else:
                    target[: cached.tosses] = stored[name]
            return {"drop_counts": stored["drop_counts"], "drop_times": stored["drop_times"]}
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile):
        return None


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
    partial = path.with_suffix(f".{os.getpid()}.part")
    try:
        path.parent.mkdir(exist_ok=True)
        with open(partial, "wb") as handle:
            columns.update(meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
                           drop_counts=drop_counts, drop_times=drop_times)
            # numpy's stub types every keyword argument as ``allow_pickle``
            np.savez(handle, **columns)  # type: ignore[arg-type]
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)


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
