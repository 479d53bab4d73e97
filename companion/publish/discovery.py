"""Home Assistant MQTT discovery: each tower appears as a device with a handful of entities.

Home Assistant reads retained ``<discovery_prefix>/<component>/<node_id>/<object_id>/config``
messages (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery); each config names the
tower's retained ``state`` topic and a template picking its value out of the state JSON, the
availability topic (so entities go "unavailable" when a Pi vanishes) and the device they belong to.
The entities: the last toss's keshis in and out (per-colour counts as attributes), the keshis held
in the tower, the fault state (a ``problem`` binary sensor, its message as an attribute), the
fairness verdict (its headline and each question's answer as attributes) and the number of tosses recorded.

Ids are stable and unique per tower *name*: two names with the same topic slug ("Table-1" and
"Table 1" are both ``table_1``) would otherwise share Home Assistant's unique ids. So the device id,
each entity's unique id and its config topic's object id carry ``name_digest``, a short hash of the
exact name; the node level of the topic stays ``keshi_<slug>``, the one the broker's ACL names.
``legacy_topics`` are the config topics of the ids used before, which the publisher clears.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from companion import __version__
from companion.publish.topics import OFFLINE, ONLINE, topic


@dataclass(frozen=True)
class Entity:
    """One Home Assistant entity of a tower."""

    object_id: str
    component: str
    name: str
    value_template: str
    icon: str
    extra: tuple[tuple[str, Any], ...] = ()
    attributes_template: str | None = None


ENTITIES: tuple[Entity, ...] = (
    Entity("last_toss_out", "sensor", "Last toss: keshis out", "{{ value_json.last_toss.out }}", "mdi:tray-arrow-down",
           (("state_class", "measurement"), ("unit_of_measurement", "keshis")),
           "{{ value_json.last_toss.pieces_out | tojson }}"),
    Entity("last_toss_in", "sensor", "Last toss: keshis in", "{{ value_json.last_toss.in }}", "mdi:tray-arrow-up",
           (("state_class", "measurement"), ("unit_of_measurement", "keshis")),
           "{{ value_json.last_toss.pieces_in | tojson }}"),
    Entity("pieces_held", "sensor", "Keshis held in the tower", "{{ value_json.pieces_held }}", "mdi:castle",
           (("state_class", "measurement"), ("unit_of_measurement", "keshis")),
           "{{ value_json.contents | tojson }}"),
    Entity("fault", "binary_sensor", "Tower fault", "{{ 'ON' if value_json.fault else 'OFF' }}", "mdi:alert",
           (("device_class", "problem"), ("payload_on", "ON"), ("payload_off", "OFF")),
           "{{ {'fault': value_json.fault, 'beam': value_json.beam, 'camera': value_json.camera} | tojson }}"),
    Entity("verdict", "sensor", "Fairness verdict", "{{ value_json.verdict }}", "mdi:scale-balance", (),
           "{{ value_json.verdict_detail | tojson }}"),
    Entity("tosses", "sensor", "Tosses recorded", "{{ value_json.tosses }}", "mdi:counter",
           (("state_class", "total_increasing"), ("unit_of_measurement", "tosses"))),
)


def discovery_messages(
    tower: str, slug: str, prefix: str, discovery_prefix: str
) -> list[tuple[str, dict[str, Any]]]:
    """``(topic, config)`` for every entity of tower ``tower`` (topic-safe name ``slug``)."""
    node = f"keshi_{slug}".replace("-", "_")
    digest = name_digest(tower)
    state = topic(prefix, slug, "state")
    device = {
        "identifiers": [f"{node}_{digest}"],
        "name": f"Keshi tower {tower}",
        "manufacturer": "Keshi Tower Companion",
        "model": "Marrakesh keshi tower",
        "sw_version": __version__,
    }
    messages = []
    for entity in ENTITIES:
        config: dict[str, Any] = {
            "name": entity.name,
            "unique_id": f"{node}_{digest}_{entity.object_id}",
            "state_topic": state,
            "value_template": entity.value_template,
            "availability_topic": topic(prefix, slug, "availability"),
            "payload_available": ONLINE,
            "payload_not_available": OFFLINE,
            "icon": entity.icon,
            "device": device,
            **dict(entity.extra),
        }
        if entity.attributes_template is not None:
            config["json_attributes_topic"] = state
            config["json_attributes_template"] = entity.attributes_template
        messages.append((f"{discovery_prefix}/{entity.component}/{node}/{digest}_{entity.object_id}/config", config))
    return messages


def name_digest(tower: str) -> str:
    """Eight hex digits of the SHA-256 of the exact tower name: stable, and different for "Table-1" and "Table 1"."""
    return hashlib.sha256(tower.encode()).hexdigest()[:8]


def legacy_topics(slug: str, discovery_prefix: str) -> list[str]:
    """The config topics a tower's entities had before their ids carried ``name_digest``."""
    node = f"keshi_{slug}".replace("-", "_")
    return [f"{discovery_prefix}/{entity.component}/{node}/{entity.object_id}/config" for entity in ENTITIES]
