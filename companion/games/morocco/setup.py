"""Morocco setup by player count (MOR:L30-40): options, table-entered or seeded draws, initial state.

``resolve_setup`` validates ``SetupOptions`` and makes every draw the table did not enter from
``random.Random(seed)``; the resolved dict (JSON-ready) is the first line of the game log, so a
replay never needs the seed again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.morocco.board import CORNERS_PER_SIDE, CUBE_COLOURS, JUICE_VALUES
from companion.games.morocco.errors import SetupError
from companion.i18n import Msg

MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""Five families, 60 market tiles = 5 x 12 (MOR:L1, L9, L32); the market die is for 2-3 players."""

DRAW_KEYS: tuple[str, ...] = ("rows", "columns", "rooftop", "juice")
OVERFLOW_KEY = "overflow.market_tile"
"""Board-profile key: how much one market tile's overflow arrow adds to a stall's count (MOR:L117)."""
PROFILE_OPTIONS: dict[str, tuple[int, ...]] = {OVERFLOW_KEY: (1, 2)}
"""Board-profile keys (printed values the text does not give) and their possible answers."""


@dataclass(frozen=True)
class SetupOptions:
    """Player names in seat order (clockwise) and where the setup draws come from.

    ``draws`` (any subset; the rest comes from ``seed``): ``rows`` / ``columns`` = the cube colour
    beside market rows 1-5 / below columns 1-5; ``rooftop`` = the cube colours on outer rooftop
    spaces 1-5 clockwise; ``juice`` = 6 lists of 6 token values (2-4), the stall corners from the
    top-left, row by row. ``table_draws=True`` (a real table): all four must be entered.
    """

    players: Sequence[str]
    seed: int = 0
    start_player: int | None = None
    draws: Mapping[str, Any] = field(default_factory=dict)
    profile: Mapping[str, Any] = field(default_factory=dict)
    table_draws: bool = False


def _check(condition: bool, message: Msg) -> None:
    if not condition:
        raise SetupError(message)


def resolve_setup(options: SetupOptions) -> dict[str, Any]:
    """Validate ``options`` and make every missing draw from the seed."""
    names = [str(n).strip() for n in options.players]
    n = len(names)
    _check(MIN_PLAYERS <= n <= MAX_PLAYERS, Msg("Morocco is for {low}-{high} players, not {count}", low=MIN_PLAYERS,
                                                high=MAX_PLAYERS, count=n))
    _check(all(names) and len(set(names)) == n, Msg("player names must be distinct and non-empty: {names}",
                                                    names=str(names)))
    unknown = sorted(set(options.draws) - set(DRAW_KEYS))
    _check(not unknown, Msg("unknown setup draws {unknown}; expected some of {keys}", unknown=str(unknown),
                            keys=", ".join(DRAW_KEYS)))
    if options.table_draws:
        missing = [k for k in DRAW_KEYS if k not in options.draws]
        _check(not missing, Msg("with table draws the table must enter: {missing}", missing=", ".join(missing)))
    for key, value in options.profile.items():
        _check(key in PROFILE_OPTIONS, Msg("unknown board-profile key {key!r}; known: {known}", key=key,
                                           known=", ".join(PROFILE_OPTIONS)))
        _check(value in PROFILE_OPTIONS[key] and not isinstance(value, bool),
               Msg("board profile {key} must be one of {options}, not {value}", key=key,
                   options=str(list(PROFILE_OPTIONS[key])), value=repr(value)))
    rng = random.Random(options.seed)
    start = options.start_player if options.start_player is not None else rng.randrange(n)
    _check(isinstance(start, int) and not isinstance(start, bool) and 0 <= start < n,
           Msg("start player must be a seat 0-{last}, not {start}", last=n - 1, start=repr(start)))
    setup: dict[str, Any] = {"game": "morocco", "players": names, "start_player": start, "seed": options.seed,
                             "profile": dict(options.profile), "table_draws": options.table_draws}
    for key, what in (("rows", Msg("market rows")), ("columns", Msg("market columns")),
                      ("rooftop", Msg("outer rooftop spaces"))):
        setup[key] = _one_of_each(options.draws.get(key), key, what, rng)
    setup["juice"] = _juice(options.draws.get("juice"), rng)
    return setup


def _one_of_each(given: Any, key: str, what: Msg, rng: random.Random) -> list[str]:
    """One cube of each colour, at random, to the five ``what`` (MOR:L38)."""
    if given is None:
        return rng.sample(CUBE_COLOURS, len(CUBE_COLOURS))
    _check(isinstance(given, list) and sorted(map(str, given)) == sorted(CUBE_COLOURS),
           Msg("{key} must list one cube of each colour ({colours}) for the 5 {what}: {given}", key=key,
               colours=", ".join(CUBE_COLOURS), what=what, given=repr(given)))
    return list(given)


def _juice(given: Any, rng: random.Random) -> list[list[int]]:
    """A face-up juice seller token on each of the 36 stall corners (MOR:L36).

    Simulator draws pick each value at random: the mix of 2s, 3s and 4s is printed on the tokens,
    not given by the text, so a random game does not claim one (docs/morocco.md).
    """
    if given is None:
        return [[rng.choice(JUICE_VALUES) for _ in range(CORNERS_PER_SIDE)] for _ in range(CORNERS_PER_SIDE)]
    _check(isinstance(given, list) and len(given) == CORNERS_PER_SIDE
           and all(isinstance(row, list) and len(row) == CORNERS_PER_SIDE for row in given),
           Msg("juice must be {n} rows of {n} token values: {given}", n=CORNERS_PER_SIDE, given=repr(given)))
    for row in given:
        for value in row:
            _check(value in JUICE_VALUES and not isinstance(value, bool),
                   Msg("a juice seller token is worth 2, 3 or 4 VP, not {value}", value=repr(value)))
    return [list(row) for row in given]


def validate_setup(setup: Any) -> dict[str, Any]:
    """Check a resolved setup (a log header's, say) by resolving it again; returns the checked copy."""
    _check(isinstance(setup, dict), Msg("a setup must be a JSON object, not {setup}", setup=repr(setup)))
    missing = [k for k in ("players", "start_player", *DRAW_KEYS) if k not in setup]
    _check(not missing, Msg("the setup lacks {missing}", missing=", ".join(missing)))
    _check(isinstance(setup["players"], list), Msg("setup players must be a list of names: {players}",
                                                   players=repr(setup["players"])))
    _check(isinstance(setup.get("profile", {}), dict), Msg("the setup's board profile must be a JSON object"))
    return resolve_setup(SetupOptions(players=setup["players"], seed=setup.get("seed", 0),
                                      start_player=setup["start_player"], draws={k: setup[k] for k in DRAW_KEYS},
                                      profile=setup.get("profile", {}), table_draws=bool(setup.get("table_draws"))))
