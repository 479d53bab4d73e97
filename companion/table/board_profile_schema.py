"""The table's board profile in the companion's SQLite store (component ``board_profile``).

``board_profile`` keeps, per edition, every printed value the table has told the companion (``value``
is its JSON), whether it came from an answer in a game, an edit on the board-profile screen or an
imported file (``source``), the game that answered it, and when. A new game starts with these values,
so a table is asked each printed value once, not once per game.
"""

COMPONENT = "board_profile"

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE board_profile (
        edition TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('answer', 'edit', 'import')),
        game_id TEXT,
        updated_at REAL NOT NULL,
        PRIMARY KEY (edition, key)
    )
    """,
)
