"""The app factory, its instance folder and /healthz."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.app import create_app, shutdown_app
from companion.errors import ConfigError
from companion.store import DATABASE_FILENAME


def test_test_config_overrides_defaults_and_instance_config(tmp_path: Path) -> None:
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "config.json").write_text(json.dumps({"TOWER_LAYER": "B2", "TOWER_NAME": "cafe-3"}))
    app = create_app({"TESTING": True, "SIMULATE": True, "TOWER_NAME": "table-9"}, instance_path=instance)
    try:
        assert app.testing
        assert app.config["TOWER_LAYER"] == "B2"  # from the instance's config.json
        assert app.config["TOWER_NAME"] == "table-9"  # the test config wins
        assert (instance / DATABASE_FILENAME).exists()
        assert app.config["SECRET_KEY"] == (instance / "secret_key").read_text().strip()
    finally:
        shutdown_app(app)


def test_secret_key_survives_a_restart(tmp_path: Path) -> None:
    first = create_app({"SIMULATE": True}, instance_path=tmp_path)
    shutdown_app(first)
    second = create_app({"SIMULATE": True}, instance_path=tmp_path)
    shutdown_app(second)
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]


def test_healthz_reports_simulated_tower_and_database(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["tower"] == "simulated"
    assert body["database"] == "ok"
    assert body["camera"] and body["beam"]
    assert body["version"]


def test_healthz_says_degraded_when_the_database_is_closed(app: Flask, client: FlaskClient) -> None:
    app.extensions["keshi.store"].close()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["database"].startswith("error")


def test_unwritable_instance_folder_is_a_config_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ConfigError, match="cannot be written"):
        create_app({"SIMULATE": True}, instance_path=blocker / "instance")


def test_broken_instance_config_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ConfigError, match="config.json is not valid JSON"):
        create_app({"SIMULATE": True}, instance_path=tmp_path)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"SIMULATOR_TIME_SCALE": "fast"}, "SIMULATOR_TIME_SCALE must be a positive number, not 'fast'"),
        ({"SIMULATOR_TIME_SCALE": 0}, "SIMULATOR_TIME_SCALE must be a positive number, not 0"),
        ({"SIMULATOR_SEED": "7"}, "SIMULATOR_SEED must be a whole number or null"),
        ({"TOWER_LAYER": "B3"}, 'TOWER_LAYER must be "B1" or "B2"'),
        ({"TOWER_NAME": ""}, "TOWER_NAME must be a non-empty text"),
        ({"SIMULATE": "yes"}, "SIMULATE must be true or false"),
    ],
)
def test_a_setting_of_the_wrong_kind_in_config_json_is_named(
    tmp_path: Path, setting: dict[str, object], message: str
) -> None:
    (tmp_path / "config.json").write_text(json.dumps(setting))
    with pytest.raises(ConfigError, match=message):
        create_app(instance_path=tmp_path)
