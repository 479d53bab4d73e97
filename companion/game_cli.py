"""``keshi game ...``: replay a game log or play a random legal game, of any game the companion runs.

Each game is an engine package with a ``cli_api`` module offering the same five functions
(``play_random``, ``write_log``, ``read_log``, ``result_summary``, ``result_text``): Marrakesh
(``companion.games.marrakesh``, the default), Morocco and Sabika. The engine is imported when a subcommand runs,
so ``keshi --help`` stays fast and other subcommands never pay for it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.errors import KeshiError

#: Every game ``keshi game`` plays, by the module offering its CLI functions.
GAMES: dict[str, str] = {
    "marrakesh": "companion.games.marrakesh.cli_api",
    "morocco": "companion.games.morocco.cli_api",
    "sabika": "companion.games.sabika.cli_api",
}


class GameOptionError(KeshiError, ValueError):
    """An option was given for a game that has no such thing (an edition for Morocco, say)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi game replay`` and ``keshi game random``."""
    game = subparsers.add_parser("game", help="replay a game log or play a random legal game")
    game_sub = game.add_subparsers(dest="game_command", metavar="GAME_COMMAND")
    game_sub.required = True

    replay = game_sub.add_parser("replay", help="replay a JSON-lines game log and print the scores")
    replay.add_argument("log", type=Path, metavar="LOG.jsonl", help="game log written by the engine")
    replay.add_argument("--game", choices=tuple(GAMES),
                        help="which game the log is of (default: the game its header names)")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.set_defaults(func=_replay)

    rand = game_sub.add_parser("random", help="play a random legal game (simulator)")
    _add_game_option(rand)
    rand.add_argument("--players", type=int, required=True,
                      help="number of players: Marrakesh 2-4, Morocco 2-5, Sabika 1-4 (1 = solo against Yusuf)")
    rand.add_argument("--seed", type=int, required=True, help="seed for setup draws, tower and choices")
    rand.add_argument("--edition",
                      help="Marrakesh rules edition: essential (default) or classic "
                           "(companion.games.marrakesh.variants)")
    rand.add_argument("--expansions", type=_expansion_list, default=(), metavar="1,2,3,4,5",
                      help="Marrakesh expansion modules to play (comma-separated numbers 1-5; default: none)")
    rand.add_argument("--out", type=Path, metavar="LOG.jsonl", help="write the game log here")
    rand.add_argument("--json", action="store_true", help="print the result as JSON")
    rand.set_defaults(func=_random)


def _add_game_option(parser: argparse.ArgumentParser) -> None:
    """``--game``: which game's engine plays or reads the log (Marrakesh unless said otherwise)."""
    parser.add_argument("--game", choices=tuple(GAMES), default="marrakesh",
                        help="which game: marrakesh (default), morocco or sabika")


def _engine(game: str) -> ModuleType:
    """The ``cli_api`` module of ``game``'s engine."""
    return importlib.import_module(GAMES[game])


def _game_named_by(log_text: str) -> str | None:
    """The game a log's header line names (Morocco and Sabika logs say ``"game"``; Marrakesh's do not).

    ``None`` where the header cannot be read or names no known game: the engine's own reader then
    says what is wrong with the line.
    """
    first = next((line for line in log_text.splitlines() if line.strip()), "")
    try:
        head = json.loads(first)
    except ValueError:
        return None
    if not isinstance(head, dict):
        return None
    game = head.get("game", "marrakesh")
    return game if game in GAMES else None


def _expansion_list(text: str) -> tuple[int, ...]:
    """``"1,3,5"`` -> ``(1, 3, 5)``; the engine's setup checks the numbers themselves."""
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expansions must be comma-separated numbers 1-5, not {text!r}") from None


def _replay(args: argparse.Namespace) -> int:
    text = args.log.read_text(encoding="utf-8")
    named = _game_named_by(text)
    if args.game is not None and named is not None and args.game != named:
        raise GameOptionError(f"{args.log} is a {named} log, not {args.game}")
    engine = _engine(args.game or named or "marrakesh")
    game = engine.read_log(text, str(args.log))
    _print_result(engine, game, as_json=args.json)
    return 0


def _random(args: argparse.Namespace) -> int:
    if args.game != "marrakesh" and (args.edition is not None or args.expansions):
        raise GameOptionError(f"--edition and --expansions are Marrakesh options; {args.game} has neither")
    engine = _engine(args.game)
    least, most = engine.PLAYERS
    if not least <= args.players <= most:
        raise GameOptionError(f"{args.game} is played by {least} to {most} players, not {args.players}")
    if args.game == "marrakesh":
        game = engine.play_random(args.players, args.seed, edition=args.edition or "essential",
                                  expansions=args.expansions)
    else:
        game = engine.play_random(args.players, args.seed)
    if args.out is not None:
        args.out.write_text(engine.write_log(game), encoding="utf-8")
    _print_result(engine, game, as_json=args.json)
    return 0


def _print_result(engine: ModuleType, game: Any, *, as_json: bool) -> None:
    summary = engine.result_summary(game)
    if as_json:
        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(engine.result_text(summary))
