"""The request's side of a stream handed off to the broadcaster (no web server imported here).

The server puts a ``Handoff`` in each request's WSGI environ under ``HANDOFF_KEY``; a stream route
that finds one opens its stream on the handoff's broadcaster and returns a response with an empty
body, and the server then gives the stream the client's socket once the response head is written
(``companion.streaming.waitress_handoff``). Without one (Flask's test client, another WSGI server)
the route streams from a generator on the request thread, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.streaming.broadcaster import Broadcaster, Stream

HANDOFF_KEY = "keshi.stream_handoff"


@dataclass(eq=False)
class Handoff:
    """One request's way to the broadcaster; ``stream`` is set when the route opened one."""

    broadcaster: Broadcaster
    stream: Stream | None = None
