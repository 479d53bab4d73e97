"""Read the ``tosses`` table into numpy arrays in bounded memory, setting aside tosses it cannot use.

The statistics need, per toss and colour, the pieces held before, tossed in and released, plus the
drop times and the toss's context (layer, game, session). ``iter_tosses`` builds a ``TossRecord`` per
row (about 30 us each), which alone would spend the report's time budget; this module reads the
same columns in pages of ``PAGE_ROWS`` row ids (ranges of the row id, so a million-toss log never
sits in memory as Python rows) and parses each page column-wise into compact arrays. SQLite takes
about as long to hand over a page as Python takes to parse it, and it does so without holding
Python's interpreter lock, so the next page is fetched in a helper thread while this one is parsed.

Every map ``save_toss`` writes is ``json.dumps`` of all 12 colours in canonical order, so a column
of maps is a run of identical "skeletons" with only the digits differing. The fast path checks that
every row of a page has exactly that skeleton, then reads the digits with numpy; any row that differs
(a map written by other means) sends the page's column through ``json.loads`` instead, so the result
is the same either way.

A stored toss that cannot be reconciled — a map that does not read as counts, or more pieces of a
colour out than were inside and tossed in (a camera colour mix-up with matching totals, a toss from
the tower's own button that records nothing tossed in, a stuck piece falling after the table
corrected an over-count) — is **set aside** with the reason in player words (``TossData.set_aside``)
instead of failing the whole log: the report states what it left out and analyses the rest.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import warnings
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.errors import KeshiError
from companion.fairness import load_cache
from companion.fairness.two_rate import Counts
from companion.i18n import Msg, colour_name, render_words
from companion.store import Store
from companion.tower.record import toss_filter

IntGrid = Counts
FloatArray = npt.NDArray[np.float64]
#: Drop times: the loader keeps them in single precision (about 7 significant digits: 0.001 ms up to
#: 10 s, and they are recorded to 0.1 ms), 32 MB instead of 64 MB per 8 million drops.
DropTimes = npt.NDArray[np.floating[Any]]
#: Season, round and the beam's and camera's counts: small whole numbers or NaN, exact in single
#: precision, which the loader uses (16 MB less per million tosses).
SmallNumbers = npt.NDArray[np.floating[Any]]
#: Counts are kept as 16-bit integers (a million tosses' three grids take 72 MB, not 288 MB); a
#: stored count above this is set aside as unreadable.
MAX_COUNT = 1000

#: Row ids read per query: bounds the Python objects alive at once (two pages of about 2.5 MB of text
#: each: the one being parsed and the one being fetched).
PAGE_ROWS = 2_500
_DIGITS = b"0123456789"
_CANONICAL = json.dumps(dict.fromkeys(COLOURS, 0)).encode()
_SKELETON = _CANONICAL.translate(None, _DIGITS)
_NOT_NUMBERS = bytes(sorted(set(_CANONICAL) - set(_DIGITS + b",")))
#: A page's column of NULL numbers as the page query joins it ("nan,nan,...").
_NULLS = ",".join(["nan"] * PAGE_ROWS)
#: Deletes the bytes of comma-joined whole numbers (what is left shows the text is something else).
_NOT_WHOLE = str.maketrans("", "", "0123456789,")


class TossLogError(KeshiError, ValueError):
    """A stored toss cannot be read as counts (a bad map or impossible counts)."""


@dataclass(frozen=True)
class SetAside:
    """A stored toss the analysis leaves out, and why (in player words)."""

    toss_id: str
    started_at: float
    layer: str
    game_id: str | None
    session_id: str | None
    reason: str
    #: The reason as a message for a page in the reader's language (None: a damaged record, said in English).
    reason_say: Msg | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class TossData:
    """The toss log as arrays, one row per toss in recorded order; columns of grids follow ``COLOURS``.

    ``set_aside`` lists the stored tosses of the same selection that could not be used (not in the
    arrays).
    """

    layer: npt.NDArray[np.str_]
    game_id: npt.NDArray[np.object_]
    session_id: npt.NDArray[np.object_]
    season: SmallNumbers
    round: SmallNumbers
    started_at: FloatArray
    pieces_in: IntGrid
    pieces_out: IntGrid
    held_before: IntGrid
    drop_offsets: npt.NDArray[np.int64]
    drop_times_ms: DropTimes
    beam_count: SmallNumbers
    camera_count: SmallNumbers
    corrected: npt.NDArray[np.bool_]
    flagged: npt.NDArray[np.bool_]
    set_aside: tuple[SetAside, ...] = field(default=())

    @property
    def n_tosses(self) -> int:
        """How many tosses the log holds."""
        return int(self.layer.shape[0])

    def select(self, mask: npt.NDArray[np.bool_]) -> TossData:
        """The tosses where ``mask`` is true (drop times follow their tosses; ``set_aside`` is kept)."""
        counts = np.diff(self.drop_offsets)
        keep_drops = np.repeat(mask, counts)
        offsets = np.concatenate(([0], np.cumsum(counts[mask]))).astype(np.int64)
        return TossData(
            layer=self.layer[mask], game_id=self.game_id[mask], session_id=self.session_id[mask],
            season=self.season[mask], round=self.round[mask], started_at=self.started_at[mask],
            pieces_in=self.pieces_in[mask], pieces_out=self.pieces_out[mask],
            held_before=self.held_before[mask], drop_offsets=offsets,
            drop_times_ms=self.drop_times_ms[keep_drops], beam_count=self.beam_count[mask],
            camera_count=self.camera_count[mask], corrected=self.corrected[mask], flagged=self.flagged[mask],
            set_aside=self.set_aside,
        )


def narrow(
    data: TossData, layer: str | None = None, game: str | None = None, session: str | None = None
) -> TossData:
    """Only the tosses (and set-aside tosses) of one layer, game and/or session (None: no restriction)."""
    if layer is not None and layer not in ("B1", "B2"):
        raise TossLogError(Msg("layer must be B1 or B2, not {layer!r}", layer=layer))
    mask = np.ones(data.n_tosses, dtype=bool)
    if layer is not None:
        mask &= data.layer == layer
    if game is not None:
        mask &= data.game_id == game
    if session is not None:
        mask &= data.session_id == session
    aside = tuple(
        s for s in data.set_aside
        if (layer is None or s.layer == layer) and (game is None or s.game_id == game)
        and (session is None or s.session_id == session)
    )
    if mask.all() and aside == data.set_aside:
        return data
    kept = data if mask.all() else data.select(mask)
    return TossData(**{**{f: getattr(kept, f) for f in _ARRAY_FIELDS}, "set_aside": aside})


_ROW_QUERY = (
    "SELECT id, toss_id, layer, game_id, session_id, season, round, started_at, pieces_in,"
    " COALESCE(correction, pieces_out), contents_before, drop_times_ms, beam_count, camera_count,"
    " correction IS NOT NULL, flagged"
    " FROM tosses"
)
_COLUMNS = 16
#: One page as one row of joined texts (SQLite's ``group_concat`` in C), so a page costs a few Python
#: strings instead of 16 objects per toss. Maps and lists are joined by newlines (``json.dumps`` never
#: writes one), ids by the ASCII record separator; the row ids come along to check the order. What is
#: rare (a missing game or session, a correction, a flag) comes as the row ids it applies to (an
#: aggregate that skips every other row costs SQLite less than a "0" per row). Maps
#: and drop lists come as bytes (what numpy reads), not decoded into Python strings and encoded back.
#:
#: A page is a range of ``PAGE_ROWS`` row ids, aggregated straight from the table: a subquery with
#: ``ORDER BY id LIMIT`` would make SQLite copy every column of every row through a co-routine first
#: (about 2 s of its 4.7 s per million rows). ``NOT INDEXED`` keeps a tower or time filter from
#: switching the scan to an index (the row id range is still used); the rows then come in row id
#: order, which the page's joined row ids confirm (any other order: the page is read row by row).
_PAGE_QUERY = (
    "SELECT count(*), group_concat(id), group_concat(layer, ''),"
    " CAST(group_concat(pieces_in, char(10)) AS BLOB),"
    " CAST(group_concat(COALESCE(correction, pieces_out), char(10)) AS BLOB),"
    " CAST(group_concat(contents_before, char(10)) AS BLOB), CAST(group_concat(drop_times_ms, char(10)) AS BLOB),"
    " group_concat(COALESCE(game_id, ''), char(30)), group_concat(CASE WHEN game_id IS NULL THEN id END),"
    " group_concat(COALESCE(session_id, ''), char(30)), group_concat(CASE WHEN session_id IS NULL THEN id END),"
    " group_concat(COALESCE(season, 'nan')), group_concat(COALESCE(round, 'nan')),"
    f" group_concat(CAST(started_at * {2**22} AS INTEGER)), group_concat(COALESCE(beam_count, 'nan')),"
    " group_concat(COALESCE(camera_count, 'nan')), group_concat(CASE WHEN correction IS NOT NULL THEN id END),"
    " group_concat(CASE WHEN flagged != 0 THEN id END),"
    f" sum(started_at * {2**22} != CAST(started_at * {2**22} AS INTEGER)),"
    f" group_concat({load_cache.CORRECTION}), max(id)"
    " FROM tosses NOT INDEXED{where} AND id > ? AND id <= ?"
)
#: Start times come as whole multiples of 2**-22 s (``_PAGE_QUERY``): SQLite writes a whole number
#: several times faster than a decimal fraction it must make sure reads back exactly. A double from
#: 2**30 to 2**32 s (the years 2004 to 2106) is always such a multiple, so every stored time converts
#: exactly; a page with any other (the query counts them) is read row by row.
_TIME_SCALE = float(2**22)
_ARRAY_FIELDS = (
    "layer", "game_id", "session_id", "season", "round", "started_at", "pieces_in", "pieces_out",
    "held_before", "drop_offsets", "drop_times_ms", "beam_count", "camera_count", "corrected", "flagged",
)
_COUNTED = " AND (counts_source != 'none' OR correction IS NOT NULL)"


def load_tosses(store: Store, tower: str | None = None, since: float | None = None) -> TossData:
    """The stored tosses (optionally of one tower, from a UNIX time on), in recorded order.

    Never fails on a stored toss's content: tosses that cannot be reconciled are in ``set_aside``.
    Memory stays bounded: the arrays are allocated once for the whole selection and filled page by
    page, so only one page of text is alive at a time besides them. A selection of at least
    ``load_cache.MIN_ROWS`` tosses is kept parsed beside the database (``load_cache``), and a later
    read parses only the rows stored since (from scratch when a correction changed an earlier one).
    The whole log read with nothing cached (an audit's fresh log) skips ``load_cache.log_state``'s
    pass over the table (0.5 s per million tosses): its pages tell the cache what it covers.
    """
    where, params = toss_filter(tower, since)
    # a toss nobody counted (no camera count, no correction by the table) says nothing about release
    where += _COUNTED
    with _snapshot(store) as snapshot:  # the count and every page see the same tosses, whatever is stored meanwhile
        path = load_cache.cache_path(Path(str(store.path)), where, params)
        found = load_cache.stored(path)
        state: load_cache.LogState | None = None
        if found is None and tower is None and since is None:
            # the whole log and nothing cached to check: no pass over the table first; the arrays
            # are sized by the row ids (rows never filled are never touched, so cost no memory) and
            # the pages tell what the cache needs (rows, corrections, last row id)
            first, last = (int(v or 0) for v in snapshot.query("SELECT min(id), max(id) FROM tosses")[0])
            cached, result, after = None, _Filling(last - first + 1 if last else 0), first - 1
        else:
            state = load_cache.log_state(snapshot, where, params, 0 if found is None else found[0].last_id)
            cached = load_cache.matching(found, state)
            result = _Filling(state.rows if cached is None else state.rows - cached.rows + cached.tosses)
            if cached is not None and not result.restore(cached):
                cached, result = None, _Filling(state.rows)
            after, last = state.first_id - 1 if cached is None else cached.last_id, state.last_id
        ids: dict[object, object] = {}  # one string object per game/session id, shared by its tosses
        read, last_read, corrections = 0, 0, []
        for start, joined in _joined_pages(snapshot, where, params, after, last):
            page = _parse_joined(joined, ids)
            if page is None:  # anything unusual: row by row
                rows = snapshot.query(_ROW_QUERY + where + " AND id > ? AND id <= ? ORDER BY id",
                                      [*params, start, start + PAGE_ROWS])
                page = _parse_page(rows, ids)
            result.add(page)
            read += int(str(joined[0]))
            last_read = int(str(joined[-1]))
            if joined[-2] is not None:
                corrections.append(str(joined[-2]))
        data = result.finish()
        state = state or load_cache.read_state(read, corrections, last_read)
        if path is not None and data.n_tosses >= load_cache.MIN_ROWS and (
                cached is None or read >= load_cache.REWRITE_ROWS):
            arrays = {name: getattr(data, name) for name in result.arrays}
            aside = [{f.name: getattr(s, f.name) for f in fields(SetAside)} for s in data.set_aside]
            load_cache.write(path, state, arrays, np.diff(data.drop_offsets), data.drop_times_ms, aside)
    return data


class _Snapshot:
    """One read transaction on its own read-only connection to the store's file (WAL: writers carry
    on, this reader keeps seeing the database as it was when the transaction began); thread-safe."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()


