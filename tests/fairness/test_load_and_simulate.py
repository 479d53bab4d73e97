"""``keshi tower simulate`` writes tosses as played ones are written; the loader reads them back exactly."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from companion import COLOURS
from companion.fairness import load
from companion.fairness.load import TossLogError, _plain_decimals, colour_grid, load_tosses, narrow
from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.simulate import simulate_into_store
from companion.store import Store
from companion.tower.model import SimulatedTower, TowerParams
from companion.tower.record import TossRecord, iter_tosses, record_correction, save_toss


def grid(records: list[TossRecord], field: str) -> np.ndarray:
    return np.array([[getattr(r, field)[c] for c in COLOURS] for r in records])


def test_simulated_tosses_are_game_shaped_toss_records(store: Store) -> None:
    summary = simulate_into_store(store, 30, TowerParams(layer="B2", bias={"red": 0.1}), seed=3)
    records = list(iter_tosses(store))
    assert "recorded 30 simulated tosses" in summary and len(records) == 30
    assert {r.mode for r in records} == {"simulated"} and {r.layer for r in records} == {"B2"}
    games = [r.game_id for r in records]
    assert len(set(games)) == 3  # 12 + 12 + 6 tosses
    for index, record in enumerate(records):
        tossed = sum(record.pieces_in.values())
        assert 6 <= tossed <= 12 and tossed % 3 == 0
        assert max(record.pieces_in.values()) <= tossed // 3  # each player shows 3 different colours
        assert (record.season, record.round) == (index % 12 // 4 + 1, index % 4 + 1)
        assert len(record.drop_times_ms) == sum(record.pieces_out.values()) == record.beam_count
        for colour in COLOURS:
            assert record.contents_after[colour] == (
                record.contents_before[colour] + record.pieces_in[colour] - record.pieces_out[colour]
            )
        if index % 12 == 0:
            assert sum(record.contents_before.values()) == 0  # a game starts with an empty tower
        else:
            assert record.contents_before == records[index - 1].contents_after


def test_the_same_seed_plays_the_same_tosses(store: Store) -> None:
    simulate_into_store(store, 12, TowerParams(), seed=9)
    simulate_into_store(store, 12, TowerParams(), seed=9)
    records = list(iter_tosses(store))
    assert [r.pieces_out for r in records[:12]] == [r.pieces_out for r in records[12:]]


def test_loader_reads_back_what_iter_tosses_reads(store: Store) -> None:
    simulate_into_store(store, 40, TowerParams(), seed=1)
    records = list(iter_tosses(store))
    data = load_tosses(store)
    assert data.n_tosses == 40
    assert (data.pieces_in == grid(records, "pieces_in")).all()
    assert (data.pieces_out == grid(records, "pieces_out")).all()
    assert (data.held_before == grid(records, "contents_before")).all()
    for index, record in enumerate(records):
        drops = data.drop_times_ms[data.drop_offsets[index]:data.drop_offsets[index + 1]]
        # kept in single precision: exactly the recorded times rounded to float32 (0.001 ms at 10 s)
        assert drops.tolist() == single(record.drop_times_ms)
        assert np.allclose(drops, record.drop_times_ms, rtol=0, atol=1e-3)
    assert list(data.game_id) == [r.game_id for r in records]


def single(times: list[float]) -> list[float]:
    """Drop times as the loader keeps them (single precision)."""
    return np.array(times, dtype=np.float32).tolist()


def test_loader_reads_every_drop_when_later_pages_drop_more_than_the_first(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drop times' array is sized from the first page; pages with more drops make it grow."""
    simulate_into_store(store, 40, TowerParams(), seed=1)
    with store.write() as conn:  # the first page's tosses record no drop times
        conn.execute("UPDATE tosses SET drop_times_ms = '[]' WHERE id IN (SELECT id FROM tosses ORDER BY id LIMIT 5)")
    records = list(iter_tosses(store))
    monkeypatch.setattr("companion.fairness.load.PAGE_ROWS", 5)
    data = load_tosses(store)
    assert data.drop_times_ms.tolist() == single([t for r in records for t in r.drop_times_ms])
    assert np.diff(data.drop_offsets).tolist() == [len(r.drop_times_ms) for r in records]


