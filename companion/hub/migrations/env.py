"""Alembic environment of the hub: runs on the connection ``companion.hub.store`` hands over."""

from __future__ import annotations

from alembic import context

from companion.hub.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
