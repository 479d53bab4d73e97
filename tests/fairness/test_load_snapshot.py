"""The fairness read takes one snapshot: tosses stored while it runs (a table keeps playing) are
neither half-counted nor able to break it (issue 24: "could not broadcast (2254,) into (2253,)")."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from companion.fairness import load
from companion.fairness.load import load_tosses
from companion.fairness.simulate import simulate_into_store
from companion.store import Store
from companion.tower.model import TowerParams


def test_tosses_stored_between_the_count_and_the_pages_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 300, TowerParams(), seed=1, tower="Table 1")
        filling = load._Filling.__init__

        def count_then_a_toss_arrives(self: Any, total: int) -> None:
            filling(self, total)
            simulate_into_store(store, 25, TowerParams(), seed=2, tower="Table 1")  # the table plays on

        monkeypatch.setattr(load._Filling, "__init__", count_then_a_toss_arrives)
        data = load_tosses(store, tower="Table 1")
        monkeypatch.undo()
        assert data.n_tosses == 300
        assert load_tosses(store, tower="Table 1").n_tosses == 325


def test_the_read_goes_on_while_another_thread_stores_tosses(tmp_path: Path) -> None:
    with Store(tmp_path / "table.sqlite3") as store:
        simulate_into_store(store, 6000, TowerParams(), seed=3, tower="Table 1")
        stop = threading.Event()

        def play() -> None:
            seed = 10
            while not stop.is_set():
                simulate_into_store(store, 5, TowerParams(), seed=seed, tower="Table 1")
                seed += 1

        player = threading.Thread(target=play)
        player.start()
        try:
            counts = [load_tosses(store, tower="Table 1").n_tosses for _ in range(5)]
        finally:
            stop.set()
            player.join()
        assert counts == sorted(counts) and counts[0] >= 6000
