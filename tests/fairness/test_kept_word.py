"""Verdicts that keep their word, read after game after game of one log (issue 27).

Each test reads a growing log the way a table does and checks what an earlier read said against a
later one: an alarm stays at its toss, no alarm appears at a toss an earlier read had passed, "no
colour bias detected" is not taken back, and "about N more tosses" only counts down between checks.
"""

from __future__ import annotations

import numpy as np

from companion.fairness.monitor import LayerMonitor, monitor_layer
from companion.fairness.study_tower import StudyGrids, StudyTower, game_index, play


def read(grids: tuple[np.ndarray, ...], tosses: int) -> LayerMonitor:
    """The report's decision after the first ``tosses`` tosses of ``(held, tossed, out)`` grids."""
    held, tossed, out = (a[:tosses] for a in grids)
    return monitor_layer(held, tossed, out, game_index(tosses))


def one_session(grids: StudyGrids) -> tuple[np.ndarray, ...]:
    return grids.held_before[0], grids.pieces_in[0], grids.pieces_out[0]


def test_an_alarm_stays_at_its_toss_and_none_appears_behind_an_earlier_read() -> None:
    """A colour stickier for 30 games, then 300 games of a tower whose pieces mostly fall together:
    today's whole-log rates and over-dispersion moved the alarm's toss (233, then 65) and raised a
    second alarm at toss 402 only at the last read."""
    rng = np.random.default_rng(3)
    sticky = one_session(play(StudyTower(new_shift=-0.25, held_shift=-0.25), 1, 1440, rng, shifted=np.array([2])))
    clumping = one_session(play(StudyTower(cohesion=0.9), 1, 14400, rng))
    grids = tuple(np.concatenate([a, b]) for a, b in zip(sticky, clumping, strict=True))
    reads = {tosses: read(grids, tosses).alarms for tosses in (1440, 15840)}
    assert reads[1440], "the sticky colour raises an alarm within its 30 games"
    for earlier, later in ((1440, 15840),):
        assert [a for a in reads[later] if a.alarm_toss <= earlier] == reads[earlier]


def test_about_n_more_only_counts_down_between_checks() -> None:
    """Read after every game from the first check on: the tosses still needed never grow, unless the
    promised check came and went without the answer (today they jumped by a whole check, 1,822 to
    2,734, at 5 of 16 reads)."""
    grids = one_session(play(StudyTower(p_new=0.78, p_held=0.5), 1, 1008, np.random.default_rng(1)))
    before = None
    for tosses in range(240, 1009, 48):
        stages = read(grids, tosses).tests.power.stages
        if before is not None:
            for name, stage in stages.items():
                earlier = before[name]
                if earlier.tosses_needed is None or stage.tosses_needed is None:
                    continue
                passed = earlier.promised_tosses is not None and earlier.promised_tosses <= tosses
                assert passed or stage.tosses_needed <= earlier.tosses_needed, (tosses, name)
        before = stages


def test_no_colour_bias_detected_is_not_taken_back() -> None:
    """Read after every game around the first question's answer on a tower that releases less
    (p_new 0.72): once its power reached the target, the answer stays (today it went back to "not
    enough data yet" at toss 1,920 and again at 2,208)."""
    grids = one_session(play(StudyTower(p_new=0.72, p_held=0.5), 1, 2208, np.random.default_rng(3)))
    said = [read(grids, tosses).tests.power.stages["new_pieces"].enough for tosses in range(1824, 2209, 48)]
    assert any(said), "the first question is answered within these games"
    first = said.index(True)
    assert all(said[first:])


def test_each_check_is_judged_once_across_reads(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Read after every game, a log still waiting for its answers judges only the checks it has not
    judged before (before the memo every read judged every earlier check again), and says the same."""
    from companion.fairness import kept_word

    grids = one_session(play(StudyTower(p_new=0.78, p_held=0.5), 1, 960, np.random.default_rng(1)))
    judged: list[int] = []
    real = kept_word.sequential_power

    def counting(prepared, *args):  # type: ignore[no-untyped-def]
        judged.append(prepared.tosses)
        return real(prepared, *args)

    monkeypatch.setattr(kept_word, "MEMO", kept_word.CheckMemo())
    monkeypatch.setattr(kept_word, "sequential_power", counting)
    said = [read(grids, tosses).tests.power.stages for tosses in range(480, 961, 96)]
    assert sorted(judged) == sorted(set(judged)), "no check judged twice"
    monkeypatch.setattr(kept_word, "MEMO", kept_word.CheckMemo())
    assert said[-1] == read(grids, 960).tests.power.stages, "a fresh memo says the same"
