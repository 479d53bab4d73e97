"""Random legal Morocco games, for the simulator, the CLI, the property tests and the benchmark.

Every choice (setup draws, die faces, moves, the simulated table's answers to questions about
printed values) comes from one seeded ``random.Random``, so a seed names a game. The simulated
table answers at random: a stand-in for a real board, not a claim about it. Workers go to a random
affordable stall, favouring fuller ones (as people do), so random games end by closing stalls.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.morocco import board
from companion.games.morocco.actions import Action, Answer, Choose, EndTurn, Pass, Place, Roll, Scout, Swap
from companion.games.morocco.game import LINES, Game
from companion.games.morocco.setup import SetupOptions

DEFAULT_NAMES: tuple[str, ...] = ("Sarah", "Jan", "Marie", "Lukas", "Amal")
SWAP_CHANCE = 0.1
"""How often a random player holding gold spends a coin on a swap when it may."""


class RandomPlayer:
    """Picks a random legal action for whoever must act (a sampler, not a full listing, for placements)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def action(self, game: Game) -> Action:
        """A random legal action for the actor to move."""
        rng, s = self.rng, game.s
        pending = s.pending
        if pending is not None:
            option = rng.choice(pending["options"])
            if pending["kind"] == "question":
                return Answer(pending["key"], option)
            return Choose(pending["player"], option)
        seat = game.to_move
        assert isinstance(seat, int)
        if s.phase == "roll":
            return Roll(seat, rng.choice(board.DIE_FACES))
        if s.phase == "scout":
            return Scout(seat, rng.choice([sp for sp in board.ROOFTOP_OUTER if sp != s.pawn]))
        if s.players[seat].gold and rng.random() < SWAP_CHANCE:
            axis = rng.choice((LINES[:5], LINES[5:]))
            first, second = rng.sample(axis, 2)
            return Swap(seat, (first, second))
        if s.placed:
            return EndTurn(seat)
        return self.placement(game, seat) or Pass(seat)

    def placement(self, game: Game, seat: int) -> Place | None:
        """A random legal placement, or None when the player cannot place (and must pass)."""
        rng, s = self.rng, game.s
        p = s.players[seat]
        stalls = game.affordable_stalls(seat)
        weights = [(game.count(stall) + 1) ** 2 for stall in stalls]
        while stalls:
            i = rng.choices(range(len(stalls)), weights)[0]
            stall = stalls.pop(i)
            weights.pop(i)
            free = game.free_spaces(stall)
            extras = game.extra_colours(seat, stall)
            kinds = [k for k, ok in (("assistant", p.assistants > 0), ("bodyguard", p.bodyguards > 0),
                                     ("tourist", p.tourists > 0 and bool(extras)),
                                     ("cousins", p.cousins > 0 and p.assistants >= 2 and bool(extras))) if ok]
            rng.shuffle(kinds)
            for kind in kinds:
                space = rng.choice(free)
                at = divmod(space, board.SPACES_PER_SIDE)
                if kind in ("assistant", "bodyguard"):
                    return Place(seat, kind, at)
                if kind == "tourist":
                    return Place(seat, kind, at, rng.choice(extras))
                pairs = [(sp, t) for sp in free for t in game.cousin_targets(sp)]
                if pairs:
                    space, target = rng.choice(pairs)
                    return Place(seat, kind, divmod(space, board.SPACES_PER_SIDE), rng.choice(extras),
                                 divmod(target, board.SPACES_PER_SIDE))
        return None


def new_random_game(players: int, seed: int, names: Sequence[str] | None = None) -> tuple[Game, RandomPlayer]:
    """A seeded game and the random player that goes with it (for stepping through a game)."""
    rng = random.Random(seed)
    seats = tuple(names) if names is not None else DEFAULT_NAMES[:players]
    return Game.new(SetupOptions(players=seats, seed=rng.randrange(2**32))), RandomPlayer(rng)


def play_random_game(players: int, seed: int, *, names: Sequence[str] | None = None,
                     max_actions: int = 20_000) -> Game:
    """Play a whole random legal game with ``players`` seats from ``seed``."""
    game, player = new_random_game(players, seed, names)
    for _ in range(max_actions):
        if game.finished:
            return game
        game.apply(player.action(game))
    raise RuntimeError(f"random Morocco game {seed} did not finish within {max_actions} actions")
