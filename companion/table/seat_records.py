"""Which device plays for whom at each game, and every query on it (``companion.table.seats``).

* ``game_devices`` — one row per device and game: ``seat`` is the player the device plays for, or
  NULL for a shared device that plays for everyone; ``label`` is what every phone reads about it
  ("Ana's tablet"). A seat has at most one device; a device has one role per game. The rows go with
  their game.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the store imports this module (its migrations): only a type here
    from companion.store import Store

COMPONENT = "seats"

MIGRATIONS: tuple[str, ...] = (
    # issue 22: a seat belongs to a device
    """
    CREATE TABLE game_devices (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        device TEXT NOT NULL,
        seat INTEGER,
        label TEXT NOT NULL,
        claimed_at REAL NOT NULL,
        PRIMARY KEY (game_id, device)
    );
    CREATE UNIQUE INDEX game_devices_one_per_seat ON game_devices (game_id, seat) WHERE seat IS NOT NULL
    """,
)


def devices(store: Store, game_id: str) -> list[sqlite3.Row]:
    """The devices of ``game_id`` with their roles, in the order they took them."""
    return store.query("SELECT device, seat, label FROM game_devices WHERE game_id = ? ORDER BY claimed_at",
                       (game_id,))


def claim(db: sqlite3.Connection, game_id: str, device: str, seat: int | None, label: str, now: float) -> None:
    """Give ``device`` its role at ``game_id`` (replacing the role it had)."""
    db.execute("INSERT INTO game_devices (game_id, device, seat, label, claimed_at) VALUES (?, ?, ?, ?, ?)"
               " ON CONFLICT (game_id, device) DO UPDATE SET seat = excluded.seat, label = excluded.label,"
               " claimed_at = excluded.claimed_at", (game_id, device, seat, label, now))


def release(db: sqlite3.Connection, game_id: str, device: str) -> None:
    """``device`` no longer plays at ``game_id``."""
    db.execute("DELETE FROM game_devices WHERE game_id = ? AND device = ?", (game_id, device))
