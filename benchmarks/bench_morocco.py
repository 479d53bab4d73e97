"""Morocco engine benchmark: log replay and random complete games per second.

Run: ``make bench-morocco`` or ``.venv/bin/python benchmarks/bench_morocco.py`` (one core; prints
the machine and the figures). Targets (issue 15): replay of a 4-player game <= 20 ms, >= 50 random
complete games/s.
"""

from __future__ import annotations

from functools import partial

from engine_bench import games_per_second, machine, print_replays

from companion.games.morocco import Game
from companion.games.morocco.log import read_log, write_log
from companion.games.morocco.simulate import play_random_game


def _play(players: int, n: int) -> Game:
    """The ``n``-th random complete game with ``players`` seats (seeds from 10 000)."""
    return play_random_game(players, 10_000 + n)


def main() -> None:
    print(machine())
    game = play_random_game(4, 2026)
    text = write_log(game)
    print(f"4-player Morocco log: {len(game.log)} actions, {len(text)} bytes, {game.round} rounds")

    print_replays(lambda: Game.replay(game.setup, game.log), lambda: read_log(text))

    for players in (2, 4):
        rate, cpu_rate = games_per_second(partial(_play, players), 5.0)
        print(f"random complete {players}-player games: {rate:.1f} games/s wall clock, {cpu_rate:.1f} per CPU "
              f"second, one core  (target >= 50; on a shared machine the CPU figure is the engine's)")


if __name__ == "__main__":
    main()
