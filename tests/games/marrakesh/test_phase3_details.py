"""Phase-3 details beyond the worked examples: scroll refresh, display refills, storage icons,
season preparation."""

from __future__ import annotations

import pytest

from companion.games.marrakesh import Choose, IllegalChoice, UseAssistant
from tests.games.marrakesh.helpers import JAN, SARAH, choose, finish_turn, new_game, run_effects, to_assistants, use


def test_scroll_refresh_costs_a_dinar_and_forces_a_purchase() -> None:
    """1 dinar before the first purchase of the round: the 3 face-up scrolls of one colour go under
    the stack, 3 new ones are revealed, and one of them must be bought (EN:L1075-1077)."""
    g = new_game(scroll_display={"gray": [1, 2, 3]})
    to_assistants(g, {SARAH: ("gray", "green", "white")})
    sarah = g.players[SARAH]
    sarah.markers["gray"], sarah.resources["dates"] = 3, 2
    old, stack_top = list(g.s.scroll_display["gray"]), g.s.scroll_stacks["gray"][:3]
    g.apply(UseAssistant(SARAH, "madrasa", "action"))
    assert "refresh:gray" in g.pending["options"]  # type: ignore[index]
    choose(g, "refresh:gray")
    assert sarah.resources["dinars"] == 0
    assert g.s.scroll_display["gray"] == stack_top and g.s.scroll_stacks["gray"][-3:] == old
    options = g.pending["options"]  # type: ignore[index]
    assert "done" not in options and all(o.startswith("scroll:") for o in options)
    assert {int(o.split(":")[1]) for o in options} <= set(stack_top)
    with pytest.raises(IllegalChoice, match="Sarah chose 'scroll:1'"):
        g.apply(Choose(SARAH, "scroll:1"))


def test_displays_are_refilled_at_the_end_of_the_turn() -> None:
    g = new_game(luxury_display=[1, 2, 3, 4, 5], profile={"luxury.1.cost": {"orange": 1},
                 "luxury.1.reward": {"points": 2}, "luxury.1.type": "slipper",
                 **{f"luxury.{n}.cost": {"yellow": 3} for n in (2, 3, 4, 5)}})
    to_assistants(g, {SARAH: ("orange", "green", "white")})
    g.players[SARAH].goods["orange"] = 1
    next_tile = g.s.luxury_stack[0]
    use(g, SARAH, "souk", "action", "luxury:1")
    assert len(g.s.luxury_display) == 4
    finish_turn(g, SARAH)
    assert g.to_move == JAN and g.s.luxury_display == [2, 3, 4, 5, next_tile]


def test_storage_scroll_icon_gives_a_free_yellow_scroll() -> None:
    """Storage scroll icon (EN:L1224-1229): 1 yellow scroll, no requirement, no dates."""
    g = new_game(profile={"storage.1": "scroll"}, scroll_display={"yellow": [22, 30, 31]})
    to_assistants(g, {SARAH: ("brown", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.discovered[0] = True
    sarah.resources["dates"] = 0
    use(g, SARAH, "sahara", "action", 0, 31)
    assert sarah.scrolls == [31] and 31 not in g.s.scroll_display["yellow"]


def test_storage_exchange_icon_swaps_a_keshi() -> None:
    """Storage exchange icon (EN:L1219-1223): return a keshi (or a marker step), take another colour."""
    g = new_game(profile={"storage.1": "exchange"})
    to_assistants(g, {SARAH: ("brown", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.discovered[0] = True
    sarah.markers["gray"] = 2
    g.apply(UseAssistant(SARAH, "sahara", "action"))
    choose(g, 0)
    options = g.pending["options"]  # type: ignore[index]
    assert "marker:gray" in options and not any(o.startswith(("brown", "yellow")) for o in options)
    choose(g, "marker:gray", "white")
    assert sarah.markers["gray"] == 1 and sarah.markers["white"] == 1


def test_season_preparation() -> None:
    """After season scoring (EN:L1297-1315): next exchange office, next river tile, 12 wooden keshis
    each, a newly revealed provision tile, the season tracker and the camel pass left."""
    g = new_game(exchange_offices=[4, 5, 6], provisions=[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]],
                 first_provisions=[1, 4, 7, 10])
    for tile in range(1, 13):
        g.s.profile[f"provision.{tile}.demand"] = {"water": 1}
        g.s.profile[f"provision.{tile}.points"] = 2
    for p in g.players:
        p.screen = dict.fromkeys(p.screen, 0)
    for colour in g.s.supply:
        g.s.supply[colour] += 4
    g.s.round, g.s.phase = 4, "round_end"
    run_effects(g)
    assert g.phase == "season_end" and g.pending is not None  # provision tile to reveal
    for seat in (SARAH, 1, 2, 3):
        hidden = [t for t in g.players[seat].provisions if t not in g.players[seat].revealed_provisions]
        g.apply(Choose(seat, hidden[0]))
    assert g.season == 2 and g.phase == "select"
    assert g.s.exchange_offices == [5, 6]
    assert all(sum(p.screen.values()) == 12 for p in g.players)
    assert all(len(p.revealed_provisions) == 2 for p in g.players)
    assert g.season_player == 1 and g.start_player == 1
    assert all(p.resources["water"] == 0 for p in g.players)  # provisions paid (1 water each)


def test_scroll_45_oasis_for_one_resource_of_choice() -> None:
    """Scroll 45: each oasis costs 1 resource of choice; with 1 resource only 1 oasis can be claimed."""
    g = new_game(profile={"storage.1": "none", "storage.2": "none"})
    to_assistants(g, {SARAH: ("brown", "gray", "white")})
    sarah = g.players[SARAH]
    sarah.scrolls, sarah.discovered = [45], [True, True, False, False, False, False]
    sarah.resources = {"water": 0, "dates": 0, "dinars": 1}
    use(g, SARAH, "sahara", "action", 1)
    assert sarah.claimed_oases == [sarah.oases[1]] and sarah.resources["dinars"] == 0
    assert g.pending is None
