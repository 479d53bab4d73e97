"""Read the ``tosses`` table into numpy arrays, fast enough for 100,000 tosses in a fraction of a second.

The statistics need, per toss and colour, the pieces held before, tossed in and released, plus the
drop times and the toss's context (layer, game, session). ``iter_tosses`` builds a ``TossRecord`` per
row (about 30 us each), which alone would spend the report's time budget; this module reads the
same columns in one query and parses them column-wise.

Every map ``save_toss`` writes is ``json.dumps`` of all 12 colours in canonical order, so a column
of maps is a run of identical "skeletons" with only the digits differing. The fast path checks that
every row has exactly that skeleton, then reads the digits with numpy; any row that differs (a map
written by other means) sends the whole column through ``json.loads`` instead, so the result is the
same either way.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.errors import KeshiError
from companion.store import Store
from companion.tower.record import toss_filter

IntGrid = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_DIGITS = b"0123456789"
_CANONICAL = json.dumps(dict.fromkeys(COLOURS, 0)).encode()
_SKELETON = _CANONICAL.translate(None, _DIGITS)
_NOT_NUMBERS = bytes(sorted(set(_CANONICAL) - set(_DIGITS + b",")))


class TossLogError(KeshiError, ValueError):
    """A stored toss cannot be read as counts (a bad map or impossible counts)."""


@dataclass(frozen=True)
class TossData:
    """The toss log as arrays, one row per toss in recorded order; columns of grids follow ``COLOURS``."""

    layer: npt.NDArray[np.str_]
    game_id: npt.NDArray[np.object_]
    session_id: npt.NDArray[np.object_]
    season: FloatArray
    round: FloatArray
    started_at: FloatArray
    pieces_in: IntGrid
    pieces_out: IntGrid
    held_before: IntGrid
    drop_offsets: npt.NDArray[np.int64]
    drop_times_ms: FloatArray
    beam_count: FloatArray
    camera_count: FloatArray
    corrected: npt.NDArray[np.bool_]
    flagged: npt.NDArray[np.bool_]

    @property
    def n_tosses(self) -> int:
        """How many tosses the log holds."""
        return int(self.layer.shape[0])

    def select(self, mask: npt.NDArray[np.bool_]) -> TossData:
        """The tosses where ``mask`` is true (drop times follow their tosses)."""
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
        )


def narrow(
    data: TossData, layer: str | None = None, game: str | None = None, session: str | None = None
) -> TossData:
    """Only the tosses of one layer, game and/or session (None: no restriction on that)."""
    if layer is not None and layer not in ("B1", "B2"):
        raise TossLogError(f"layer must be B1 or B2, not {layer!r}")
    mask = np.ones(data.n_tosses, dtype=bool)
    if layer is not None:
        mask &= data.layer == layer
    if game is not None:
        mask &= data.game_id == game
    if session is not None:
        mask &= data.session_id == session
    return data if mask.all() else data.select(mask)


_QUERY = (
    "SELECT layer, game_id, session_id, season, round, started_at, pieces_in, COALESCE(correction, pieces_out),"
    " contents_before, drop_times_ms, beam_count, camera_count,"
    " correction IS NOT NULL, flagged"
    " FROM tosses"
)


def load_tosses(store: Store, tower: str | None = None, since: float | None = None) -> TossData:
    """The stored tosses (optionally of one tower, from a UNIX time on), in recorded order."""
    where, params = toss_filter(tower, since)
    # a toss nobody counted (no camera count, no correction by the table) says nothing about release
    counted = " AND (counts_source != 'none' OR correction IS NOT NULL)"
    rows = store.query(_QUERY + where + counted + " ORDER BY id", params)
    columns = list(zip(*rows, strict=True)) if rows else [()] * 14
    pieces_in = colour_grid(columns[6])
    pieces_out = colour_grid(columns[7])
    held_before = colour_grid(columns[8])
    corrected = np.array(columns[12], dtype=bool).reshape(-1)
    # The table's correction is what fell out. The tower's contents before that toss were inferred
    # from the camera's counts, so where the table saw more come out, more must have been inside.
    held_before = np.where(corrected[:, None], np.maximum(held_before, pieces_out - pieces_in), held_before)
    offsets, times = drop_times(columns[9])
    exposures = pieces_in + held_before
    if (pieces_out > exposures).any():
        row = int(np.argwhere((pieces_out > exposures).any(axis=1))[0, 0])
        raise TossLogError(
            f"toss #{row + 1} of the selection releases more pieces than were inside and tossed in"
        )
    return TossData(
        layer=np.array(columns[0], dtype=np.str_).reshape(-1),
        game_id=np.array(columns[1], dtype=object).reshape(-1),
        session_id=np.array(columns[2], dtype=object).reshape(-1),
        season=_float_column(columns[3]),
        round=_float_column(columns[4]),
        started_at=_float_column(columns[5]),
        pieces_in=pieces_in,
        pieces_out=pieces_out,
        held_before=held_before,
        drop_offsets=offsets,
        drop_times_ms=times,
        beam_count=_float_column(columns[10]),
        camera_count=_float_column(columns[11]),
        corrected=corrected,
        flagged=np.array(columns[13], dtype=bool).reshape(-1),
    )


def _float_column(values: Sequence[object]) -> FloatArray:
    """A nullable numeric column as floats with NaN for NULL."""
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64).reshape(-1)


def colour_grid(texts: Sequence[str]) -> IntGrid:
    """Stored per-colour maps (JSON text) as an ``(n, 12)`` integer array in ``COLOURS`` order."""
    if not texts:
        return np.zeros((0, len(COLOURS)), dtype=np.int64)
    joined = "\n".join(texts).encode()
    if joined.translate(None, _DIGITS) == b"\n".join([_SKELETON] * len(texts)):
        numbers = joined.translate(None, _NOT_NUMBERS).replace(b"\n", b",").decode()
        return np.fromstring(numbers, sep=",", dtype=np.int64).reshape(len(texts), len(COLOURS))
    grid = np.zeros((len(texts), len(COLOURS)), dtype=np.int64)
    for row, text in enumerate(texts):
        counts = json.loads(text)
        unknown = set(counts) - set(COLOURS)
        if unknown:
            raise TossLogError(f"stored toss names unknown colour(s) {', '.join(sorted(unknown))}")
        grid[row] = [int(counts.get(colour, 0)) for colour in COLOURS]
    if (grid < 0).any():
        raise TossLogError("a stored toss has a negative count")
    return grid


def drop_times(texts: Sequence[str]) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Stored drop-time lists as (offsets, flat times): toss i's drops are ``times[off[i]:off[i+1]]``.

    Fast path: strip the brackets and read every number at once; if the count of numbers read differs
    from the count of commas promised (a ``null`` or anything unexpected), parse each list as JSON.
    """
    counts = np.fromiter((t.count(",") + (t != "[]") for t in texts), dtype=np.int64, count=len(texts))
    body = ",".join(t[1:-1] for t in texts if t != "[]")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy warns when the text stops early
        flat = np.fromstring(body, sep=",", dtype=np.float64) if body else np.zeros(0)
    if flat.shape[0] != int(counts.sum()) or not np.isfinite(flat).all():
        lists = [json.loads(text) for text in texts]
        counts = np.array([len(values) for values in lists], dtype=np.int64)
        flat = np.array([float(v) for values in lists for v in values], dtype=np.float64)
    offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return offsets, flat
