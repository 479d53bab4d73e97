"""The toss record: everything one toss of the tower tells, as stored in the ``tosses`` table.

Per-colour maps always carry all 12 colours (zeros included) so that a record read back equals the
record written, and so the statistics never have to guess whether a missing colour means zero.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from companion import COLOURS
from companion.errors import KeshiError
from companion.store import Store

ColourCounts = dict[str, int]


class TossRecordError(KeshiError, ValueError):
    """A toss record is inconsistent (unknown colour, negative count, bad layer)."""


def colour_counts(counts: Mapping[str, int] | None = None) -> ColourCounts:
    """All 12 colours in canonical order, from a partial map; rejects unknown colours and negatives."""
    counts = dict(counts or {})
    unknown = sorted(set(counts) - set(COLOURS))
    if unknown:
        raise TossRecordError(f"unknown keshi colour(s) {', '.join(unknown)}; expected one of {', '.join(COLOURS)}")
    result = {colour: int(counts.get(colour, 0)) for colour in COLOURS}
    negative = [colour for colour, n in result.items() if n < 0]
    if negative:
        raise TossRecordError(f"negative count for {', '.join(negative)}")
    return result


@dataclass
class TossRecord:
    """One toss: what went in, what came out, when the pieces dropped and how sure we are."""

    toss_id: str
    tower: str
    layer: str
    mode: str
    started_at: float
    pieces_in: ColourCounts
    pieces_out: ColourCounts
    contents_before: ColourCounts
    contents_after: ColourCounts
    drop_times_ms: list[float] = field(default_factory=list)
    beam_count: int | None = None
    camera_count: int | None = None
    counts_source: str = "camera"
    flagged: bool = False
    correction: ColourCounts | None = None
    game_id: str | None = None
    season: int | None = None
    round: int | None = None
    session_id: str | None = None

    def __post_init__(self) -> None:
        if self.layer not in ("B1", "B2"):
            raise TossRecordError(f"tower layer must be B1 or B2, not {self.layer!r}")
        if self.mode not in ("hardware", "simulated"):
            raise TossRecordError(f"tower mode must be hardware or simulated, not {self.mode!r}")
        for name in ("pieces_in", "pieces_out", "contents_before", "contents_after"):
            setattr(self, name, colour_counts(getattr(self, name)))
        if self.correction is not None:
            self.correction = colour_counts(self.correction)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the form events and exports use)."""
        return asdict(self)


_JSON_FIELDS = ("pieces_in", "pieces_out", "contents_before", "contents_after", "drop_times_ms", "correction")
_COLUMNS = tuple(TossRecord.__dataclass_fields__)


def save_toss(store: Store, record: TossRecord, check: Mapping[str, Any] | None = None) -> None:
    """Store a toss durably (committed when this returns), with the count cross-check's verdict on it
    (``check``, JSON-ready) in the same transaction."""
    save_tosses(store, [record], {record.toss_id: check} if check is not None else None)


def save_tosses(store: Store, records: Iterable[TossRecord],
                checks: Mapping[str, Mapping[str, Any]] | None = None) -> int:
    """Store many tosses in one transaction (all or none), with any cross-check verdicts by toss id;
    return how many tosses were stored."""
    rows = []
    for record in records:
        values = record.to_dict()
        rows.append([_column_value(c, values[c]) for c in _COLUMNS])
    with store.write() as conn:
        conn.executemany(
            f"INSERT INTO tosses ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})", rows
        )
        conn.executemany("INSERT INTO toss_checks (toss_id, verdict) VALUES (?, ?)",
                         [(toss_id, json.dumps(check)) for toss_id, check in (checks or {}).items()])
    return len(rows)


def load_check(store: Store, toss_id: str) -> dict[str, Any] | None:
    """The cross-check's verdict stored with toss ``toss_id``, or None when none was stored."""
    rows = store.query("SELECT verdict FROM toss_checks WHERE toss_id = ?", (toss_id,))
    verdict: dict[str, Any] | None = json.loads(rows[0]["verdict"]) if rows else None
    return verdict


def record_correction(conn: sqlite3.Connection, toss_id: str, counts: Mapping[str, int]) -> None:
    """Store the table's corrected counts of what fell out of toss ``toss_id``, inside the caller's
    write transaction (so the correction and the game action that carries it commit together)."""
    conn.execute("UPDATE tosses SET correction = ? WHERE toss_id = ?", (json.dumps(colour_counts(counts)), toss_id))


def clear_correction(conn: sqlite3.Connection, toss_id: str) -> None:
    """Take back the table's correction of toss ``toss_id`` (an undone release), in the caller's
    write transaction."""
    conn.execute("UPDATE tosses SET correction = NULL WHERE toss_id = ?", (toss_id,))


def _column_value(column: str, value: Any) -> Any:
    """JSON text for the map and list columns; SQL NULL (not the text 'null') for a missing one."""
    if column in _JSON_FIELDS and value is not None:
        return json.dumps(value)
    return value


def record_from_row(row: sqlite3.Row) -> TossRecord:
    """Rebuild a ``TossRecord`` from a ``tosses`` row."""
    values = {c: row[c] for c in _COLUMNS}
    for c in _JSON_FIELDS:
        values[c] = json.loads(values[c]) if values[c] is not None else None
    values["flagged"] = bool(values["flagged"])
    return TossRecord(**values)


def load_toss(store: Store, toss_id: str) -> TossRecord | None:
    """The stored toss ``toss_id``, or None when it was never stored."""
    rows = store.query(f"SELECT {', '.join(_COLUMNS)} FROM tosses WHERE toss_id = ?", (toss_id,))
    return record_from_row(rows[0]) if rows else None


def toss_filter(tower: str | None = None, since: float | None = None) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (and its parameters) selecting tosses of one tower and from a time on."""
    clauses = ["1=1"]
    params: list[Any] = []
    if tower is not None:
        clauses.append("tower = ?")
        params.append(tower)
    if since is not None:
        clauses.append("started_at >= ?")
        params.append(since)
    return " WHERE " + " AND ".join(clauses), params


def iter_tosses(store: Store, tower: str | None = None, since: float | None = None) -> Iterator[TossRecord]:
    """Stored tosses in the order they were made, optionally for one tower and from a time on."""
    where, params = toss_filter(tower, since)
    for row in store.query(f"SELECT {', '.join(_COLUMNS)} FROM tosses{where} ORDER BY id", params):
        yield record_from_row(row)
