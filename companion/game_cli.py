"""``keshi game ...``: replay a rules-engine game log or play a random legal game.

The engine (``companion.rules``) is imported when a subcommand runs, so ``keshi --help`` stays fast
and other subcommands never pay for it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.rules.game import Game


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi game replay`` and ``keshi game random``."""
    game = subparsers.add_parser("game", help="replay a game log or play a random legal game")
    game_sub = game.add_subparsers(dest="game_command", metavar="GAME_COMMAND")
    game_sub.required = True

    replay = game_sub.add_parser("replay", help="replay a JSON-lines game log and print the scores")
    replay.add_argument("log", type=Path, metavar="LOG.jsonl", help="game log written by the engine")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.set_defaults(func=_replay)

    rand = game_sub.add_parser("random", help="play a random legal game (simulator)")
    rand.add_argument("--players", type=int, choices=(2, 3, 4), required=True, help="number of players")
    rand.add_argument("--seed", type=int, required=True, help="seed for setup draws, tower and choices")
    rand.add_argument("--edition", default="essential",
                      help="rules edition: essential (default) or classic (companion.rules.variants)")
    rand.add_argument("--expansions", type=_expansion_list, default=(), metavar="1,2,3,4,5",
                      help="expansion modules to play (comma-separated numbers 1-5; default: none)")
    rand.add_argument("--out", type=Path, metavar="LOG.jsonl", help="write the game log here")
    rand.add_argument("--json", action="store_true", help="print the result as JSON")
    rand.set_defaults(func=_random)


def _expansion_list(text: str) -> tuple[int, ...]:
    """``"1,3,5"`` -> ``(1, 3, 5)``; the engine's setup checks the numbers themselves."""
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expansions must be comma-separated numbers 1-5, not {text!r}") from None


def _replay(args: argparse.Namespace) -> int:
    from companion.rules.log import read_log

    game = read_log(args.log.read_text(encoding="utf-8"), source=str(args.log))
    _print_result(game, as_json=args.json)
    return 0


def _random(args: argparse.Namespace) -> int:
    from companion.rules.log import write_log
    from companion.rules.simulate import play_random_game

    game = play_random_game(args.players, args.seed, edition=args.edition, expansions=args.expansions)
    if args.out is not None:
        args.out.write_text(write_log(game), encoding="utf-8")
    _print_result(game, as_json=args.json)
    return 0


def _print_result(game: Game, *, as_json: bool) -> None:
    from companion.rules.report import result_summary, result_text

    summary = result_summary(game)
    if as_json:
        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(result_text(summary))
