"""The fairness report on the hub's tosses: the per-table statistics, fed the hub's rows.

The hub does not re-implement anything: it copies the selected rows (the same columns and JSON text
the companion's ``tosses`` table holds) into a scratch in-memory companion store and runs the
per-table code on it (``load_tosses``, ``narrow``, ``build_report``). So a tower's report on the hub
is the report that tower's own dashboard shows, and the cross-tower report is that same analysis of
every tower's tosses together, ordered by when they were played.
"""

from __future__ import annotations

from companion.fairness.cli import parse_since
from companion.fairness.load import TossData, load_tosses, narrow
from companion.fairness.report import SCOPE_KEYS, FairnessReport, build_report
from companion.hub.store import TOSS_COLUMNS, HubStore
from companion.store import Store

_INSERT = f"INSERT INTO tosses (id, {', '.join(TOSS_COLUMNS)}) VALUES (?{', ?' * len(TOSS_COLUMNS)})"


def hub_toss_data(store: HubStore, tower: str | None = None, since: float | None = None) -> TossData:
    """The hub's tosses (one tower, or all) as the fairness statistics' arrays."""
    rows = store.toss_rows(tower)
    with Store(":memory:") as scratch:
        with scratch.write() as conn:
            conn.executemany(_INSERT, ((index, *row) for index, row in enumerate(rows, start=1)))
        return load_tosses(scratch, since=since)


def hub_report(store: HubStore, filters: dict[str, str | None] | None = None) -> FairnessReport:
    """The report for ``filters`` (the per-table report's: tower, since, layer, game, session)."""
    scope = {key: (filters or {}).get(key) for key in SCOPE_KEYS}
    since = parse_since(scope["since"]) if scope["since"] else None
    data = hub_toss_data(store, tower=scope["tower"], since=since)
    data = narrow(data, layer=scope["layer"], game=scope["game"], session=scope["session"])
    return build_report(data, scope=scope)
