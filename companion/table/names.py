"""Names people type (players, a shared device): NFC-normalised, and refused when they would deceive.

A name is shown on every phone at the table, so it must read as what it is: control characters
(NUL, newlines), bidirectional overrides and isolates (which reorder the text around them, U+202A-E,
U+2066-9) and names made only of invisible characters (zero-width spaces and joiners, U+200B-D,
U+2060, U+FEFF) are refused with a message that says so; everything else is kept as typed, in
Unicode's composed form (NFC), so "é" typed two ways is one name.
"""

from __future__ import annotations

import unicodedata

from companion.errors import KeshiError
from companion.i18n import Msg

#: Characters that reorder the text around them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


class UnreadableName(KeshiError, ValueError):
    """A name that cannot be shown as it is; the message says why."""


def clean_name(value: object, what: Msg, longest: int) -> str:
    """``value`` as a name of at most ``longest`` characters (longer ones are cut, then checked), or
    ``UnreadableName`` naming ``what`` and why."""
    if not isinstance(value, str):
        raise UnreadableName(Msg("{what} must be text", what=what))
    name = unicodedata.normalize("NFC", value).strip()[:longest].strip()  # checked as it will be shown
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        raise UnreadableName(Msg("{what} contains a control character (such as a line break): type it again",
                             what=what))
    if any(ch in BIDI_CONTROLS for ch in name):
        raise UnreadableName(Msg("{what} contains a character that reverses the text around it: type it again",
                             what=what))
    if not any(unicodedata.category(ch)[0] in "LMNPS" for ch in name):
        raise UnreadableName(Msg("{what} needs at least one visible letter or digit", what=what))
    return name
