"""Solo mode against the automa Yusuf (L1187-1489): each rule with its lines, refusals, random games.

The games use table draws so a test names the Worker Tile and Card Yusuf turns up; what a Card shows
is a printed value (``yusuf.<deck>.<n>.*``) given in the profile.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.sabika import (
    Answer,
    Choose,
    Game,
    IllegalAnswer,
    NotYourTurn,
    Rest,
    SetupError,
    SetupOptions,
    Work,
)
from companion.games.sabika.log import read_log, write_log
from companion.games.sabika.scoring import final, metric
from companion.games.sabika.simulate import random_action, table_setup
from companion.games.sabika.solo import HUMAN, YUSUF
from companion.games.sabika.yusuf import DECK_RING, DECK_SIZE
from tests.games.engine_helpers import rejected
from tests.games.sabika.helpers import BASE_PROFILE, default_answer
from tests.games.sabika.test_properties import check_invariants

TRADE = "solo.trade.7.cities"
FIRST = {"outer": 1, "middle": 1, "inner": 1}


def card(deck: str, n: int, square: int | None = None, actions: str = "none", reward: tuple[str, ...] = ("nothing",),
         discard: str = "no") -> dict[str, Any]:
    """The printed values of one of Yusuf's Cards."""
    key = f"yusuf.{deck}.{n}"
    return {f"{key}.square": square or FIRST[DECK_RING[deck]], f"{key}.actions": actions,
            f"{key}.reward": list(reward), f"{key}.discard": discard}


DULL_CARDS = {k: v for deck in DECK_RING for n in range(1, DECK_SIZE + 1)
              for k, v in card(deck, n, square=n if deck == "builder" else None).items()}
"""Every Card: no action, no reward; Master Builder Card n shows square n (so the two never collide)."""


def advance(game: Game, stop: str = "You decide for Yusuf") -> None:
    """Answer the table's questions and draws (first option) and the human's own choices, stopping at
    Yusuf's Tile/Card draws, a decision whose prompt holds ``stop``, or the human's turn."""
    while game.pending is not None:
        pending = game.pending
        if pending["kind"] == "question":
            game.apply(Answer(pending["key"], default_answer(pending)))
        elif pending["kind"] == "draw" and pending["key"].startswith("draw.yusuf"):
            return
        elif pending["kind"] == "draw":
            game.apply(Answer(pending["key"], pending["options"][0]))
        elif stop in pending["prompt"]:
            return
        else:
            game.apply(Choose(pending["player"], pending["options"][0]))


def solo_game(*, profile: dict[str, Any] | None = None, yusuf_pp: int = 5) -> Game:
    """A solo game (Blue against Yusuf) with table draws, stopped at Yusuf's first Tile draw."""
    draws = {**table_setup(1, 11), "city_tiles": list(range(1, 10)), "trade_card": 7,
             "wish_tiles": ["A1", "B1", "C1"], "minor_display": [1, 2, 3, 4], "poem_display": [1, 2, 3],
             "major_poems": ["A1", "B2", "C3", "D4"]}
    game = Game.new(SetupOptions(players=("Blue",), seed=11, solo=True, table_draws=True, draws=draws,
                                 yusuf_pp=yusuf_pp, profile={**BASE_PROFILE, **DULL_CARDS, TRADE: [3, 1],
                                                             **(profile or {})}))
    advance(game)
    return game


def yusuf_plays(game: Game, tile: str, number: int) -> None:
    """Yusuf turns up ``tile`` and then Card ``number`` of its Deck."""
    deck = {"Master Builder": "builder", "Merchant": "merchant", "Poet": "poet"}[tile]
    if game.pending is not None and game.pending["key"] == "draw.yusuf.tile":
        game.apply(Answer("draw.yusuf.tile", tile))
    game.apply(Answer(f"draw.yusuf.{deck}", number))
    advance(game)


def human_rests(game: Game) -> None:
    """Blue, on turn, rests a standing Worker."""
    assert game.s.turn == HUMAN and game.pending is None, game.pending
    game.apply(Rest(HUMAN, game.players[HUMAN].active_workers()[0]))
    advance(game)


# --- setup (L1192-1231) ----------------------------------------------------------------------------------


