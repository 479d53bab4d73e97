"""The dead-letter table (messages the hub could not store, with why) and each tower's mark.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

DOUBLE = sa.Float(53)


def upgrade() -> None:
    op.create_table(
        "hub_dead_letters",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("topic", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("payload", sa.LargeBinary, nullable=False),
        sa.Column("received_at", DOUBLE, nullable=False),
    )
    op.create_table(
        "hub_marks",
        sa.Column("slug", sa.Text, primary_key=True),
        sa.Column("revision", sa.BigInteger, nullable=False),
        sa.Column("updated_at", DOUBLE, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hub_marks")
    op.drop_table("hub_dead_letters")
