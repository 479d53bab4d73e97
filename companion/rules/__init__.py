"""The Marrakesh rules engine (Essential Edition): pure Python, no I/O, no clock.

Public API (see docs/rules-engine.md): ``Game``, ``SetupOptions``, the action values and their JSON
form, the errors.
"""

from companion.rules.actions import (
    Action,
    Answer,
    Choose,
    Claim,
    Release,
    Select,
    UseAssistant,
    action_from_dict,
    action_to_dict,
)
from companion.rules.errors import (
    ActionFormatError,
    IllegalAnswer,
    IllegalAssistant,
    IllegalChoice,
    IllegalClaim,
    IllegalRelease,
    IllegalSelection,
    LogError,
    NotYourTurn,
    RuleError,
    SetupError,
    WrongPhase,
)
from companion.rules.game import Game
from companion.rules.setup import SetupOptions

__all__ = [
    "Action", "ActionFormatError", "Answer", "Choose", "Claim", "Game", "IllegalAnswer", "IllegalAssistant",
    "IllegalChoice", "IllegalClaim", "IllegalRelease", "IllegalSelection", "LogError", "NotYourTurn", "Release",
    "RuleError", "Select", "SetupError", "SetupOptions", "UseAssistant", "WrongPhase", "action_from_dict",
    "action_to_dict",
]
