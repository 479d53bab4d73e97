"""Sabika (Ludonova): a rules engine for 2-4 players, same design as ``companion.games.marrakesh`` (Marrakesh).

Frozen actions (``Work``, ``Rest``, ``Choose``, ``Answer``), ``Game.apply`` validating before it
changes anything, undo by replay, a JSON-lines log, lazy legal actions, questions to the table for
printed values the rulebook does not give. See docs/sabika.md.
"""

from companion.games.sabika.actions import Action, Answer, Choose, Rest, Work, action_from_dict, action_to_dict
from companion.games.sabika.errors import (
    ActionFormatError,
    IllegalAnswer,
    IllegalChoice,
    IllegalWork,
    LogError,
    NotYourTurn,
    RuleError,
    SabikaError,
    SetupError,
)
from companion.games.sabika.game import Game
from companion.games.sabika.setup import SetupOptions

__all__ = ["Action", "ActionFormatError", "Answer", "Choose", "Game", "IllegalAnswer", "IllegalChoice", "IllegalWork",
           "LogError", "NotYourTurn", "Rest", "RuleError", "SabikaError", "SetupError", "SetupOptions", "Work",
           "action_from_dict", "action_to_dict"]
