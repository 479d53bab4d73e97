"""The dashboard's fairness page: ``/fairness/`` (HTML with plots) and ``/fairness/report.<fmt>``.

The page is the CLI's HTML report (same template, found through the blueprint's template folder)
plus a filter form and download links. It reads the toss log from the app's store
(``current_app.extensions["keshi.store"]``) on every request, so it always shows every toss
recorded so far; the filters in the query string
(``tower``, ``since``, ``layer``, ``game``, ``session``) are the CLI's options. Bad filter values
are answered with 400 and a message naming the bad value.

The report itself is built in a short-lived child process and cached per toss log
(``companion.fairness.offload``): numpy, scipy, the plots and the report's arrays never stay in the
server (issue 23).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request, url_for
from werkzeug.routing import BuildError

from companion.errors import KeshiError
from companion.fairness.cli import parse_since
from companion.fairness.offload import PAGE, report_text
from companion.fairness.scope import SCOPE_KEYS
from companion.i18n import LOCALE, Msg
from companion.i18n.web import LANGUAGE_NAMES

bp = Blueprint("fairness", __name__, url_prefix="/fairness", template_folder="templates")

MEDIA_TYPES = {
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
}


def _filters() -> dict[str, str | None]:
    return {name: (request.args.get(name) or None) for name in SCOPE_KEYS}


def _report(fmt: str, dashboard: dict[str, Any] | None = None) -> str:
    """The report under the request's filters as ``fmt``, from the child process or the cache."""
    filters = _filters()
    since = parse_since(filters["since"]) if filters["since"] else None
    return report_text(current_app.extensions["keshi.store"], filters, since, fmt, LOCALE.get(), dashboard,
                       dict(LANGUAGE_NAMES) if dashboard is not None else None)


def _url(endpoint: str, fallback: str, **values: Any) -> str:
    """The dashboard's address for ``endpoint``; ``fallback`` in an app without it (this blueprint alone)."""
    try:
        return url_for(endpoint, **values)
    except BuildError:
        return fallback


def _language_switch() -> list[tuple[str, str]]:
    """The menu's language switch as (code, address) for every other language; none in an app without it."""
    here = request.full_path.rstrip("?")
    links = [(code, _url("i18n.switch", "", code=code, next=here)) for code in LANGUAGE_NAMES if code != LOCALE.get()]
    return [(code, address) for code, address in links if address]


def _bad_request(exc: KeshiError) -> Response:
    message = Msg("bad request: {problem}", problem=str(exc))  # the problem's own message, in the same language
    return Response(f"{message}\n", status=400, mimetype="text/plain")


@bp.get("/")
def page() -> Response:
    """The fairness page with its filter form and download links."""
    filters = _filters()
    query: dict[str, Any] = {k: v for k, v in filters.items() if v}
    dashboard: dict[str, Any] = {
        **filters,
        "action": url_for("fairness.page"),
        "download": {fmt: url_for("fairness.download", fmt=fmt, **query) for fmt in MEDIA_TYPES},
        "stylesheet": _url("static", "/static/app.css", filename="app.css"),
        "nav": {"games": _url("pages.index", "/"), "tower": _url("tower_page.tower", "/tower"),
                "board": _url("board_profile.page", "/profile")},
        "languages": _language_switch(),
    }
    try:
        html = _report(PAGE, dashboard)
    except KeshiError as exc:
        return _bad_request(exc)
    return Response(html, mimetype=MEDIA_TYPES["html"])


@bp.get("/report.<fmt>")
def download(fmt: str) -> Response:
    """The report as a file: ``report.json``, ``report.csv`` or ``report.html`` (standalone)."""
    if fmt not in MEDIA_TYPES:
        message = Msg("not found: report format must be html, csv or json, not {fmt!r}", fmt=fmt)
        return Response(f"{message}\n", status=404, mimetype="text/plain")
    try:
        text = _report(fmt)
    except KeshiError as exc:
        return _bad_request(exc)
    response = Response(text, mimetype=MEDIA_TYPES[fmt])
    response.headers["Content-Disposition"] = f'attachment; filename="keshi-fairness.{fmt}"'
    return response
