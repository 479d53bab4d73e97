"""The Morocco rules engine: pure Python, no I/O, no clock (see docs/morocco.md).

Public API: ``Game``, ``SetupOptions``, the action values and their JSON form, the errors. Same
design as ``companion.games.marrakesh`` (Marrakesh); ``cli_api`` offers the ``keshi game`` functions.
"""

from companion.games.morocco.actions import (
    Action,
    Answer,
    Choose,
    EndTurn,
    Pass,
    Place,
    Roll,
    Scout,
    Swap,
    action_from_dict,
    action_to_dict,
)
from companion.games.morocco.errors import (
    ActionFormatError,
    IllegalAnswer,
    IllegalChoice,
    IllegalEndTurn,
    IllegalPass,
    IllegalPlacement,
    IllegalRoll,
    IllegalScout,
    IllegalSwap,
    LogError,
    NotYourTurn,
    RuleError,
    SetupError,
    WrongPhase,
)
from companion.games.morocco.game import Game
from companion.games.morocco.setup import SetupOptions

__all__ = [
    "Action", "ActionFormatError", "Answer", "Choose", "EndTurn", "Game", "IllegalAnswer", "IllegalChoice",
    "IllegalEndTurn", "IllegalPass", "IllegalPlacement", "IllegalRoll", "IllegalScout", "IllegalSwap", "LogError",
    "NotYourTurn", "Pass", "Place", "Roll", "RuleError", "Scout", "SetupError", "SetupOptions", "Swap", "WrongPhase",
    "action_from_dict", "action_to_dict",
]
