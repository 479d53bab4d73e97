"""The staged verdict: each question (tossed-in keshis, keshis already inside) gets its own answer in
player words; flags keep priority and name the question they concern; the JSON keeps machine keys."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import numpy as np

from companion.fairness.change import ChangeAlarm
from companion.fairness.fill_level import FillEffect
from companion.fairness.montecarlo import simulate_sessions
from companion.fairness.render import render
from companion.fairness.report import BIAS, NO_BIAS, NOT_ENOUGH, build_report
from companion.fairness.sequential import (
    ColourScore,
    Look,
    SequentialPower,
    SequentialTests,
    StagePower,
)
from companion.fairness.verdict import verdict
from companion.tower.model import TowerParams
from tests.fairness.conftest import toss_data

#: Internal keys that must never reach people (the JSON keeps them).
INTERNAL = re.compile(r"p_new|p_held|new_pieces|held_pieces|power_by|tosses_needed")


def power(new: float, held: float, latest: int = 4101) -> SequentialPower:
    """A layer's power: the new-pieces stage at ``new``, the held-pieces stage at ``held`` now, each
    promised at the latest check if it is there already, else at 9,226 tosses (90 %)."""
    def stage(kinds: tuple[str, ...], now: float) -> StagePower:
        promised = latest if now >= 0.8 else 9226
        chances = {latest: now, promised: max(now, 0.9)}
        return StagePower(kinds, now, now >= 0.8, promised, max(promised - 6000, 0), chances)
    stages = {"new_pieces": stage(("p_new", "both"), new), "held_pieces": stage(("p_held",), held)}
    return SequentialPower(0.1, 0.8, min(new, held), {"p_new": new, "p_held": held, "both": new}, min(new, held) >= 0.8,
                           9226, 3226, latest, {latest: min(new, held), 9226: 0.9}, stages)


@dataclass(frozen=True)
class Layer:
    power: SequentialPower
    sequential: SequentialTests
    changes: list[ChangeAlarm] = field(default_factory=list)
    fill: FillEffect = field(default_factory=lambda: FillEffect(None, None, None, None, None, None))


def layer(new: float, held: float, flag_rates: str | None = None) -> Layer:
    """A B1 layer at 6,000 tosses; ``flag_rates``: red flagged at the 4,101-toss look, stickier in those rates."""
    colours = {} if flag_rates is None else {
        "red": ColourScore(30.0, 2, 1e-6, -1.0, -5.0, True, "stickier", flag_rates)}
    looks = [Look(4101, 1e-4, 0.7, 0.5, colours)]
    tests = SequentialTests(6000, 12, looks, {"red": 4101} if flag_rates else {}, 6151, power(new, held))
    return Layer(power(new, held), tests)


def test_each_question_is_answered_on_its_own() -> None:
    decided = verdict(6000, {"B1": layer(0.999, 0.44)})
    new, held = decided.stages["new_pieces"], decided.stages["held_pieces"]
    assert decided.verdict == NOT_ENOUGH and (new.verdict, held.verdict) == (NO_BIAS, NOT_ENOUGH)
    assert decided.headline == (
        "No colour bias detected in how often tossed-in keshis stay inside (a 10-point bias would have been "
        "caught with over 99 % at the check after 4,101 tosses). Stickiness of keshis already inside: not enough "
        "data yet — about 3,226 more tosses (a 10-point bias would be caught with 44 % at the latest check, after "
        "4,101, and about 90 % at the check after 9,226).")
    assert not INTERNAL.search(decided.headline)
    both = verdict(6000, {"B1": layer(0.95, 0.85)})
    assert both.verdict == NO_BIAS and all(s.verdict == NO_BIAS for s in both.stages.values())
    assert "stay stuck (a 10-point bias would have been caught with 85 % at the check after 4,101 tosses)" in \
        both.headline


def test_a_flag_keeps_priority_and_names_the_question_it_concerns() -> None:
    held_flag = verdict(6000, {"B1": layer(0.999, 0.44, "held pieces")})
    assert held_flag.verdict == BIAS
    assert held_flag.detail.startswith(
        "Release depends on colour: red (stickier in held pieces, B1, at the look after 4101 tosses).")
    assert held_flag.stages["held_pieces"].verdict == BIAS and held_flag.stages["held_pieces"].flagged == ["red"]
    assert held_flag.stages["new_pieces"].verdict == NO_BIAS  # the other question keeps its own answer
    assert "Colour bias detected in how often keshis already inside stay stuck: red." in held_flag.headline
    new_flag = verdict(6000, {"B1": layer(0.999, 0.44, "new pieces")})
    assert new_flag.stages["new_pieces"].verdict == BIAS and new_flag.stages["held_pieces"].verdict == NOT_ENOUGH
    # the change monitor watches both rates together: its alarm concerns both questions
    dented = Layer(power(0.999, 0.44), layer(0.999, 0.44).sequential,
                   [ChangeAlarm("blue", "stickier", 5200, 4900, 12.0)])
    alarm = verdict(6000, {"B1": dented})
    assert alarm.verdict == BIAS and all(s.flagged == ["blue"] for s in alarm.stages.values())
    assert "blue became stickier from about toss 4900 (noticed at toss 5200) on B1" in alarm.detail


def test_two_layers_quote_the_layer_that_answers() -> None:
    decided = verdict(12_000, {"B1": layer(0.5, 0.3), "B2": layer(0.9, 0.3)})
    assert decided.stages["new_pieces"].layer == "B2" and decided.stages["new_pieces"].verdict == NO_BIAS
    assert "stay inside on B2 (a 10-point bias" in decided.headline


def test_report_json_keeps_machine_keys_and_html_and_cli_use_player_words() -> None:
    grids = simulate_sessions(TowerParams(layer="B1"), 1, 600, np.random.default_rng(3))
    report = build_report(toss_data(grids))
    document = json.loads(render(report, "json"))
    assert set(document["stages"]) == {"new_pieces", "held_pieces"}
    assert document["stages"]["held_pieces"]["kinds"] == ["p_held"]
    assert document["headline"] == report.headline and document["verdict"] in (NOT_ENOUGH, NO_BIAS)
    assert set(document["layers"]["B1"]["power"]["stages"]) == {"new_pieces", "held_pieces"}
    html = render(report, "html")
    assert all(stage.sentence in html for stage in report.stages.values())
    assert not INTERNAL.search(re.sub(r"<[^>]*>", " ", html))  # no internal key in the text people read
