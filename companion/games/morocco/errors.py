"""Errors raised by the Morocco engine.

Each one subclasses the matching common error of the games (``companion.games.common.errors``, which
Marrakesh's are too: code that catches ``companion.games.marrakesh.RuleError`` or ``LogError`` handles
Morocco too), and through it ``KeshiError`` and ``ValueError``. Messages name the rule and the player;
an error leaves the game unchanged.
"""

from companion.games.common import errors as base


class RuleError(base.RuleError):
    """A Morocco action breaks a rule; the state is unchanged."""


class NotYourTurn(RuleError, base.NotYourTurn):
    """The acting player (or the table) is not the one who must act now."""


class WrongPhase(RuleError, base.WrongPhase):
    """The action does not belong to the current phase of the round."""


class IllegalRoll(RuleError):
    """The market-die roll is not one the die can show, or not this player's to make."""


class IllegalScout(RuleError):
    """Scout Stalls: the pawn cannot move there."""


class IllegalPlacement(RuleError):
    """Assign Workers: the worker cannot be played there (cost, space, supply)."""


class IllegalPass(RuleError):
    """A player who is able to place a worker must place one (MOR:L102)."""


class IllegalSwap(RuleError):
    """A gold-coin swap of information cubes breaks a rule."""


class IllegalEndTurn(RuleError):
    """The turn cannot end yet: the player has not placed a worker or passed."""


class IllegalChoice(RuleError, base.IllegalChoice):
    """The option is not one of the pending decision's options."""


class IllegalAnswer(RuleError, base.IllegalAnswer):
    """The answer to a question about a printed value is not one of its options."""


class SetupError(base.SetupError):
    """The setup options or the table-entered setup are unusable."""


class ActionFormatError(base.ActionFormatError):
    """A JSON action is malformed (unknown type, missing or mistyped field)."""


class LogError(base.LogError):
    """A Morocco game log is damaged; the message names the source and the line."""
