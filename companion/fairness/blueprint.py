"""The dashboard's fairness page: ``/fairness/`` (HTML with plots) and ``/fairness/report.<fmt>``.

The page is the CLI's HTML report (same template, found through the blueprint's template folder)
plus a filter form and download links. It reads the toss log from the app's store
(``current_app.extensions["keshi.store"]``) on every request, so it always shows every toss
recorded so far; the filters in the query string
(``tower``, ``since``, ``layer``, ``game``, ``session``) are the CLI's options. Bad filter values
are answered with 400 and a message naming the bad value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, render_template, request, url_for
from werkzeug.routing import BuildError

from companion.errors import KeshiError
from companion.fairness.cli import parse_since
from companion.fairness.scope import SCOPE_KEYS
from companion.i18n import LOCALE, Msg
from companion.i18n.web import LANGUAGE_NAMES

if TYPE_CHECKING:
    from companion.fairness.report import FairnessReport

bp = Blueprint("fairness", __name__, url_prefix="/fairness", template_folder="templates")

MEDIA_TYPES = {
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
}


def _filters() -> dict[str, str | None]:
    return {name: (request.args.get(name) or None) for name in SCOPE_KEYS}


def _report(filters: dict[str, str | None]) -> FairnessReport:
    # numpy, scipy and the plots load with the first report, not with the server (issue 23)
    from companion.fairness.load import load_tosses, narrow
    from companion.fairness.report import build_report

    since = parse_since(filters["since"]) if filters["since"] else None
    data = load_tosses(current_app.extensions["keshi.store"], tower=filters["tower"], since=since)
    data = narrow(data, layer=filters["layer"], game=filters["game"], session=filters["session"])
    return build_report(data, scope=filters)


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
    try:
        report = _report(filters)
    except KeshiError as exc:
        return _bad_request(exc)
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
    from companion.fairness.render import REPORT_TEMPLATE, html_context

    locale = LOCALE.get()
    html = render_template(REPORT_TEMPLATE, **html_context(report, locale), dashboard=dashboard,
                           language_names=LANGUAGE_NAMES)
    return Response(html, mimetype=MEDIA_TYPES["html"])


@bp.get("/report.<fmt>")
def download(fmt: str) -> Response:
    """The report as a file: ``report.json``, ``report.csv`` or ``report.html`` (standalone)."""
    if fmt not in MEDIA_TYPES:
        message = Msg("not found: report format must be html, csv or json, not {fmt!r}", fmt=fmt)
        return Response(f"{message}\n", status=404, mimetype="text/plain")
    from companion.fairness.render import render

    try:
        text = render(_report(_filters()), fmt)
    except KeshiError as exc:
        return _bad_request(exc)
    response = Response(text, mimetype=MEDIA_TYPES[fmt])
    response.headers["Content-Disposition"] = f'attachment; filename="keshi-fairness.{fmt}"'
    return response
