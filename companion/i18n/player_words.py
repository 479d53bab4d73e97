"""Text as a player reads it: without the rulebook references the engines cite for developers and the CLI.

An engine's message names its rule ("(MOR:L102)", "(L480-481)", "(digest A1)", "rule 4.2", "RULES_DIGEST
§17"), which means nothing on a phone at the table (issue 25). A web request renders every message for a
player (``FOR_PLAYERS``, set by ``companion.i18n.web``), so ``Msg.render`` leaves those references out
there, whatever screen or error shows the message; the CLI and the logs keep them. The sentence itself,
already in the reader's language, stays as it is; a bracket that held only references goes, one that
also holds words keeps the words ("(Phase X; EN:L625)" -> "(Phase X)").
"""

from __future__ import annotations

import re
from contextvars import ContextVar

#: True while rendering for a player (a web request); the CLI, logs and tests render for developers.
FOR_PLAYERS: ContextVar[bool] = ContextVar("keshi_for_players", default=False)

#: One rulebook reference: a line ("L77", "MOR:L86-98", "EN:L625"), the digest ("digest A1", "digest §2",
#: "RULES_DIGEST §17", "RULES_DIGEST.md"), a numbered rule ("rule 4.2") or a section ("§3.1"); "M5" after a
#: line reference is the same citation's margin note.
_REF = (r"(?:(?:[A-Z]{2,4}:)?L\d+(?:[-–]\d+)?(?:[;,] ?M\d+)?"
        r"|(?:RULES_DIGEST(?:\.md)?|[Dd]igest)(?: ?§? ?[A-Z]?\d+(?:\.\d+)*)?"
        r"|[Rr]ule \d+(?:\.\d+)+|§ ?\d+(?:\.\d+)*)")
#: a bracket of references only: "(MOR:L77)", " (L489-494; M5)", "(digest A1)"
_ONLY_REFS = re.compile(rf"\s*\(\s*{_REF}(?:\s*[;,]\s*{_REF})*\s*\)")
#: a reference after the words of its bracket: "(bodyguards are won ..., MOR:L127)", "(Phase X; EN:L625)"
_TRAILING_REF = re.compile(rf"\s*[;,]\s*{_REF}(?=\s*\))")
#: a reference on its own in a sentence ("see RULES_DIGEST §17", "by rule 4.2", "EN:L625"); a bare line
#: number needs its "L" and two digits at least, a bare "digest" its section
_BARE_REF = re.compile(r"\s*\b(?:(?:see|by|under|as in) )?(?:(?:[A-Z]{2,4}:)?L\d{2,}(?:[-–]\d+)?"
                       r"|RULES_DIGEST(?:\.md)?(?: ?§ ?[A-Z]?\d+(?:\.\d+)*)?|[Dd]igest ?§? ?[A-Z]?\d+(?:\.\d+)*"
                       r"|[Rr]ule \d+(?:\.\d+)+)\b|\s*§ ?\d+(?:\.\d+)*")
#: "at least one action (L480-481): " keeps "at least one action: "
_SPACES = re.compile(r"\s+([:;,.])")


def without_rule_refs(text: str) -> str:
    """``text`` without its rulebook references, and without the space they leave before punctuation (a text
    that cites none is returned as it is)."""
    shown = _BARE_REF.sub("", _TRAILING_REF.sub("", _ONLY_REFS.sub("", text)))
    return text if shown == text else _SPACES.sub(r"\1", shown).strip()


def for_players(text: str) -> str:
    """``text`` as the current reader gets it: without rulebook references when rendering for a player."""
    return without_rule_refs(text) if FOR_PLAYERS.get() else text