@contextmanager
def _snapshot(store: Store) -> Iterator[_Snapshot | Store]:
    """The store as one consistent snapshot while tosses keep arriving: a read transaction on a
    second connection. An in-memory store (the hub's scratch copy) has no file to open twice and
    no other writer: it is read as it is."""
    if str(store.path) == ":memory:":
        yield store
        return
    conn = sqlite3.connect(f"{store.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                           isolation_level=None, timeout=10)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("BEGIN")
        conn.execute("SELECT 1 FROM tosses LIMIT 1")  # a read transaction's snapshot starts at its first read
        yield _Snapshot(conn)
        conn.execute("COMMIT")
    finally:
        conn.close()


def _joined_pages(
    store: _Snapshot | Store, where: str, params: Sequence[object], after: int, last: int
) -> Iterator[tuple[int, Sequence[object]]]:
    """Each page of the selection's rows after row id ``after`` up to ``last`` as (the row id it
    starts after, its joined texts), in order, empty pages left out; the next page is fetched in a
    helper thread while the caller works on this one (SQLite releases the interpreter lock while it
    runs, so reading and parsing overlap on two cores)."""
    def fetch(start: int) -> Sequence[object]:
        return tuple(store.query(_PAGE_QUERY.format(where=where), [*params, start, start + PAGE_ROWS])[0])

    starts = range(after, last, PAGE_ROWS)
    if not starts:
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="fairness-read") as reader:
        pending = reader.submit(fetch, starts[0])
        for index, start in enumerate(starts):
            joined = pending.result()
            if index + 1 < len(starts):  # fetch the next page while this one is parsed
                pending = reader.submit(fetch, starts[index + 1])
            if int(str(joined[0])):
                yield start, joined


