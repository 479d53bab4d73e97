"""How many wooden keshis of each colour the box holds, so no count asked of the tower exceeds it.

From the rules digest's component table: the Essential Edition has 10 wooden keshis of each marker
colour and 6 of the others (``games.marrakesh.board.wooden_total``); the Classic Edition 25 of every
colour (``games.marrakesh.classic.WOODEN_PER_COLOUR``). Only wooden keshis go through the tower. A
count from a request (a toss, what fell out, what the tower holds, a rehearsed misreading) is checked
here first, so a stranger's ``{"red": 10000000}`` is refused before anything is simulated or stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import COLOURS
from companion.errors import KeshiError
from companion.games.marrakesh.board import wooden_total
from companion.games.marrakesh.classic import WOODEN_PER_COLOUR
from companion.i18n import Msg, colour_name

#: Wooden keshis per colour in each edition's box.
IN_THE_BOX: dict[str, dict[str, int]] = {
    "essential": {c: wooden_total(c) for c in COLOURS},
    "classic": {c: WOODEN_PER_COLOUR for c in COLOURS},
}
#: The most of each colour any box holds: the bound where the edition is not known (the Tower page).
MOST_IN_ANY_BOX: dict[str, int] = {c: max(box[c] for box in IN_THE_BOX.values()) for c in COLOURS}


class MoreThanTheBox(KeshiError, ValueError):
    """A count that is not a whole number within what the box holds; the message names field and colour."""


def check_counts(counts: Any, field: str, edition: str | None = None, *, signed: bool = False) -> dict[str, int]:
    """``counts`` (``{colour: n}``) when every colour is a keshi colour and every ``n`` a whole number from
    0 (``-box`` when ``signed``) to the number in the box; else ``MoreThanTheBox`` naming the problem."""
    box = IN_THE_BOX.get(edition or "", MOST_IN_ANY_BOX)
    if not isinstance(counts, Mapping):
        raise MoreThanTheBox(Msg("{field} must map keshi colours to whole numbers", field=field))
    unknown = sorted(str(c)[:20] for c in counts if c not in box)
    if unknown:
        raise MoreThanTheBox(Msg("{field} names unknown colour(s) {colours}", field=field, colours=unknown))
    for colour, n in counts.items():
        if not isinstance(n, int) or isinstance(n, bool):
            raise MoreThanTheBox(Msg("{field} must map keshi colours to whole numbers", field=field))
        low = -box[colour] if signed else 0
        if not low <= n <= box[colour]:
            raise MoreThanTheBox(Msg("{field}: {n} {colour} keshis, but the box holds {most}", field=field,
                                     n=n if abs(n) < 10**6 else "so many", colour=colour_name(colour),
                                     most=box[colour]))
    return dict(counts)
