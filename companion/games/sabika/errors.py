"""Errors raised by the Sabika engine.

Every error is a ``KeshiError`` (the CLI prints one line) and a ``ValueError`` (bad input). A rule
error's message names the rule and the player; an error always leaves the game exactly as it was.
"""

from companion.errors import KeshiError


class SabikaError(KeshiError, ValueError):
    """Root of the Sabika engine's errors."""


class RuleError(SabikaError):
    """An action breaks a rule of Sabika; the state is unchanged."""


class NotYourTurn(RuleError):
    """The acting player (or the table) is not the one who must act now."""


class IllegalWork(RuleError):
    """A Work or Rest action breaks a movement or action rule."""


class IllegalChoice(RuleError):
    """The option is not one of the pending decision's options."""


class IllegalAnswer(RuleError):
    """The answer to a question about a printed value is not one of its options."""


class SetupError(SabikaError):
    """The setup options are unusable."""


class ActionFormatError(SabikaError):
    """A JSON action is malformed (unknown type, missing or mistyped field)."""


class LogError(SabikaError):
    """A Sabika game log is damaged; the message names the source and the line."""
