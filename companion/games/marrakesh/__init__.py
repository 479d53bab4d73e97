"""The Marrakesh rules engine (Essential Edition): pure Python, no I/O, no clock.

Public API (see docs/rules-engine.md): ``Game`` (and ``ClassicGame``, the 2022 edition), ``SetupOptions``,
the action values and their JSON form, the errors.
"""

from companion.games.marrakesh.actions import (
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
from companion.games.marrakesh.classic import ClassicGame
from companion.games.marrakesh.errors import (
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
from companion.games.marrakesh.game import Game
from companion.games.marrakesh.setup import SetupOptions

__all__ = [
    "Action", "ActionFormatError", "Answer", "Choose", "ClassicGame", "Claim", "Game", "IllegalAnswer",
    "IllegalAssistant", "IllegalChoice", "IllegalClaim", "IllegalRelease", "IllegalSelection", "LogError",
    "NotYourTurn", "Release", "RuleError", "Select", "SetupError", "SetupOptions", "UseAssistant", "WrongPhase",
    "action_from_dict", "action_to_dict",
]
