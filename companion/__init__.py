"""Keshi Tower Companion: the table dashboard, rules engine, tower sessions and fairness log."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("keshi-tower")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

COLOURS: tuple[str, ...] = (
    "yellow",
    "orange",
    "purple",
    "pink",
    "beige",
    "red",
    "brown",
    "green",
    "gray",
    "white",
    "black",
    "turquoise",
)
"""The 12 keshi colours, in the order the rulebook and the sample dataset list them."""
