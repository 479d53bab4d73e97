"""How many setup draws a real table is asked, and when (docs/rules-engine.md, "Creating a game").

A table that entered only the start player and the river tiles (the wizard's "We drew at the table")
plays seeded random games (``RandomPlayer``) of each edition, for 2 and 4 players, without and with
all five expansions. Counted per game: the setup draws asked before the first move, before the first
toss (the displays), and later (each at its first use). Run: ``.venv/bin/python
benchmarks/table_draw_questions.py [games]`` (default 20 games per setting).
"""

from __future__ import annotations

import random
import sys

from companion.games.marrakesh import Game, Select, SetupOptions
from companion.games.marrakesh.catalogue import river_tiles_by_season
from companion.games.marrakesh.simulate import DEFAULT_NAMES, RandomPlayer
from companion.tower.model import SimulatedTower, TowerParams


def questions(players: int, expansions: tuple[int, ...], edition: str, seed: int) -> tuple[int, int, int]:
    """Setup draws asked (before the first move, before the first toss, later) in one random game."""
    rng = random.Random(seed)
    tiles = [rng.choice(river_tiles_by_season()[s]) for s in (1, 2, 3)]
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:players], seed=seed, start_player=0, edition=edition,
                                 expansions=expansions, draws={"river_tiles": tiles}, table_draws=True))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(), rng))
    counts = [0, 0, 0]
    stage = 0  # 0: no move yet, 1: selecting, 2: tossed
    while not game.finished:
        pending = game.pending
        if pending is not None and pending["kind"] == "draw" and (pending.get("kept") or stage < 2):
            counts[stage] += 1
        action = player.action(game)
        if isinstance(action, Select):
            stage = max(stage, 1)
        if game.phase == "toss" and pending is None:
            stage = 2
        game.apply(action)
    return counts[0], counts[1], counts[2]


def main(games: int) -> None:
    print(f"setup draws asked of a table that entered start player and river tiles ({games} games each)")
    print("edition     players expansions  before 1st move  before 1st toss  later (min-max)")
    for edition in ("essential", "classic"):
        for players in (2, 4):
            for expansions in ((), (1, 2, 3, 4, 5)):
                runs = [questions(players, expansions, edition, seed) for seed in range(games)]
                first = max(r[0] for r in runs)
                toss = sorted({r[1] for r in runs})
                later = [r[2] for r in runs]
                print(f"{edition:<11} {players:>7} {'1-5' if expansions else 'none':<11} {first:>15} "
                      f"{'/'.join(map(str, toss)):>16} {min(later):>7}-{max(later)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
