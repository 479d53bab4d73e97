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

import numpy as np
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, IdentityTransform
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
#: The names inside the contents plot's segments: their size (points), colour, and the pale box behind
#: them (its margin around the name, in points), so they read on every swatch and hatch.
NAME_SIZE = 7.0
NAME_COLOUR = "#111111"
LABEL_BOX_COLOUR = (1.0, 1.0, 1.0, 0.85)
LABEL_PAD = 1.0
#: The contents plot's bars: their width, in tosses.
BAR_WIDTH = 0.8
#: Outlines and interval lines: light, so the black keshi and the intervals show on the dark card.
EDGE = "#c8cdd4"
#: The dashboard's dark look (companion/web/static/app.css: card, text, muted text, lines).
DARK: dict[RcKeyType, Any] = {
    "figure.facecolor": "#1f232a", "axes.facecolor": "#1f232a", "savefig.facecolor": "#1f232a",
    "text.color": "#f1f1ee", "axes.labelcolor": "#f1f1ee", "axes.edgecolor": "#a9b0bb",
    "xtick.color": "#a9b0bb", "ytick.color": "#a9b0bb", "ytick.labelcolor": "#f1f1ee",
    "grid.color": "#a9b0bb", "legend.facecolor": "#2a3039", "legend.edgecolor": "#3a414c",
    # hatches in the outlines' colour (a collection's hatch takes this setting, not its edge colour,
    # before matplotlib 3.10)
    "hatch.color": EDGE,
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
    """The tower's inferred contents after each toss of the latest game, stacked by colour.

    Drawn with one collection per colour for its segments (its hatch) and one for all the names
    inside them: a game's few hundred segments and names as separate patches and texts took 0.5 to
    0.8 s of matplotlib, most of the HTML report's time, and the layout measured each of them twice.
    """
    trace = report.latest_game
    tallest = max((sum(column) for column in zip(*trace.held_after.values(), strict=True)), default=0) if trace else 0
    # a taller figure for a fuller tower, so each one-keshi segment has room for its colour's name
    fig, ax = _figure(6.4, min(3.6 + 0.3 * tallest, 9.0))
    if trace is None:
        ax.text(0.5, 0.5, Msg("no game recorded yet").render(locale), ha="center", va="center", transform=ax.transAxes)
        ax.set_title(Msg("Tower contents over a game").render(locale))
        return _data_uri(fig)
    tosses = len(trace.labels)
    bottom = np.zeros(tosses)
    handles, names, centres = [], [], []
    for colour in COLOURS:
        heights = np.array(trace.held_after[colour], dtype=np.float64)
        if not heights.any():
            continue
        name = render_words(colour_name(colour), locale)
        present = np.flatnonzero(heights)
        x, low, high = present.astype(np.float64), bottom[present], bottom[present] + heights[present]
        left, right = x - BAR_WIDTH / 2, x + BAR_WIDTH / 2
        corners = np.stack([np.column_stack(pair) for pair in ((left, low), (left, high), (right, high), (right, low))],
                           axis=1)
        ax.add_collection(PolyCollection(list(corners), facecolors=KESHI_HEX[colour], edgecolors=EDGE,
                                         hatch=HATCHES[colour] or None), autolim=False)
        handles.append(Patch(facecolor=KESHI_HEX[colour], edgecolor=EDGE, hatch=HATCHES[colour], label=name))
        names.append(_name_path(name))
        centres.append(np.column_stack((x, (low + high) / 2)))
        bottom += heights
    # every name at the middle of each of its segments, upright, on a pale box: one collection of
    # paths (box, name, box, name, ...) in points, placed in data coordinates
    if handles:
        paths = [path for (box, text), where in zip(names, centres, strict=True) for path in [box, text] * len(where)]
        labels = PathCollection(paths, sizes=[1.0], offsets=np.repeat(np.concatenate(centres), 2, axis=0),
                                offset_transform=ax.transData, facecolors=[LABEL_BOX_COLOUR, NAME_COLOUR],
                                edgecolors="none")
        labels.set_transform(IdentityTransform())  # the paths are in points, scaled by ``sizes``, not in data
        labels.set_in_layout(False)
        ax.add_collection(labels, autolim=False)
        ax.legend(handles=handles, fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    # the limits bars would have: 5 % of the bars' span beside them, from 0 to the tallest column
    margin = 0.05 * (tosses - 1 + BAR_WIDTH)
    ax.set_xlim(-BAR_WIDTH / 2 - margin, tosses - 1 + BAR_WIDTH / 2 + margin)
    ax.set_ylim(0, max(tallest, 1))
    ax.set_xticks(range(tosses), trace.labels, rotation=45)
    ax.set_ylabel(Msg("keshis held after the toss").render(locale))
    ax.set_title(Msg("Tower contents over game {game}", game=trace.game_id).render(locale))
    return _data_uri(fig)


def _name_path(name: str) -> tuple[Path, Path]:
    """A colour's name as a path in points, upright (read from below), centred on 0, and the pale
    box behind it."""
    text = TextPath((0.0, 0.0), name, prop=FontProperties(size=NAME_SIZE))
    # the glyphs' control points (not the closing points, which stand at 0, 0) hold their curves, so
    # their span is the name's box within a hair (``get_extents`` solves for each curve's extremes)
    points = text.vertices[text.codes != Path.CLOSEPOLY]
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    centred = Affine2D().translate(-(x0 + x1) / 2, -(y0 + y1) / 2).rotate_deg(90)
    half_long, half_short = (x1 - x0) / 2 + LABEL_PAD, (y1 - y0) / 2 + LABEL_PAD
    box = Path([(-half_short, -half_long), (half_short, -half_long), (half_short, half_long),
                (-half_short, half_long), (-half_short, -half_long)], closed=True)
    return box, centred.transform_path(text)


def all_plots(report: FairnessReport, locale: str = "en") -> dict[str, str]:
    """The three plots by name, as ``data:`` URIs for ``<img src=...>``, their words in ``locale``,
    in the dashboard's dark colours."""
    with rc_context(DARK):
        return {
            "release_rate": release_rate_plot(report, locale),
            "drop_times": drop_time_plot(report, locale),
            "contents": contents_plot(report, locale),
        }
