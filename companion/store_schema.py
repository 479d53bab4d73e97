"""Core tables: the instance's settings and the toss log every tower session writes.

A toss row is the durable form of ``companion.tower.record.TossRecord``; per-colour maps and drop
times are JSON text so the fairness statistics can read them without joins.
"""

COMPONENT = "core"

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE tosses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        toss_id TEXT NOT NULL UNIQUE,
        tower TEXT NOT NULL,
        layer TEXT NOT NULL CHECK (layer IN ('B1', 'B2')),
        mode TEXT NOT NULL CHECK (mode IN ('hardware', 'simulated')),
        game_id TEXT,
        season INTEGER,
        round INTEGER,
        session_id TEXT,
        started_at REAL NOT NULL,
        pieces_in TEXT NOT NULL,
        pieces_out TEXT NOT NULL,
        contents_before TEXT NOT NULL,
        contents_after TEXT NOT NULL,
        drop_times_ms TEXT NOT NULL,
        beam_count INTEGER,
        camera_count INTEGER,
        counts_source TEXT NOT NULL,
        flagged INTEGER NOT NULL DEFAULT 0,
        correction TEXT
    );
    CREATE INDEX tosses_tower_time ON tosses (tower, started_at);
    CREATE INDEX tosses_game ON tosses (game_id)
    """,
    # the count cross-check's verdict on a toss (companion.tower.count_words.check_json), kept beside
    # its row so a result rebuilt after a restart still says why it was flagged
    """
    CREATE TABLE toss_checks (toss_id TEXT PRIMARY KEY REFERENCES tosses (toss_id), verdict TEXT NOT NULL)
    """,
)
