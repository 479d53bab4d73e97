"""Every oasis 01-30 (addendum EN:L2396-2493, digest §14.2): what each scores for its owner.

The addendum's oasis examples (01-04 Jan 12, 05-13 Sarah 3+4, 14-18 Lucas 6, 19-21 Marie 3+5, 24 Jan 16,
29 Sarah 7) are reproduced in ``test_worked_examples.test_oasis_tile_examples``; this file covers each
number (or group of identical oases) and the best-3 rule.
"""

from __future__ import annotations

import pytest

from companion.games.marrakesh.scoring import final_effects, oasis_value
from tests.games.marrakesh.helpers import SARAH, choose, new_game, run_effects


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_oases_01_04_points_per_gate_of_the_shown_colours(number: int) -> None:
    g = new_game(profile={f"oasis.{number}.colours": ["green", "red"], f"oasis.{number}.points": 3})
    sarah = g.players[SARAH]
    sarah.gates = [{"space": 1, "colour": "green"}, {"space": 2, "colour": "red"}, {"space": 3, "colour": "pink"}]
    assert oasis_value(g, SARAH, number) == 3 * 2


@pytest.mark.parametrize(("number", "colour", "set_up", "value"), [
    (5, "white", lambda p: p.markers.update(white=4), 7),
    (6, "red", lambda p: setattr(p, "water_vendors", ["river", "palace"]), 5),
    (8, "pink", lambda p: setattr(p, "entertainers", ["water", "date", "dinar"]), 6),
    (9, "beige", lambda p: setattr(p, "watchtower", 2), 5),
    (10, "brown", lambda p: p.sahara.update(left=2, start=1), 6),
    (11, "gray", lambda p: None, 3),
])
def test_oases_05_13_three_plus_keshis_or_marker(number: int, colour: str, set_up, value: int) -> None:  # type: ignore[no-untyped-def]
    g = new_game(profile={f"oasis.{number}.colour": colour})
    set_up(g.players[SARAH])
    assert oasis_value(g, SARAH, number) == value


@pytest.mark.parametrize("number", [14, 15, 16, 17, 18])
def test_oases_14_18_points_per_luxury_good_of_the_type(number: int) -> None:
    g = new_game(profile={f"oasis.{number}.luxury": "dagger", f"oasis.{number}.points": 3,
                          "luxury.1.type": "dagger", "luxury.2.type": "dagger", "luxury.3.type": "slipper"})
    g.players[SARAH].luxury_goods = [1, 2, 3]
    assert oasis_value(g, SARAH, number) == 6


@pytest.mark.parametrize(("number", "kind"), [(19, "water"), (20, "dinars"), (21, "dates")])
def test_oases_19_21_three_plus_returned_resources(number: int, kind: str) -> None:
    g = new_game(profile={f"oasis.{number}.resource": kind})
    sarah = g.players[SARAH]
    sarah.resources[kind], sarah.claimed_oases = 14, [number]
    run_effects(g, {"k": "oasis_return", "p": SARAH, "n": number})
    assert g.pending is not None and max(g.pending["options"]) == 12  # at most 12
    choose(g, 12)
    assert oasis_value(g, SARAH, number) == 15 and sarah.resources[kind] == 2


def test_oases_22_23_luxury_goods_and_scrolls() -> None:
    g = new_game()
    sarah = g.players[SARAH]
    assert oasis_value(g, SARAH, 22) == 3 and oasis_value(g, SARAH, 23) == 3
    sarah.luxury_goods, sarah.scrolls = [1, 2], [19, 20, 21]
    assert oasis_value(g, SARAH, 22) == 5 and oasis_value(g, SARAH, 23) == 6


def test_oases_24_25_low_and_filled_sectors() -> None:
    g = new_game()
    sarah = g.players[SARAH]
    sarah.markers.update(turquoise=8, green=8, gray=4, white=4, black=4)
    sarah.water_vendors = ["river"]
    sarah.entertainers = ["water", "date", "dinar", "2_points"]
    sarah.watchtower, sarah.sahara = 4, {"left": 3, "right": 1, "start": 0}
    assert oasis_value(g, SARAH, 24) == 0  # no sector with <= 3
    sarah.markers["gray"] = 3
    assert oasis_value(g, SARAH, 24) == 4
    assert oasis_value(g, SARAH, 25) == 4  # the river: 8 + vendor; the date orchard lacks its vendor


def test_oasis_26_every_claimed_oasis() -> None:
    g = new_game()
    g.players[SARAH].claimed_oases = [26, 1, 2, 3, 4]
    assert oasis_value(g, SARAH, 26) == 15


@pytest.mark.parametrize(("number", "which"), [(27, "mosque"), (28, "palace")])
def test_oases_27_28_final_space_of_the_mosque_and_palace(number: int, which: str) -> None:
    """Digest A13: English text, 27 = mosque, 28 = palace."""
    g = new_game()
    sarah = g.players[SARAH]
    assert oasis_value(g, SARAH, number) == 0
    setattr(sarah, which, 16)
    assert oasis_value(g, SARAH, number) == 7


def test_oasis_29_five_thresholds() -> None:
    g = new_game()
    g.players[SARAH].thresholds = 4
    assert oasis_value(g, SARAH, 29) == 0
    g.players[SARAH].thresholds = 5
    assert oasis_value(g, SARAH, 29) == 7


def test_oasis_30_fisherman_at_the_jetty_at_the_end() -> None:
    g = new_game()
    assert oasis_value(g, SARAH, 30) == 0
    g.players[SARAH].jetty_spot = 3
    assert oasis_value(g, SARAH, 30) == 7


def test_only_the_best_three_oases_score() -> None:
    g = new_game()
    sarah = g.players[SARAH]
    sarah.claimed_oases = [22, 23, 26, 29]  # 3, 3, 12, 0
    sarah.resources = {"water": 0, "dates": 0, "dinars": 0}
    run_effects(g, *[e for e in final_effects(g) if e["p"] == SARAH])
    assert sarah.breakdown["oases"] == 12 + 3 + 3
