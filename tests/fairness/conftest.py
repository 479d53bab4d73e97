"""Fixtures for the fairness tests: a fresh store, and toss logs built from the simulated tower."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from companion import COLOURS
from companion.fairness.load import TossData
from companion.fairness.montecarlo import SessionGrids
from companion.store import Store, open_instance_store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_instance_store(tmp_path) as opened:
        yield opened


def toss_data(grids: SessionGrids, session: int = 0, layer: str = "B1") -> TossData:
    """One simulated session's grids as the ``TossData`` the loader would return (no drop times)."""
    n = grids.pieces_in.shape[1]
    nan = np.full(n, np.nan)
    return TossData(
        layer=np.full(n, layer),
        game_id=np.array([f"g{t // 12}" for t in range(n)], dtype=object),
        session_id=np.full(n, "s", dtype=object),
        season=(np.arange(n) % 12 // 4 + 1).astype(np.float64),
        round=(np.arange(n) % 4 + 1).astype(np.float64),
        started_at=np.arange(n, dtype=np.float64),
        pieces_in=grids.pieces_in[session],
        pieces_out=grids.pieces_out[session],
        held_before=grids.held_before[session],
        drop_offsets=np.zeros(n + 1, dtype=np.int64),
        drop_times_ms=np.zeros(0),
        beam_count=nan,
        camera_count=nan,
        corrected=np.zeros(n, dtype=bool),
        flagged=np.zeros(n, dtype=bool),
    )


def colour_index(colour: str) -> int:
    return COLOURS.index(colour)