def test_loader_pages_over_row_id_ranges_with_gaps_and_empty_ranges(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages are ranges of row ids: one tower's tosses, interleaved with another's, come back all and
    in order whether a range holds all, some or none of them, and a time filter starts at its first."""
    for tower in ("left", "right", "left", "right", "left"):
        simulate_into_store(store, 7, TowerParams(), seed=len(tower), tower=tower)
    monkeypatch.setattr("companion.fairness.load.PAGE_ROWS", 5)  # ranges of 5 ids: some empty for "left"
    left = list(iter_tosses(store, tower="left"))
    data = load_tosses(store, tower="left")
    assert data.started_at.tolist() == [r.started_at for r in left]
    assert list(data.game_id) == [r.game_id for r in left]
    assert (data.pieces_in == grid(left, "pieces_in")).all()
    since = left[10].started_at
    late = load_tosses(store, tower="left", since=since)
    assert late.started_at.tolist() == [r.started_at for r in left if r.started_at >= since]


def test_a_page_not_joined_in_row_id_order_is_read_row_by_row(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite does not promise the order ``group_concat`` joins rows in: a page whose row ids are
    not ascending is read row by row, so the tosses still come in recorded order."""
    simulate_into_store(store, 12, TowerParams(), seed=9)
    records = list(iter_tosses(store))
    scan = " FROM tosses NOT INDEXED{where} AND id > ? AND id <= ?"
    assert scan in load._PAGE_QUERY
    monkeypatch.setattr(load, "_PAGE_QUERY", load._PAGE_QUERY.replace(
        scan, " FROM (SELECT * FROM tosses{where} AND id > ? AND id <= ? ORDER BY id DESC)"))
    data = load_tosses(store)
    assert data.started_at.tolist() == [r.started_at for r in records]
    assert (data.pieces_in == grid(records, "pieces_in")).all()


def test_loader_reads_start_times_exactly_whatever_their_fraction(store: Store) -> None:
    """Start times come over as whole multiples of 2**-22 s; a time that is not one (before 2004, or a
    fraction finer than that) is still read exactly."""
    simulate_into_store(store, 6, TowerParams(), seed=7)
    with store.write() as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM tosses ORDER BY id")]
        conn.execute("UPDATE tosses SET started_at = 12.3 WHERE id = ?", (ids[2],))
        conn.execute("UPDATE tosses SET started_at = 1764222000.1 WHERE id = ?", (ids[3],))
    assert load_tosses(store).started_at.tolist() == [r.started_at for r in iter_tosses(store)]
    assert load_tosses(store).started_at[2:4].tolist() == [12.3, 1764222000.1]


def test_loader_places_missing_ids_and_flags_on_their_own_tosses(store: Store) -> None:
    """Missing games and sessions and flags come over as the row ids they apply to: each lands on
    its own toss, within a page of others."""
    simulate_into_store(store, 10, TowerParams(), seed=8)
    with store.write() as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM tosses ORDER BY id")]
        conn.execute("UPDATE tosses SET game_id = NULL WHERE id IN (?, ?)", (ids[0], ids[6]))
        conn.execute("UPDATE tosses SET session_id = NULL WHERE id = ?", (ids[6],))
        conn.execute("UPDATE tosses SET flagged = 1 WHERE id IN (?, ?)", (ids[3], ids[9]))
    records = list(iter_tosses(store))
    data = load_tosses(store)
    assert list(data.game_id) == [r.game_id for r in records] and data.game_id[0] is None
    assert list(data.session_id) == [r.session_id for r in records] and data.session_id[6] is None
    assert np.flatnonzero(data.flagged).tolist() == [3, 9]


def test_plain_decimals_are_read_bit_for_bit_as_float_reads_them() -> None:
    """A page of numbers of one shape is read digit-wise; every value is exactly ``float``'s, and any
    other text is left to numpy's parser (None)."""
    rng = random.Random(5)
    for before, after in ((1, 0), (3, 1), (4, 2), (1, 6), (9, 3), (12, 3)):
        numbers = [f"{rng.randrange(10**before):0{before}d}" for _ in range(300)]
        if after:
            numbers = [f"{n}.{rng.randrange(10**after):0{after}d}" for n in numbers]
        for separator in (",", ", "):
            text = separator.join(numbers)
            values = _plain_decimals(text.encode(), len(numbers))
            assert values is not None and values.tolist() == [float(n) for n in numbers], (before, after)
    for other in ("187.1, 99.5", "1e5, 2e5", "-1.5, -2.5", "NaN, NaN", "1.5,, 2.5", "1234567890123456"):
        assert _plain_decimals(other.encode(), other.count(",") + 1) is None, other


def test_loader_reads_drop_lists_of_every_shape_alike(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of one number shape (read digit-wise) and of mixed shapes (numpy's parser) give the
    recorded times alike."""
    simulate_into_store(store, 12, TowerParams(), seed=4)
    lists = [[187.1, 203.4], [195.6], [99.5, 1203.25], [], [3e-05, 250.0], [150.0, 2.0, 1000.5]] * 2
    with store.write() as conn:
        for row, times in zip(conn.execute("SELECT id FROM tosses ORDER BY id").fetchall(), lists, strict=True):
            conn.execute("UPDATE tosses SET drop_times_ms = ? WHERE id = ?", (json.dumps(times), row[0]))
    monkeypatch.setattr("companion.fairness.load.PAGE_ROWS", 2)  # a page of one shape, then mixed ones
    data = load_tosses(store)
    assert data.drop_times_ms.tolist() == single([t for times in lists for t in times])
    assert np.diff(data.drop_offsets).tolist() == [len(times) for times in lists]


def test_loader_falls_back_to_json_for_maps_in_another_form(store: Store) -> None:
    simulate_into_store(store, 5, TowerParams(), seed=2)
    expected = load_tosses(store)
    with store.write() as conn:  # a map written by other means: other key order, missing zeros
        row = conn.execute("SELECT id, pieces_in FROM tosses ORDER BY id LIMIT 1").fetchone()
        sparse = {c: n for c, n in reversed(json.loads(row[1]).items()) if n}
        conn.execute("UPDATE tosses SET pieces_in = ?, drop_times_ms = ? WHERE id = ?",
                     (json.dumps(sparse), "[1e2, 250.5]", row[0]))
    again = load_tosses(store)
    assert (again.pieces_in == expected.pieces_in).all()
    assert again.drop_times_ms[:2].tolist() == [100.0, 250.5]


def test_loader_filters_by_tower_and_time(store: Store) -> None:
    simulate_into_store(store, 10, TowerParams(), seed=2, tower="left")
    simulate_into_store(store, 4, TowerParams(), seed=2, tower="right")
    assert load_tosses(store, tower="right").n_tosses == 4
    started = [r.started_at for r in iter_tosses(store, tower="left")]
    assert load_tosses(store, tower="left", since=started[6]).n_tosses == 4
    assert load_tosses(store, tower="nobody").n_tosses == 0


def test_narrow_to_layer_game_and_session(store: Store) -> None:
    simulate_into_store(store, 24, TowerParams(layer="B1"), seed=2)
    simulate_into_store(store, 5, TowerParams(layer="B2"), seed=2)
    data = load_tosses(store)
    assert narrow(data, layer="B2").n_tosses == 5
    first_game = str(data.game_id[0])
    assert narrow(data, game=first_game).n_tosses == 12
    assert narrow(data, session=str(data.session_id[-1])).n_tosses == 5
    with pytest.raises(TossLogError, match="'B3'"):
        narrow(data, layer="B3")


def test_impossible_counts_are_set_aside_with_the_reason_not_refused(store: Store) -> None:
    def toss(toss_id: str, pieces_in: dict[str, int], out: dict[str, int], before: dict[str, int]) -> TossRecord:
        return TossRecord(toss_id=toss_id, tower="t", layer="B1", mode="hardware", started_at=0.0,
                          pieces_in=pieces_in, pieces_out=out, contents_before=before, contents_after={})

    save_toss(store, toss("fine", {"red": 2}, {"red": 1}, {}))
    save_toss(store, toss("mix-up", {"red": 1, "green": 1}, {"red": 2}, {}))  # totals match, colours do not
    save_toss(store, toss("button", {}, {"red": 1}, {}))  # thrown with the tower's button: nothing in
    save_toss(store, toss("late", {"red": 1}, {"red": 3}, {"red": 1}))  # a piece believed gone fell now
    save_toss(store, toss("after", {"red": 1}, {"red": 1}, {}))
    data = load_tosses(store)
    assert data.n_tosses == 2 and (data.pieces_in[:, COLOURS.index("red")] == [2, 1]).all()
    reasons = {s.toss_id: s.reason for s in data.set_aside}
    assert list(reasons) == ["mix-up", "button", "late"]
    assert "2 red came out but only 1 was inside or tossed in" in reasons["mix-up"]
    assert "totals add up" in reasons["mix-up"]
    assert reasons["button"].startswith("nothing was recorded as tossed in")
    assert "3 red came out but only 2 were inside" in reasons["late"] and "totals" not in reasons["late"]
    assert narrow(data, layer="B2").set_aside == ()
    with pytest.raises(TossLogError, match="toss #1"):
        colour_grid(['{"mauve": 1}'])


def test_unreadable_maps_and_drop_lists_are_set_aside(store: Store) -> None:
    simulate_into_store(store, 3, TowerParams(), seed=2)
    with store.write() as conn:
        conn.execute("UPDATE tosses SET pieces_in = ? WHERE id = 1", ('{"mauve": 2}',))
        conn.execute("UPDATE tosses SET drop_times_ms = ? WHERE id = 2", ("[1, oops]",))
    data = load_tosses(store)
    assert data.n_tosses == 1 and len(data.drop_times_ms) == data.drop_offsets[-1]
    reasons = [s.reason for s in data.set_aside]
    assert "unknown colour(s) mauve" in reasons[0] and "drop times" in reasons[1]


def test_vectorised_sessions_play_the_same_tower_as_simulated_tower() -> None:
    """``montecarlo`` (for error rates) and ``SimulatedTower`` (for the log) agree in their long-run rates."""
    params = TowerParams(layer="B1", bias={"red": 0.1})
    grids = simulate_sessions(params, 1, 6000, np.random.default_rng(8))
    fast = grids.pieces_out[0].sum(axis=0) / grids.pieces_in[0].sum(axis=0)
    rng = random.Random(8)
    tower = SimulatedTower(params, rng)
    pieces_in = np.zeros(12)
    pieces_out = np.zeros(12)
    for index in range(6000):
        if index % 12 == 0:
            tower = SimulatedTower(params, rng)
        tossed = dict(zip(COLOURS, grids.pieces_in[0][index].tolist(), strict=True))
        outcome = tower.toss(tossed)
        pieces_in += grids.pieces_in[0][index]
        pieces_out += [outcome.released[c] for c in COLOURS]
    assert fast == pytest.approx(pieces_out / pieces_in, abs=0.02)


def test_a_toss_nobody_counted_is_left_out_until_the_table_corrects_it(store: Store) -> None:
    def toss(toss_id: str, source: str) -> TossRecord:
        return TossRecord(toss_id=toss_id, tower="t", layer="B1", mode="hardware", started_at=1.0,
                          pieces_in={"red": 2}, pieces_out={} if source == "none" else {"red": 1},
                          contents_before={}, contents_after={}, counts_source=source, flagged=source == "none")

    save_toss(store, toss("counted", "camera"))
    save_toss(store, toss("uncounted", "none"))
    assert len(load_tosses(store).layer) == 1  # zeros from a missing camera are not "nothing fell out"
    with store.write() as conn:
        record_correction(conn, "uncounted", {"red": 2})
    data = load_tosses(store)
    assert len(data.layer) == 2 and data.pieces_out[1][COLOURS.index("red")] == 2 and data.corrected[1]
