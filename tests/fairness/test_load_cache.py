"""The parsed toss log kept beside the database: a read parses only what was stored since, and is
the same as a read from scratch whatever happened to the log (new tosses, a correction, a damaged
or foreign cache file)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.fairness import load, load_cache
from companion.fairness.load import TossData, load_tosses
from companion.fairness.simulate import simulate_into_store
from companion.store import Store
from companion.tower.model import TowerParams
from companion.tower.record import record_correction


@pytest.fixture(autouse=True)
def small_logs_are_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_cache, "MIN_ROWS", 50)
    monkeypatch.setattr(load_cache, "REWRITE_ROWS", 1)


def same(a: TossData, b: TossData) -> bool:
    """Every array and every toss set aside equal (NaN equal to NaN)."""
    for name in load._ARRAY_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if x.dtype.kind == "f":
            if not np.array_equal(x, y, equal_nan=True):
                return False
        elif x.shape != y.shape or not (x == y).all():
            return False
    return a.set_aside == b.set_aside


def fresh(store: Store, tmp_path: Path, tower: str | None) -> TossData:
    """The log read from scratch (no cache)."""
    for cached in (tmp_path / load_cache.FOLDER).glob(f"*{load_cache.SUFFIX}"):
        cached.unlink()
    return load_tosses(store, tower=tower)


def parsed_rows(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the rows each read parses (the pages it asks SQLite for)."""
    rows: list[int] = []
    real = load._parse_joined

    def counting(joined, ids):  # type: ignore[no-untyped-def]
        rows.append(int(str(joined[0])))
        return real(joined, ids)

    monkeypatch.setattr(load, "_parse_joined", counting)
    return rows


#: One tower's tosses (the table's count comes first), and the whole log (its pages tell the cache
#: what it covers: no pass over the table before the first read)
TOWERS = ["T", None]


@pytest.mark.parametrize("tower", TOWERS)
def test_a_later_read_parses_only_the_new_tosses_and_equals_a_fresh_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tower: str | None
) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 300, TowerParams(), seed=1, tower="T")
        with store.write() as conn:  # a damaged record: set aside, and so after a cached read too
            conn.execute("UPDATE tosses SET pieces_out = 'nonsense' WHERE id = 7")
            for toss in ("9", "250"):  # corrections before the first read: the cache covers them
                record_correction(conn, store.query(f"SELECT toss_id FROM tosses WHERE id = {toss}")[0][0], {})
        monkeypatch.setattr(load, "PAGE_ROWS", 100)  # the corrections on pages of their own
        first = load_tosses(store, tower=tower)
        assert first.set_aside and first.corrected.sum() == 2 and (tmp_path / load_cache.FOLDER).is_dir()
        simulate_into_store(store, 40, TowerParams(), seed=2, tower="T")
        rows = parsed_rows(monkeypatch)
        cached = load_tosses(store, tower=tower)
        assert sum(rows) == 40
        assert same(cached, fresh(store, tmp_path, tower))


@pytest.mark.parametrize("tower", TOWERS)
def test_a_correction_of_an_early_toss_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tower: str | None
) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 200, TowerParams(), seed=3, tower="T")
        load_tosses(store, tower=tower)
        toss = store.query("SELECT toss_id FROM tosses WHERE id = 5")[0][0]
        with store.write() as conn:
            record_correction(conn, toss, {"red": 1})
        rows = parsed_rows(monkeypatch)
        after = load_tosses(store, tower=tower)
        assert sum(rows) == 200, "read from scratch"
        assert after.corrected.sum() == 1
        assert same(after, fresh(store, tmp_path, tower))


@pytest.mark.parametrize("content", [b"not a zip", b""])
def test_a_damaged_cache_file_is_ignored(tmp_path: Path, content: bytes) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 120, TowerParams(), seed=4, tower="T")
        load_tosses(store, tower="T")
        (cached,) = (tmp_path / load_cache.FOLDER).glob(f"*{load_cache.SUFFIX}")
        cached.write_bytes(content)
        assert same(load_tosses(store, tower="T"), fresh(store, tmp_path, "T"))


def test_a_cache_of_another_version_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 120, TowerParams(), seed=5, tower="T")
        with monkeypatch.context() as other:  # what other code might have written
            other.setattr(load_cache, "VERSION", -1)
            other.setattr(load, "_parse_joined", lambda joined, ids: None)  # its pieces_in: one more each
            real = load._parse_page
            other.setattr(load, "_parse_page", lambda rows, ids: replace(real(rows, ids), pieces_in=real(
                rows, ids).pieces_in + 1))
            load_tosses(store, tower="T")
        assert list((tmp_path / load_cache.FOLDER).glob(f"*{load_cache.SUFFIX}"))
        rows = parsed_rows(monkeypatch)
        assert same(load_tosses(store, tower="T"), fresh(store, tmp_path, "T"))
        assert rows and sum(rows) >= 120


@pytest.mark.parametrize("cut", [1, 1000])
def test_a_cache_cut_short_is_ignored(tmp_path: Path, cut: int) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 120, TowerParams(), seed=6, tower="T")
        load_tosses(store, tower="T")
        (cached,) = (tmp_path / load_cache.FOLDER).glob(f"*{load_cache.SUFFIX}")
        cached.write_bytes(cached.read_bytes()[:-cut])
        assert same(load_tosses(store, tower="T"), fresh(store, tmp_path, "T"))
