"""Editions as a registry (python-chess style variants): edition name -> ``Game`` class.

``"essential"`` is the base ``Game``; ``"classic"`` is ``ClassicGame``, a subclass that overrides
the base's hooks (``companion/games/marrakesh/classic.py``). Each class registers itself where it is
defined (``@register``), so this module imports neither and ``Game.new`` can look an edition up
without an import circle; the package imports every edition, so the registry is full before any game
is made. ``SetupOptions(edition=...)`` picks one through ``Game.new``; a game log's header names its
edition, so ``read_log`` rebuilds the right class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from companion.games.marrakesh.errors import SetupError
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.marrakesh.game import Game

VARIANTS: dict[str, type[Game]] = {}

G = TypeVar("G", bound="type[Game]")


def register(game: G) -> G:
    """Class decorator: ``game`` plays the edition its ``edition`` names."""
    VARIANTS[game.edition] = game
    return game


def game_class(edition: str) -> type[Game]:
    """The ``Game`` class of ``edition``."""
    try:
        return VARIANTS[edition]
    except KeyError:
        raise SetupError(Msg("unknown edition {edition}; known: {known}", edition=repr(edition),
                             known=", ".join(VARIANTS))) from None
