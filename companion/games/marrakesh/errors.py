"""Errors raised by the Marrakesh rules engine: the games' common errors, and Marrakesh's own rules.

Every error is a ``KeshiError`` (so the CLI prints one line) and a ``ValueError`` (bad input). The
message names the rule and, where one is involved, the player. An error always leaves the game
state exactly as it was.
"""

from companion.games.common.errors import (
    ActionFormatError,
    IllegalAnswer,
    IllegalChoice,
    LogError,
    NotYourTurn,
    RuleError,
    SetupError,
    WrongPhase,
)

__all__ = [
    "ActionFormatError", "IllegalAnswer", "IllegalAssistant", "IllegalChoice", "IllegalClaim", "IllegalRelease",
    "IllegalSelection", "LogError", "NotYourTurn", "RuleError", "SetupError", "WrongPhase",
]


class IllegalSelection(RuleError):
    """Phase 1: the selected keshis or the assistant deployment break a rule."""


class IllegalRelease(RuleError):
    """The tower cannot have released these keshis."""


class IllegalClaim(RuleError):
    """Phase 2: the claim breaks a claim rule."""


class IllegalAssistant(RuleError):
    """Phase 3: this assistant cannot be used this way."""
