"""The hub's PostgreSQL store: migrations, the idempotent batch write, and what the dashboard reads.

Exactly once: a toss is keyed by (tower, toss_id) and a game event by (tower, event_id), so a
redelivered message finds its row already there and changes nothing (``ON CONFLICT``). A toss
message with a higher ``revision`` (the table corrected the toss after it was first published)
replaces the row; an older one arriving late never does. A batch is one transaction: the ingestor
acknowledges its messages to the broker only after ``write_batch`` has committed. A message that
cannot be stored is kept in ``hub_dead_letters`` with its reason (``dead_letter``), and the towers'
marks (``companion.hub.marks``) are written in the same transaction as the rows that moved them.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from werkzeug.security import check_password_hash, generate_password_hash

from companion.errors import ConfigError
from companion.hub.tables import (
    hub_dead_letters,
    hub_game_events,
    hub_marks,
    hub_settings,
    hub_tosses,
    hub_towers,
    hub_users,
)
from companion.publish.outbox import TOSS_COLUMNS

MIGRATIONS = Path(__file__).parent / "migrations"
MIN_PASSWORD_LENGTH = 8


@dataclass
class Batch:
    """What one transaction writes: toss rows, game-event rows and tower updates."""

    tosses: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    availability: list[dict[str, Any]] = field(default_factory=list)
    #: Messages that cannot be stored: topic, reason, payload.
    dead: list[dict[str, Any]] = field(default_factory=list)
    #: Tower slug → the revision its stream is held up to (``companion.hub.marks``).
    marks: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.tosses) + len(self.events) + len(self.states) + len(self.availability) + len(self.dead)

    def extend(self, other: Batch) -> None:
        """Add ``other``'s rows after this batch's (its marks replace this batch's)."""
        for name in ("tosses", "events", "states", "availability", "dead"):
            getattr(self, name).extend(getattr(other, name))
        self.marks.update(other.marks)


def engine_for(url: str) -> Engine:
    """A SQLAlchemy engine (psycopg 3) for a ``postgresql://`` URL; ``ConfigError`` for anything else."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ConfigError("the hub database must be a URL such as postgresql://keshi@localhost/keshi") from None
    if parsed.get_backend_name() != "postgresql":
        raise ConfigError(f"the hub database must be PostgreSQL (postgresql://...), not {parsed.get_backend_name()}")
    return create_engine(parsed.set(drivername="postgresql+psycopg"), pool_pre_ping=True, pool_size=4)


class HubStore:
    """The hub's database; thread-safe (SQLAlchemy's connection pool)."""

    def __init__(self, url: str) -> None:
        self.engine = engine_for(url)
        #: The database as the user typed it, for logs and messages: the password shown as ``***``.
        self.display = make_url(url).render_as_string(hide_password=True)

    def migrate(self) -> None:
        """Bring the schema up to date with Alembic (each migration runs once, in order)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.engine.begin() as conn:
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
        except SQLAlchemyError as exc:
            raise ConfigError(f"cannot use the hub database {self.display}: {failure_words(exc)}") from None

    # -- ingest -----------------------------------------------------------------------------------
    def write_batch(self, batch: Batch) -> None:
        """Store a batch in one transaction; redeliveries and stale revisions change nothing."""
        now = time.time()
        with self.engine.begin() as conn:
            if batch.tosses:
                self._write_tosses(conn, batch.tosses, now)
            if batch.events:
                stmt = insert(hub_game_events).on_conflict_do_nothing(constraint="hub_game_events_tower_event")
                conn.execute(stmt, [{**row, "stored_at": now} for row in batch.events])
            for state in batch.states:
                stmt = insert(hub_towers).values(**state, online=True, last_seen=now)
                conn.execute(stmt.on_conflict_do_update(
                    index_elements=["slug"], set_={"name": state["name"], "state": state["state"], "last_seen": now}))
            for seen in batch.availability:
                stmt = insert(hub_towers).values(**seen, last_seen=now)
                conn.execute(stmt.on_conflict_do_update(
                    index_elements=["slug"], set_={"online": seen["online"], "last_seen": now}))
            if batch.dead:
                conn.execute(insert(hub_dead_letters), [{**row, "received_at": now} for row in batch.dead])
            for slug, revision in batch.marks.items():
                stmt = insert(hub_marks).values(slug=slug, revision=revision, updated_at=now)
                conn.execute(stmt.on_conflict_do_update(
                    index_elements=["slug"], set_={"revision": revision, "updated_at": now}))

    @staticmethod
    def _write_tosses(conn: Connection, rows: Sequence[dict[str, Any]], now: float) -> None:
        newest: dict[tuple[str, str], dict[str, Any]] = {}
        for row in rows:  # one statement may not touch a row twice: keep each toss's newest revision
            key = (row["tower"], row["toss_id"])
            if key not in newest or newest[key]["revision"] < row["revision"]:
                newest[key] = row
        stmt = insert(hub_tosses)
        replace = {name: stmt.excluded[name] for name in (*TOSS_COLUMNS, "seq", "revision", "stored_at")}
        stmt = stmt.on_conflict_do_update(
            constraint="hub_tosses_tower_toss", set_=replace, where=hub_tosses.c.revision < stmt.excluded.revision
        )
        conn.execute(stmt, [{**row, "stored_at": now} for row in newest.values()])

    def marks(self) -> dict[str, int]:
        """Every tower's mark: up to which revision the hub holds its stream."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(hub_marks.c.slug, hub_marks.c.revision)).all()
        return {slug: int(revision) for slug, revision in rows}

    # -- dead letters -----------------------------------------------------------------------------
    def dead_letter_count(self) -> int:
        """How many messages the hub could not store (and keeps, with why, for someone to look at)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(hub_dead_letters)).scalar_one())

    def dead_letters(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest dead letters: id, when, topic, reason and the payload's first bytes as text."""
        query = select(hub_dead_letters).order_by(hub_dead_letters.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [{"id": row["id"], "received_at": row["received_at"], "topic": row["topic"], "reason": row["reason"],
                 "payload": bytes(row["payload"][:200]).decode("utf-8", "replace")} for row in rows]

    def clear_dead_letters(self) -> int:
        """Forget every dead letter (once someone has looked at them); how many there were."""
        with self.engine.begin() as conn:
            return int(conn.execute(hub_dead_letters.delete()).rowcount)

    # -- reading ----------------------------------------------------------------------------------
    def toss_rows(self, tower: str | None = None) -> list[Any]:
        """Stored tosses with the companion's toss columns: one tower in its own order, or every
        tower in the order they were played (start time, then tower, then the tower's order). A row
        whose start time is not a finite number (NaN from a hub before issue 24 checked it) is left
        out: it has no place in that order, and would break every report that reads it."""
        columns = [hub_tosses.c[name] for name in TOSS_COLUMNS]
        query = select(*columns).where(hub_tosses.c.started_at > -math.inf, hub_tosses.c.started_at < math.inf)
        if tower is not None:
            query = query.where(hub_tosses.c.tower == tower).order_by(hub_tosses.c.seq)
        else:
            query = query.order_by(hub_tosses.c.started_at, hub_tosses.c.tower, hub_tosses.c.seq)
        with self.engine.connect() as conn:
            return list(conn.execute(query))

    def toss_count(self) -> int:
        """How many tosses the hub holds."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(hub_tosses)).scalar_one())

    def towers(self) -> list[dict[str, Any]]:
        """Every tower seen (by its topic or its tosses): name, online, state and stored counts."""
        with self.engine.connect() as conn:
            tosses: dict[str, int] = dict(conn.execute(
                select(hub_tosses.c.tower, func.count()).group_by(hub_tosses.c.tower)).all())
            events: dict[str, int] = dict(conn.execute(
                select(hub_game_events.c.tower, func.count()).group_by(hub_game_events.c.tower)).all())
            rows = conn.execute(select(hub_towers).order_by(hub_towers.c.name, hub_towers.c.slug)).mappings().all()
        towers = []
        named = set()
        for row in rows:
            name = row["name"] or row["slug"]
            named.add(name)
            towers.append({"name": name, "online": bool(row["online"]), "last_seen": row["last_seen"],
                           "state": json.loads(row["state"]) if row["state"] else None,
                           "tosses": tosses.get(name, 0), "events": events.get(name, 0)})
        for name in sorted(set(tosses) - named):  # tosses of a tower that has not said hello (yet)
            towers.append({"name": name, "online": False, "last_seen": None, "state": None,
                           "tosses": tosses[name], "events": events.get(name, 0)})
        return towers

    def health(self) -> str:
        """``"ok"`` when the database answers, else a short reason (never the URL's password)."""
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
        except SQLAlchemyError as exc:
            return f"error: {failure_reason(exc)}"
        return "ok"

    # -- dashboard login --------------------------------------------------------------------------
    def add_user(self, name: str, password: str) -> None:
        """Create (or reset the password of) dashboard user ``name``."""
        if not name.strip():
            raise ConfigError("the dashboard user needs a name")
        if len(password) < MIN_PASSWORD_LENGTH:
            raise ConfigError(f"the dashboard password must have at least {MIN_PASSWORD_LENGTH} characters")
        row = {"name": name.strip(), "password_hash": generate_password_hash(password), "created_at": time.time()}
        stmt = insert(hub_users).values(**row)
        with self.engine.begin() as conn:
            conn.execute(stmt.on_conflict_do_update(index_elements=["name"],
                                                    set_={"password_hash": row["password_hash"]}))

    def check_user(self, name: str, password: str) -> bool:
        """True when ``name`` is a dashboard user and ``password`` is theirs."""
        with self.engine.connect() as conn:
            stored = conn.execute(select(hub_users.c.password_hash).where(hub_users.c.name == name)).scalar()
        return stored is not None and check_password_hash(stored, password)

    def has_users(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(hub_users)).scalar_one() > 0

    def secret_key(self) -> str:
        """The dashboard's session secret, made on first use (sessions survive a hub restart)."""
        with self.engine.begin() as conn:
            conn.execute(insert(hub_settings).values(key="secret_key", value=secrets.token_hex(32))
                         .on_conflict_do_nothing(index_elements=["key"]))
            return str(conn.execute(select(hub_settings.c.value).where(hub_settings.c.key == "secret_key"))
                       .scalar_one())

    def close(self) -> None:
        self.engine.dispose()


def failure_reason(exc: SQLAlchemyError) -> str:
    """A short reason for a database failure: the driver's error class, never the URL or password."""
    return type(getattr(exc, "orig", None) or exc).__name__


def failure_words(exc: SQLAlchemyError) -> str:
    """Why the database refused, in the driver's own words (libpq's first line, which never holds the
    password), with what to do about a missing or wrong password."""
    cause = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    words = " ".join(lines)[:300] if lines else failure_reason(exc)
    if "password" in words:
        words += " (the password comes from PGPASSWORD or ~/.pgpass, never from the URL on the command line)"
    return f"{words} [{failure_reason(exc)}]"
