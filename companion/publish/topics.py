"""MQTT topic names: one subtree per tower under a prefix (default ``keshi``).

* ``<prefix>/<tower>/toss`` — one message per toss (and again when the table corrects it), QoS 1;
* ``<prefix>/<tower>/event`` — one message per stored game event, QoS 1;
* ``<prefix>/<tower>/state`` — retained: health and the Home Assistant sensor values;
* ``<prefix>/<tower>/availability`` — retained ``online``/``offline`` (the broker sends ``offline``
  as the client's last will when a Pi vanishes);
* ``<prefix>/<tower>/stored`` — retained, written by the hub: up to which revision it holds the
  tower's stream, and whether it asks the tower to send again after it (``companion.hub.marks``).

``<tower>`` is the tower's name made topic-safe by ``tower_slug``; the payloads carry the real name.
"""

from __future__ import annotations

import re

from companion.errors import ConfigError

DEFAULT_PREFIX = "keshi"
DEFAULT_DISCOVERY_PREFIX = "homeassistant"
#: What a tower publishes (the hub subscribes to each).
KINDS = ("toss", "event", "state", "availability")
#: What the hub publishes to a tower.
STORED = "stored"
ONLINE = "online"
OFFLINE = "offline"

_UNSAFE = re.compile(r"[^a-z0-9_-]+")


def tower_slug(name: str) -> str:
    """The tower's name as one topic level: lower case, ``[a-z0-9_-]``, other runs become ``_``."""
    slug = _UNSAFE.sub("_", name.strip().lower()).strip("_")
    if not slug:
        raise ConfigError(f"the tower name {name!r} has no letters or digits to name its MQTT topics by")
    return slug


def check_prefix(prefix: str, what: str) -> str:
    """A topic prefix: non-empty, no wildcards, no leading or trailing ``/``."""
    if not isinstance(prefix, str) or not prefix or prefix != prefix.strip("/ ") or any(c in prefix for c in "+#"):
        raise ConfigError(f"{what} must be a topic such as 'keshi' (no '+', '#' or leading/trailing '/'), "
                          f"not {prefix!r}")
    return prefix


def topic(prefix: str, slug: str, kind: str) -> str:
    """The topic of one ``kind`` of message of tower ``slug``."""
    if kind not in KINDS and kind != STORED:
        raise ValueError(f"unknown message kind {kind!r}")
    return f"{prefix}/{slug}/{kind}"


def subscription(prefix: str, kind: str) -> str:
    """The wildcard topic the hub subscribes to for one ``kind`` of every tower."""
    return f"{prefix}/+/{kind}"


def split_topic(prefix: str, name: str) -> tuple[str, str] | None:
    """``(slug, kind)`` of a topic in ``prefix``'s tree, or None for any other topic."""
    parts = name.split("/")
    head = prefix.split("/")
    if len(parts) != len(head) + 2 or parts[: len(head)] != head or parts[-1] not in KINDS:
        return None
    return parts[-2], parts[-1]