class _Filling:
    """The whole selection's arrays, allocated once and filled page by page."""

    def __init__(self, total: int) -> None:
        colours = len(COLOURS)
        self.used = 0
        self.arrays: dict[str, npt.NDArray[Any]] = {
            "layer": np.empty(total, dtype="<U2"), "game_id": np.empty(total, dtype=object),
            "session_id": np.empty(total, dtype=object), "corrected": np.zeros(total, dtype=bool),
            "flagged": np.zeros(total, dtype=bool),
            "started_at": np.empty(total),
            **{name: np.empty(total, dtype=np.float32) for name in ("season", "round", "beam_count", "camera_count")},
            **{name: np.zeros((total, colours), dtype=np.int16) for name in ("pieces_in", "pieces_out", "held_before")},
        }
        self.total = total
        self.drop_counts = np.zeros(total, dtype=np.int64)
        self.drop_times: npt.NDArray[np.float32] = np.empty(0, dtype=np.float32)
        self.drops_used = 0
        self.set_aside: list[SetAside] = []

    def restore(self, cached: load_cache.CachedLog) -> bool:
        """Fill the first rows from a matching cache (False: its file no longer reads)."""
        drops = load_cache.restore(cached, self.arrays)
        if drops is None:
            return False
        self.used = cached.tosses
        self.drop_counts[: self.used] = drops["drop_counts"]
        per_toss = cached.drops / max(cached.tosses, 1)
        # room for the rows stored since at the cached drops per toss, with 3 % to spare
        room = int(1.03 * per_toss * (self.total - cached.tosses)) + cached.drops + 1
        self.drop_times = np.empty(room, dtype=np.float32)
        self.drop_times[: cached.drops] = drops["drop_times"]
        self.drops_used = cached.drops
        for entry in load_cache.set_aside_of(cached):
            self.set_aside.append(SetAside(**entry))
        return True

    def add(self, page: TossData) -> None:
        """Copy one page's tosses in after the ones already there."""
        end = self.used + page.n_tosses
        for name, array in self.arrays.items():
            array[self.used:end] = getattr(page, name)
        self.drop_counts[self.used:end] = np.diff(page.drop_offsets)
        self.used = end
        drops_end = self.drops_used + page.drop_times_ms.shape[0]
        if drops_end > self.drop_times.shape[0]:
            # first page (a cache sized it when it filled the first rows): room for the whole
            # selection at this page's drops per toss, with 3 % to spare; a later page beyond that
            # grows it by a quarter at least (a few copies at most)
            per_toss = page.drop_times_ms.shape[0] / max(page.n_tosses, 1)
            room = int(1.03 * per_toss * self.total) + 1 if self.drops_used == 0 else int(1.25 * drops_end)
            grown = np.empty(max(room, drops_end), dtype=np.float32)
            grown[: self.drops_used] = self.drop_times[: self.drops_used]
            self.drop_times = grown
        self.drop_times[self.drops_used:drops_end] = page.drop_times_ms
        self.drops_used = drops_end
        self.set_aside.extend(page.set_aside)

    def finish(self) -> TossData:
        """The filled arrays (trimmed: tosses set aside, or recorded since the count, change the length)."""
        arrays = {name: array[: self.used] for name, array in self.arrays.items()}
        offsets = np.concatenate(([0], np.cumsum(self.drop_counts[: self.used]))).astype(np.int64)
        return TossData(**arrays, drop_offsets=offsets, drop_times_ms=self.drop_times[: self.drops_used],
                        set_aside=tuple(self.set_aside))


