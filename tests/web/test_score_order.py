"""Issue 25: Marrakesh's score tables list their categories in one order, as a game scores them, ending with
the rulebook's final scoring in its own order (1 completely filled sectors, 2 oases, 3 remaining resources).

The page sorts every score table by the view's ``category_order``; here: that order places every category
random whole games score in (both editions, every expansion), and the final scoring comes last in the
rulebook's order. tests/browser/test_player_words_scan.py reads a finished game's table in this order.
"""

from __future__ import annotations

import pytest

from companion.games.marrakesh.simulate import play_random_game
from companion.table.views import CATEGORY_ORDER

#: The rulebook's "End of the game and final scoring" (EN essential, section 1-3; expansion 5's desert towns
#: are scored like the oases, with them)
FINAL_SCORING = ("filled_sectors", "oases", "desert_towns", "resources")


@pytest.mark.parametrize(("edition", "expansions", "seed"), [
    ("essential", (), 3), ("essential", (1, 2, 3, 4, 5), 4), ("classic", (), 5), ("classic", (1, 2, 3, 4, 5), 6),
])
def test_every_category_a_game_scores_has_its_place_in_the_order(edition: str, expansions: tuple[int, ...],
                                                                  seed: int) -> None:
    game = play_random_game(4, seed, edition=edition, expansions=expansions)
    scored = {key for p in game.players for key in p.breakdown}
    assert scored - set(CATEGORY_ORDER) == set()


def test_the_final_scoring_ends_the_order_as_the_rulebook_counts_it() -> None:
    assert CATEGORY_ORDER[0] == "start"  # the score every player starts with
    assert CATEGORY_ORDER[-len(FINAL_SCORING):] == FINAL_SCORING
    assert len(set(CATEGORY_ORDER)) == len(CATEGORY_ORDER)
