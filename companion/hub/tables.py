"""The hub's PostgreSQL tables (SQLAlchemy Core); ``migrations/`` creates them, in the same shape.

* ``hub_tosses`` — one row per (tower, toss_id): the toss as the tower stored it (maps and drop
  times as the same JSON text the companion's ``tosses`` table holds, so the fairness statistics
  read them identically), its order on its tower (``seq``) and the ``revision`` that wrote it (a
  later correction of the toss has a higher revision and replaces the row; an older one never does).
* ``hub_game_events`` — one row per (tower, event_id).
* ``hub_towers`` — one row per tower topic: its name, whether it is online, its latest state message.
* ``hub_dead_letters`` — each message the hub could not store: its topic, the reason and its bytes.
* ``hub_marks`` — per tower topic, the revision of its stream up to which the hub holds every message
  (``companion.hub.marks``).
* ``hub_users`` — who may log in to the dashboard (Werkzeug password hashes).
* ``hub_settings`` — the dashboard's session secret.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

hub_tosses = Table(
    "hub_tosses", metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("tower", Text, nullable=False),
    Column("toss_id", Text, nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("revision", BigInteger, nullable=False),
    Column("layer", Text, nullable=False),
    Column("mode", Text, nullable=False),
    Column("game_id", Text),
    Column("season", Integer),
    Column("round", Integer),
    Column("session_id", Text),
    Column("started_at", Float(53), nullable=False),
    Column("pieces_in", Text, nullable=False),
    Column("pieces_out", Text, nullable=False),
    Column("contents_before", Text, nullable=False),
    Column("contents_after", Text, nullable=False),
    Column("drop_times_ms", Text, nullable=False),
    Column("beam_count", Integer),
    Column("camera_count", Integer),
    Column("counts_source", Text, nullable=False),
    Column("flagged", Boolean, nullable=False),
    Column("correction", Text),
    Column("stored_at", Float(53), nullable=False),
    UniqueConstraint("tower", "toss_id", name="hub_tosses_tower_toss"),
)
Index("hub_tosses_tower_seq", hub_tosses.c.tower, hub_tosses.c.seq)

hub_game_events = Table(
    "hub_game_events", metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("tower", Text, nullable=False),
    Column("event_id", BigInteger, nullable=False),
    Column("game_id", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("kind", Text, nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", Float(53), nullable=False),
    Column("stored_at", Float(53), nullable=False),
    UniqueConstraint("tower", "event_id", name="hub_game_events_tower_event"),
)

hub_towers = Table(
    "hub_towers", metadata,
    Column("slug", Text, primary_key=True),
    Column("name", Text),
    Column("online", Boolean),
    Column("state", Text),
    Column("last_seen", Float(53), nullable=False),
)

hub_dead_letters = Table(
    "hub_dead_letters", metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("topic", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("payload", LargeBinary, nullable=False),
    Column("received_at", Float(53), nullable=False),
)

hub_marks = Table(
    "hub_marks", metadata,
    Column("slug", Text, primary_key=True),
    Column("revision", BigInteger, nullable=False),
    Column("updated_at", Float(53), nullable=False),
)

hub_users = Table(
    "hub_users", metadata,
    Column("name", Text, primary_key=True),
    Column("password_hash", Text, nullable=False),
    Column("created_at", Float(53), nullable=False),
)

hub_settings = Table(
    "hub_settings", metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)
