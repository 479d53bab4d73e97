"""The Flask application factory (as in Flask's flaskr tutorial).

``create_app(test_config)`` builds one app around one instance folder, which holds ``config.json``
(optional settings), the SQLite database, the secret key and the camera calibration. The app owns
three long-lived services, kept in ``app.extensions``: the store (``keshi.store``), the event bus
(``keshi.bus``) and the tower service (``keshi.tower``); ``shutdown_app(app)`` stops them in order.
Hardware never touches the web layer: pages talk to the tower service, which reports on the bus.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import tempfile
import threading
from pathlib import Path
from typing import Any

from flask import Flask

from companion import owner_code
from companion.errors import ConfigError
from companion.events import EventBus
from companion.hardware import tower_mode
from companion.i18n import web as i18n_web
from companion.instance_files import private_folder, tighten_file, write_private_file
from companion.publish.publisher import publisher_settings, start_publisher
from companion.store import open_instance_store
from companion.tower.service import TowerService

DEFAULT_CONFIG: dict[str, Any] = {
    "SIMULATE": False,  # force the simulated tower even on a Pi
    "TOWER_NAME": "default",
    "TOWER_LAYER": "B1",
    "SIMULATOR_SEED": None,
    "SIMULATOR_TIME_SCALE": 1.0,  # < 1 speeds the simulated tower up (tests)
    # hardware mode's camera replays this folder's images (relative to the instance folder), also off a Pi
    "CAMERA_FRAMES_DIR": None,
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
    # the companion's own screen (a loopback request) is the host; switch off behind a reverse proxy,
    # where every request arrives from loopback (docs/security.md)
    "LOOPBACK_IS_HOST": True,
}


def create_app(test_config: dict[str, Any] | None = None, instance_path: str | Path | None = None) -> Flask:
    """Build the app for ``instance_path`` (default ``./instance``); ``test_config`` overrides config.json."""
    instance = Path(instance_path or os.environ.get("KESHI_INSTANCE", "instance")).resolve()
    ensure_writable_instance(instance)
    app = Flask(
        __name__,
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder="web/templates",
        static_folder="web/static",
    )
    app.config.from_mapping(DEFAULT_CONFIG)
    app.config.from_file("config.json", load=_load_json, silent=True)
    if test_config:
        app.config.from_mapping(test_config)
    check_settings(app.config)
    publishing = publisher_settings(app.config.get("MQTT"), app.config["TOWER_NAME"])  # off unless configured
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    store = open_instance_store(instance)
    bus = EventBus()
    frames = app.config["CAMERA_FRAMES_DIR"]
    camera_frames = instance / frames if frames is not None else None
    mode = tower_mode(bool(app.config["SIMULATE"]), camera_frames=camera_frames)
    tower = TowerService(
        bus,
        store,
        mode=mode,
        instance_dir=instance,
        layer=app.config["TOWER_LAYER"],
        tower=app.config["TOWER_NAME"],
        seed=app.config["SIMULATOR_SEED"],
        time_scale=float(app.config["SIMULATOR_TIME_SCALE"]),
        camera_frames=camera_frames,
    )
    app.extensions["keshi.store"] = store
    app.extensions["keshi.bus"] = bus
    app.extensions["keshi.tower"] = tower
    app.extensions["keshi.stopping"] = threading.Event()

    i18n_web.init_app(app)  # first: every later hook and page speaks the request's language
    register_web(app)
    tower.start()
    app.extensions["keshi.publisher"] = start_publisher(publishing, store, bus, tower.status)
    return app


def register_web(app: Flask) -> None:
    """The dashboard: game service, tower link, CSRF check, one blueprint per concern.

    Flask's interactive debugger is never enabled: ``debug`` is forced off whatever the config says,
    because anyone on the table's network could run code through it.
    """
    from companion.fairness import blueprint as fairness
    from companion.table.service import GameService
    from companion.table.tower_link import TowerLink
    from companion.web import (
        access,
        board_profile_api,
        calibration,
        game_stream,
        games_api,
        hardening,
        health,
        host,
        installable,
        pages,
        snapshots,
        stream,
        tower_page,
    )

    app.debug = False
    games = GameService(app.extensions["keshi.store"], app.extensions["keshi.bus"], app.extensions["keshi.tower"])
    link = TowerLink(app.extensions["keshi.bus"], games, app.extensions["keshi.stopping"], Path(app.instance_path))
    app.extensions["keshi.tower"].button_handler = link.button_toss  # the button tosses for the game
    app.extensions["keshi.games"] = games
    app.extensions["keshi.tower_link"] = link
    app.extensions["keshi.owner_code"] = _owner_code(Path(app.instance_path))
    access.install(app)
    hardening.install(app)
    app.register_blueprint(health.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(tower_page.bp)
    app.register_blueprint(snapshots.bp)
    app.register_blueprint(calibration.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(games_api.bp)
    app.register_blueprint(game_stream.bp)
    app.register_blueprint(fairness.bp)
    app.register_blueprint(board_profile_api.bp)
    app.register_blueprint(installable.bp)
    app.register_blueprint(host.bp)
    link.start()


def shutdown_app(app: Flask) -> None:
    """End event streams, stop the tower, then close the database (in that order)."""
    app.extensions["keshi.stopping"].set()
    app.extensions["keshi.tower"].stop()
    if app.extensions.get("keshi.publisher") is not None:
        app.extensions["keshi.publisher"].stop()
    app.extensions["keshi.store"].close()


def check_settings(config: Any) -> None:
    """Refuse a setting of the wrong kind with a ``ConfigError`` naming it (instead of a traceback later)."""
    for flag in ("SIMULATE", "LOOPBACK_IS_HOST"):
        if not isinstance(config[flag], bool):
            raise ConfigError(f"{flag} must be true or false, not {config[flag]!r}")
    if not isinstance(config["TOWER_NAME"], str) or not config["TOWER_NAME"].strip():
        raise ConfigError(f"TOWER_NAME must be a non-empty text, not {config['TOWER_NAME']!r}")
    if config["TOWER_LAYER"] not in ("B1", "B2"):
        raise ConfigError(f"TOWER_LAYER must be \"B1\" or \"B2\", not {config['TOWER_LAYER']!r}")
    frames = config["CAMERA_FRAMES_DIR"]
    if frames is not None and (not isinstance(frames, str) or not frames.strip()):
        raise ConfigError(f"CAMERA_FRAMES_DIR must be a folder's path or null, not {frames!r}")
    seed = config["SIMULATOR_SEED"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError(f"SIMULATOR_SEED must be a whole number or null, not {seed!r}")
    scale = config["SIMULATOR_TIME_SCALE"]
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not scale > 0:
        raise ConfigError(f"SIMULATOR_TIME_SCALE must be a positive number, not {scale!r}")


def ensure_writable_instance(instance: Path) -> None:
    """Create the instance folder if needed, this user's only (0700: ``companion.instance_files``);
    raise ``ConfigError`` if it cannot be written."""
    try:
        private_folder(instance)
        with tempfile.TemporaryFile(dir=instance):
            pass
    except OSError as exc:
        raise ConfigError(f"the instance folder {instance} cannot be written: {exc.strerror or exc}") from exc


def _owner_code(instance: Path) -> owner_code.CodeFile:
    """The instance's owner code; made and announced in the log on the first start."""
    code, made = owner_code.read_or_create(instance)
    if made:
        logging.getLogger("keshi").info("this companion's owner code is %s: type it on the Host page (/host) of "
                                        "a phone to make it the host; 'keshi owner-code' shows it again", code)
    return owner_code.CodeFile(instance)


def _secret_key(instance: Path) -> str:
    """The instance's persistent secret key (sessions survive restarts), made on first start (0600)."""
    key_file = instance / "secret_key"
    if key_file.exists():
        tighten_file(key_file)  # an older version wrote it before it made it private
    else:
        write_private_file(key_file, secrets.token_hex(32))
    return key_file.read_text().strip()


def _load_json(handle: Any) -> Any:
    try:
        return json.load(handle)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{handle.name} is not valid JSON: {exc}") from exc
