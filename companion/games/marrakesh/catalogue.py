"""The component catalogue and the shipped board values (``data/essential_board.json``)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


@lru_cache(maxsize=1)
def board_data() -> dict[str, Any]:
    """The parsed data file (read once; the engine itself never touches files after import)."""
    text = resources.files("companion.games.marrakesh").joinpath("data/essential_board.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def shipped_values() -> dict[str, Any]:
    """Board values the rulebook text proves: key -> value (sources are in the data file)."""
    return {key: entry["value"] for key, entry in board_data()["values"].items()}


def scroll_tiers() -> dict[str, tuple[int, int, int, int]]:
    """Scroll back colour -> (first number, last number, requirement, date cost)."""
    tiers = board_data()["catalogue"]["scroll_tiers"]
    out: dict[str, tuple[int, int, int, int]] = {}
    for colour in ("gray", "yellow", "pink", "orange"):
        first, last, requirement, cost = tiers[colour]
        out[colour] = (first, last, requirement, cost)
    return out


def scroll_tier(number: int) -> tuple[str, int, int]:
    """(back colour, requirement, date cost) of scroll ``number``."""
    for colour, (first, last, requirement, cost) in scroll_tiers().items():
        if first <= number <= last:
            return colour, requirement, cost
    raise KeyError(number)


def river_tiles_by_season() -> dict[int, list[int]]:
    """Season -> the river tile numbers that belong to it (digest §14.4 [INF])."""
    table = board_data()["catalogue"]["river_tiles_by_season"]
    return {int(k): list(v) for k, v in table.items() if k != "source"}


def city_gates() -> dict[str, int]:
    """Colour -> number of city gates in the bag (EN:L150-155)."""
    gates: dict[str, int] = board_data()["catalogue"]["city_gates"]["value"]
    return gates


def count(name: str) -> int:
    """A component count from the catalogue (oases, provision_tiles, ...)."""
    value: int = board_data()["catalogue"][name]["value"]
    return value
