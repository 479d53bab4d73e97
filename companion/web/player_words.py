"""A refusal as a player reads it: the engine's messages cite the rulebook for developers and the CLI
("(MOR:L102)", "(L480-481)"), which means nothing on a phone at the table (issue 25), so the web answers
leave those references out; the sentence itself, already in the phone's language, stays as it is."""

from __future__ import annotations

import re

#: "(MOR:L77)", "(L1120-1186)", "(L489-494; M5)", " (L159-162)": a rulebook line reference in brackets
_RULE_REF = re.compile(r"\s*\((?:[A-Z]{2,4}:)?L\d+(?:[-–]\d+)?(?:[;,] ?[^()]*)?\)")
#: "at least one action (L480-481): " keeps "at least one action: "
_SPACES = re.compile(r"\s+([:;,.])")


def without_rule_refs(text: str) -> str:
    """``text`` without its rulebook line references, and without the space they leave before punctuation."""
    return _SPACES.sub(r"\1", _RULE_REF.sub("", text)).strip()
