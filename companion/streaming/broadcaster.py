"""One thread that writes every open event stream with non-blocking sockets.

Why one thread: a stream is idle almost all the time, so a thread per stream (waitress's design
before issue 23) spends a whole request thread on waiting. Here the broadcaster holds one bus
subscription and one ``selectors`` loop: each bus event is handed round every stream's ``Feed``
(work the streams share, such as a game's new messages, is done once per event), the bytes are
queued per stream and sent as far as each socket takes them; the loop wakes for bus events, for
sockets ready to take more, and once a second for heartbeats and reaping.

Limits, each with a clear answer:

* **cap**: ``open()`` past ``cap`` streams raises ``StreamsFull`` (the route answers ``503`` with
  ``Retry-After``);
* **one stream per tab and route**: a stream opened with the ``key`` of a stream still open
  replaces it (the old socket is closed), and the replaced one never counts against the cap;
* **dead clients**: a client that closed is freed as soon as its socket reads end-of-file; one that
  vanished (phone off the network) stops acknowledging the heartbeats, and the kernel's
  ``TCP_USER_TIMEOUT`` (``dead_after``) errors the socket; a client whose queued bytes have not moved
  for ``dead_after`` seconds, or that leaves more than ``max_buffer`` bytes untaken when more come, is dropped (it
  reconnects and resumes from its last event id, so nothing is lost); a stream whose socket never
  arrived (the request failed after the route opened it) is freed after ``dead_after`` too.
"""

from __future__ import annotations

import contextlib
import logging
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from companion.events import EventBus, Subscription
from companion.streaming.feed import Feed, Shared

log = logging.getLogger("keshi.streams")

#: What a phone is told to wait before it tries a stream again when the cap is reached (seconds).
RETRY_AFTER_SECONDS = 10
#: Quiet seconds before a stream's heartbeat (a phone hears three missed ones as a broken stream).
HEARTBEAT_SECONDS = 5.0
#: A client whose bytes do not move for this long is gone (well within the 30 s the issue allows).
DEAD_AFTER_SECONDS = 20.0
#: Bytes a stream may have waiting, not taken by its client, before it counts as too slow to follow.
MAX_BUFFER = 1024 * 1024


