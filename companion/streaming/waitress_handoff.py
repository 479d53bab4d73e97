"""waitress hands a stream's socket to the broadcaster once the stream's response head is out.

waitress serves each connection with an ``HTTPChannel`` in its non-blocking main loop and runs each
request as a task on a worker thread. Two small subclasses use waitress's own extension points
(``BaseWSGIServer.channel_class``, ``HTTPChannel.task_class``):

* ``HandoffTask`` puts a ``Handoff`` in the environ; when the route opened a stream, ``finish`` writes
  the response head (``Connection: close``, so nothing else ever follows on this connection) but not
  the end of the body, and marks the channel. The worker thread is then free.
* ``HandoffChannel``: waitress closes a ``Connection: close`` channel in its main loop once every byte
  it owed (earlier responses on the same keep-alive connection, then this head) has been sent.
  ``handle_close`` then takes the socket out of waitress instead of closing it and gives it to the
  broadcaster, so the broadcaster's first byte follows waitress's last one.
"""

from __future__ import annotations

from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import WSGITask

from companion.streaming.broadcaster import Broadcaster, Stream
from companion.streaming.handoff import HANDOFF_KEY, Handoff


class HandoffTask(WSGITask):
    """A WSGI task whose stream response leaves the thread once its head is written."""

    channel: HandoffChannel

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ.setdefault(HANDOFF_KEY, Handoff(self.channel.broadcaster))
        return environ

    def service(self) -> None:
        try:
            super().service()
        finally:
            stream = self._stream()
            if stream is not None and self.channel.handoff is None:  # the response failed on the way
                self.channel.broadcaster.cancel(stream)

    def finish(self) -> None:
        stream = self._stream()
        if stream is None:
            super().finish()
            return
        if not self.status.startswith("200"):
            self.channel.broadcaster.cancel(stream)
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")  # the head; waitress marks it Connection: close (no length, or HTTP/1.0)
        self.close_on_finish = True
        self.channel.handoff = (stream, bool(self.chunked_response))

    def _stream(self) -> Stream | None:
        handoff = (self.environ or {}).get(HANDOFF_KEY)
        return handoff.stream if isinstance(handoff, Handoff) else None


class HandoffChannel(HTTPChannel):
    """An HTTP channel that gives a stream's socket to the broadcaster instead of closing it."""

    task_class = HandoffTask
    broadcaster: Broadcaster  # set on the subclass ``install`` makes
    handoff: tuple[Stream, bool] | None = None

    def handle_close(self) -> None:
        handoff, sock = self.handoff, getattr(self, "socket", None)
        if handoff is None or sock is None:
            super().handle_close()
            return
        self.handoff = None
        self.socket = None  # waitress's close() then forgets the socket without closing it
        super().handle_close()
        stream, chunked = handoff
        self.broadcaster.adopt(stream, sock, chunked)


def install(server: Any, broadcaster: Broadcaster) -> None:
    """Make ``server`` (what ``waitress.create_server`` returned) hand its streams to ``broadcaster``."""
    channel_class = type("BroadcastHandoffChannel", (HandoffChannel,), {"broadcaster": broadcaster})
    listeners = getattr(server, "map", {}).values() if not hasattr(server, "channel_class") else [server]
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = channel_class
