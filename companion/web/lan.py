"""The address other phones reach this companion at, for the join QR code and the printed join URL.

When the host screen is opened on the Pi itself (``http://localhost:8000``), the request's host is
a loopback address no phone can reach; the join link must name the machine's LAN address instead.
It is found without sending anything: ``connect`` on a UDP socket only picks the outgoing interface
(no packet leaves), then ``getsockname`` names its address; failing that, the addresses the host
name resolves to. With no LAN address at all, the request's own host is kept.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

#: Any private address will do: a UDP ``connect`` to it sends nothing, it only chooses a route.
PROBE_ADDRESS = ("10.254.254.254", 1)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IPs (``127.0.0.0/8``, ``::1``)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def loopback_only(listen_host: str | None) -> bool:
    """True when the server listens on a loopback address only (``keshi serve --host 127.0.0.1``): then no phone
    can reach it at any address, and the join link must name the one that works, on this machine. ``None``: not
    known (an app not started by ``keshi serve``)."""
    return listen_host is not None and is_loopback(listen_host)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def lan_address() -> str | None:
    """This machine's IPv4 LAN address, or None when it has none (found without network traffic)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_ADDRESS)
            address = str(probe.getsockname()[0])
        if _usable(address):
            return address
    except OSError:
        pass  # no route at all: try what the host name resolves to
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:
        return None
    return next((str(info[4][0]) for info in infos if _usable(str(info[4][0]))), None)


def reachable_url(url: str) -> str:
    """``url`` with a loopback host replaced by the LAN address (port, path and query kept)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not is_loopback(host):
        return url
    address = lan_address()
    if address is None:
        return url
    netloc = address + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
