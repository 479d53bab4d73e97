"""Toss records: stored and read back unchanged, batches all or none, filters by tower and time."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.store import Store
from companion.tower.record import TossRecord, TossRecordError, iter_tosses, save_toss, save_tosses


def record(toss_id: str, tower: str = "t1", started_at: float = 100.0, **extra: object) -> TossRecord:
    return TossRecord(
        toss_id=toss_id, tower=tower, layer="B1", mode="simulated", started_at=started_at,
        pieces_in={"red": 2, "green": 1}, pieces_out={"red": 1}, contents_before={"black": 1},
        contents_after={"black": 1, "red": 1, "green": 1}, drop_times_ms=[181.5], beam_count=1, **extra,  # type: ignore[arg-type]
    )


def test_a_stored_toss_reads_back_equal_with_all_12_colours(tmp_path: Path) -> None:
    with Store(tmp_path / "db") as store:
        original = record("a", correction={"red": 2})
        save_toss(store, original)
        (back,) = iter_tosses(store)
    assert back == original
    assert len(back.pieces_out) == 12 and back.pieces_out["yellow"] == 0


def test_no_correction_is_stored_as_sql_null(tmp_path: Path) -> None:
    with Store(tmp_path / "db") as store:
        save_toss(store, record("a"))
        assert store.query("SELECT COUNT(*) FROM tosses WHERE correction IS NULL")[0][0] == 1


def test_a_batch_is_stored_all_or_none(tmp_path: Path) -> None:
    with Store(tmp_path / "db") as store:
        assert save_tosses(store, [record("a"), record("b")]) == 2
        with pytest.raises(Exception, match="UNIQUE"):
            save_tosses(store, [record("c"), record("a")])
        assert [r.toss_id for r in iter_tosses(store)] == ["a", "b"]


def test_filters_by_tower_and_start_time(tmp_path: Path) -> None:
    with Store(tmp_path / "db") as store:
        save_tosses(store, [record("a", "t1", 100.0), record("b", "t2", 200.0), record("c", "t1", 300.0)])
        assert [r.toss_id for r in iter_tosses(store, tower="t1")] == ["a", "c"]
        assert [r.toss_id for r in iter_tosses(store, since=200.0)] == ["b", "c"]
        assert [r.toss_id for r in iter_tosses(store, tower="t1", since=200.0)] == ["c"]


@pytest.mark.parametrize(
    ("change", "message"),
    [({"layer": "B3"}, "layer must be B1 or B2"), ({"mode": "real"}, "mode must be hardware or simulated"),
     ({"pieces_in": {"pink": -1}}, "negative count for pink"), ({"pieces_out": {"blue": 1}}, "unknown keshi colour")],
)
def test_inconsistent_records_are_refused(change: dict[str, object], message: str) -> None:
    fields = record("a").to_dict() | change
    with pytest.raises(TossRecordError, match=message):
        TossRecord(**fields)