def concatenate(pages: Sequence[TossData]) -> TossData:
    """The tosses of several ``TossData`` one after the other (empty input: no tosses)."""
    if not pages:
        return _parse_page([], {})
    if len(pages) == 1:
        return pages[0]
    drop_counts = np.concatenate([np.diff(p.drop_offsets) for p in pages])
    joined = {
        name: np.concatenate([getattr(p, name) for p in pages])
        for name in _ARRAY_FIELDS if name != "drop_offsets"
    }
    offsets = np.concatenate(([0], np.cumsum(drop_counts))).astype(np.int64)
    aside = tuple(s for p in pages for s in p.set_aside)
    return TossData(**joined, drop_offsets=offsets, set_aside=aside)


def _parse_joined(joined: Sequence[object], ids: dict[object, object]) -> TossData | None:
    """A page from its joined texts, or None when anything needs the row-by-row path (a map or drop
    list in another form, an id holding a separator, a start time that is not a multiple of
    2**-22 s, a toss to set aside)."""
    count = int(str(joined[0]))
    row_ids = _whole_numbers(str(joined[1]))
    if row_ids is None or row_ids.shape[0] != count or not (np.diff(row_ids) > 0).all():  # not in row id order
        return None
    texts = ["" if isinstance(value, bytes) else str(value) for value in joined]  # the maps' bytes stay bytes
    maps = [value if isinstance(value, bytes) else None for value in joined[3:7]]
    layer = texts[2]
    if len(layer) != 2 * count or None in maps or texts[18] != "0":
        return None
    grids = [_fast_grid(raw, count) for raw in maps[:3] if raw is not None]
    pieces_in, pieces_out, held_before = grids
    if pieces_in is None or pieces_out is None or held_before is None:
        return None
    corrected = _marked(joined[16], row_ids)
    flagged = _marked(joined[17], row_ids)
    if corrected is None or flagged is None:
        return None
    held_before = np.where(corrected[:, None], np.maximum(held_before, pieces_out - pieces_in), held_before)
    if (pieces_out > pieces_in + held_before).any():
        return None
    drops = _fast_drop_times(maps[3] or b"", count)
    game_id = _joined_ids(texts[7], _marked(joined[8], row_ids), ids)
    session_id = _joined_ids(texts[9], _marked(joined[10], row_ids), ids)
    scaled = _whole_numbers(texts[13], limit=2**53)  # exact in double precision, and so after the scaling
    numbers = [_joined_floats(texts[k], count) for k in (11, 12, 14, 15)]
    if (drops is None or game_id is None or session_id is None or scaled is None or scaled.shape[0] != count
            or any(n is None for n in numbers)):
        return None
    season, round_, beam_count, camera_count = (n for n in numbers if n is not None)
    return TossData(
        layer=np.frombuffer(layer.encode(), dtype="S2").astype(np.str_),
        game_id=game_id, session_id=session_id, season=season, round=round_,
        started_at=scaled / _TIME_SCALE, pieces_in=pieces_in, pieces_out=pieces_out, held_before=held_before,
        drop_offsets=drops[0], drop_times_ms=drops[1], beam_count=beam_count, camera_count=camera_count,
        corrected=corrected, flagged=flagged,
    )


