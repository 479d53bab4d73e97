"""Reports render for 0, 1 and 100,000 tosses; the CSV loads with pandas; the JSON has its documented form."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from companion import COLOURS
from companion.fairness.load import concatenate, load_tosses
from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.render import CSV_COLUMNS, ReportFormatError, render
from companion.fairness.report import BIAS, NOT_ENOUGH, SCOPE_KEYS, VERDICTS, FairnessReport, build_report
from companion.fairness.simulate import simulate_into_store
from companion.store import Store
from companion.tower.model import TowerParams
from companion.tower.record import TossRecord, save_toss
from tests.fairness.conftest import toss_data


def check_all_formats(report_tosses: int, text: dict[str, str]) -> dict[str, Any]:
    document = json.loads(text["json"])
    assert document["tosses"] == report_tosses
    assert document["verdict"] in VERDICTS
    assert list(document["colours"]) == list(COLOURS)
    for entry in document["colours"].values():
        assert set(entry) >= {"release_rate", "interval", "flagged"}
        low, high = entry["interval"]
        assert 0.0 <= low <= high <= 1.0
        assert isinstance(entry["flagged"], bool)
    table = pd.read_csv(io.StringIO(text["csv"]))
    assert list(table.columns) == list(CSV_COLUMNS)
    assert list(table[table.scope == "all"].colour) == list(COLOURS)
    html = text["html"]
    assert html.startswith("<!doctype html>") and html.count("data:image/png;base64,") == 3
    assert "<link" not in html and "<script src" not in html  # stands alone
    for colour in COLOURS:
        assert f"</span>{colour}</td>" in html  # every colour named, not only shown by hue
    return document


def render_all(report: FairnessReport) -> dict[str, str]:
    return {fmt: render(report, fmt) for fmt in ("json", "csv", "html")}


def test_report_of_no_tosses(store: Store) -> None:
    report = build_report(load_tosses(store))
    document = check_all_formats(0, render_all(report))
    assert document["verdict"] == NOT_ENOUGH and document["layers"] == {}
    assert all(c["release_rate"] is None and c["interval"] == [0.0, 1.0] for c in document["colours"].values())


def test_report_of_one_toss(store: Store) -> None:
    simulate_into_store(store, 1, TowerParams(), seed=4)
    document = check_all_formats(1, render_all(build_report(load_tosses(store))))
    assert document["verdict"] == NOT_ENOUGH
    assert document["layers"]["B1"]["power"]["enough"] is False
    assert document["latest_game"]["labels"] == ["S1R1"]


def test_report_of_100000_tosses() -> None:
    grids = simulate_sessions(TowerParams(layer="B1", bias={"red": 0.1}), 1, 100_000, np.random.default_rng(1))
    report = build_report(toss_data(grids))
    document = check_all_formats(100_000, render_all(report))
    assert document["verdict"] == BIAS
    assert [c for c, entry in document["colours"].items() if entry["flagged"]] == ["red"]
    model = document["layers"]["B1"]["colours"]["red"]["model"]
    assert model["p_new"]["interval"][0] < 0.70 < model["p_new"]["interval"][1]


def test_release_rates_and_tests_in_the_report_equal_scipy_on_fixed_tosses(store: Store) -> None:
    # yellow: 4 in / 3 out, then 1 held + 3 in / 3 out, then 1 held + 3 in / 3 out: every toss 3 of 4,
    # so the tosses agree exactly and the design effect is 1 (plain Wilson); red: 3 in / 1 out twice.
    tosses = [
        ({"yellow": 4, "red": 3}, {"yellow": 3, "red": 1}, {}),
        ({"yellow": 3, "red": 3}, {"yellow": 3, "red": 1}, {"yellow": 1, "red": 2}),
        ({"yellow": 3, "green": 5}, {"yellow": 3, "green": 4}, {"yellow": 1, "red": 4}),
    ]
    for index, (pieces_in, pieces_out, before) in enumerate(tosses):
        after = {c: before.get(c, 0) + pieces_in.get(c, 0) - pieces_out.get(c, 0) for c in COLOURS}
        save_toss(store, TossRecord(toss_id=f"t{index}", tower="T", layer="B1", mode="hardware",
                                    started_at=float(index), pieces_in=pieces_in, pieces_out=pieces_out,
                                    contents_before=before, contents_after=after))
    document = json.loads(render(build_report(load_tosses(store)), "json"))
    yellow = document["colours"]["yellow"]
    ci = stats.binomtest(9, 12).proportion_ci(method="wilson")
    assert yellow["release_rate"] == pytest.approx(9 / 12) and yellow["design_effect"] == 1.0
    assert yellow["interval"] == pytest.approx([ci.low, ci.high])
    layer = document["layers"]["B1"]
    # first-pass: only yellow's first toss had none held: yellow 3/4, red 1/3 (then 2 held), green 4/5
    assert layer["colours"]["yellow"]["trials"] == 4 and layer["colours"]["red"]["trials"] == 3
    pooled = 8 / 12
    assert layer["colours"]["red"]["p_value"] == pytest.approx(stats.binomtest(1, 3, pooled).pvalue)
    table = np.array([[3, 1], [1, 2], [4, 1]])
    assert layer["chi_square"]["statistic"] == pytest.approx(stats.chi2_contingency(table, correction=False).statistic)


def test_json_holds_the_whole_report_with_a_line_per_game_and_session(store: Store) -> None:
    """The JSON reads back as ``to_dict`` exactly; each game and session row is one line of its own,
    and a filter holding the row lists' names changes nothing."""
    simulate_into_store(store, 30, TowerParams(), seed=3)
    report = build_report(load_tosses(store), {**dict.fromkeys(SCOPE_KEYS), "game": '\x00games "games": '})
    text = render(report, "json")
    document = json.loads(json.dumps(report.to_dict()))  # tuples as JSON lists
    assert json.loads(text) == document
    lines = text.splitlines()
    for key, rows in (("games", report.games), ("sessions", report.sessions)):
        start = lines.index(f'  "{key}": [')
        listed = lines[start + 1:start + 1 + len(rows)]
        assert [json.loads(line.strip().rstrip(",")) for line in listed] == document[key]
        assert lines[start + 1 + len(rows)].strip() in ("],", "]")


