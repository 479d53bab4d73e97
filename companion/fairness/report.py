"""The fairness report: every statistic of a set of tosses, and the verdict a table can trust.

``build_report`` runs, per tower layer present (B1 and B2 release at different rates, so they are
analysed apart): the first-pass colour tests, the two-rate model fit (pooled and per colour) and
the power analysis; then one multiple-testing correction over all layers' colour tests. Around that
it adds the all-exposure release rate per colour (what a table means by "how often red comes out"),
drop timing, beam-versus-camera agreement, per-game and per-session summaries, the tower's
contents over the latest game, and B1 versus B2 when both were played.

The verdict is one of ``VERDICTS`` (``verdict``): "colour bias detected" as soon as a colour is
flagged (the flag's false-alarm rate holds at any sample size); otherwise each of the two questions
— how often tossed-in keshis stay inside, how often keshis already inside stay stuck — gets its own
answer ("no colour bias detected" once a colour 10 points off would be caught with 80 % power, or
"not enough data yet" with about how many more tosses), and the overall verdict says "no colour
bias detected" when both are answered. ``headline`` is that in player words.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from companion import COLOURS
from companion.fairness.change import ChangeAlarm
from companion.fairness.colour_tests import ColourTests, RateEstimate, first_pass_counts, robust_tests
from companion.fairness.drops import DropStats, drop_stats
from companion.fairness.fill_level import FillEffect
from companion.fairness.layer_comparison import LayerComparison, compare_layers
from companion.fairness.load import SetAside, TossData, narrow
from companion.fairness.monitor import monitor_layer
from companion.fairness.release_rates import IdCodes, clusters, id_codes, release_rates
from companion.fairness.scope import SCOPE_KEYS
from companion.fairness.sequential import SequentialPower, SequentialTests
from companion.fairness.two_rate import Cells, RateFit, TwoRateFit, cells_by_colour, log_likelihood
from companion.fairness.verdict import BIAS, NO_BIAS, NOT_ENOUGH, VERDICTS, StageVerdict, english, verdict
from companion.i18n import Msg
from companion.tower.model import LAYER_DEFAULTS

__all__ = ["BIAS", "NO_BIAS", "NOT_ENOUGH", "SCOPE_KEYS", "VERDICTS", "FairnessReport", "build_report"]


@dataclass(frozen=True)
class LayerReport:
    """Everything fitted and tested on one layer's tosses."""

    layer: str
    tosses: int
    tests: ColourTests
    model: TwoRateFit
    colour_models: dict[str, TwoRateFit]
    power: SequentialPower
    sequential: SequentialTests
    changes: list[ChangeAlarm]
    #: The tower's load effect (logit shift per piece held) and whether the fill-level model fits.
    fill: FillEffect


@dataclass(frozen=True)
class ColourSummary:
    """One colour over all tosses: its all-exposure release rate, and whether any layer flags it."""

    colour: str
    release: RateEstimate
    flagged: bool
    flagged_in: list[str]
    direction: str | None


@dataclass(frozen=True)
class CountCheck:
    """How far the beam and the camera agree, and how often the table corrected a count."""

    tosses_with_both: int
    agreeing: int
    corrected: int
    flagged: int


@dataclass(frozen=True)
class GroupRow:
    """One game or session: its tosses and its all-exposure release rate."""

    id: str
    tosses: int
    pieces_in: int
    exposures: int
    releases: int
    release_rate: float | None
    first_toss_at: float
    last_toss_at: float


@dataclass(frozen=True)
class GameTrace:
    """The tower's inferred contents after each toss of one game, per colour."""

    game_id: str
    labels: list[str]
    held_after: dict[str, list[int]]


