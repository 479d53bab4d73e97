"""The broadcaster on real sockets: fan-out, heartbeats, and dead clients freed.

The limits are shrunk (``dead_after`` below a second) so the tests end quickly; they wait for a
condition with a deadline and never assert how long anything took.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Callable, Iterator

import pytest

from companion.events import Event, EventBus
from companion.streaming.broadcaster import Broadcaster, StreamsFull
from companion.streaming.capacity import stream_cap
from companion.streaming.feed import Shared


class EchoFeed:
    """Sends each event's ``text`` (the same bytes for every stream: ``shared``)."""

    def opening(self, shared: Shared) -> str:
        return "retry: 1000\n\n"

    def on_event(self, event: Event, shared: Shared) -> tuple[str, bool]:
        return f"data: {event.data['text']}\n\n", bool(event.data.get("last"))

    def heartbeat(self) -> str:
        return ": beat\n\n"


@pytest.fixture
def bus() -> EventBus:
    return EventBus()


def started(bus: EventBus, **limits: float) -> Broadcaster:
    broadcaster = Broadcaster(bus, cap=int(limits.pop("cap", 10)), **limits)  # type: ignore[arg-type]
    broadcaster.start()
    return broadcaster


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A connected TCP pair on loopback: (the server's end, the phone's end)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        phone = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    yield server, phone
    phone.close()


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.02)


def read_until(sock: socket.socket, needle: bytes) -> bytes:
    sock.settimeout(10)
    data = b""
    while needle not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_events_heartbeats_and_the_end_of_a_feed_reach_the_phone(
        bus: EventBus, pair: tuple[socket.socket, socket.socket]) -> None:
    broadcaster = started(bus, heartbeat_seconds=0.2)
    try:
        server, phone = pair
        stream = broadcaster.open(EchoFeed())
        broadcaster.adopt(stream, server, chunked=False)
        bus.publish("t", {"text": "one"})
        assert b"data: one" in read_until(phone, b"data: one")
        assert b": beat" in read_until(phone, b": beat")
        bus.publish("t", {"text": "two", "last": True})
        rest = read_until(phone, b"never")  # the feed ended: the broadcaster closes the stream
        assert rest.endswith(b"data: two\n\n")
        wait_for(lambda: broadcaster.open_count == 0, "the ended stream is freed")
    finally:
        broadcaster.stop()


def test_a_phone_that_stops_reading_is_dropped_and_its_place_freed(
        bus: EventBus, pair: tuple[socket.socket, socket.socket]) -> None:
    broadcaster = started(bus, dead_after=0.5, max_buffer=64 * 1024 * 1024, cap=1)
    try:
        server, phone = pair
        phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        stream = broadcaster.open(EchoFeed())
        broadcaster.adopt(stream, server, chunked=False)
        with pytest.raises(StreamsFull):
            broadcaster.open(EchoFeed())
        for _ in range(200):  # far more than the socket buffers hold: the bytes stop moving
            bus.publish("t", {"text": "x" * 16384})
        wait_for(lambda: broadcaster.open_count == 0, "the stalled phone is dropped")
        broadcaster.open(EchoFeed())  # its place is free again
    finally:
        broadcaster.stop()


def test_a_stream_whose_socket_never_arrives_is_freed(bus: EventBus) -> None:
    broadcaster = started(bus, dead_after=0.3, cap=1)
    try:
        broadcaster.open(EchoFeed())  # the request failed before its head went out
        wait_for(lambda: broadcaster.open_count == 0, "the orphaned stream is freed")
    finally:
        broadcaster.stop()


def test_the_default_cap_follows_memory_and_open_files() -> None:
    assert stream_cap(mem_total_kib=512 * 1024, open_files=20000) == 512  # a Pi Zero 2 W: memory decides
    assert stream_cap(mem_total_kib=8 * 1024 * 1024, open_files=1024) == 1024 - 128  # the open-file limit
    assert stream_cap(mem_total_kib=64 * 1024 * 1024, open_files=100000) == 1000  # never past the ceiling


class CountingFeed(EchoFeed):
    """An opening that reads "the game" once per shared dict, as ``GameFeed`` does per position."""

    def __init__(self, reads: list[int], opened: list[str]) -> None:
        self.reads, self.opened = reads, opened

    def opening(self, shared: Shared) -> str:
        if "burst" not in shared:
            self.reads.append(1)
            shared["burst"] = f"data: burst {len(self.reads)}\n\n"
        self.opened.append(shared["burst"])
        return str(shared["burst"])


def test_streams_opening_at_the_same_position_share_one_read_until_the_next_event(bus: EventBus) -> None:
    broadcaster = Broadcaster(bus, cap=10)
    reads: list[int] = []
    opened: list[str] = []
    for _ in range(3):  # queued before the loop runs: all three open in its first round
        broadcaster.open(CountingFeed(reads, opened))
    broadcaster.start()
    try:
        wait_for(lambda: len(opened) == 3, "three openings")
        assert len(reads) == 1 and set(opened) == {"data: burst 1\n\n"}
        heard: list[str] = []
        listener = broadcaster.open(CountingFeed([], heard))
        wait_for(lambda: bool(heard), "the listener's opening")
        bus.publish("note", {"text": "moved on"})
        wait_for(lambda: listener.out.endswith(b"data: moved on\n\n"), "the event handed round")
        broadcaster.open(CountingFeed(reads, opened))
        wait_for(lambda: len(opened) == 4, "an opening after the event")
        assert len(reads) == 2 and opened[-1] == "data: burst 2\n\n"
    finally:
        broadcaster.stop()


class WakeDuringDrain:
    """The wake socket's reading end, with another thread's ``_wake`` landing during the first read
    (what a publisher does when it wakes the loop while the loop empties the socket)."""

    def __init__(self, broadcaster: Broadcaster) -> None:
        self.broadcaster = broadcaster
        self.sock = broadcaster._wake_r
        self.reads = 0

    def recv(self, size: int) -> bytes:
        self.reads += 1
        if self.reads == 1:
            self.broadcaster._wake()
        return self.sock.recv(size)


def test_a_wake_during_the_drain_does_not_silence_later_wakes(bus: EventBus) -> None:
    """After a wake lands while the loop drains its socket, the next wake still reaches the loop
    (before the fix the flag stayed set with the socket empty, and every later wake was dropped)."""
    broadcaster = Broadcaster(bus, cap=1)
    reader = broadcaster._wake_r
    try:
        broadcaster._wake()
        broadcaster._wake_r = WakeDuringDrain(broadcaster)  # type: ignore[assignment]
        broadcaster._drain_wake()
        broadcaster._wake()
        readable = select.select([reader], [], [], 0)[0]
        assert readable == [reader]
    finally:
        reader.close()
        broadcaster._wake_w.close()
