"""Editions as a registry (python-chess style variants): edition name -> ``Game`` class.

The Classic edition will be a ``Game`` subclass registered here; only Essential exists now.
"""

from __future__ import annotations

from companion.rules.errors import SetupError
from companion.rules.game import Game

VARIANTS: dict[str, type[Game]] = {"essential": Game}


def game_class(edition: str) -> type[Game]:
    """The ``Game`` class of ``edition``."""
    try:
        return VARIANTS[edition]
    except KeyError:
        raise SetupError(f"unknown edition {edition!r}; known: {', '.join(VARIANTS)}") from None
