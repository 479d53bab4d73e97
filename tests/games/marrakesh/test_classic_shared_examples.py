"""Worked examples the Classic rulebook and addendum tell exactly as the Essential ones, run as Classic.

These examples (CLA:L461-791 in the rulebook, CLA:L1186-1646 in the addendum) have the same story and
numbers in both editions, so their Essential tests (``test_worked_examples``, ``test_tiles_scrolls``,
``test_desert_towns``) run again here with every game they set up built as a Classic game
(``SetupOptions`` made to say ``edition="classic"``). Examples that differ in Classic (claim & deploy,
keshi counts, the final 20 + 25 + 3, desert town 06 ...) are written out in ``test_classic_examples``;
the oasis examples are below because the Classic ones count keshis (CLA:L1487-1554).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from companion.games.marrakesh import Game, SetupOptions
from companion.games.marrakesh.classic import ClassicGame
from companion.games.marrakesh.scoring import oasis_value
from tests.games.marrakesh import helpers, test_desert_towns, test_tiles_scrolls, test_worked_examples
from tests.games.marrakesh.helpers import JAN, LUKAS, MARIE, SARAH, choose, run_effects
from tests.games.marrakesh.test_classic_examples import STAIRS, classic, deploy

#: Staircase values the Essential text proves ("max. 16", desert town 05) but the Classic text does not:
#: a Classic table answers them once (the Essential tests rely on them being shipped).
TABLE_STAIRS: dict[str, Any] = {"palace.final_step": 16, "mosque.final_step": 16, "palace.segment4_start": 11}

#: (module, test, the same example in the Classic addendum).
SHARED_EXAMPLES: list[tuple[ModuleType, str, str]] = [
    (test_worked_examples, "test_main_square_three_spectators_marie", "CLA:L486 main square"),
    (test_worked_examples, "test_madrasa_lukas_buys_1_plus_5", "CLA:L596 madrasa"),
    (test_worked_examples, "test_sahara_two_caravans_discover_two_oases", "CLA:L665 Sahara discovery"),
    (test_worked_examples, "test_start_oasis_marie", "CLA:L687 start oasis"),
    (test_worked_examples, "test_water_vendor_jan_palace", "CLA:L727 water vendor"),
    (test_worked_examples, "test_river_bonus_marie_middle_rapid", "CLA:L753 river bonus"),
    (test_worked_examples, "test_river_evaluation_season_3", "CLA:L775 river evaluation"),
    (test_worked_examples, "test_provisions_lukas_loses_8", "CLA:L791 provisions"),
    (test_tiles_scrolls, "test_scroll_29_example_lucas_4_points", "CLA:L1186-1188 scroll 29"),
    (test_worked_examples, "test_scroll_31_section_counts_one_more", "CLA:L1229 scroll 31"),
    (test_tiles_scrolls, "test_scroll_33_example_marie_pays_2_dates_and_1_dinar", "CLA:L1223 scroll 33"),
    (test_tiles_scrolls, "test_scroll_44_example_sarah_pays_1_dinar_and_2_dates", "CLA:L1271 scroll 44"),
    (test_tiles_scrolls, "test_scroll_47_example_jan_3_goods_and_3_mosque_steps", "CLA:L1275 scroll 47"),
    (test_worked_examples, "test_scroll_48_one_more_staircase_step", "CLA:L1283 scroll 48"),
    (test_tiles_scrolls, "test_scroll_51_example_sarah_water_date_palace", "CLA:L1305-1307 scroll 51"),
    (test_tiles_scrolls, "test_scroll_54_example_marie_2_points_water_and_dinar", "CLA:L1329 scroll 54"),
    (test_tiles_scrolls, "test_scroll_59_example_lucas_all_line_bonuses", "CLA:L1351-1353 scroll 59"),
    (test_worked_examples, "test_scroll_61_jan_green_and_pink", "CLA:L1385 scroll 61"),
    (test_tiles_scrolls, "test_scroll_65_example_marie_2_points_three_times_then_3_water", "CLA:L1393-1400 scroll 65"),
    (test_tiles_scrolls, "test_scroll_70_example_jan", "CLA:L1411-1420 scroll 70"),
    (test_desert_towns, "test_town_05_example_lucas_11_points", "CLA:L1591-1593 desert town 05"),
    (test_desert_towns, "test_town_09_example_marie_6_points", "CLA:L1619-1621 desert town 09"),
    (test_desert_towns, "test_town_10_example_lucas_takes_an_orange_scroll_free", "CLA:L1633-1635 desert town 10"),
    (test_desert_towns, "test_town_11_example_sarah_necklace_13_points", "CLA:L1641-1642 desert town 11"),
    (test_desert_towns, "test_town_12_example_jan_white_gate_right_workshop_7_plus_2", "CLA:L1646 desert town 12"),
]


@pytest.mark.parametrize(("module", "name", "source"), SHARED_EXAMPLES, ids=[s for _, _, s in SHARED_EXAMPLES])
def test_addendum_example_in_classic(module: ModuleType, name: str, source: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Game] = []
    real_new: Callable[..., Game] = Game.new.__func__  # type: ignore[attr-defined]

    def new(cls: type[Game], options: SetupOptions) -> Game:
        game = real_new(cls, options)
        built.append(game)
        return game

    def classic_options(*args: Any, **kwargs: Any) -> SetupOptions:
        kwargs["profile"] = {**TABLE_STAIRS, **kwargs.get("profile", {})}
        kwargs["edition"] = "classic"
        return SetupOptions(*args, **kwargs)

    monkeypatch.setattr(helpers, "SetupOptions", classic_options)
    monkeypatch.setattr(test_desert_towns, "SetupOptions", classic_options)
    monkeypatch.setattr(Game, "new", classmethod(new))
    getattr(module, name)()
    assert built and all(type(g) is ClassicGame for g in built), source


def test_oasis_examples_count_keshis() -> None:
    """Oasis examples (CLA:L1487-1554): 01-04 gates 12; 05-13 Sarah's 4 water vendors 3 + 4; 14-18 three
    slippers 6; 19-21 five dates returned 3 + 5; 24 four sectors with at most 3 keshis 16; 29 five
    thresholds 7."""
    g = classic(profile={"oasis.1.colours": ["black", "turquoise", "green"], "oasis.1.points": 2,
                         "oasis.6.colour": "red", "oasis.14.luxury": "slipper", "oasis.14.points": 2,
                         "oasis.19.resource": "dates", **STAIRS,
                         **{f"luxury.{t}.type": "slipper" for t in (1, 2, 3)}})
    jan, sarah, lukas, marie = (g.players[i] for i in (JAN, SARAH, LUKAS, MARIE))
    jan.gates = [{"space": 1, "colour": "black"}] + [{"space": k, "colour": "turquoise"} for k in (2, 3, 4)] + \
        [{"space": k, "colour": "green"} for k in (5, 6)]
    assert oasis_value(g, JAN, 1) == 12
    sarah.water_vendors = ["river", "palace", "mosque", "sahara"]
    assert oasis_value(g, SARAH, 6) == 7
    lukas.luxury_goods = [1, 2, 3]
    assert oasis_value(g, LUKAS, 14) == 6
    marie.resources["dates"] = 5
    marie.claimed_oases = [19]
    run_effects(g, {"k": "oasis_return", "p": MARIE, "n": 19})
    choose(g, 5)
    assert oasis_value(g, MARIE, 19) == 8
    deploy(g, JAN, turquoise=3, green=5, gray=8, white=6, black=2)
    jan.entertainers, jan.watchtower = ["water", "date"], 0
    jan.sahara = {"left": 1, "right": 1, "start": 0}
    # at most 3 keshis: river 3, mosque 2, main square 2, Sahara 2 (medina: 6 guards at his 6 gates)
    assert oasis_value(g, JAN, 24) == 16
    sarah.palace, sarah.mosque, sarah.thresholds = 16, 2, 5
    assert oasis_value(g, SARAH, 29) == 7