def _fast_grid(raw: bytes, count: int) -> IntGrid | None:
    """Newline-joined canonical maps as an ``(count, 12)`` grid; None if any map has another form."""
    if len(raw) == count * len(_CANONICAL) + count - 1:  # perhaps every count a single digit
        grid = _single_digit_grid(raw, count)
        if grid is not None:
            return grid
    if raw.translate(None, _DIGITS) != b"\n".join([_SKELETON] * count):
        return None
    numbers = raw.translate(None, _NOT_NUMBERS).replace(b"\n", b",")
    grid = np.fromstring(numbers.decode(), sep=",", dtype=np.int64).reshape(count, len(COLOURS))
    return None if grid.max(initial=0) > MAX_COUNT else grid


#: Where the canonical map with every count a single digit has its digits (one per colour).
_DIGIT_COLUMNS = np.flatnonzero(np.frombuffer(_CANONICAL, dtype=np.uint8) == ord("0"))
_MAP_LINE = np.frombuffer(_CANONICAL + b"\n", dtype=np.uint8)


def _single_digit_grid(raw: bytes, count: int) -> IntGrid | None:
    """The maps of a page whose counts are all single digits, read as one ``(count, line)`` byte
    table: each line is the canonical map with its 12 digit columns changed (None if not so)."""
    table = np.frombuffer(raw + b"\n", dtype=np.uint8).reshape(count, _MAP_LINE.shape[0])
    digits = table[:, _DIGIT_COLUMNS] - np.uint8(ord("0"))
    if (digits > 9).any():
        return None
    rest = table.copy()
    rest[:, _DIGIT_COLUMNS] = ord("0")
    if not (rest == _MAP_LINE).all():
        return None
    return digits.astype(np.int64)


def _marked(value: object, row_ids: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_] | None:
    """Which of the page's tosses (``row_ids``, ascending) are among the comma-joined row ids
    ``value`` (None: no toss); None if an id is not one of the page's."""
    mask = np.zeros(row_ids.shape[0], dtype=bool)
    if value is None:
        return mask
    marked = _whole_numbers(str(value))
    if marked is None:
        return None
    at = np.minimum(np.searchsorted(row_ids, marked), row_ids.shape[0] - 1)
    if (row_ids[at] != marked).any():
        return None
    mask[at] = True
    return mask


