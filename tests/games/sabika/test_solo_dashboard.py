"""The solo mode at the dashboard: one player against Yusuf through the adapter (``companion.table.kinds.sabika``).

A whole solo game is played the way a phone plays it, tapping a seeded random option of ``choices`` each
time: Yusuf sits at seat 1 and never has to act (the engine plays him), every button and answer is worded
in player words (his Cards' printed values too: no ``per_major`` or ``export+consolidate`` on a button),
his Cards' points show as their own score category, his Cards' printed values are kept for the table's
next game, and the board view and the scores agree with the engine at the end.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.games.sabika import Answer
from companion.games.sabika.errors import SetupError
from companion.games.sabika.simulate import random_profile
from companion.table.kinds import sabika as kind
from tests.games.sabika.helpers import BASE_PROFILE

INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+\+[a-z]+\b|\b(?:pp|parias|dinars):\d")
"""An engine key on a button (``per_major``, ``export+consolidate``, ``pp:3``)."""


def test_a_whole_solo_game_at_the_dashboard() -> None:
    game = kind.new_game(["Ana"], 11, {"profile": random_profile(2, 11, BASE_PROFILE), "yusuf_pp": 10})
    assert [p.name for p in game.players] == ["Ana", "Yusuf"] and game.players[1].score == 10
    rng = random.Random(11)
    asked: set[str] = set()
    for _ in range(3000):
        if game.finished:
            break
        shown = kind.choices(game)
        assert shown["actor"] in (0, "table"), shown["prompt"]  # Yusuf plays by himself
        for option in shown["options"]:
            assert not INTERNAL.search(option["label"]), option["label"]
        action = kind.parse_action(rng.choice(shown["options"])["action"])
        if isinstance(action, Answer):
            asked.add(action.key)
        line = kind.describe(game, kind.to_json(action))
        assert line and not INTERNAL.search(line), line
        game.apply(action)
    assert game.finished
    assert any(key.startswith("yusuf.") for key in asked)  # his Cards' printed values were asked ...
    assert all(key in kind.PROFILE for key in asked if not key.startswith("draw."))  # ... and are kept
    view = kind.board_view(game)
    assert [p["name"] for p in view["players"]] == ["Ana", "Yusuf"]
    assert view["scores"] == kind.scores(game) == [p.score for p in game.players]
    assert kind.winners(game) == game.winners()
    yusuf = {b["label"]: b["points"] for b in view["players"][1]["breakdown"]}
    assert "Yusuf's Cards" in yusuf and "yusuf_cards" not in yusuf


def test_yusufs_start_is_for_the_solo_mode_only() -> None:
    with pytest.raises(SetupError, match="for the solo mode"):
        kind.new_game(["Ana", "Ben"], 1, {"yusuf_pp": 10})
    with pytest.raises(SetupError, match="5 or 10 PP"):
        kind.new_game(["Ana"], 1, {"yusuf_pp": 7})
    assert kind.new_game(["Ana", "Ben"], 1, {"yusuf_pp": 5}).players[1].name == "Ben"  # the wizard's default
