"""The join QR code and URL name an address other phones can reach, even when the host is the Pi itself."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import pytest
import segno

from companion.web import access, lan
from tests.web.conftest import Table


def join_qr(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2)


def host_page(table: Table, base_url: str) -> str:
    """The game page as the companion's own screen sees it from ``base_url``, joined there with the PIN
    (cookies stay with their host name)."""
    csrf = table.client.get("/api/session", base_url=base_url).get_json()["csrf"]
    joined = table.client.post(f"/api/games/{table.game_id}/join", json={"pin": table.pin}, base_url=base_url,
                               headers={"X-CSRF-Token": csrf})
    assert joined.status_code == 200
    response = table.client.get(f"/games/{table.game_id}", base_url=base_url)
    return response.get_data(as_text=True)


def join_link(table: Table, origin: str) -> str:
    """The QR code's link: the join page with the game's long token, never the short PIN."""
    with table.client.application.test_request_context():
        token = access.join_token(table.game_id, table.pin)
    return f"{origin}/games/{table.game_id}/join?token={token}"


def test_on_the_pi_itself_the_join_link_and_qr_use_the_lan_address(table: Table,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        page = host_page(table, base)
        url = join_link(table, "http://192.168.1.23:8000")
        assert f"Scan to join: {url}" in page, base
        assert join_qr(url) in page  # the QR code encodes exactly that URL


def test_from_another_device_the_request_host_is_kept(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    page = host_page(table, "http://keshi.local:8000")
    url = join_link(table, "http://keshi.local:8000")
    assert f"Scan to join: {url}" in page and join_qr(url) in page


def test_without_a_lan_address_the_request_host_is_the_fallback(table: Table,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "lan_address", lambda: None)
    page = host_page(table, "http://127.0.0.1:8000")
    assert f"Scan to join: {join_link(table, 'http://127.0.0.1:8000')}" in page


class NoRouteSocket:
    """A UDP socket whose ``connect`` finds no route (a Pi without a default route)."""

    def __init__(self, *args: Any) -> None:
        pass

    def __enter__(self) -> NoRouteSocket:
        return self

    def __exit__(self, *args: Any) -> None:
        pass

    def connect(self, address: Any) -> None:
        raise OSError(101, "Network is unreachable")


def test_lan_address_falls_back_to_the_host_names_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "socket", NoRouteSocket)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a: [
        (socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("127.0.1.1", 0)),
        (socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("10.0.0.7", 0)),
    ])
    assert lan.lan_address() == "10.0.0.7"  # the loopback alias Debian gives the host name is skipped
    loopback_only = [(socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("127.0.1.1", 0))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a: loopback_only)
    assert lan.lan_address() is None


def test_the_probe_address_is_private_so_connect_sends_nothing_beyond_the_lan() -> None:
    assert ipaddress.ip_address(lan.PROBE_ADDRESS[0]).is_private
    address = lan.lan_address()
    assert address is None or not ipaddress.ip_address(address).is_loopback


def test_listening_on_loopback_only_the_link_names_the_address_that_works(table: Table,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``keshi serve --host 127.0.0.1``: no phone can reach the LAN address, so the link keeps the one that
    works here, and the card says phones cannot join until the companion listens on the Wi-Fi."""
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    monkeypatch.setitem(table.client.application.config, "LISTEN_HOST", "127.0.0.1")
    page = host_page(table, "http://127.0.0.1:8000")
    url = join_link(table, "http://127.0.0.1:8000")
    assert f"Scan to join: {url}" in page and join_qr(url) in page
    assert "192.168.1.23" not in page
    assert 'id="lan-off"' in page and "Phones cannot join yet" in page
    monkeypatch.setitem(table.client.application.config, "LISTEN_HOST", "0.0.0.0")
    assert 'id="lan-off"' not in host_page(table, "http://127.0.0.1:8000")
