"""Rules-engine benchmark: log replay, legal-claims query, random complete games per second.

Run: ``.venv/bin/python benchmarks/bench_rules.py`` (one core; prints the machine and the figures).
Targets (issue 3): replay of a 4-player log <= 20 ms, legal-claims query <= 0.2 ms,
>= 50 random complete 4-player games/s.
"""

from __future__ import annotations

import statistics

from engine_bench import games_per_second, machine, print_replays, timed

from companion.games.marrakesh import Claim, Game
from companion.games.marrakesh.log import read_log, write_log
from companion.games.marrakesh.simulate import play_random_game

#: (edition, expansions) combinations measured; each prints the same figures.
MEASURED: tuple[tuple[str, tuple[int, ...]], ...] = (("essential", ()), ("essential", (1, 2, 3, 4, 5)),
                                                      ("classic", ()))


def claim_position(seed: int, edition: str = "essential", expansions: tuple[int, ...] = ()) -> Game:
    """A 4-player game stopped at its first claim turn with at least 4 colours in the base."""
    for s in range(seed, seed + 1000):
        game = play_random_game(4, s, edition=edition, expansions=expansions)
        replayed = type(game)(game.setup)
        for action in game.log:
            replayed.apply(action)
            if replayed.phase == "claim" and replayed.pending is None and sum(
                    1 for n in replayed.s.display.values() if n) >= 4:
                return replayed
    raise RuntimeError("no claim position found")


def main() -> None:
    print(machine())
    for edition, expansions in MEASURED:
        print(f"--- {edition}" + (f" with expansions {', '.join(map(str, expansions))}" if expansions else ""))
        figures(edition, expansions)


def figures(edition: str, expansions: tuple[int, ...]) -> None:
    """Print the replay, legal-claims and random-games figures of one edition and expansion set."""
    game = play_random_game(4, 2026, edition=edition, expansions=expansions)
    text = write_log(game)
    print(f"4-player log: {len(game.log)} actions, {len(text.splitlines())} lines, {len(text)} bytes")

    print_replays(lambda: Game.replay(game.setup, game.log), lambda: read_log(text))

    position = claim_position(7, edition, expansions)
    claims: list[Claim] = position.legal_claims()
    per_call = timed(position.legal_claims, 20000)
    print(f"legal-claims query ({len(claims)} claims, display {sum(position.s.display.values())} keshis): "
          f"median {statistics.median(per_call) * 1e6:.1f} us  (target <= 200 us)")

    wall, cpu = games_per_second(lambda n: play_random_game(4, 10_000 + n, edition=edition, expansions=expansions),
                                 5.0)
    print(f"random complete 4-player games on one core: {wall:.1f} games/s wall, {cpu:.1f} games/s CPU  "
          f"(target >= 50)")


if __name__ == "__main__":
    main()
