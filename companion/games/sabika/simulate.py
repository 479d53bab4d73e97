"""A random legal game, for the CLI, the property tests and the benchmark.

Every choice (setup draws, the players' decisions and the simulated table's answers to questions
about printed values) comes from one seeded ``random.Random``, so a seed names a game. The random
answers stand in for a real board; they are not claims about it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.games.sabika import questions
from companion.games.sabika.actions import Action, Answer, Choose
from companion.games.sabika.components import MINOR_POEM_DISPLAY, RINGS
from companion.games.sabika.game import Game
from companion.games.sabika.setup import TABLE_KEYS, SetupOptions, resolve_setup

DEFAULT_NAMES: tuple[str, ...] = ("Aisha", "Yusuf", "Leonor", "Hamid")


def random_action(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action for whoever must act now."""
    pending = game.pending
    if pending is not None and pending["kind"] in ("question", "draw"):
        options = pending["options"]
        if pending.get("parts"):  # several values at once: each one of its own options
            return Answer(pending["key"], {part["key"]: rng.choice(part["options"]) for part in pending["parts"]})
        if pending["multi"]:
            size = pending["count"] or rng.randint(1, min(2, len(options)))
            picked: list[object] = []
            while len(picked) < size:  # distinct options (random.sample is slow on short lists)
                option = rng.choice(options)
                if option not in picked:
                    picked.append(option)
            return Answer(pending["key"], picked)
        return Answer(pending["key"], rng.choice(options))
    if pending is not None:
        return Choose(pending["player"], rng.choice(pending["options"]))
    return rng.choice(list(game.legal_actions()))


def table_setup(players: int, seed: int) -> dict[str, Any]:
    """What a simulated real table lays out face up (for ``table_draws`` games)."""
    drawn = resolve_setup(SetupOptions(players=DEFAULT_NAMES[:players], seed=seed, solo=players == 1))["draws"]
    out = {key: drawn[key] for key in TABLE_KEYS if key in drawn}
    out["minor_display"] = drawn["minor_deck"][:4]
    out["poem_display"] = drawn["poem_deck"][:MINOR_POEM_DISPLAY[max(players, 2)]]  # solo: set up as for 2
    out["store_display"] = [pile[:2] for pile in drawn["store_piles"]]
    return out


def play_random_game(players: int, seed: int, *, names: Sequence[str] | None = None,
                     max_actions: int = 50_000, advanced: bool = False, table_draws: bool = False,
                     when_needed: bool = False) -> Game:
    """Play a whole random legal game with ``players`` seats from ``seed`` (``advanced``: with 3 Events;
    1 player: the solo mode against Yusuf; ``when_needed``: printed values asked as play needs them, as
    a new dashboard game does)."""
    rng = random.Random(seed)
    seats = tuple(names) if names is not None else DEFAULT_NAMES[:players]
    seed_setup = rng.randrange(2**32)
    draws = table_setup(players, seed_setup) if table_draws else {}
    game = Game.new(SetupOptions(players=seats, seed=seed_setup, advanced=advanced, table_draws=table_draws,
                                 draws=draws, solo=players == 1, when_needed=when_needed))
    for _ in range(max_actions):
        if game.finished:
            return game
        game.apply(random_action(game, rng))
    raise RuntimeError(f"random Sabika game {seed} did not finish within {max_actions} actions")


def random_profile(players: int, seed: int, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """A complete board profile answered at random: the board side for ``players`` and every component
    of every pool, so a game started with it asks the table nothing (screens and tests; not a real board).

    ``base`` (e.g. a known Rondel and Map) is kept; only what it leaves open is answered.
    """
    rng = random.Random(seed)
    game = Game.new(SetupOptions(players=DEFAULT_NAMES[:players], seed=seed, profile=dict(base or {})))
    while game.pending is not None and game.pending["kind"] == "question":  # the board side, what lies face up
        game.apply(random_action(game, rng))
    profile = dict(game.profile)
    for specs in questions.pool_components(profile):
        for key, _prompt, options, multi, count in specs:  # the generator reads ``profile`` as it goes
            if key not in profile:
                choices = list(options)
                size = (count or rng.randint(1, min(2, len(choices)))) if multi else 1
                picked = rng.sample(choices, size)
                profile[key] = picked if multi else picked[0]
    sultan = f"sultan.{players}p"
    if players < 4 and f"{sultan}.squares" not in profile:  # a new game asks the Sultan's Workers' squares at once
        spots = sorted({str(profile[f"{sultan}.{k}"]) for k in range(1, int(profile[f"{sultan}.count"]) + 1)})
        outer = int(profile[f"rondel.{questions.side(players)}.outer.size"])
        profile[f"{sultan}.squares"] = spots or [f"outer {rng.randint(1, outer)}"]  # 1 or more: as the question
    if players == 3 and "rondel.large.four_only" not in profile:  # a new game asks the 3 covered squares at once
        squares = [f"{ring} {sq}" for ring in RINGS for sq in range(1, int(profile[f"rondel.large.{ring}.size"]) + 1)]
        covered = rng.sample(squares, questions.COVERED)
        profile["rondel.large.four_only"] = covered
        profile.update({f"rondel.large.{spot.replace(' ', '.')}.four_only": "yes" if spot in covered else "no"
                        for spot in squares})  # and the same square by square, as a game saved before asks
    return profile
