"""The dashboard's tables: games, their action logs and their durable events.

* ``games`` — one row per game: the engine's resolved setup (so replay never needs the seed), the
  seating (colours chosen at the table), the table PIN, a ``version`` that grows by one with every
  accepted change (action or undo), the latest tower result waiting to be confirmed, the game-start
  tower check (``tower_check``) and the last season scoring until acknowledged (``season_scoring``);
  ``kind`` names the game (``marrakesh``, ``morocco``, ``sabika``: ``companion.table.kinds``).
* ``game_log`` — every accepted change in order: ``kind`` is ``action`` (with the action's JSON) or
  ``undo``; the game is the replay of the actions left after folding the undos. An idempotency key
  is unique per game, so a retried request is recognised and applied once.
* ``game_events`` — what every phone is told, with an ``id`` that is durable (AUTOINCREMENT never
  reuses an id, even after a restart), so an SSE client resumes from ``Last-Event-ID`` exactly.
"""

COMPONENT = "games"

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        edition TEXT NOT NULL,
        setup TEXT NOT NULL,
        seating TEXT NOT NULL,
        pin TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        actions INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        tower_result TEXT
    );
    CREATE TABLE game_log (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
        action TEXT,
        meta TEXT,
        idempotency_key TEXT,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE UNIQUE INDEX game_log_idempotency ON game_log (game_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    CREATE TABLE game_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX game_events_game ON game_events (game_id, id)
    """,
    # issue 11: the game-start tower check (emptied / confirmed empty) and the season-scoring result
    # kept on screen until the table acknowledges it (both JSON; NULL for games made before)
    """
    ALTER TABLE games ADD COLUMN tower_check TEXT;
    ALTER TABLE games ADD COLUMN season_scoring TEXT
    """,
    # issue 15: which game a row is (``companion.table.kinds``); every game stored before is Marrakesh
    """
    ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'marrakesh'
    """,
)
