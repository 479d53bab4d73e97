"""The errors every game engine raises, whatever the game (each engine subclasses them for its own).

Every error is a ``KeshiError`` (so the CLI prints one line) and a ``ValueError`` (bad input). The
message names the rule and, where one is involved, the player. An error always leaves the game
state exactly as it was. Code that catches ``RuleError`` here catches every engine's broken rule
that subclasses it (Marrakesh's and Morocco's).
"""

from companion.errors import KeshiError


class RuleError(KeshiError, ValueError):
    """An action breaks a rule of the game; the state is unchanged."""


class NotYourTurn(RuleError):
    """The acting player (or the table) is not the one who must act now."""


class WrongPhase(RuleError):
    """The action does not belong to the current phase."""


class IllegalChoice(RuleError):
    """The option is not one of the pending decision's options."""


class IllegalAnswer(RuleError):
    """The answer to a question about a printed board value is not one of its options."""


class SetupError(KeshiError, ValueError):
    """The setup options or table-entered draws are unusable."""


class ActionFormatError(KeshiError, ValueError):
    """A JSON action is malformed (unknown type, missing or mistyped field)."""


class LogError(KeshiError, ValueError):
    """A game log is damaged; the message names the line."""