def test_setup_yusuf_first_ship_on_nearest_trade_city_and_its_seal() -> None:
    """L1205-1211: the nearest City meeting the Trade Card (City 1, 1 Dinar away; City 3 costs 4), consolidated."""
    g = solo_game()
    yusuf = g.players[YUSUF]
    assert yusuf.ships == {1: "right"} and yusuf.seals == 1 and not g.s.seals[0]
    assert g.s.seals[2]


def test_setup_equally_near_cities_the_human_decides() -> None:
    """L1210-1211: Cities 1 and 7 are both 1 Dinar from Granada: Blue decides; Yusuf may not."""
    g = solo_game(profile={TRADE: [1, 7]})  # Cities 1 and 7 both 1 Dinar away
    assert g.pending is not None and g.pending["player"] == HUMAN
    assert g.pending["options"] == ["City 1", "City 7"]
    rejected(g, Choose(YUSUF, "City 7"), NotYourTurn, "Blue must decide", "not Yusuf")
    g.apply(Choose(HUMAN, "City 7"))
    assert g.players[YUSUF].ships == {7: "right"}


def test_setup_yusuf_starts_without_starting_tile_balance_card_or_dinars() -> None:
    """L1216-1226: Yusuf is Starting Player, takes no Starting Tile, Balance Card or Dinars; Blue takes one."""
    g = solo_game()
    blue, yusuf = g.players
    assert g.s.start_player == YUSUF and g.to_move == "table"
    assert yusuf.start_tiles == [] and yusuf.balance_card == 0 and yusuf.dinars == 0 and yusuf.score == 5
    assert blue.start_tile is not None


def test_major_poem_f1_leaves_the_solo_game() -> None:
    """L1195-1196: seeded solo games never lay out F1; entering it is refused."""
    for seed in range(40):
        setup = Game.new(SetupOptions(players=("Blue",), seed=seed, solo=True)).setup
        assert "F1" not in setup["draws"]["major_poems"]
    with pytest.raises(SetupError, match="L1195-1196.*F1"):
        Game.new(SetupOptions(players=("Blue",), solo=True, draws={"major_poems": ["F1", "A2", "B3", "C4"]}))


def test_harder_game_yusuf_starts_on_10_pp() -> None:
    """L1486-1487: Yusuf's PP Token on 10 instead of 5."""
    g = solo_game(yusuf_pp=10)
    assert g.players[YUSUF].score == 10 and g.players[YUSUF].breakdown["start"] == 10


