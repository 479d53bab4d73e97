"""Render a ``FairnessReport`` as JSON, CSV or a standalone HTML page.

* JSON: ``FairnessReport.to_dict()`` (documented in docs/fairness.md).
* CSV: one row per (scope, colour): scope ``all`` holds the all-exposure release rates, scopes ``B1``
  and ``B2`` the first-pass tests and the model fits of that layer; then one ``set-aside`` row per
  stored toss the analysis could not use (``toss_id`` and ``reason``). Empty cells mean "no data"; the
  file loads with ``pandas.read_csv`` as is.
* HTML: the same template the dashboard serves (``templates/fairness/report.html``), rendered with
  Jinja2 outside Flask, plots embedded as data URIs, styles inline: one file, no other requests.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from companion import COLOURS, __version__
from companion.errors import KeshiError
from companion.fairness.layer_comparison import Difference
from companion.fairness.report import FairnessReport
from companion.fairness.two_rate import RateFit
from companion.fairness.verdict import DIRECTION_WORDS, TOPICS, percent_say
from companion.i18n import Msg, colour_name, render_words, translations, word

TEMPLATE_DIR = Path(__file__).parent / "templates"
REPORT_TEMPLATE = "fairness/report.html"
CSV_COLUMNS = (
    "scope", "colour", "tosses", "exposures", "releases", "release_rate", "interval_low", "interval_high",
    "first_pass_trials", "first_pass_releases", "first_pass_rate", "first_pass_low", "first_pass_high",
    "p_value", "p_adjusted", "flagged", "direction", "p_new", "p_new_low", "p_new_high",
    "p_held", "p_held_low", "p_held_high", "verdict", "toss_id", "reason",
)


#: The report's filters (``SCOPE_KEYS``) as the page's subtitle names them ("layer B1").
FILTER_WORDS: dict[str, Msg] = {
    "tower": word("filter", "tower"), "since": word("filter", "since"), "layer": word("filter", "layer"),
    "game": word("filter", "game"), "session": word("filter", "session"),
}
UNKNOWN = Msg("unknown")
#: A flagged colour whose rates point different ways on the two layers.
DIFFERS = Msg("differs")


class ReportFormatError(KeshiError, ValueError):
    """An unknown report format was asked for."""


def render(report: FairnessReport, fmt: str) -> str:
    """The report as text in ``fmt`` (html, csv or json)."""
    if fmt == "json":
        return render_json(report)
    if fmt == "csv":
        return render_csv(report)
    if fmt == "html":
        return render_html(report)
    raise ReportFormatError(f"report format must be html, csv or json, not {fmt!r}")


#: The per-game and per-session lists: one row per line (``_ROW_ENCODER``) within the indented rest.
ROW_LISTS = ("games", "sessions")
#: Python's C encoder (its pure-Python one runs when indenting): a million tosses' 20,000 games and their
#: sessions take 0.05 s instead of 0.2 s, without the indenting encoder's list of 800,000 pieces (40 MB).
_ROW_ENCODER = json.JSONEncoder(separators=(", ", ": "), allow_nan=False)


def render_json(report: FairnessReport) -> str:
    """The documented JSON form, indented, ending with a newline; each game and session row is one
    line of its own (the content is ``to_dict``'s all the same)."""
    document = report.to_dict()
    rows = {key: document[key] for key in ROW_LISTS}
    # each list stands in as a marker, then is put in its place: the marker's line (a top-level key,
    # indented by two) is the only one of its kind, whatever the report's texts hold
    markers = {key: f"\x00{key}" for key in ROW_LISTS}
    text = json.dumps({**document, **markers}, indent=2, allow_nan=False)
    for key, marker in markers.items():
        lines = ",\n    ".join(map(_ROW_ENCODER.encode, rows[key]))
        listed = f"[\n    {lines}\n  ]" if lines else "[]"
        text = text.replace(f'\n  "{key}": {json.dumps(marker)}', f'\n  "{key}": {listed}', 1)
    return text + "\n"


def csv_rows(report: FairnessReport) -> list[dict[str, Any]]:
    """The CSV's rows as dicts (None for "no data")."""
    rows: list[dict[str, Any]] = []
    for colour in COLOURS:
        summary = report.colours[colour]
        rows.append({
            "scope": "all", "colour": colour, "tosses": report.tosses,
            "exposures": summary.release.trials, "releases": summary.release.successes,
            "release_rate": summary.release.rate, "interval_low": summary.release.interval[0],
            "interval_high": summary.release.interval[1], "flagged": summary.flagged,
            "direction": summary.direction, "verdict": report.verdict,
        })
    for name, layer in report.layers.items():
        for colour in COLOURS:
            test = layer.tests.colours[colour]
            model = layer.colour_models[colour]
            rows.append({
                "scope": name, "colour": colour, "tosses": layer.tosses,
                "first_pass_trials": test.first_pass.trials, "first_pass_releases": test.first_pass.successes,
                "first_pass_rate": test.first_pass.rate, "first_pass_low": test.first_pass.interval[0],
                "first_pass_high": test.first_pass.interval[1], "p_value": test.p_value,
                "p_adjusted": test.p_adjusted, "flagged": test.flagged, "direction": test.direction,
                "p_new": model.p_new.estimate, "p_new_low": model.p_new.interval[0],
                "p_new_high": model.p_new.interval[1], "p_held": model.p_held.estimate,
                "p_held_low": model.p_held.interval[0], "p_held_high": model.p_held.interval[1],
                "verdict": report.verdict,
            })
    for aside in report.set_aside:
        rows.append({"scope": "set-aside", "tosses": report.tosses, "verdict": report.verdict,
                     "toss_id": aside.toss_id, "reason": aside.reason})
    return rows


def render_csv(report: FairnessReport) -> str:
    """One row per (scope, colour); see the module docstring."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(report):
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buffer.getvalue()


def html_context(report: FairnessReport, locale: str = "en") -> dict[str, Any]:
    """What the HTML template needs: the report, its plots and display helpers, in ``locale``.

    ``_`` is the template's translation function, as Flask-Babel's (``%(name)s`` placeholders, ``%%``
    for a percent sign, values escaped): given here so the saved file (English) and the dashboard's page
    (the phone's language) render through the same template with or without Flask-Babel.
    """
    from companion.fairness.plots import KESHI_HEX, all_plots

    catalog = translations(locale)

    def translate(text: str, **values: Any) -> Markup:
        return Markup(catalog.gettext(text)) % values

    def say(message: Msg | str) -> str:
        return render_words(message, locale)

    def count(n: int) -> str:
        grouped = f"{n:,}"
        return grouped.replace(",", ".") if locale == "de" else grouped

    def chance(fit: RateFit) -> Markup | str:
        if fit.estimate is None:
            return UNKNOWN.render(locale)
        return Markup("<strong>%.3f</strong> (%.3f – %.3f)") % (fit.estimate, *fit.interval)

    def difference(diff: Difference) -> str:
        if diff.estimate is None:
            return UNKNOWN.render(locale)
        low, high = diff.interval or (diff.estimate, diff.estimate)
        return Msg("{estimate} ({low} to {high})", estimate=f"{diff.estimate:+.3f}", low=f"{low:+.3f}",
                   high=f"{high:+.3f}").render(locale)

    return {
        "report": report,
        "plots": all_plots(report, locale),
        "colours": COLOURS,
        "swatch": KESHI_HEX,
        "version": __version__,
        "generated": datetime.fromtimestamp(report.generated_at, UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "when": lambda t: datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M"),
        "pvalue": format_p,
        "percent": lambda p: say(percent_say(p)),
        "stage_words": {name: topic.render(locale) for name, topic in TOPICS.items()},
        "scope_words": {key: name.render(locale) for key, name in FILTER_WORDS.items()},
        "lang": locale,
        "_": translate,
        "say": say,
        "count": count,
        "chance": chance,
        "difference": difference,
        "colour_label": lambda colour: say(colour_name(colour)),
        "direction_label": lambda direction: say(DIRECTION_WORDS.get(direction) or direction or DIFFERS),
    }


def format_p(p: float | None) -> str:
    """A p-value for people: "0.0123", "< 0.0001", or a dash when there was no test."""
    if p is None:
        return "–"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


@functools.cache
def _environment() -> jinja2.Environment:
    """The Jinja2 environment for rendering outside Flask (built once: templates compile once)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=True, undefined=jinja2.StrictUndefined
    )


def render_html(report: FairnessReport, locale: str = "en") -> str:
    """The standalone HTML report (no dashboard filter form: ``dashboard`` is None), English unless
    ``locale`` says otherwise (the hub's page: the reader's language)."""
    return _environment().get_template(REPORT_TEMPLATE).render(**html_context(report, locale), dashboard=None)
