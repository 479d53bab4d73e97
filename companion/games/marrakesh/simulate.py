"""A random legal game, for the simulator, the CLI and the property tests.

Every choice (setup draws, the players' choices, the simulated table's answers to questions about
printed values, and the tower) comes from one seeded ``random.Random``, so a seed names a game.
The simulated table's answers are random legal options: they stand in for a real board, they are
not claims about it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from companion import COLOURS
from companion.games.marrakesh.actions import Action, Answer, Choose, Release, Select
from companion.games.marrakesh.board import ASSISTANT_SPACES, COLOUR_SECTOR, SECTORS
from companion.games.marrakesh.game import Game
from companion.games.marrakesh.setup import SetupOptions
from companion.tower.model import SimulatedTower, TowerParams

DEFAULT_NAMES: tuple[str, ...] = ("Sarah", "Jan", "Marie", "Lukas")


class RandomPlayer:
    """Picks a uniformly random legal action (with a fast sampler for phase-1 selections)."""

    def __init__(self, rng: random.Random, tower: SimulatedTower) -> None:
        self.rng = rng
        self.tower = tower

    def action(self, game: Game) -> Action:
        """A random legal action for whoever must act now."""
        pending = game.pending
        if pending is not None and pending["kind"] in ("question", "draw"):
            options = pending["options"]
            if pending["multi"]:
                return Answer(pending["key"], self.rng.sample(options, self.rng.randint(1, min(4, len(options)))))
            return Answer(pending["key"], self.rng.choice(options))
        if pending is not None:
            return Choose(pending["player"], self.rng.choice(pending["options"]))
        if game.phase == "toss":
            pieces = Counter(c for p in game.players for c in p.selected)
            return Release(self.tower.toss(pieces).released)
        if game.phase == "select":
            seat = game.to_move
            assert isinstance(seat, int)
            return self._selection(game, seat)
        return self.rng.choice(list(game.legal_actions()))

    def _selection(self, game: Game, seat: int) -> Select:
        screen = game.players[seat].screen
        available = [c for c in COLOURS for _ in range(screen[c])]
        size = min(3, len(available))
        while True:
            colours = tuple(sorted(self.rng.sample(available, size), key=COLOURS.index))
            fixed = [COLOUR_SECTOR[c] for c in colours if c != "red"]
            wild: list[str] = []
            for _ in range(colours.count("red")):
                targets = fixed + wild
                free = [s for s in SECTORS if targets.count(s) < ASSISTANT_SPACES[s]]
                wild.append(self.rng.choice(free))
            if all(fixed.count(s) <= ASSISTANT_SPACES[s] for s in set(fixed)):
                return Select(seat, colours, tuple(wild))


def play_random_game(players: int, seed: int, *, names: Sequence[str] | None = None,
                     layer: str = "B1", max_actions: int = 100_000, edition: str = "essential",
                     expansions: Sequence[int] = ()) -> Game:
    """Play a whole random legal game of ``edition`` (with ``expansions``) with ``players`` seats from ``seed``."""
    rng = random.Random(seed)
    seats = tuple(names) if names is not None else DEFAULT_NAMES[:players]
    game = Game.new(SetupOptions(players=seats, seed=rng.randrange(2**32), tower_layer=layer, edition=edition,
                                 expansions=tuple(expansions)))
    player = RandomPlayer(rng, SimulatedTower(TowerParams(layer=layer), rng))
    for _ in range(max_actions):
        if game.finished:
            return game
        game.apply(player.action(game))
    raise RuntimeError(f"random game {seed} did not finish within {max_actions} actions")