class StreamsFull(Exception):
    """The cap is reached: try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"every live stream is taken; retry after {retry_after} s")
        self.retry_after = retry_after


@dataclass(eq=False)
class Stream:
    """One open stream: its feed, its socket once handed over, and the bytes not sent yet."""

    feed: Feed
    key: Hashable | None
    opened: float = field(default_factory=time.monotonic)
    sock: socket.socket | None = None
    chunked: bool = False  # HTTP/1.1 chunked framing (waitress wrote the head with it)
    out: bytearray = field(default_factory=bytearray)
    moved: float = field(default_factory=time.monotonic)  # last time queued bytes went out (or arrived)
    last_write: float = field(default_factory=time.monotonic)
    ending: bool = False  # close once everything queued is sent
    closed: bool = False


class Broadcaster:
    """Every open stream, written from one thread; ``open`` and ``adopt`` may be called from any."""

    def __init__(self, bus: EventBus, cap: int, *, heartbeat_seconds: float = HEARTBEAT_SECONDS,
                 dead_after: float = DEAD_AFTER_SECONDS, max_buffer: int = MAX_BUFFER,
                 retry_after: int = RETRY_AFTER_SECONDS) -> None:
        self.bus = bus
        self.cap = cap
        self.heartbeat_seconds = heartbeat_seconds
        self.dead_after = dead_after
        self.max_buffer = max_buffer
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._live: set[Stream] = set()
        self._by_key: dict[Hashable, Stream] = {}
        self._commands: deque[Callable[[], None]] = deque()
        #: What the streams opened since the last bus event (or heartbeat tick) read, shared by the next
        #: ones at the same position: 300 phones opening a game at its newest event read it once.
        self._openings: Shared = {}
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._woken = False
        self._stopping = False
        self._subscription: Subscription | None = None
        self._thread = threading.Thread(target=self._run, name="keshi-streams", daemon=True)

    # --- any thread -----------------------------------------------------------------------------
    def start(self) -> None:
        """Subscribe to the bus and start the loop."""
        self._subscription = self.bus.subscribe(notify=self._wake)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Close every stream and end the loop."""
        self._stopping = True
        self._wake()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def open(self, feed: Feed, key: Hashable | None = None) -> Stream:
        """Register a stream (its socket follows with ``adopt``); replaces an open one with ``key``.

        Raises ``StreamsFull`` past the cap. The feed's opening is queued by the loop, in order with
        the bus events it hands round, so nothing falls between the two.
        """
        with self._lock:
            if self._stopping:
                raise StreamsFull(self.retry_after)
            old = self._by_key.pop(key, None) if key is not None else None
            if old is not None:
                self._live.discard(old)
            if len(self._live) >= self.cap:
                raise StreamsFull(self.retry_after)
            stream = Stream(feed, key)
            self._live.add(stream)
            if key is not None:
                self._by_key[key] = stream
            if old is not None:
                self._commands.append(lambda: self._close(old, "replaced by a reconnect of its tab", goodbye=True))
            self._commands.append(lambda: self._begin(stream))
        self._wake()
        return stream

    def adopt(self, stream: Stream, sock: socket.socket, chunked: bool) -> None:
        """Hand ``stream`` its client's socket (the response head already sent)."""
        with self._lock:
            self._commands.append(lambda: self._attach(stream, sock, chunked))
        self._wake()

    def cancel(self, stream: Stream) -> None:
        """Forget a stream whose response never went out."""
        with self._lock:
            self._commands.append(lambda: self._close(stream, "its request failed"))
        self._wake()

    @property
    def open_count(self) -> int:
        """Streams that count against the cap (open, or opened and waiting for their socket)."""
        with self._lock:
            return len(self._live)

    def _wake(self) -> None:
        if self._woken:
            return
        self._woken = True
        with contextlib.suppress(OSError):  # full (already woken) or closed (stopped)
            self._wake_w.send(b"!")

    # --- the loop's thread ----------------------------------------------------------------------
    def _run(self) -> None:
        tick = min(1.0, self.heartbeat_seconds / 2)
        next_check = time.monotonic() + tick
        try:
            while not self._stopping:
                for key, mask in self._selector.select(timeout=max(0.0, next_check - time.monotonic())):
                    if key.data is None:
                        self._drain_wake()
                        continue
                    stream: Stream = key.data
                    if mask & selectors.EVENT_READ:
                        self._read(stream)
                    if mask & selectors.EVENT_WRITE and not stream.closed:
                        self._flush(stream)
                self._run_commands()
                self._hand_round()
                now = time.monotonic()
                if now >= next_check:
                    self._heartbeats_and_reaping(now)
                    next_check = now + tick
        except Exception:  # a bug here must not leave phones hanging on a silent stream
            log.exception("the stream broadcaster failed; closing every stream")
        finally:
            self._shut()

    def _drain_wake(self) -> None:
        """Empty the wake socket, then let the next ``_wake`` write to it again.

        In that order: a wake that lands while the socket is drained finds the flag still set and
        writes nothing, and its queued work is read after this (the loop reads the queues next). The
        other order let such a wake's byte be drained with the flag left set, and every later wake
        returned without writing: from then on the loop served phones only on its one-second tick.
        """
        with contextlib.suppress(OSError):  # BlockingIOError: drained
            while self._wake_r.recv(4096):
                pass
        self._woken = False  # before reading the queues: a later publish wakes the loop again

    def _run_commands(self) -> None:
        while True:
            with self._lock:
                if not self._commands:
                    return
                command = self._commands.popleft()
            command()

    def _begin(self, stream: Stream) -> None:
        if not stream.closed:
            self._send(stream, stream.feed.opening(self._openings))

    def _attach(self, stream: Stream, sock: socket.socket, chunked: bool) -> None:
        if stream.closed:
            sock.close()
            return
        sock.setblocking(False)
        if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux: unacknowledged heartbeats end a vanished client
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(self.dead_after * 1000))
        stream.sock, stream.chunked = sock, chunked
        if chunked and stream.out:  # queued before the head's framing was known
            body = bytes(stream.out)
            stream.out.clear()
            stream.out += _chunk(body)
        stream.moved = time.monotonic()
        self._selector.register(sock, selectors.EVENT_READ, stream)
        self._flush(stream)

    def _hand_round(self) -> None:
        if self._subscription is None:
            return
        while (event := self._subscription.get(timeout=0)) is not None:
            self._openings = {}  # positions move on: later openings read afresh
            shared: Shared = {}
            for stream in list(self._live):
                if stream.closed or stream.ending:
                    continue
                text, ended = stream.feed.on_event(event, shared)
                if text:
                    self._send(stream, text)
                if ended:
                    stream.ending = True
                    self._flush(stream)

    def _heartbeats_and_reaping(self, now: float) -> None:
        self._openings = {}  # kept at most one tick (a Morocco game's opening burst is 256 KiB and more)
        for stream in list(self._live):
            if stream.sock is None:
                if now - stream.opened > self.dead_after:
                    self._close(stream, "its socket never arrived")
            elif stream.out and now - stream.moved > self.dead_after:
                self._close(stream, f"its client took nothing for {self.dead_after:.0f} s")
            elif now - stream.last_write >= self.heartbeat_seconds:
                self._send(stream, stream.feed.heartbeat())

    def _send(self, stream: Stream, text: str) -> None:
        data = text.encode()
        if stream.sock is not None and stream.chunked:
            data = _chunk(data)
        if len(stream.out) > self.max_buffer:  # what it has not taken yet (one burst may be bigger)
            self._close(stream, "its client is too slow to follow")
            return
        if not stream.out:
            stream.moved = time.monotonic()
        stream.out += data
        stream.last_write = time.monotonic()
        if stream.sock is not None:
            self._flush(stream)

    def _flush(self, stream: Stream) -> None:
        sock = stream.sock
        if sock is None or stream.closed:
            return
        try:
            while stream.out:
                sent = sock.send(stream.out)
                if not sent:
                    break
                del stream.out[:sent]
                stream.moved = time.monotonic()
        except BlockingIOError:
            pass
        except OSError:
            self._close(stream, "its connection broke")
            return
        if not stream.out and stream.ending:
            self._close(stream, "its feed ended", goodbye=True)
            return
        wanted = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.out else 0)
        if self._selector.get_key(sock).events != wanted:
            self._selector.modify(sock, wanted, stream)

    def _read(self, stream: Stream) -> None:
        """A stream's client sends nothing after its request: end-of-file or an error means it left."""
        sock = stream.sock
        if sock is None:
            return
        try:
            if sock.recv(4096):
                return
        except BlockingIOError:
            return
        except OSError:
            pass
        self._close(stream, "its client left")

    def _close(self, stream: Stream, why: str, goodbye: bool = False) -> None:
        """Free ``stream``; with ``goodbye``, first end its body properly if nothing is left queued."""
        if stream.closed:
            return
        stream.closed = True
        if goodbye and stream.sock is not None and stream.chunked and not stream.out:
            with contextlib.suppress(OSError):
                stream.sock.send(b"0\r\n\r\n")
        with self._lock:
            self._live.discard(stream)
            if stream.key is not None and self._by_key.get(stream.key) is stream:
                del self._by_key[stream.key]
        if stream.sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(stream.sock)
            stream.sock.close()
        stream.out.clear()
        log.debug("stream closed: %s", why)

    def _shut(self) -> None:
        with self._lock:
            self._stopping = True
            streams = list(self._live)
            commands = list(self._commands)
            self._commands.clear()
        for command in commands:  # adopt()s still queued hold sockets to close
            try:
                command()
            except Exception:
                log.exception("closing a stream at shutdown")
        for stream in streams:
            self._close(stream, "the companion stops", goodbye=True)
        if self._subscription is not None:
            self._subscription.close()
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()


def _chunk(data: bytes) -> bytes:
    """``data`` as one HTTP/1.1 chunk."""
    return b"%x\r\n%s\r\n" % (len(data), data) if data else b""
