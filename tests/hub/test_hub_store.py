"""The hub's PostgreSQL store: Alembic migrations, and exactly-once writes under redelivery."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from companion import COLOURS
from companion.errors import ConfigError
from companion.hub.store import Batch, HubStore
from tests.hub.conftest import needs_servers

pytestmark = needs_servers


@pytest.fixture
def hub_store(database: str) -> Iterator[HubStore]:
    store = HubStore(database)
    store.migrate()
    yield store
    store.close()


def toss(toss_id: str, revision: int, correction: dict[str, int] | None = None) -> dict[str, Any]:
    counts = json.dumps(dict.fromkeys(COLOURS, 0))
    return {
        "toss_id": toss_id, "tower": "Table 1", "layer": "B1", "mode": "simulated", "game_id": None, "season": None,
        "round": None, "session_id": None, "started_at": 1.0, "pieces_in": counts, "pieces_out": counts,
        "contents_before": counts, "contents_after": counts, "drop_times_ms": "[]", "beam_count": 0,
        "camera_count": None, "counts_source": "simulator-truth", "flagged": False,
        "correction": json.dumps(correction) if correction else None, "seq": 1, "revision": revision,
    }


def event(event_id: int) -> dict[str, Any]:
    return {"tower": "Table 1", "event_id": event_id, "game_id": "g", "version": 1, "kind": "action",
            "data": "{}", "created_at": 2.0}


def test_migrations_run_once(hub_store: HubStore, database: str) -> None:
    hub_store.migrate()  # a second start changes nothing
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0002",)]
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert {"hub_tosses", "hub_game_events", "hub_towers", "hub_users", "hub_settings", "hub_dead_letters",
            "hub_marks"} <= tables


def test_a_nan_start_time_stored_before_the_checks_leaves_the_reports_working(
    hub_store: HubStore, database: str
) -> None:
    from companion.fairness.render import render_json
    from companion.hub.fairness import hub_report

    hub_store.write_batch(Batch(tosses=[toss("a", 1), toss("b", 2)]))
    with psycopg.connect(database) as conn:  # what a hub before issue 24 let through
        conn.execute("UPDATE hub_tosses SET started_at = 'NaN' WHERE toss_id = 'a'")
    assert [row[0] for row in hub_store.toss_rows()] == ["b"]
    assert [row[0] for row in hub_store.toss_rows("Table 1")] == ["b"]
    json.loads(render_json(hub_report(hub_store)))
    json.loads(render_json(hub_report(hub_store, {"tower": "Table 1"})))


def test_redeliveries_and_stale_revisions_change_nothing(hub_store: HubStore, database: str) -> None:
    hub_store.write_batch(Batch(tosses=[toss("a", 1), toss("b", 2)], events=[event(1)]))
    hub_store.write_batch(Batch(tosses=[toss("a", 1)], events=[event(1), event(1)]))  # redelivered
    corrected = {"red": 1}
    hub_store.write_batch(Batch(tosses=[toss("a", 1), toss("a", 7, corrected)]))  # both revisions in one batch
    hub_store.write_batch(Batch(tosses=[toss("a", 1)]))  # the original, late
    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT toss_id, revision, correction FROM hub_tosses ORDER BY toss_id").fetchall()
        events = conn.execute("SELECT COUNT(*) FROM hub_game_events").fetchone()
    assert rows == [("a", 7, json.dumps(corrected)), ("b", 2, None)]
    assert events == (1,)


def test_towers_lists_state_and_counts(hub_store: HubStore) -> None:
    hub_store.write_batch(Batch(tosses=[toss("a", 1)], states=[{"slug": "table_1", "name": "Table 1",
                                                                 "state": json.dumps({"verdict": "x"})}],
                                availability=[{"slug": "table_1", "online": True}]))
    hub_store.write_batch(Batch(availability=[{"slug": "table_1", "online": False}]))
    (tower,) = hub_store.towers()
    assert (tower["name"], tower["online"], tower["tosses"], tower["state"]) == ("Table 1", False, 1, {"verdict": "x"})


def test_a_database_that_cannot_be_used_is_named_with_the_reason_and_no_password(postgres: Any) -> None:
    url = f"postgresql://nobody-here:pw-secret@127.0.0.1:{postgres.port}/keshi"
    store = HubStore(url)
    with pytest.raises(ConfigError) as refused:
        store.migrate()
    store.close()
    message = str(refused.value)
    assert f"postgresql://nobody-here:***@127.0.0.1:{postgres.port}/keshi" in message
    assert 'role "nobody-here" does not exist' in message and "pw-secret" not in message
