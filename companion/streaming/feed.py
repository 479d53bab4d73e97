"""What a stream says: its opening, its answer to each bus event, its heartbeat.

A feed is shared by both ways a stream is served: the broadcaster (``keshi serve``) and a plain WSGI
generator (Flask's test client, any other WSGI server), so a stream behaves the same in both.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.events import Event

#: Work shared by every stream while one event is handed round (e.g. a game's new messages are read
#: and serialised once per position, not once per phone). A fresh dict for each event.
Shared = dict[Any, Any]


class Feed(Protocol):
    """One stream's words."""

    def opening(self, shared: Shared) -> str:
        """The first messages: ``retry:``, a comment, and whatever was missed since the resume id.

        ``shared``: work shared by every stream that opens until the next bus event is handed round
        (streams opening at the same position read the game's messages once, not once each)."""

    def on_event(self, event: Event, shared: Shared) -> tuple[str, bool]:
        """The messages ``event`` makes (often ``""``) and whether the stream ends after them."""

    def heartbeat(self) -> str:
        """What is sent after a quiet spell (a comment, or an event the page can hear)."""
