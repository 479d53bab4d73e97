"""Home Assistant discovery: the retained configs a tower publishes validate against the documented
schema, and their templates, rendered on the tower's real state message, give the sensor values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2
import jsonschema
import pytest

from companion.events import EventBus
from companion.fairness.load import load_tosses
from companion.fairness.report import build_report
from companion.fairness.simulate import simulate_into_store
from companion.publish.broker import parse_broker
from companion.publish.discovery import discovery_messages, name_digest
from companion.publish.publisher import Publisher, PublisherSettings
from companion.store import Store
from companion.tower.model import TowerParams
from tests.hub.conftest import needs_servers
from tests.hub.mqtt_watch import Watcher
from tests.hub.servers import Mosquitto

SCHEMA = json.loads((Path(__file__).parent / "ha_mqtt_discovery.schema.json").read_text())


def validate(topic: str, config: dict[str, Any]) -> None:
    jsonschema.validate(topic, SCHEMA["$defs"]["discovery_topic"])
    component = topic.split("/")[1]
    jsonschema.validate(config, {**SCHEMA, "$ref": f"#/$defs/{component}"})


def render(template: str, state: dict[str, Any]) -> str:
    """A Home Assistant template rendered the way HA does for MQTT (``value_json`` is the payload)."""
    return jinja2.Environment().from_string(template).render(value_json=state)


def test_schema_refuses_what_home_assistant_would_refuse() -> None:
    good = {"state_topic": "keshi/t/state", "unique_id": "u", "device": {"identifiers": ["d"]}}
    validate("homeassistant/sensor/node/obj/config", good)
    for bad_topic, bad_config in [
        ("homeassistant/sensor/node/obj/config", {**good, "state_topic": "keshi/+/state"}),  # a wildcard
        ("homeassistant/sensor/node/obj/config", {**good, "stat_topic": "x"}),  # a typo
        ("homeassistant/sensor/node/obj/config", {**good, "state_class": "sometimes"}),
        ("homeassistant/sensor/node/obj/config", {**good, "device": {"name": "no identifiers"}}),
        ("homeassistant/sensor/no de/obj/config", good),
    ]:
        with pytest.raises(jsonschema.ValidationError):
            validate(bad_topic, bad_config)


@needs_servers
def test_each_tower_is_a_device_with_valid_sensors(tmp_path: Path, broker: Mosquitto) -> None:
    store = Store(tmp_path / "pi.sqlite3")
    simulate_into_store(store, 30, TowerParams(), seed=3, tower="Table 7")
    bus = EventBus()
    settings = PublisherSettings(parse_broker(broker.url, username=broker.username, password=broker.password),
                                 tower="Table 7", slug="table_7")
    status = {"mode": "simulated", "camera": "simulated", "beam": "ok", "layer": "B1", "tower": "Table 7"}
    watcher = Watcher(broker, "homeassistant/#", "keshi/table_7/state", "keshi/table_7/availability")
    publisher = Publisher(settings, store, bus, status=lambda: status)
    publisher.start()
    try:
        assert watcher.wait_for(lambda w: len([t for t, p in w.latest.items() if t.startswith("homeassistant/") and p])
                                == 6 and "keshi/table_7/state" in w.latest)
        configs = {t: json.loads(p) for t, p in watcher.latest.items() if t.startswith("homeassistant/") and p}
        state = json.loads(watcher.latest["keshi/table_7/state"])
        assert watcher.latest["keshi/table_7/availability"] == b"online"

        for topic, config in configs.items():
            validate(topic, config)
        assert len({c["unique_id"] for c in configs.values()}) == 6
        assert len({json.dumps(c["device"], sort_keys=True) for c in configs.values()}) == 1  # one device
        assert all(c["availability_topic"] == "keshi/table_7/availability" for c in configs.values())

        last = store.query("SELECT pieces_in, pieces_out, contents_after FROM tosses ORDER BY id DESC LIMIT 1")[0]
        digest = name_digest("Table 7")
        values = {t.split("/")[3].removeprefix(f"{digest}_"): render(c["value_template"], state)
                  for t, c in configs.items()}
        assert values["last_toss_out"] == str(sum(json.loads(last["pieces_out"]).values()))
        assert values["last_toss_in"] == str(sum(json.loads(last["pieces_in"]).values()))
        assert values["pieces_held"] == str(sum(json.loads(last["contents_after"]).values()))
        assert values["tosses"] == "30"
        assert values["fault"] == "OFF"
        attributes = json.loads(render(configs[f"homeassistant/sensor/keshi_table_7/{digest}_last_toss_out/config"]
                                       ["json_attributes_template"], state))
        assert attributes == json.loads(last["pieces_out"])

        verdict_topic = f"homeassistant/sensor/keshi_table_7/{digest}_verdict/config"
        expected = build_report(load_tosses(store, tower="Table 7")).verdict  # the table's own verdict
        assert watcher.wait_for(lambda w: render(configs[verdict_topic]["value_template"],
                                                 json.loads(w.latest["keshi/table_7/state"])) == expected)
        bus.publish("tower.fault", {"kind": "beam_dead", "message": "the beam saw nothing for 3 tosses"})
        fault_topic = f"homeassistant/binary_sensor/keshi_table_7/{digest}_fault/config"
        assert watcher.wait_for(lambda w: render(configs[fault_topic]["value_template"],
                                                 json.loads(w.latest["keshi/table_7/state"])) == "ON")
        publisher.stop()
        assert watcher.wait_for(lambda w: w.latest["keshi/table_7/availability"] == b"offline")
    finally:
        publisher.stop()
        watcher.close()
        store.close()


def test_names_with_the_same_slug_get_different_stable_ids() -> None:
    one = discovery_messages("Table-1", "table_1", "keshi", "homeassistant")
    other = discovery_messages("Table 1", "table_1", "keshi", "homeassistant")
    assert not {c["unique_id"] for _, c in one} & {c["unique_id"] for _, c in other}
    assert not {t for t, _ in one} & {t for t, _ in other}
    assert one[0][1]["device"]["identifiers"] != other[0][1]["device"]["identifiers"]
    assert discovery_messages("Table-1", "table_1", "keshi", "homeassistant") == one  # stable
    assert all(t.startswith("homeassistant/sensor/keshi_table_1/") or t.startswith("homeassistant/binary_sensor/"
                                                                                  "keshi_table_1/") for t, _ in one)
