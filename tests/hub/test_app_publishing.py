"""``keshi serve`` with MQTT in config.json: a toss played on the table reaches the broker."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from companion.app import create_app, shutdown_app
from tests.conftest import FAST_TOWER
from tests.hub.conftest import needs_servers
from tests.hub.mqtt_watch import Watcher
from tests.hub.servers import Mosquitto


@needs_servers
def test_a_played_toss_is_published_with_the_tower_state(
    tmp_path: Path, broker: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    mqtt = {"broker": broker.url, "username": broker.username, "password": broker.password}
    watcher = Watcher(broker, "keshi/table_9/#")
    app = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER, "TOWER_NAME": "Table 9", "MQTT": mqtt},
                     instance_path=tmp_path / "instance")
    try:
        toss_id = app.extensions["keshi.tower"].toss({"red": 3, "white": 2})
        assert watcher.wait_for(lambda w: any(t.endswith("/toss") and json.loads(p)["toss_id"] == toss_id
                                              for t, p in w.received), timeout=15)
        assert watcher.wait_for(lambda w: json.loads(w.latest.get("keshi/table_9/state", b"{}"))
                                .get("last_toss", {}).get("toss_id") == toss_id)
        assert watcher.latest["keshi/table_9/availability"] == b"online"
    finally:
        shutdown_app(app)
    assert watcher.wait_for(lambda w: w.latest["keshi/table_9/availability"] == b"offline")
    watcher.close()
    (message,) = [json.loads(p) for t, p in watcher.received if t.endswith("/toss")]
    assert message["tower"] == "Table 9" and message["pieces_in"]["red"] == 3
    assert broker.password not in caplog.text


def test_publishing_stays_off_without_mqtt_settings(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "instance")
    try:
        assert app.extensions["keshi.publisher"] is None
    finally:
        shutdown_app(app)
