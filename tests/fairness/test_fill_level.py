"""Fill level in the model (issue 27): the tower's load effect is estimated, the colour tests allow
for it, and a tower the model does not describe is said to be one."""

from __future__ import annotations

import numpy as np

from companion import COLOURS
from companion.fairness import sequential
from companion.fairness.fill_level import FillEffect, fill_effect, fill_log
from companion.fairness.score_sums import GameSums
from companion.fairness.study_tower import StudyTower, game_index, play


def audit(load_logit: float = 0.0, shift: float = 0.0) -> StudyTower:
    """The audit's game-shaped tower: p_new 0.78, p_held 0.50, tables that favour some colours
    (Dirichlet(5) weights), a logit shift per piece held; ``shift``: one colour's rates moved."""
    return StudyTower(p_new=0.78, p_held=0.50, preferences=5.0, load_logit=load_logit, new_shift=shift,
                      held_shift=shift)


def grids_of(tower: StudyTower, tosses: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    grids = play(tower, 1, tosses, np.random.default_rng(seed))
    held, tossed, out = grids.counts(0)
    return held, tossed, out


def effect(tower: StudyTower, tosses: int, seed: int) -> FillEffect:
    looks = sequential.look_points(tosses)
    return fill_effect(fill_log(*grids_of(tower, tosses, seed), game_index(tosses), looks), looks)


def test_the_load_effect_is_recovered_with_an_interval_around_it() -> None:
    """30 games of a tower that grips 0.08 harder (logit) per piece held: the interval holds -0.08
    and not 0; on a tower without the effect it holds 0."""
    loaded = effect(audit(-0.08), 1440, seed=2)
    assert loaded.beta is not None and loaded.interval is not None
    assert loaded.interval[0] < -0.08 < loaded.interval[1] < 0
    assert abs(loaded.beta + 0.08) < 0.01
    assert loaded.p_new_empty is not None and abs(loaded.p_new_empty - 0.78) < 0.03
    flat = effect(audit(), 1440, seed=2)
    assert flat.interval is not None and flat.interval[0] < 0 < flat.interval[1]


def test_a_fuller_tower_with_favoured_colours_is_not_called_colour_biased() -> None:
    """Fair colours, a tower that grips 0.15 harder per piece held and tables that throw their
    favourite colours early in a season: against constant rates every colour stands out at the
    check after 1,215 tosses (the audit: all 12 within three games); against the fill-level curve
    none does."""
    tosses = 1215
    held, tossed, out = grids_of(audit(-0.15), tosses, seed=1)
    game = game_index(tosses)
    prepared = sequential.prepare(held, tossed, out, game)
    last = len(sequential.look_points(tosses)) - 1
    constant = sequential.evaluate_look(GameSums.of(prepared, last), tosses, sequential.look_alpha(last, 12))
    assert sum(score.flagged for score in constant.colours.values()) >= 6, "the setting confounds colour"
    assert sequential.sequential_tests(held, tossed, out, game).flagged_at == {}


def test_a_shifted_colour_is_still_caught_in_a_fuller_tower() -> None:
    """The same tower with one colour 25 points stickier in both rates: the fill-level tests flag it,
    and only it."""
    tosses = 1215
    grids = play(audit(-0.08, -0.25), 1, tosses,
                 np.random.default_rng(4), np.array([0]))
    held, tossed, out = grids.counts(0)
    flagged = sequential.sequential_tests(held, tossed, out, game_index(tosses)).flagged_at
    assert list(flagged) == [COLOURS[0]]


def test_the_fit_check_fires_on_a_tower_the_model_does_not_describe() -> None:
    """New pieces that stick 3 points more per piece held (on the rate scale, held pieces not at
    all) are not one logistic curve in the fill level: the check says so by the check after 1,215
    tosses; on a logistic tower it stays quiet."""
    misfit = effect(StudyTower(p_new=0.78, p_held=0.5, load_effect=0.03), 1440, seed=7)
    assert misfit.misfit_at is not None and misfit.misfit_at <= 1215
    assert effect(audit(-0.08), 1440, seed=7).misfit_at is None


def test_the_load_effect_is_said_as_a_property_of_the_tower_in_english_and_german() -> None:
    """0.08 per piece held from 78 % empty: 61 % with 10 keshis inside (expit(logit 0.78 - 0.8))."""
    from companion.fairness.verdict import fill_sentences

    gripping = FillEffect(-0.08, (-0.09, -0.07), 0.78, 0.5, None, 0.5)
    (sentence,) = fill_sentences("B1", gripping)
    assert "holds on harder" in sentence.render("en") and "about 61 % with 10 keshis" in sentence.render("en")
    assert "hält umso fester" in sentence.render("de") and "etwa 61 %" in sentence.render("de")
    misfit = FillEffect(-0.08, (-0.09, -0.07), 0.78, 0.5, 1215, 1e-6)
    assert "does not follow a steady pattern" in fill_sentences("B1", misfit)[-1].render("en")
    assert "keinem gleichmäßigen Muster" in fill_sentences("B1", misfit)[-1].render("de")