def test_unknown_format_is_refused_by_name(store: Store) -> None:
    with pytest.raises(ReportFormatError, match="'pdf'"):
        render(build_report(load_tosses(store)), "pdf")


def test_count_check_reports_beam_camera_agreement_and_corrections(store: Store) -> None:
    def toss(toss_id: str, out: int, camera: int | None, **extra: Any) -> TossRecord:
        return TossRecord(toss_id=toss_id, tower="T", layer="B1", mode="hardware", started_at=0.0,
                          pieces_in={"red": 2}, pieces_out={"red": out}, contents_before={},
                          contents_after={"red": 2 - out}, beam_count=2, camera_count=camera, **extra)

    save_toss(store, toss("a", 2, 2))
    save_toss(store, toss("b", 1, 1, correction={"red": 1}, flagged=True))
    save_toss(store, toss("c", 2, None))
    counts = json.loads(render(build_report(load_tosses(store)), "json"))["counts"]
    assert counts == {"tosses_with_both": 2, "agreeing": 1, "corrected": 1, "flagged": 1}


def test_b1_versus_b2_recovers_the_layers_difference() -> None:
    b1 = simulate_sessions(TowerParams(layer="B1"), 1, 3000, np.random.default_rng(21))
    b2 = simulate_sessions(TowerParams(layer="B2"), 1, 3000, np.random.default_rng(22))
    one, two = toss_data(b1, layer="B1"), toss_data(b2, layer="B2")
    both = concatenate([one, two])
    comparison = build_report(both).layer_comparison
    assert comparison is not None
    truth = {"p_new": 0.65 - 0.80, "p_held": 0.45 - 0.55}
    for name, diff in (("p_new", comparison.p_new_difference), ("p_held", comparison.p_held_difference)):
        assert diff.interval is not None and diff.interval[0] < truth[name] < diff.interval[1]
    fell = []
    for grids in (b1, b2):
        clean = grids.held_before[0] == 0
        fell.append([(grids.pieces_out[0] * clean).sum(), (grids.pieces_in[0] * clean).sum()])
    table = np.array([[k, n - k] for k, n in fell])
    assert comparison.p_value is not None and comparison.p_value < 1e-6
    assert comparison.p_value == pytest.approx(stats.chi2_contingency(table, correction=False).pvalue)
    assert build_report(one).layer_comparison is None


def test_game_and_session_rows_sum_every_toss_of_theirs_however_the_tosses_interleave() -> None:
    """Rows are summed run by run of one id: two sessions taking turns toss by toss, games in runs,
    and tosses without a game still give each id's totals over all its tosses."""
    grids = simulate_sessions(TowerParams(layer="B1"), 1, 600, np.random.default_rng(8))
    data = toss_data(grids)
    n = data.n_tosses
    game_id = data.game_id.copy()
    game_id[::7] = None
    rng = np.random.default_rng(9)
    data = dataclasses.replace(data, game_id=game_id, session_id=np.array(["s1", "s2"] * (n // 2), dtype=object),
                               started_at=rng.permutation(n).astype(np.float64))
    report = build_report(data)
    for rows, ids in ((report.games, data.game_id), (report.sessions, data.session_id)):
        assert [row.id for row in rows] == sorted({i for i in ids if i is not None},
                                                  key=lambda i: data.started_at[ids == i].min())
        for row in rows:
            mine = ids == row.id
            exposed = int(data.pieces_in[mine].sum() + data.held_before[mine].sum())
            assert (row.tosses, row.pieces_in, row.exposures, row.releases) == (
                int(mine.sum()), int(data.pieces_in[mine].sum()), exposed, int(data.pieces_out[mine].sum()))
            assert (row.first_toss_at, row.last_toss_at) == (data.started_at[mine].min(), data.started_at[mine].max())
