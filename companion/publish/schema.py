"""The publisher's durable outbox in the companion's SQLite store (component ``publish``).

``publish_outbox`` lists, in order, every new toss, every change to a toss (the table's correction,
a flag) and every new game event. It is filled by triggers (``companion.publish.outbox.install``,
run when publishing is first switched on, because the store's migration runner splits scripts at
semicolons and a trigger body needs them), inside the very transaction that stores the row: the
tower and game code need not know about publishing, and nothing stored can escape the outbox.

``publish_cursor`` keeps, per broker, the highest outbox id the broker has acknowledged with every
id below it; on start and on every reconnect the publisher resends everything after it (the hub
ignores what it already has, by the toss's and event's ids).

``publish_hub_request`` keeps, per broker, the hub's last request to send again that this table has
acted on (``companion.hub.marks``): the cursor is moved back and the request recorded in one
transaction, so a request is acted on exactly once even across a crash.
"""

COMPONENT = "publish"

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE publish_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        stream TEXT NOT NULL CHECK (stream IN ('toss', 'event')),
        row_id INTEGER NOT NULL
    );
    CREATE TABLE publish_cursor (
        broker TEXT PRIMARY KEY,
        acked INTEGER NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
    """
    CREATE TABLE publish_hub_request (
        broker TEXT PRIMARY KEY,
        request TEXT NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
)