def _joined_floats(text: str, count: int) -> FloatArray | None:
    """Comma-joined numbers ('nan' for NULL) as floats; None if there are not ``count`` of them.

    A page of NULLs is read at once, whole numbers (season, round, counts) as integers (several times
    faster), start times mostly digit-wise (``_plain_decimals``); anything else by numpy's parser."""
    if count and text == _NULLS[: 4 * count - 1]:
        return np.full(count, np.nan)
    whole = _whole_numbers(text)
    if whole is not None and whole.shape[0] == count:
        return whole.astype(np.float64)
    plain = _plain_decimals(text.encode(), count)
    if plain is not None:
        return plain
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            values = np.fromstring(text, sep=",", dtype=np.float64)
        except ValueError:
            return None
    return values if values.shape[0] == count else None


def _whole_numbers(text: str, limit: int = 10**15) -> npt.NDArray[np.int64] | None:
    """Comma-joined whole numbers (digits and commas only, each below ``limit``) as integers; None for
    any other text (numpy reads integers several times faster than floats)."""
    if not text or text.translate(_NOT_WHOLE) or ",," in text or text[0] == "," or text[-1] == ",":
        return None
    values = np.fromstring(text, sep=",", dtype=np.int64)
    return values if values.max(initial=0) < limit else None


def _joined_ids(
    text: str, missing: npt.NDArray[np.bool_] | None, ids: dict[object, object]
) -> npt.NDArray[np.object_] | None:
    """Record-separator-joined ids, NULL where ``missing``; None if an id holds the separator (or
    ``missing`` did not read)."""
    parts = text.split("\x1e")
    if missing is None or len(parts) != missing.shape[0]:
        return None
    column = np.empty(len(parts), dtype=object)
    column[:] = parts
    if missing.any():
        column[missing] = None
    return _id_column(column, ids)


def _fast_drop_times(raw: bytes, count: int) -> tuple[npt.NDArray[np.int64], FloatArray] | None:
    """Newline-joined drop lists as (offsets, times); None if any list is not plain numbers.

    Whole-page work in numpy, no Python step per toss: a list's drops are its commas plus one (none
    for ``[]``); the brackets go, the newlines become commas, and every number is read at once.
    """
    codes = np.frombuffer(raw, dtype=np.uint8)
    breaks = np.flatnonzero(codes == ord("\n"))
    if breaks.shape[0] != count - 1 or not raw:
        return None
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(raw)])) - 1
    if (ends < starts).any() or (codes[starts] != ord("[")).any() or (codes[ends] != ord("]")).any():
        return None
    counts = np.add.reduceat(codes == ord(","), starts, dtype=np.int64) + (ends - starts > 1)
    # every list begins after a newline once one is put in front; empty ones go whole
    # (joined by ", " as within a list: every number then has the same separator after it)
    body = (b"\n" + raw).replace(b"\n[]", b"").translate(None, b"[]").replace(b"\n", b", ")[2:]
    drops = int(counts.sum())
    flat = _plain_decimals(body, drops) if body else np.zeros(0)
    if flat is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # numpy warns when the text stops early
            try:
                flat = np.fromstring(body.decode(), sep=",", dtype=np.float64)
            except ValueError:
                return None
    if flat.shape[0] != drops or not np.isfinite(flat).all():
        return None
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64), flat


#: Most digits a mantissa may have and stay exact in double precision (below 2**53).
_MAX_DIGITS = 15
_TENS = 10.0 ** np.arange(_MAX_DIGITS + 1)


def _plain_decimals(text: bytes, count: int) -> FloatArray | None:
    """``count`` comma-separated decimals of one shape ("187.1, 203.1, 195.6": the same digits before
    and after the point in every number, no sign or exponent, at most 15 digits) as floats; None for
    anything else (numpy's parser reads it instead).

    Such a page is a table with one row per number, so its digits are read column by column, several
    times faster than a number parser. The digits form an exact whole number (the mantissa, below
    2**53), and dividing it by the power of ten of its decimals is one correctly rounded operation,
    so each value is bit for bit the one ``float(text)`` or numpy's parser gives.
    """
    width = text.find(b",")
    width = len(text) if width < 0 else width
    separator = b", " if text[width:width + 2] == b", " else b","
    row = width + len(separator)
    if not 0 < width <= _MAX_DIGITS + 1 or len(text) + len(separator) != count * row:
        return None
    table = np.frombuffer(text + separator, dtype=np.uint8).reshape(count, row)
    point = text.find(b".", 0, width)
    places = [k for k in range(width) if k != point]
    digits = table[:, places] - np.uint8(ord("0"))
    if (not places or len(places) > _MAX_DIGITS or (digits > 9).any()
            or (table[:, width:] != np.frombuffer(separator, dtype=np.uint8)).any()
            or (point >= 0 and (table[:, point] != ord(".")).any())):
        return None
    mantissa = np.zeros(count)
    for column in range(digits.shape[1]):
        mantissa *= 10.0
        mantissa += digits[:, column]
    return mantissa / _TENS[width - point - 1 if point >= 0 else 0]


