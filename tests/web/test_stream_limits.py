"""Event streams under ``keshi serve``: off the request threads, capped with a 503, one per tab.

Real servers and real sockets; nothing here measures time (deadlines only bound the waits).
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.conftest import LiveServer, start_server


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[LiveServer]:
    """A server that takes 2 streams and answers with 2 request threads."""
    server = start_server(tmp_path / "instance", None, "--max-streams", "2", "--threads", "2")
    yield server
    server.stop()


def connect(server: LiveServer, path: str,
            **headers: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    url = urlparse(server.url)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
    conn.request("GET", path, headers={"Accept": "text/event-stream", **headers})
    return conn, conn.getresponse()


def raw_stream(server: LiveServer, path: str) -> tuple[socket.socket, int]:
    """A stream on a plain socket (to close it or read it to its end): the socket and the status."""
    url = urlparse(server.url)
    sock = socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    return sock, int(head.split(b" ", 2)[1])


def read_to_end(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


def wait_for(condition: object, what: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {what}")


def test_past_the_cap_a_stream_gets_503_with_retry_after_in_the_phones_language(capped: LiveServer) -> None:
    opened = [connect(capped, f"/events?tab=t{i}") for i in range(2)]
    assert [response.status for _, response in opened] == [200, 200]
    _, refused = connect(capped, "/events?tab=t3")
    assert refused.status == 503
    assert refused.getheader("Retry-After") == "10"
    body = json.loads(refused.read())
    assert body["retry_after"] == 10 and "as many screens as it can" in body["error"]
    _, german = connect(capped, "/events?tab=t4", **{"Accept-Language": "de-DE"})
    assert german.status == 503
    assert "so vielen Bildschirmen" in json.loads(german.read())["error"]
    # the two open streams hold no request thread: with 2 threads, pages still answer
    assert capped.get_json("/healthz")["status"] == "ok"
    for conn, _ in opened:
        conn.close()


def test_open_streams_take_no_request_thread(tmp_path: Path) -> None:
    server = start_server(tmp_path / "instance", None, "--threads", "2")
    try:
        streams = [connect(server, f"/events?tab=s{i}") for i in range(12)]
        assert all(response.status == 200 for _, response in streams)
        assert server.get_json("/healthz")["database"] == "ok"
        for conn, _ in streams:
            conn.close()
    finally:
        server.stop()


def test_a_reconnect_of_the_same_tab_replaces_its_stream(capped: LiveServer) -> None:
    old, old_status = raw_stream(capped, "/events?tab=phone")
    other, other_status = raw_stream(capped, "/events?tab=other")
    assert old_status == other_status == 200
    new, new_status = raw_stream(capped, "/events?tab=phone")  # at the cap, yet its own reconnect is welcome
    assert new_status == 200
    body = read_to_end(old)  # the replaced stream is ended by the server, properly
    assert b"retry: 1000" in body and body.endswith(b"0\r\n\r\n")
    _, third = connect(capped, "/events?tab=third")
    assert third.status == 503  # the replaced stream freed its place for the new one, not for another
    for sock in (old, other, new):
        sock.close()


def test_a_client_that_left_frees_its_place(capped: LiveServer) -> None:
    first, first_status = raw_stream(capped, "/events?tab=a")
    second, second_status = raw_stream(capped, "/events?tab=b")
    assert first_status == second_status == 200
    assert connect(capped, "/events?tab=c")[1].status == 503
    first.close()  # the phone left (its tab closed)

    def room() -> bool:
        conn, response = connect(capped, "/events?tab=c")
        if response.status == 200:
            return True
        conn.close()
        return False

    wait_for(room, "the left client's place is free again")
    second.close()
