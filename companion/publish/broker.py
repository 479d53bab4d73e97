"""Where an MQTT broker is and how to log in to it, shared by the companion's publisher and the hub.

A broker is named by a URL: ``mqtt://host[:port]`` (plain, port 1883) or ``mqtts://host[:port]`` (TLS,
port 8883). Credentials come from the settings (config.json's ``MQTT.username``/``password``), from
the URL's user part or from the environment (``KESHI_MQTT_PASSWORD``), in that order of preference.

Credentials never reach a log line or a page: everything that shows a broker uses ``display``,
which is the URL without any user or password.
"""

from __future__ import annotations

import os
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt

from companion.errors import ConfigError

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
PASSWORD_ENV = "KESHI_MQTT_PASSWORD"


@dataclass(frozen=True)
class BrokerSettings:
    """One broker: host, port, TLS and credentials (``repr`` hides the password)."""

    host: str
    port: int
    tls: bool = False
    ca_file: str | None = None
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    @property
    def display(self) -> str:
        """The broker for logs and pages: scheme, host and port, never the credentials."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    def configure(self, client: mqtt.Client) -> None:
        """Give ``client`` this broker's credentials and TLS settings (before connecting)."""
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=self.ca_file, cert_reqs=ssl.CERT_REQUIRED)


def parse_broker(
    url: str,
    *,
    username: str | None = None,
    password: str | None = None,
    tls: bool | None = None,
    ca_file: str | None = None,
) -> BrokerSettings:
    """Read a broker URL (plus explicit settings, which win); ``ConfigError`` names what is wrong."""
    if not isinstance(url, str) or not url.strip():
        raise ConfigError("the MQTT broker must be a URL such as mqtt://hub.local:1883")
    parts = urlsplit(url.strip())
    if parts.scheme not in DEFAULT_PORTS:
        raise ConfigError(f"the MQTT broker URL must start with mqtt:// or mqtts://, not {parts.scheme or 'nothing'}://")
    if not parts.hostname:
        raise ConfigError("the MQTT broker URL names no host (expected mqtt://HOST[:PORT])")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise ConfigError("the MQTT broker URL has a port that is not a number between 1 and 65535") from None
    use_tls = parts.scheme == "mqtts" if tls is None else bool(tls)
    if ca_file is not None and not Path(ca_file).is_file():
        raise ConfigError(f"the MQTT CA certificate file {ca_file} does not exist")
    user = username if username is not None else (unquote(parts.username) if parts.username else None)
    secret = password if password is not None else (unquote(parts.password) if parts.password else None)
    if secret is None:
        secret = os.environ.get(PASSWORD_ENV) or None
    return BrokerSettings(parts.hostname, port, use_tls, ca_file, user, secret)


def client_id_for(name: str) -> str:
    """An MQTT client id from a readable name: letters, digits, ``-`` and ``_`` only (at most 64)."""
    safe = "".join(ch for ch in name if ch.isalnum() or ch in "-_")
    return safe[:64] or "keshi"