def _parse_page(rows: Sequence[Sequence[object]], ids: dict[object, object]) -> TossData:
    """One page of query rows as ``TossData``, its unusable tosses moved to ``set_aside``."""
    columns: list[Sequence[object]] = list(zip(*rows, strict=True)) if rows else [()] * _COLUMNS
    problems: dict[int, str | Msg] = {}
    pieces_in = _lenient_grid(columns[8], "tossed-in", problems)
    pieces_out = _lenient_grid(columns[9], "came-out", problems)
    held_before = _lenient_grid(columns[10], "held-before", problems)
    corrected = np.array(columns[14], dtype=bool).reshape(-1)
    # The table's correction is what fell out. The tower's contents before that toss were inferred
    # from the camera's counts, so where the table saw more come out, more must have been inside.
    held_before = np.where(corrected[:, None], np.maximum(held_before, pieces_out - pieces_in), held_before)
    offsets, times = _lenient_drop_times(columns[11], problems)
    for row in np.flatnonzero((pieces_out > pieces_in + held_before).any(axis=1)):
        problems.setdefault(int(row), _impossible_reason(pieces_in[row], pieces_out[row], held_before[row]))
    n = len(rows)
    data = TossData(
        layer=np.array(columns[2], dtype=np.str_).reshape(-1),
        game_id=_id_column(columns[3], ids),
        session_id=_id_column(columns[4], ids),
        season=_float_column(columns[5]),
        round=_float_column(columns[6]),
        started_at=_float_column(columns[7]),
        pieces_in=pieces_in,
        pieces_out=pieces_out,
        held_before=held_before,
        drop_offsets=offsets,
        drop_times_ms=times,
        beam_count=_float_column(columns[12]),
        camera_count=_float_column(columns[13]),
        corrected=corrected,
        flagged=np.array(columns[15], dtype=bool).reshape(-1),
    )
    if not problems:
        return data
    aside = tuple(
        SetAside(str(columns[1][r]), float(data.started_at[r]), str(data.layer[r]),
                 _optional_str(data.game_id[r]), _optional_str(data.session_id[r]), render_words(reason, "en"),
                 reason if isinstance(reason, Msg) else None)
        for r, reason in sorted(problems.items())
    )
    keep = np.ones(n, dtype=bool)
    keep[list(problems)] = False
    kept = data.select(keep)
    return TossData(**{**{f: getattr(kept, f) for f in _ARRAY_FIELDS}, "set_aside": aside})


def _impossible_reason(
    pieces_in: npt.NDArray[np.int64], pieces_out: npt.NDArray[np.int64], held: npt.NDArray[np.int64]
) -> Msg:
    """Why a toss whose counts cannot have happened is set aside, in player words."""
    over = int(np.argmax(pieces_out - pieces_in - held))
    colour, out, inside = colour_name(COLOURS[over]), int(pieces_out[over]), int(pieces_in[over] + held[over])
    if int(pieces_in.sum()) == 0:
        return Msg("nothing was recorded as tossed in, yet {out} came out (a toss from the tower's own button?)",
                   out=int(pieces_out.sum()))
    counts = {"out": out, "colour": colour, "inside": inside}
    if int(pieces_out.sum()) <= int((pieces_in + held).sum()):
        if inside == 1:
            return Msg("{out} {colour} came out but only {inside} was inside or tossed in, though the totals add up "
                       "(colours mixed up by the camera?)", **counts)
        return Msg("{out} {colour} came out but only {inside} were inside or tossed in, though the totals add up "
                   "(colours mixed up by the camera?)", **counts)
    if inside == 1:
        return Msg("{out} {colour} came out but only {inside} was inside or tossed in (a piece counted earlier may "
                   "have fallen only now)", **counts)
    return Msg("{out} {colour} came out but only {inside} were inside or tossed in (a piece counted earlier may "
               "have fallen only now)", **counts)


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def _id_column(
    values: Sequence[object] | npt.NDArray[np.object_], ids: dict[object, object]
) -> npt.NDArray[np.object_]:
    """An id column as an object array whose equal ids share one string (a 1M-toss log has few ids).

    A game's tosses come one after another, so a page's column is a few runs of one id: the runs are
    found with one element-wise comparison (in C) and only their first ids are looked up."""
    if isinstance(values, np.ndarray):
        column = values
    else:
        column = np.empty(len(values), dtype=object)
        column[:] = list(values)
    n = column.shape[0]
    if n == 0:
        return np.empty(0, dtype=object)
    starts = np.flatnonzero(np.concatenate(([True], np.asarray(column[1:] != column[:-1], dtype=bool))))
    shared = np.empty(starts.shape[0], dtype=object)
    shared[:] = [ids.setdefault(v, v) for v in column[starts]]
    return np.repeat(shared, np.diff(np.append(starts, n)))


