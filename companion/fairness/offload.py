"""The fairness report computed in a short-lived child process, so its memory goes back to the system.

A report loads numpy, scipy and matplotlib and allocates the whole selection's arrays and its plots:
tens of megabytes that a long-running server process would keep for ever once the page had been
opened (freed memory is rarely returned to the system, and imported modules never are). On a Pi Zero
2 W (512 MB for everything) that matters (issue 23). So the server only checks the filters and asks
a fresh interpreter (``multiprocessing``'s ``spawn`` context: it inherits nothing, and no fork server
stays behind) to read the store's file, build the report and render it; the child exits and the
text comes back.

Starting a child and importing the statistics costs seconds, so the text is cached per request
(database, format, language, filters, the dashboard's links) and state of the toss log it read: how
many tosses the selection holds, the newest one's id and every correction the table made (the only
change the product makes to a stored toss). A new toss or correction makes the next request compute
afresh; opening the page again is instant. One report is
computed at a time: a second request waits, then usually finds the first one's answer cached.

Each check of the verdict is judged once (``kept_word.CheckMemo``): the server keeps the checks'
answers its children brought back (``_checks``, a few hundred bytes each) and hands them to the next
child, so a report read after every game judges only the checks it has not seen before.

Rendering: the dashboard page is the template Flask's ``render_template`` renders, through an
environment with Flask's settings for it (autoescaped, lenient undefined); the template uses only
the context given here, so the page is the same text either way (``tests/fairness/test_offload.py``).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from companion.errors import KeshiError
from companion.i18n import use_locale
from companion.store import Store
from companion.tower.record import toss_filter

if TYPE_CHECKING:
    from companion.fairness.report import FairnessReport

#: The format name of the dashboard's page (the others are the downloads: html, csv, json).
PAGE = "page"
#: Texts kept: a page with its three plots is a few hundred kB.
CACHE_SIZE = 4

_lock = threading.Lock()  # one report child at a time; guards the cache
_cache: OrderedDict[tuple[Any, ...], str] = OrderedDict()
#: The checks' answers the children brought back (``kept_word.CheckMemo.entries``), for the next child.
_checks: list[tuple[bytes, Any]] = []


def report_text(store: Store, filters: dict[str, str | None], since: float | None, fmt: str, locale: str,
                dashboard: dict[str, Any] | None = None, language_names: dict[str, str] | None = None) -> str:
    """The report of ``store``'s tosses under ``filters`` as ``fmt`` (``PAGE``, html, csv or json),
    computed in a child process unless this request and toss log were answered before.

    ``since`` is ``filters["since"]`` already parsed; ``dashboard`` and ``language_names`` are the
    page's template values. A ``KeshiError`` of the report (a bad filter) is raised here as one.
    """
    key = (str(store.path), fmt, locale, tuple(sorted(filters.items())), repr(dashboard), repr(language_names),
           _log_state(store, filters["tower"], since))
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
            return cached
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as child:
            text, checks = child.submit(compute, str(store.path), filters, since, fmt, locale, dashboard,
                                        language_names, _checks).result()
        _checks[:] = checks
        _cache[key] = text
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
        return text


def _log_state(store: Store, tower: str | None, since: float | None) -> tuple[int, int, str]:
    """What identifies the toss log a report would read: count, newest id, a digest of the corrections."""
    where, params = toss_filter(tower, since)
    row = store.query(f"SELECT count(*), max(id), group_concat(id || '=' || correction) FROM tosses{where}",
                      params)[0]
    corrections = hashlib.sha256(str(row[2] or "").encode()).hexdigest()
    return int(row[0]), int(row[1] or 0), corrections


class _StoreFile:
    """The server's database file as ``load_tosses`` reads it: it opens its own read-only snapshot of
    ``path`` and needs nothing else of a ``Store`` (a child must not migrate or checkpoint the file)."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)


def compute(db_path: str, filters: dict[str, str | None], since: float | None, fmt: str, locale: str,
            dashboard: dict[str, Any] | None, language_names: dict[str, str] | None,
            checks: list[tuple[bytes, Any]] | None = None) -> tuple[str, list[tuple[bytes, Any]]]:
    """In the child: load the tosses, build the report and render it (see ``report_text``); returns
    the text and the checks' answers known afterwards (``checks``: those known before)."""
    from companion.fairness.kept_word import MEMO
    from companion.fairness.load import load_tosses, narrow
    from companion.fairness.render import render
    from companion.fairness.report import build_report

    MEMO.update(checks or [])
    with use_locale(locale):
        try:
            data = load_tosses(cast(Store, _StoreFile(db_path)), tower=filters["tower"], since=since)
            data = narrow(data, layer=filters["layer"], game=filters["game"], session=filters["session"])
            report = build_report(data, scope=filters)
            text = (render_page(report, locale, dashboard, language_names or {}) if fmt == PAGE
                    else render(report, fmt))
            return text, MEMO.entries()
        except KeshiError as exc:  # as the root class: the parent need not import the report's modules
            raise KeshiError(*exc.args) from None


def render_page(report: FairnessReport, locale: str, dashboard: dict[str, Any] | None,
                language_names: dict[str, str]) -> str:
    """The dashboard's fairness page of ``report``, as Flask's ``render_template`` renders it."""
    import jinja2

    from companion.fairness.render import REPORT_TEMPLATE, TEMPLATE_DIR, html_context

    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=True)
    template = environment.get_template(REPORT_TEMPLATE)
    return template.render(**html_context(report, locale), dashboard=dashboard, language_names=language_names)
