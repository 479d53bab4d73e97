"""Editions as a registry (python-chess style variants): edition name -> ``Game`` class.

``"essential"`` is the base ``Game``; ``"classic"`` is ``ClassicGame``, a subclass that overrides
the base's hooks (``companion/rules/classic.py``). ``SetupOptions(edition=...)`` picks one through
``Game.new``; a game log's header names its edition, so ``read_log`` rebuilds the right class.
"""

from __future__ import annotations

from companion.i18n import Msg
from companion.rules.classic import ClassicGame
from companion.rules.errors import SetupError
from companion.rules.game import Game

VARIANTS: dict[str, type[Game]] = {"essential": Game, "classic": ClassicGame}


def game_class(edition: str) -> type[Game]:
    """The ``Game`` class of ``edition``."""
    try:
        return VARIANTS[edition]
    except KeyError:
        raise SetupError(Msg("unknown edition {edition}; known: {known}", edition=repr(edition),
                             known=", ".join(VARIANTS))) from None