def _float_column(values: Sequence[object]) -> FloatArray:
    """A nullable numeric column as floats with NaN for NULL."""
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64).reshape(-1)


def colour_grid(texts: Sequence[str]) -> IntGrid:
    """Stored per-colour maps (JSON text) as an ``(n, 12)`` integer array in ``COLOURS`` order.

    Raises ``TossLogError`` naming the first map that does not read as counts.
    """
    problems: dict[int, str | Msg] = {}
    grid = _lenient_grid(texts, "stored", problems)
    if problems:
        raise TossLogError(f"toss #{min(problems) + 1}: {render_words(problems[min(problems)], 'en')}")
    return grid


def _lenient_grid(texts: Sequence[object], what: str, problems: dict[int, str | Msg]) -> IntGrid:
    """Like ``colour_grid``, but a map that does not read leaves zeros and a reason in ``problems``."""
    if not texts:
        return np.zeros((0, len(COLOURS)), dtype=np.int64)
    if all(isinstance(t, str) for t in texts):
        joined = "\n".join(str(t) for t in texts).encode()
        if joined.translate(None, _DIGITS) == b"\n".join([_SKELETON] * len(texts)):
            numbers = joined.translate(None, _NOT_NUMBERS).replace(b"\n", b",").decode()
            fast = np.fromstring(numbers, sep=",", dtype=np.int64).reshape(len(texts), len(COLOURS))
            for large in np.flatnonzero((fast > MAX_COUNT).any(axis=1)):
                problems.setdefault(int(large), f"its {what} counts do not read as counts (a count above {MAX_COUNT})")
            return fast
    grid = np.zeros((len(texts), len(COLOURS)), dtype=np.int64)
    for row, text in enumerate(texts):
        try:
            grid[row] = _read_map(text)
        except (TypeError, ValueError) as exc:
            problems.setdefault(row, f"its {what} counts do not read as counts ({exc})")
    return grid


def _read_map(text: object) -> list[int]:
    """One stored colour map as 12 counts; ValueError naming what is wrong."""
    counts = json.loads(str(text))
    if not isinstance(counts, dict):
        raise ValueError("not a map of colours")
    unknown = set(counts) - set(COLOURS)
    if unknown:
        raise ValueError(f"unknown colour(s) {', '.join(sorted(unknown))}")
    values = [counts.get(colour, 0) for colour in COLOURS]
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT for v in values):
        raise ValueError(f"a count is not a whole number from 0 to {MAX_COUNT}")
    return [int(v) for v in values]


def drop_times(texts: Sequence[str]) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Stored drop-time lists as (offsets, flat times): toss i's drops are ``times[off[i]:off[i+1]]``.

    Raises ``TossLogError`` naming the first list that does not read as times.
    """
    problems: dict[int, str | Msg] = {}
    result = _lenient_drop_times(texts, problems)
    if problems:
        raise TossLogError(f"toss #{min(problems) + 1}: {render_words(problems[min(problems)], 'en')}")
    return result


def _lenient_drop_times(
    texts: Sequence[object], problems: dict[int, str | Msg]
) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Like ``drop_times``; a list that does not read counts as no drops, with a reason in ``problems``.

    Fast path: strip the brackets and read every number at once; if the count of numbers read differs
    from the count of commas promised (a ``null`` or anything unexpected), parse each list as JSON.
    """
    strings = [t if isinstance(t, str) else "" for t in texts]
    counts = np.fromiter((t.count(",") + (t != "[]") for t in strings), dtype=np.int64, count=len(strings))
    body = ",".join(t[1:-1] for t in strings if t != "[]")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy warns when the text stops early
        try:
            flat = np.fromstring(body, sep=",", dtype=np.float64) if body else np.zeros(0)
        except ValueError:  # newer numpy refuses text it cannot read to the end: take the slow path
            flat = np.zeros(0)  # (body is not empty, so its count is not 0: the lists are parsed one by one)
    if flat.shape[0] != int(counts.sum()) or not np.isfinite(flat).all():
        lists: list[list[float]] = []
        for row, text in enumerate(texts):
            try:
                values = json.loads(str(text))
                lists.append([float(v) for v in values])
            except (TypeError, ValueError) as exc:
                problems.setdefault(row, f"its drop times do not read as times ({exc})")
                lists.append([])
        counts = np.array([len(values) for values in lists], dtype=np.int64)
        flat = np.array([v for values in lists for v in values], dtype=np.float64)
    offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return offsets, flat
