"""The hub's first tables: tosses, game events, towers, dashboard users and settings.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

DOUBLE = sa.Float(53)


def upgrade() -> None:
    op.create_table(
        "hub_tosses",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("tower", sa.Text, nullable=False),
        sa.Column("toss_id", sa.Text, nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("revision", sa.BigInteger, nullable=False),
        sa.Column("layer", sa.Text, nullable=False),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text),
        sa.Column("season", sa.Integer),
        sa.Column("round", sa.Integer),
        sa.Column("session_id", sa.Text),
        sa.Column("started_at", DOUBLE, nullable=False),
        sa.Column("pieces_in", sa.Text, nullable=False),
        sa.Column("pieces_out", sa.Text, nullable=False),
        sa.Column("contents_before", sa.Text, nullable=False),
        sa.Column("contents_after", sa.Text, nullable=False),
        sa.Column("drop_times_ms", sa.Text, nullable=False),
        sa.Column("beam_count", sa.Integer),
        sa.Column("camera_count", sa.Integer),
        sa.Column("counts_source", sa.Text, nullable=False),
        sa.Column("flagged", sa.Boolean, nullable=False),
        sa.Column("correction", sa.Text),
        sa.Column("stored_at", DOUBLE, nullable=False),
        sa.UniqueConstraint("tower", "toss_id", name="hub_tosses_tower_toss"),
    )
    op.create_index("hub_tosses_tower_seq", "hub_tosses", ["tower", "seq"])
    op.create_table(
        "hub_game_events",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("tower", sa.Text, nullable=False),
        sa.Column("event_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", DOUBLE, nullable=False),
        sa.Column("stored_at", DOUBLE, nullable=False),
        sa.UniqueConstraint("tower", "event_id", name="hub_game_events_tower_event"),
    )
    op.create_table(
        "hub_towers",
        sa.Column("slug", sa.Text, primary_key=True),
        sa.Column("name", sa.Text),
        sa.Column("online", sa.Boolean),
        sa.Column("state", sa.Text),
        sa.Column("last_seen", DOUBLE, nullable=False),
    )
    op.create_table(
        "hub_users",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", DOUBLE, nullable=False),
    )
    op.create_table(
        "hub_settings",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("hub_settings", "hub_users", "hub_towers", "hub_game_events", "hub_tosses"):
        op.drop_table(table)