@dataclass(frozen=True)
class FairnessReport:
    """The whole report; ``to_dict`` is the documented JSON form (docs/fairness.md)."""

    generated_at: float
    scope: dict[str, str | None]
    tosses: int
    verdict: str
    #: The verdict in one or two sentences people read: the flag, or each question's answer.
    headline: str
    detail: str
    #: Per question (``sequential.STAGES``: new pieces, held pieces), its own answer.
    stages: dict[str, StageVerdict]
    colours: dict[str, ColourSummary]
    layers: dict[str, LayerReport]
    drops: DropStats
    counts: CountCheck
    games: list[GroupRow]
    sessions: list[GroupRow]
    latest_game: GameTrace | None
    layer_comparison: LayerComparison | None
    set_aside: list[SetAside]
    #: ``detail`` as messages (one per sentence), for a page in the reader's language.
    detail_say: tuple[Msg, ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: plain dicts, lists, numbers, strings, booleans and nulls."""
        colours = {
            c: {
                "release_rate": s.release.rate,
                "interval": list(s.release.interval),
                "design_effect": s.release.design_effect,
                "flagged": s.flagged,
                "flagged_in": s.flagged_in,
                "direction": s.direction,
                "exposures": s.release.trials,
                "releases": s.release.successes,
            }
            for c, s in self.colours.items()
        }
        return {
            "generated_at": self.generated_at,
            "scope": self.scope,
            "tosses": self.tosses,
            "verdict": self.verdict,
            "headline": self.headline,
            "detail": self.detail,
            "detail_say": [message.to_json() for message in self.detail_say],
            "stages": {name: _said(asdict(stage)) for name, stage in self.stages.items()},
            "colours": colours,
            "layers": {name: _layer_dict(layer) for name, layer in self.layers.items()},
            "drops": asdict(self.drops),
            "counts": asdict(self.counts),
            "games": _group_dicts(self.games),
            "sessions": _group_dicts(self.sessions),
            "latest_game": asdict(self.latest_game) if self.latest_game else None,
            "layer_comparison": asdict(self.layer_comparison) if self.layer_comparison else None,
            "set_aside": [_said(asdict(s)) for s in self.set_aside],
        }


#: A ``GroupRow``'s fields, in order: its JSON keys.
_GROUP_FIELDS = tuple(GroupRow.__dataclass_fields__)
_group_values = attrgetter(*_GROUP_FIELDS)


def _group_dicts(rows: list[GroupRow]) -> list[dict[str, Any]]:
    """Game or session rows as JSON objects: what ``asdict`` gives for their plain fields, without its
    deep copy of each value (a million-toss log has about 20,000 games: 0.2 s saved)."""
    return [dict(zip(_GROUP_FIELDS, _group_values(row), strict=True)) for row in rows]


def _said(fields: dict[str, Any]) -> dict[str, Any]:
    """A record's fields for JSON: its ``*_say`` messages as plain data (``Msg.to_json``)."""
    return {name: value.to_json() if isinstance(value, Msg) else value for name, value in fields.items()}


def _layer_dict(layer: LayerReport) -> dict[str, Any]:
    tests = layer.tests
    return {
        "tosses": layer.tosses,
        "first_pass_reference_rate": tests.reference_rate,
        "left_out_of_reference": [c for c in COLOURS if c in tests.excluded],
        "chi_square": asdict(tests.chi_square) if tests.chi_square else None,
        "colours": {
            c: {
                "first_pass_rate": t.first_pass.rate,
                "interval": list(t.first_pass.interval),
                "trials": t.first_pass.trials,
                "releases": t.first_pass.successes,
                "p_value": t.p_value,
                "p_adjusted": t.p_adjusted,
                "flagged": t.flagged,
                "direction": t.direction,
                "model": asdict(layer.colour_models[c]),
            }
            for c, t in tests.colours.items()
        },
        "model": asdict(layer.model),
        "power": asdict(layer.power),
        "sequential": _sequential_dict(layer.sequential),
        "changes": [asdict(alarm) for alarm in layer.changes],
        "fill_level": asdict(layer.fill),
    }


def _sequential_dict(tests: SequentialTests) -> dict[str, Any]:
    latest = tests.looks[-1] if tests.looks else None
    return {
        "looks": [{"tosses": look.tosses, "alpha_per_colour": look.alpha_per_colour} for look in tests.looks],
        "next_look": tests.next_look,
        "flagged_at": tests.flagged_at,
        "latest_look": None if latest is None else {
            "tosses": latest.tosses, "p_new": latest.p_new, "p_held": latest.p_held,
            "colours": {c: asdict(score) for c, score in latest.colours.items()},
        },
    }


def build_report(data: TossData, scope: dict[str, str | None] | None = None) -> FairnessReport:
    """Analyse ``data`` (any number of tosses, zero included) into a ``FairnessReport``."""
    # the drop statistics first: their temporaries (a copy of every drop time to take quantiles in) are
    # freed before the layers' statistics need room, not added on top of everything alive at the end
    drops = drop_stats(data.drop_offsets, data.drop_times_ms)
    layer_names = [name for name in LAYER_DEFAULTS if (data.layer == name).any()]
    parts = {name: narrow(data, layer=name) for name in layer_names}
    games, sessions = id_codes(data.game_id), id_codes(data.session_id)
    cluster = clusters(data, (games, sessions))
    tests = robust_tests(
        {n: first_pass_counts(p.pieces_in, p.pieces_out, p.held_before) for n, p in parts.items()}
    )
    family = len(COLOURS) * max(len(layer_names), 1)
    layers = {
        name: _layer_report(parts[name], name, tests[name], family, cluster[data.layer == name])
        for name in layer_names
    }

    rates = release_rates(data, cluster)
    colours: dict[str, ColourSummary] = {}
    for colour in COLOURS:
        flagged_in = [name for name in layer_names if layers[name].tests.colours[colour].flagged]
        directions = {layers[name].tests.colours[colour].direction for name in flagged_in}
        colours[colour] = ColourSummary(
            colour=colour,
            release=rates[colour],
            flagged=bool(flagged_in),
            flagged_in=flagged_in,
            direction=directions.pop() if len(directions) == 1 else None,
        )
    decided = verdict(data.n_tosses, layers)
    # each toss's pieces tossed in, held before and released, summed over colours once for both tables
    # (32 bits: a toss holds at most 12 ``load.MAX_COUNT`` of each; 12 MB less per million tosses)
    totals = tuple(grid.sum(axis=1, dtype=np.int32) for grid in (data.pieces_in, data.held_before, data.pieces_out))
    detail_say = decided.detail_say
    if data.set_aside:
        count = len(data.set_aside)
        aside = (Msg("{count} stored tosses could not be reconciled and were set aside (listed with the reasons).",
                     count=count) if count > 1 else
                 Msg("1 stored toss could not be reconciled and was set aside (listed with the reasons)."))
        detail_say += (aside,)
    return FairnessReport(
        generated_at=time.time(),
        scope=scope or dict.fromkeys(SCOPE_KEYS),
        tosses=data.n_tosses,
        verdict=decided.verdict,
        headline=decided.headline,
        detail=english(detail_say),
        stages=decided.stages,
        colours=colours,
        layers=layers,
        drops=drops,
        counts=_count_check(data),
        games=_groups(data, data.game_id, games, totals),
        sessions=_groups(data, data.session_id, sessions, totals),
        latest_game=_latest_game(data),
        layer_comparison=_compare(layers),
        set_aside=list(data.set_aside),
        detail_say=detail_say,
    )


def _compare(layers: dict[str, LayerReport]) -> LayerComparison | None:
    """B1 versus B2 when the log has tosses of both."""
    if set(layers) != {"B1", "B2"}:
        return None
    first_pass = {
        name: (sum(t.first_pass.successes for t in layer.tests.colours.values()),
               sum(t.first_pass.trials for t in layer.tests.colours.values()))
        for name, layer in layers.items()
    }
    return compare_layers(first_pass, {name: layer.model for name, layer in layers.items()})


def _layer_report(
    part: TossData, name: str, tests: ColourTests, family: int, cluster: npt.NDArray[np.int64]
) -> LayerReport:
    """The monitor's verdict inputs for one layer; its flags replace the first-pass screen's."""
    monitor = monitor_layer(part.held_before, part.pieces_in, part.pieces_out, cluster, family)
    flagged = monitor.flagged
    tests = replace(tests, colours={
        c: replace(t, flagged=c in flagged, direction=flagged.get(c, t.direction))
        for c, t in tests.colours.items()
    })
    pooled, per_colour = cells_by_colour(part.held_before, part.pieces_in, part.pieces_out)
    model = _fit(pooled, monitor.pooled)
    colour_models = {c: _fit(per_colour[i], monitor.colours[i]) for i, c in enumerate(COLOURS)}
    return LayerReport(name, part.n_tosses, tests, model, colour_models, monitor.tests.power, monitor.tests,
                       monitor.alarms, monitor.fill)


def _fit(cells: Cells, rates: tuple[RateFit, RateFit]) -> TwoRateFit:
    """The rates as a ``TwoRateFit``: the cells they rest on and the two-rate log-likelihood there."""
    p_new, p_held = rates
    known = p_new.estimate is not None and p_held.estimate is not None and cells.weight.size > 0
    value = log_likelihood(cells, p_new.estimate or 0.0, p_held.estimate or 0.0) if known else None
    return TwoRateFit(p_new, p_held, int(cells.weight.sum()), value)


def _count_check(data: TossData) -> CountCheck:
    both = ~np.isnan(data.beam_count) & ~np.isnan(data.camera_count)
    return CountCheck(
        tosses_with_both=int(both.sum()),
        agreeing=int((data.beam_count[both] == data.camera_count[both]).sum()),
        corrected=int(data.corrected.sum()),
        flagged=int(data.flagged.sum()),
    )


def _groups(
    data: TossData, ids: npt.NDArray[np.object_], codes: IdCodes, totals: tuple[npt.NDArray[Any], ...]
) -> list[GroupRow]:
    """Per-id totals (tosses without an id are left out), ordered by their first toss; ``codes`` are
    the ``id_codes`` of ``ids``, ``totals`` each toss's pieces tossed in, held before and released."""
    index_all, known = codes
    if not known.any():
        return []
    if known.all():  # the usual log: every toss has an id, and no copies are needed
        known_rows: npt.NDArray[np.bool_] | slice = slice(None)
    else:
        known_rows = known
    index = index_all[known_rows]
    n = int(index.max()) + 1
    first_row = np.full(n, -1)
    first_row[index[::-1]] = np.flatnonzero(known)[::-1]  # each id's first toss, for its name
    keys = [str(key) for key in ids[first_row]]
    # row sums first, then the tosses with an id (no copy of the (tosses, 12) grids); an id's tosses
    # mostly come together (a game's), so each run of one id is summed first, in whole numbers, and the
    # runs then per id: the same sums, minima and maxima exactly, a few times faster
    starts = np.flatnonzero(np.concatenate(([True], index[1:] != index[:-1])))
    runs = index[starts]

    def summed(per_toss: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.bincount(runs, weights=np.add.reduceat(per_toss, starts, dtype=np.int64), minlength=n)

    tossed_in, held, out = totals
    tossed = summed(tossed_in[known_rows])
    exposed = tossed + summed(held[known_rows])
    released = summed(out[known_rows])
    count = np.bincount(runs, weights=np.diff(np.append(starts, index.shape[0])), minlength=n).astype(np.int64)
    times = data.started_at[known_rows]
    first = np.full(n, np.inf)
    last = np.full(n, -np.inf)
    np.minimum.at(first, runs, np.minimum.reduceat(times, starts))
    np.maximum.at(last, runs, np.maximum.reduceat(times, starts))
    # as Python numbers first (``tolist``): one conversion per array, not one per game and field
    rows = [
        GroupRow(
            id=key, tosses=tosses, pieces_in=int(pieces), exposures=int(exposures), releases=int(releases),
            release_rate=releases / exposures if exposures else None, first_toss_at=start, last_toss_at=end,
        )
        for key, tosses, pieces, exposures, releases, start, end in zip(
            keys, count.tolist(), tossed.tolist(), exposed.tolist(), released.tolist(), first.tolist(), last.tolist(),
            strict=True,
        )
    ]
    return sorted(rows, key=lambda r: r.first_toss_at)


def _latest_game(data: TossData) -> GameTrace | None:
    """The tower's contents after each toss of the game of the most recent toss that has a game."""
    with_game = np.flatnonzero(np.asarray(data.game_id != None, dtype=bool))  # noqa: E711  (element-wise)
    if with_game.size == 0:
        return None
    game = data.game_id[with_game[-1]]
    rows = np.flatnonzero(data.game_id == game)
    after = data.held_before[rows] + data.pieces_in[rows] - data.pieces_out[rows]
    labels = [
        f"S{int(s)}R{int(r)}" if not (np.isnan(s) or np.isnan(r)) else f"#{k + 1}"
        for k, (s, r) in enumerate(zip(data.season[rows], data.round[rows], strict=True))
    ]
    return GameTrace(str(game), labels, {c: [int(v) for v in after[:, i]] for i, c in enumerate(COLOURS)})