@pytest.mark.parametrize(("players", "options", "fragment"), [
    (("Blue", "Pink"), {}, "takes 1 player against Yusuf, not 2"),
    (("Yusuf",), {}, "the automa is called Yusuf"),
    (("Blue",), {"yusuf_pp": 7}, "5 or 10 PP, not 7"),
    (("Blue",), {"draws": {"yusuf_decks": {"poet": [1]}}}, "Yusuf's 3 Worker Decks"),
])
def test_solo_setup_refused(players: tuple[str, ...], options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(SetupError, match=fragment):
        Game.new(SetupOptions(players=players, solo=True, **options))


# --- Yusuf's turn: movement (L1253-1282) -----------------------------------------------------------------


def test_closest_master_builder_clockwise_moves_and_lies_down() -> None:
    """L1266-1269: Builders on squares 2 and 6, Card square 7: the one on 6 (1 step) goes."""
    g = solo_game(profile=card("builder", 1, square=7))
    workers = g.players[YUSUF].workers
    workers["builder1"].at, workers["builder2"].at = 2, 6
    yusuf_plays(g, "Master Builder", 1)
    assert (workers["builder2"].at, workers["builder2"].active) == (7, False)
    assert (workers["builder1"].at, workers["builder1"].active) == (2, True)


def test_master_builder_never_joins_its_partner_the_card_is_discarded() -> None:
    """L1271-1273: the lying Builder is on square 3: Card 1 (square 3) is discarded, Card 2 is turned up."""
    g = solo_game(profile={**card("builder", 1, square=3), **card("builder", 2, square=5)})
    workers = g.players[YUSUF].workers
    workers["builder1"].at, workers["builder1"].active, workers["builder2"].at = 3, False, 1
    yusuf_plays(g, "Master Builder", 1)
    assert g.pending is not None and g.pending["key"] == "draw.yusuf.builder" and 1 not in g.pending["options"]
    assert workers["builder2"].at == 1 and workers["builder2"].active
    yusuf_plays(g, "Master Builder", 2)
    assert (workers["builder2"].at, workers["builder2"].active) == (5, False)
    assert g.s.yusuf["discards"]["builder"] == [1, 2]


def test_worker_already_on_the_square_lies_down_and_yusuf_pays_nothing() -> None:
    """L1261-1264: no movement cost, no cost for other Workers; already there: lay it down."""
    g = solo_game(profile=card("merchant", 1, square=2))
    g.players[YUSUF].workers["merchant"].at = 2
    g.players[HUMAN].workers["merchant"].at = 2
    yusuf_plays(g, "Merchant", 1)
    merchant = g.players[YUSUF].workers["merchant"]
    assert (merchant.at, merchant.active, g.players[YUSUF].dinars) == (2, False, 0)
    assert g.s.turn == HUMAN and g.pending is None


def test_card_discards_raw_material_of_the_linked_secondary_square() -> None:
    """L1257-1259: outer square 1 links Raw Material square 1: its token goes to the discard pile."""
    g = solo_game(profile=card("builder", 1, square=1, discard="yes"))
    token = g.s.raw_spots[0]
    assert token is not None
    before = g.s.discard[token]
    yusuf_plays(g, "Master Builder", 1)
    assert g.s.raw_spots[0] is None and g.s.discard[token] == before + 1


# --- actions (L1284-1418) ---------------------------------------------------------------------------------


def types(era: str, **by_tile: str) -> dict[str, str]:
    return {f"major.{era}.{t[1:]}.type": kind for t, kind in by_tile.items()}


def test_major_construction_highest_tile_of_the_desired_type_and_favour() -> None:
    """L1308-1318: Sultan's Wishes A1 (next to score) wants Fountains: Tile 8, the highest Fountain; Favour +1."""
    prof = {**card("builder", 1, actions="major_construction"), "wish.A1.elements": ["fountain"],
            **types("I", t9="palace", t8="fountain", t7="fountain")}
    g = solo_game(profile=prof)
    yusuf_plays(g, "Master Builder", 1)
    yusuf = g.players[YUSUF]
    assert yusuf.major_tiles == ["I-8"] and yusuf.favour == 1 and 8 not in g.s.major_tiles["I"]
    assert yusuf.score == 5  # no Favour or Tile Bonus


def test_major_construction_without_the_desired_type_takes_the_highest() -> None:
    """L1316-1318."""
    prof = {**card("builder", 1, actions="major_construction"), "wish.A1.elements": ["door"],
            **{f"major.I.{t}.type": "palace" for t in range(1, 10)}}
    g = solo_game(profile=prof)
    yusuf_plays(g, "Master Builder", 1)
    assert g.players[YUSUF].major_tiles == ["I-9"]


def test_minor_construction_desired_type_from_the_right() -> None:
    """L1320-1331: Towers wanted; display 1-4, Card 4 a Garden, Card 3 a Tower: Card 3."""
    prof = {**card("builder", 1, actions="minor_construction"), "wish.A1.elements": ["tower"],
            "minor_card.4.type": "garden", "minor_card.3.type": "tower", "minor_card.2.type": "tower"}
    g = solo_game(profile=prof)
    yusuf_plays(g, "Master Builder", 1)
    assert g.players[YUSUF].minor_row == [0, 3] and g.s.minor_display[2] is None
    assert g.players[YUSUF].balances == 0


def test_storehouse_most_store_boxes_beside_the_square() -> None:
    """L1333-1344: outer square 3 is the first Storehouse square: left display; the Tile with more boxes."""
    g = solo_game(profile={**card("builder", 1, square=3, actions="storehouse")})
    left = list(g.s.store_display[0])
    assert None not in left
    boxes = {t: int(g.s.profile[f"storehouse.{t}.boxes"]) for t in left if t is not None}
    best = max(boxes.values())
    expected = next(t for t in left if t is not None and boxes[t] == best)
    yusuf_plays(g, "Master Builder", 1)
    assert [t for tiles in g.players[YUSUF].storehouses for t in tiles] == [expected]
    assert expected not in g.s.store_display[0] and g.players[YUSUF].score == 5


def test_storehouse_other_side_when_none_beside_the_square() -> None:
    """L1346-1348."""
    g = solo_game(profile={**card("builder", 1, square=3, actions="storehouse")})
    g.s.store_display[0] = [None, None]
    right = [t for t in g.s.store_display[1] if t is not None]
    yusuf_plays(g, "Master Builder", 1)
    assert [t for tiles in g.players[YUSUF].storehouses for t in tiles][0] in right


def test_storehouse_none_when_his_four_storehouses_are_full() -> None:
    """L527 (2 Tiles per Storehouse) with docs/sabika.md solo decision 4: nothing is taken."""
    g = solo_game(profile={**card("builder", 1, square=3, actions="storehouse")})
    g.players[YUSUF].storehouses = [[90 + 2 * k, 91 + 2 * k] for k in range(4)]
    display = [list(pair) for pair in g.s.store_display]
    yusuf_plays(g, "Master Builder", 1)
    assert g.s.store_display == display and sum(map(len, g.players[YUSUF].storehouses)) == 8


def test_export_nearest_trade_city_with_a_seal() -> None:
    """L1352-1362: Trade Cities 1 and 3; he is in City 1: City 3 (Seal) gets a Ship on the left."""
    g = solo_game(profile=card("merchant", 1, actions="export"))
    yusuf_plays(g, "Merchant", 1)
    yusuf = g.players[YUSUF]
    assert yusuf.ships == {1: "right", 3: "left"} and yusuf.seals == 2 and not g.s.seals[2]


def test_export_without_trade_cities_left_goes_to_a_sealed_city_the_human_breaks_ties() -> None:
    """L1370-1376: no Trade City left (he is in City 1): a City with a Seal, nearest from Granada or his
    Cities; Cities 7 and 9 have none, Cities 2 and 8 are both 2 Dinars away: Blue decides."""
    g = solo_game(profile={**card("merchant", 1, actions="export"), TRADE: [1]})
    g.s.seals[6] = g.s.seals[8] = False
    yusuf_plays(g, "Merchant", 1)
    assert g.pending is not None and g.pending["options"] == ["City 2", "City 8"]
    rejected(g, Choose(YUSUF, "City 8"), NotYourTurn, "not Yusuf")
    g.apply(Choose(HUMAN, "City 8"))
    assert g.players[YUSUF].ships == {1: "right", 8: "left"} and not g.s.seals[7]


def test_consolidate_human_chooses_among_his_trade_cities() -> None:
    """L1382-1388: Ships left in Trade Cities 3 and 5: Blue decides; no red City Bonus."""
    prof = {**card("merchant", 1, actions="consolidate"), TRADE: [1, 3, 5], "city_tile.3.colour": "red"}
    g = solo_game(profile=prof)
    yusuf = g.players[YUSUF]
    yusuf.ships.update({3: "left", 5: "left"})
    yusuf_plays(g, "Merchant", 1)
    assert g.pending is not None and g.pending["options"] == ["City 3", "City 5"]
    before = (yusuf.score, yusuf.dinars, yusuf.parias)
    g.apply(Choose(HUMAN, "City 3"))
    assert yusuf.ships == {1: "right", 3: "right", 5: "left"} and (yusuf.score, yusuf.dinars, yusuf.parias) == before


def test_human_consolidating_after_yusuf_gives_him_2_pp() -> None:
    """L1392-1394: Blue consolidates City 1, where Yusuf is consolidated: Yusuf 2 PP, no Dinar."""
    g = solo_game()
    yusuf_plays(g, "Poet", 1)
    blue = g.players[HUMAN]
    blue.ships[1] = "left"
    blue.dinars = 5
    g.apply(Work(HUMAN, "merchant", 2))
    advance(g)
    assert blue.ships[1] == "right"
    assert g.players[YUSUF].breakdown.get("consolidation") == 2 and g.players[YUSUF].dinars == 0


@pytest.mark.parametrize(("carved", "majors", "takes"), [(0, [], "minor 3"), (1, [], "major D4"),
                                                          (3, ["A1", "B2"], "minor 3")])
def test_carve_minor_then_major_at_most_two_majors(carved: int, majors: list[str], takes: str) -> None:
    """L1402-1413: 1st Minor (highest, 3), 2nd Major (last alphabetically, D4), ... never a 3rd Major."""
    g = solo_game(profile=card("poet", 1, actions="carve"))
    yusuf = g.players[YUSUF]
    g.s.yusuf["carved"] = carved
    for poem in majors:
        g.s.major_poems[g.s.major_poems.index(poem)] = None
        yusuf.grey_poems.append(poem)
    yusuf_plays(g, "Poet", 1)
    kind, name = takes.split()
    assert (yusuf.red_poems == [3]) if kind == "minor" else (yusuf.grey_poems == [name])
    assert g.s.yusuf["carved"] == carved + 1


def test_carve_takes_a_major_poem_when_no_minor_poem_is_left() -> None:
    """L1402-1413 with docs/sabika.md solo decision 6: the first carving, no Minor Poem displayed."""
    g = solo_game(profile=card("poet", 1, actions="carve"))
    g.s.poem_display = [None, None, None]
    yusuf_plays(g, "Poet", 1)
    assert g.players[YUSUF].grey_poems == ["D4"] and g.players[YUSUF].red_poems == []


def test_card_reward_pp_parias_and_special_scores() -> None:
    """L1431-1454: 2 PP, 1 Paria, and 1 PP per City with his presence (City 1)."""
    g = solo_game(profile=card("poet", 1, reward=("pp:2", "parias:1", "per_presence")))
    yusuf_plays(g, "Poet", 1)
    yusuf = g.players[YUSUF]
    assert yusuf.score == 5 + 2 + 1 and yusuf.parias == 1 and yusuf.breakdown["yusuf_cards"] == 3


# --- End of Round and End of Game (L1456-1489) -----------------------------------------------------------


def play_round(g: Game, tiles: list[str]) -> None:
    """Yusuf turns up ``tiles`` (Card 1.. of each Deck in turn), Blue rests after each."""
    used: dict[str, int] = {}
    for tile in tiles:
        used[tile] = used.get(tile, 0) + 1
        yusuf_plays(g, tile, used[tile])
        human_rests(g)


ROUND = ["Poet", "Master Builder", "Merchant", "Master Builder"]


def test_end_of_round_no_income_tribute_in_pp_and_yusuf_starts_when_leading() -> None:
    """L1458-1468: no Income from a blue consolidated City; 2 Parias due: 1 from the track, 1 PP, no Seal;
    he leads on the Paria Track (both on 0, his token on top, L996-1000), so he starts round 2 unasked."""
    prof = {**card("poet", 1, reward=("parias:1",)), "city_tile.1.colour": "blue",
            "city_tile.1.consolidate": ["dinars:3"]}
    g = solo_game(profile=prof)
    play_round(g, ROUND)
    yusuf = g.players[YUSUF]
    assert g.s.round == 2 and yusuf.dinars == 0 and yusuf.parias == 0 and yusuf.seals == 1
    assert yusuf.breakdown["tribute"] == -1
    assert g.s.start_player == YUSUF and g.s.turn == YUSUF


def test_human_leading_on_paria_track_decides_who_starts() -> None:
    """L1462-1464."""
    g = solo_game()
    g.players[HUMAN].parias = 3
    play_round(g, ROUND[:3])
    yusuf_plays(g, ROUND[3], 2)
    g.apply(Rest(HUMAN, g.players[HUMAN].active_workers()[0]))
    advance(g, stop="who starts next round?")
    assert g.pending is not None and g.pending["player"] == HUMAN and g.pending["options"] == ["Blue", "Yusuf"]
    g.apply(Choose(HUMAN, "Blue"))
    assert g.s.start_player == HUMAN and g.s.round == 2


def test_clarified_counts_minor_poems_blue_or_red_trios_and_balances() -> None:
    """L1470-1475, L1482-1489: 3 Minor + 1 Major Poem: 3 blue, 3 red, 1 trio; each Minor Construction a Balance."""
    g = solo_game()
    s, yusuf = g.s, g.players[YUSUF]
    yusuf.red_poems, yusuf.grey_poems, yusuf.minor_row = [3, 4, 5], ["D4"], [0, 1, 2]
    assert [metric(s, yusuf, m) for m in ("blue_poems", "red_poems", "poems", "poem_trios", "balances")] == \
        [3, 3, 4, 1, 2]
    assert metric(s, g.players[HUMAN], "blue_poems") == 0


def test_final_leftovers_only_seals_for_yusuf() -> None:
    """L1478-1480: Yusuf earns 1 PP per Seal only; Blue scores leftovers as usual."""
    g = solo_game()
    yusuf, blue = g.players[YUSUF], g.players[HUMAN]
    yusuf.seals, yusuf.dinars, yusuf.items["marble"] = 2, 8, 3
    blue.seals, blue.dinars = 0, 8
    final(g.s)
    assert yusuf.breakdown["leftovers"] == 2 and blue.breakdown["leftovers"] == 4


# --- refusals ------------------------------------------------------------------------------------------------


def test_yusuf_plays_by_himself() -> None:
    """L1233-1238: no action may be applied for Yusuf's seat."""
    g = solo_game()
    yusuf_plays(g, "Poet", 1)
    rejected(g, Rest(YUSUF, "merchant"), NotYourTurn, "solo mode (L1233-1238)", "Yusuf is the automa")
    rejected(g, Work(YUSUF, "merchant", 3), NotYourTurn, "Yusuf is the automa")


def test_only_a_standing_workers_tile_and_an_unused_card_can_be_turned_up() -> None:
    """L1233-1251: Tiles of lying Workers and Cards in the Discard Pile are not in the pile."""
    g = solo_game()
    yusuf_plays(g, "Poet", 1)
    human_rests(g)
    rejected(g, Answer("draw.yusuf.tile", "Poet"), IllegalAnswer, "Which Worker Tile did Yusuf turn up")
    g.apply(Answer("draw.yusuf.tile", "Merchant"))
    g.apply(Answer("draw.yusuf.merchant", 1))
    advance(g)
    g.s.yusuf["discards"]["builder"].append(4)
    human_rests(g)  # the Master Builder Tiles are all that is left: turned up at once
    rejected(g, Answer("draw.yusuf.builder", 4), IllegalAnswer, "Which Master Builder Card")


def test_card_square_must_be_on_its_rondel() -> None:
    """L1253-1255: a Poet Card shows a square of the Inner Rondel (6 squares here)."""
    g = solo_game()
    del g.s.profile["yusuf.poet.1.square"]  # the table has not told the engine yet
    g.apply(Answer("draw.yusuf.tile", "Poet"))
    g.apply(Answer("draw.yusuf.poet", 1))
    assert g.pending is not None and g.pending["key"] == "yusuf.poet.1.square"
    rejected(g, Answer("yusuf.poet.1.square", 7), IllegalAnswer, "Inner Rondel")


# --- whole games --------------------------------------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), advanced=st.booleans(), table_draws=st.booleans())
def test_random_solo_games_keep_invariants_and_replay_exactly(seed: int, advanced: bool, table_draws: bool) -> None:
    rng = random.Random(seed)
    setup_seed = rng.randrange(2**32)
    game = Game.new(SetupOptions(players=("Aisha",), seed=setup_seed, solo=True, advanced=advanced,
                                 table_draws=table_draws, draws=table_setup(1, setup_seed) if table_draws else {}))
    for _ in range(20_000):
        if game.finished:
            break
        assert game.to_move in (HUMAN, "table"), game.to_move  # Yusuf never waits for input
        game.apply(random_action(game, rng))
        check_invariants(game)
    assert game.finished and set(game.s.final["scores"]) == {"Aisha", "Yusuf"}
    assert f"solo.trade.{game.s.trade_card}.cities" in game.profile  # asked of the table, not invented
    assert Game.replay(game.setup, game.log).to_dict() == game.to_dict()
    assert read_log(write_log(game), "solo.jsonl").to_dict() == game.to_dict()


def test_undo_takes_back_the_humans_action_and_yusufs_answers_after_it() -> None:
    g = solo_game(profile=card("poet", 1, reward=("pp:3",)))
    yusuf_plays(g, "Poet", 1)
    before, logged = g.to_dict(), len(g.log)
    human_rests(g)
    yusuf_plays(g, "Merchant", 1)  # the Tile and Card answers follow the human's Rest in the log
    assert g.to_dict() != before and len(g.log) == logged + 3
    for _ in range(3):
        g.undo()
    assert g.to_dict() == before and g.players[YUSUF].breakdown["yusuf_cards"] == 3


def test_cli_random_solo_game() -> None:
    from companion.games.sabika import cli_api

    game = cli_api.play_random(1, 3)
    summary = cli_api.result_summary(game)
    assert summary["finished"] and [p["name"] for p in summary["players"]] == ["Aisha", "Yusuf"]
    assert cli_api.read_log(cli_api.write_log(game), "x.jsonl").to_dict() == game.to_dict()
