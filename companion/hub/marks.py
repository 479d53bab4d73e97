"""How far the hub holds each table's stream, and when to ask a table to send again.

A table sends its outbox in order; each toss or event message carries its ``revision`` (outbox id)
and ``after``, the revision of the message the table sent before it. The hub's **mark** for a tower
is the revision up to which it holds every message: a message whose ``after`` is at or below the
mark moves the mark to its revision. A message whose ``after`` is above the mark shows a **gap**:
something the table sent never arrived (a broker that lost its store, or was restarted from an old
snapshot, had acknowledged it to the table). So does a state message saying the table has published
beyond the mark.

The hub then asks for the gap again: it publishes, retained, on ``<prefix>/<slug>/stored`` its mark
with a new ``request`` token; the table, seeing a token it has not acted on, moves its cursor back to
the mark and sends everything after it again (the hub ignores what it already holds, by the rows'
keys). A hub that connects to a broker that no longer has its session (so messages sent meanwhile
went to nobody) asks every tower it knows at once. Requests for one tower are spaced by
``REQUEST_GAP_S`` while its mark stays put, since the messages after a gap keep arriving until the
table has rewound.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

REQUEST_GAP_S = 5.0


@dataclass
class Marks:
    """The hub's marks (slug → revision held without a gap) and the resend requests they call for."""

    held: dict[str, int] = field(default_factory=dict)
    _epoch: str = field(default_factory=lambda: secrets.token_hex(4))
    _requests: int = 0
    _asked: dict[str, tuple[int, float]] = field(default_factory=dict)
    gaps: int = 0

    def copy(self) -> Marks:
        """A copy to advance over a batch before it is stored (kept only once it is committed)."""
        return Marks(dict(self.held), self._epoch, self._requests, self._asked, self.gaps)

    def adopt(self, other: Marks) -> None:
        """Keep what a copy learnt once its batch is stored."""
        self.held, self.gaps = other.held, other.gaps

    def sent(self, slug: str, revision: int, after: int | None) -> bool:
        """Take note of a stored message; False when it shows a gap before it."""
        if after is None:  # a table from before marks: nothing to chain it to
            return True
        held = self.held.get(slug, 0)
        if after <= held:
            if revision > held:
                self.held[slug] = revision
            return True
        self.gaps += 1
        return False

    def published(self, slug: str, revision: int) -> bool:
        """Take note of a table's word that it has sent up to ``revision``; False when that is a gap."""
        return revision <= self.held.get(slug, 0)

    def request(self, slug: str, *, now: float | None = None) -> dict[str, object] | None:
        """The retained message asking ``slug`` to send again after its mark, or None while a request
        for the same mark is still recent."""
        now = time.monotonic() if now is None else now
        held = self.held.get(slug, 0)
        asked = self._asked.get(slug)
        if asked is not None and asked[0] == held and now - asked[1] < REQUEST_GAP_S:
            return None
        self._asked[slug] = (held, now)
        self._requests += 1
        return {"revision": held, "request": f"{self._epoch}.{self._requests}"}
