"""Sabika rules-engine benchmark: log replay and random complete games per second.

Run: ``make bench-sabika`` (or ``.venv/bin/python benchmarks/bench_sabika.py``); one core. Targets
(issue 15): replay of a 4-player game <= 20 ms, >= 50 random complete games/s. A random game's log
also holds the simulated table's ~300 answers about printed values (a real table with a saved board
profile answers none), so the replay is measured both ways. The machine may be shared: each figure
is given as wall-clock time and as this process's CPU time (``time.process_time``), which other
processes disturb far less; the load average is printed first.
"""

from __future__ import annotations

import time

from engine_bench import games_per_second, machine, ms, timed

from companion.games.sabika import Answer, Game
from companion.games.sabika.log import read_log, write_log
from companion.games.sabika.simulate import play_random_game


def main() -> None:
    print(machine())
    game = play_random_game(4, 2026)
    text = write_log(game)
    answers = sum(1 for a in game.log if isinstance(a, Answer))
    print(f"4-player log: {len(game.log)} actions ({answers} table answers), {len(text)} bytes")

    def replay() -> None:
        Game.replay(game.setup, game.log)

    print(f"replay of the 4-player game (Game.replay), wall: {ms(timed(replay, 30))}  (target <= 20 ms)")
    print(f"                                           CPU:  {ms(timed(replay, 30, time.process_time))}")
    profiled = {**game.setup, "profile": game.profile}
    plays = [a for a in game.log if not isinstance(a, Answer)]
    saved = timed(lambda: Game.replay(profiled, plays), 30)
    print(f"replay with a saved board profile ({len(plays)} actions), wall: {ms(saved)}")
    print(f"replay from JSON-lines text (read_log), wall: {ms(timed(lambda: read_log(text, 'bench'), 30))}")
    lazy = play_random_game(4, 2026, when_needed=True)
    lazy_answers = sum(1 for a in lazy.log if isinstance(a, Answer))
    print(f"a game asking when needed (every new game): {len(lazy.log)} actions ({lazy_answers} table answers)")
    print(f"replay of it, wall: {ms(timed(lambda: Game.replay(lazy.setup, lazy.log), 30))}")
    print(f"              CPU:  {ms(timed(lambda: Game.replay(lazy.setup, lazy.log), 30, time.process_time))}")

    wall, cpu = games_per_second(lambda n: play_random_game(4, 10_000 + n), 6.0)
    print(f"random complete 4-player games on one core: {wall:.1f} games/s wall, {cpu:.1f} games/s CPU  "
          f"(target >= 50)")


if __name__ == "__main__":
    main()
