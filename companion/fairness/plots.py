"""The report's three plots as base64 PNG data URIs, so an HTML report stands alone.

Figures are plain ``matplotlib.figure.Figure`` objects rendered to PNG by the Agg canvas: no pyplot,
so no global figure state shared between the dashboard's threads, no display needed on a Pi or a
server, and none of pyplot's import time. They are drawn in the dashboard's dark colours (``DARK``), so
they sit on the dark page as its cards do instead of as white sheets. Every colour is *named* on the
plot, never shown by hue alone: the rate plot labels each row with the colour's name, and the tower
contents plot writes each colour's name in its legend and its name inside each segment, with a
hatch pattern per colour, so the plots read the same for colour-blind players and in greyscale.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

from companion import COLOURS
from companion.fairness.report import FairnessReport
from companion.i18n import Msg, colour_name, render_words

#: Approximate keshi paint colours (for the swatches; names always accompany them).
KESHI_HEX: dict[str, str] = {
    "yellow": "#f2c500", "orange": "#f08a00", "purple": "#7b3fa0", "pink": "#f08cb4",
    "beige": "#d9c39a", "red": "#c8102e", "brown": "#7a4a1e", "green": "#2e8b3a",
    "gray": "#8c8c8c", "white": "#ffffff", "black": "#111111", "turquoise": "#1aa6a6",
}
HATCHES: dict[str, str] = dict(
    zip(COLOURS, ("", "//", "\\\\", "xx", "..", "oo", "--", "||", "++", "**", "OO", "//."), strict=True)
)
#: A pale box behind in-segment names, so they read on every swatch and hatch.
LABEL_BOX = {"facecolor": "#ffffff", "alpha": 0.85, "pad": 1.0, "edgecolor": "none"}
#: Outlines and interval lines: light, so the black keshi and the intervals show on the dark card.
EDGE = "#c8cdd4"
#: The dashboard's dark look (companion/web/static/app.css: card, text, muted text, lines).
DARK: dict[RcKeyType, Any] = {
    "figure.facecolor": "#1f232a", "axes.facecolor": "#1f232a", "savefig.facecolor": "#1f232a",
    "text.color": "#f1f1ee", "axes.labelcolor": "#f1f1ee", "axes.edgecolor": "#a9b0bb",
    "xtick.color": "#a9b0bb", "ytick.color": "#a9b0bb", "ytick.labelcolor": "#f1f1ee",
    "grid.color": "#a9b0bb", "legend.facecolor": "#2a3039", "legend.edgecolor": "#3a414c",
}
DPI = 90


def _figure(width: float, height: float) -> tuple[Figure, Any]:
    # constrained layout makes room for labels and an outside legend in the one drawing savefig does
    # (bbox_inches="tight" would draw every figure twice: the plots were half the report's time)
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def _data_uri(fig: Figure) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def release_rate_plot(report: FairnessReport, locale: str = "en") -> str:
    """Release rate per colour (all exposures) with its 95 % Wilson interval; flagged colours marked."""
    fig, ax = _figure(6.4, 4.2)
    rows = list(reversed(COLOURS))
    for y, colour in enumerate(rows):
        summary = report.colours[colour]
        low, high = summary.release.interval
        ax.plot([low, high], [y, y], color=EDGE, linewidth=2)
        if summary.release.rate is not None:
            ax.plot(summary.release.rate, y, marker="o", markersize=9, color=KESHI_HEX[colour],
                    markeredgecolor=EDGE)
    names = {c: render_words(colour_name(c), locale) for c in rows}
    labels = [Msg("{colour}  (flagged)", colour=names[c]).render(locale) if report.colours[c].flagged else names[c]
              for c in rows]
    ax.set_yticks(range(len(rows)), labels)
    for tick, colour in zip(ax.get_yticklabels(), rows, strict=True):
        if report.colours[colour].flagged:
            tick.set_fontweight("bold")
    ax.set_xlim(0, 1)
    ax.set_xlabel(Msg("release rate (keshis out ÷ keshis inside + tossed in), likely range").render(locale))
    ax.set_title(Msg("Release rate per colour ({n} tosses)", n=report.tosses).render(locale))
    ax.grid(axis="x", alpha=0.3)
    return _data_uri(fig)


def drop_time_plot(report: FairnessReport, locale: str = "en") -> str:
    """Histogram of every drop's time after its toss."""
    fig, ax = _figure(6.4, 3.2)
    edges, counts = report.drops.histogram_edges_ms, report.drops.histogram_counts
    if counts:
        ax.stairs(counts, edges, fill=True, color="#4a6fa5", alpha=0.8)
    else:
        ax.text(0.5, 0.5, Msg("no drops recorded yet").render(locale), ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel(Msg("time after the toss (ms)").render(locale))
    ax.set_ylabel(Msg("drops").render(locale))
    ax.set_title(Msg("Drop times ({n} drops)", n=report.drops.drops).render(locale))
    return _data_uri(fig)


def contents_plot(report: FairnessReport, locale: str = "en") -> str:
    """The tower's inferred contents after each toss of the latest game, stacked by colour."""
    trace = report.latest_game
    tallest = max((sum(column) for column in zip(*trace.held_after.values(), strict=True)), default=0) if trace else 0
    # a taller figure for a fuller tower, so each one-keshi segment has room for its colour's name
    fig, ax = _figure(6.4, min(3.6 + 0.3 * tallest, 9.0))
    if trace is None:
        ax.text(0.5, 0.5, Msg("no game recorded yet").render(locale), ha="center", va="center", transform=ax.transAxes)
        ax.set_title(Msg("Tower contents over a game").render(locale))
        return _data_uri(fig)
    x = range(len(trace.labels))
    bottom = [0] * len(trace.labels)
    for colour in COLOURS:
        name = render_words(colour_name(colour), locale)
        heights = trace.held_after[colour]
        if not any(heights):
            continue
        bars = ax.bar(x, heights, bottom=bottom, color=KESHI_HEX[colour], edgecolor=EDGE,
                      hatch=HATCHES[colour], label=name)
        for bar, h in zip(bars, heights, strict=True):
            if h:
                # inside its bar, so the layout need not measure it (measuring every label was most of
                # this plot's time)
                ax.text(bar.get_x() + bar.get_width() / 2, bar.get_y() + h / 2, name, ha="center",
                        va="center", fontsize=7, color="#111111", bbox=LABEL_BOX, in_layout=False)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_xticks(list(x), trace.labels, rotation=45)
    ax.set_ylabel(Msg("keshis held after the toss").render(locale))
    ax.set_title(Msg("Tower contents over game {game}", game=trace.game_id).render(locale))
    if any(bottom):
        ax.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _data_uri(fig)


def all_plots(report: FairnessReport, locale: str = "en") -> dict[str, str]:
    """The three plots by name, as ``data:`` URIs for ``<img src=...>``, their words in ``locale``,
    in the dashboard's dark colours."""
    with rc_context(DARK):
        return {
            "release_rate": release_rate_plot(report, locale),
            "drop_times": drop_time_plot(report, locale),
            "contents": contents_plot(report, locale),
        }
