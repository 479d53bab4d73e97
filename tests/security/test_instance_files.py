"""The instance folder is the companion user's alone: folder 0700; the secret key, the database (every
table PIN) and its -wal and -shm files 0600, the key never visible with another mode, and the files of
an older install tightened at start-up. (The test runner's umask is the usual 022: without the control
every file here would be 0644, the folder 0755.)"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from flask import Flask

from companion import instance_files
from companion.app import create_app, shutdown_app
from tests.conftest import FAST_TOWER, LiveServer, start_server
from tests.security.live import RawClient

TWO_PLAYERS = b'{"players": [{"name": "Ana", "colour": "blue"}, {"name": "Ben", "colour": "red"}], "seed": 1}'
DATABASE_FILES = ("keshi.sqlite3", "keshi.sqlite3-wal", "keshi.sqlite3-shm")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def modes(instance: Path) -> dict[str, str]:
    """{name: octal mode} of the folder and the private files in it."""
    names = ("secret_key", *DATABASE_FILES)
    return {".": oct(mode(instance)), **{name: oct(mode(instance / name)) for name in names}}


PRIVATE = {".": "0o700", "secret_key": "0o600", **dict.fromkeys(DATABASE_FILES, "0o600")}


def test_a_live_server_keeps_its_instance_private_after_a_write(tmp_path: Path) -> None:
    """``start_server`` makes the folder (0755) and writes config.json first: the server tightens it."""
    server: LiveServer = start_server(tmp_path / "instance")
    try:
        table = RawClient(server.url)
        created = table.send("POST", "/api/games", TWO_PLAYERS, {"Content-Type": "application/json"})
        assert created.status == 201, created.body
        assert (server.instance / "keshi.sqlite3-wal").stat().st_size > 0  # the write went through the WAL
        assert modes(server.instance) == PRIVATE
    finally:
        server.process.kill()
        server.process.wait()


def test_a_new_instance_folder_is_made_private(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "new" / "instance")
    try:
        with app.extensions["keshi.store"].write() as db:
            db.execute("INSERT INTO settings (key, value) VALUES ('probe', '1')")
        assert modes(tmp_path / "new" / "instance") == PRIVATE
    finally:
        shutdown_app(app)


def test_an_older_install_with_readable_files_is_tightened_at_start_up(app: Flask) -> None:
    instance = Path(app.instance_path)
    shutdown_app(app)
    for name in DATABASE_FILES:
        (instance / name).touch()  # an empty -wal / -shm: SQLite starts them afresh
    for name in ("secret_key", *DATABASE_FILES):
        (instance / name).chmod(0o644)
    instance.chmod(0o755)
    again = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER}, instance_path=instance)
    try:
        assert modes(instance) == PRIVATE
    finally:
        shutdown_app(again)


def test_the_secret_key_is_0600_before_it_has_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written under a temporary name already 0600, then renamed: never readable by others, not even
    between writing and tightening, and never seen half written."""
    seen: list[tuple[str, int, bool]] = []
    real_replace = os.replace

    def watched_replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        seen.append((Path(target).name, mode(Path(source)), Path(target).exists()))
        real_replace(source, target)

    monkeypatch.setattr(instance_files.os, "replace", watched_replace)
    app = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "instance")
    shutdown_app(app)
    assert ("secret_key", 0o600, False) in seen
    assert sorted(p.name for p in (tmp_path / "instance").iterdir() if p.name.endswith(".part")) == []


def test_writing_a_private_file_replaces_it_whole_and_keeps_it_0600(tmp_path: Path) -> None:
    target = tmp_path / "owner_code"
    target.write_text("old")
    target.chmod(0o644)
    instance_files.write_private_file(target, "new")
    assert target.read_text() == "new" and mode(target) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["owner_code"]
