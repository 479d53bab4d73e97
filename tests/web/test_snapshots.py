"""The tower result's camera snapshot and per-colour confidence reach the game view; snapshots are served."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from flask import Flask

from tests.web.conftest import Table
from tests.web.test_games_api import advance_to, wait_for_tower_result

PIECES = [
    {"colour": "green", "confidence": 0.9, "x": 10.0, "y": 12.0},
    {"colour": "green", "confidence": 0.5, "x": 40.0, "y": 12.0},
    {"colour": "black", "confidence": 0.8, "x": 70.0, "y": 30.0},
    {"colour": "unknown", "confidence": 0.2, "x": 90.0, "y": 50.0},
]


def tray_jpeg() -> bytes:
    ok, encoded = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))
    assert ok
    return bytes(encoded.tobytes())


def publish_result(app: Flask, table: Table, toss_id: str, **extra: Any) -> dict[str, Any]:
    """Announce a toss of this game and its result on the bus, as the tower service does; wait for the view."""
    bus = app.extensions["keshi.bus"]
    bus.publish("toss.started", {"toss_id": toss_id, "source": f"game:{table.game_id}", "pieces_in": {}})
    bus.publish("toss.result", {"toss_id": toss_id, "counts": {"green": 2, "black": 1}, "unknown": 1,
                                "source": "camera", "beam_count": 4, "camera_count": 4, "flagged": False, **extra})
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        result = table.view()["tower_result"]
        if result and result["toss_id"] == toss_id:
            return dict(result)
        time.sleep(0.02)
    raise AssertionError("the result never reached the game")


def test_a_reported_snapshot_and_pieces_show_on_the_tower_result(app: Flask, table: Table) -> None:
    advance_to(table, "toss")
    folder = Path(app.instance_path) / "snapshots"
    folder.mkdir()
    (folder / "abc123.jpg").write_bytes(tray_jpeg())
    result = publish_result(app, table, "abc123", snapshot="snapshots/abc123.jpg", pieces=PIECES)
    assert result["snapshot_url"] == "/snapshots/abc123.jpg"
    assert result["colour_confidence"] == {
        "green": {"count": 2, "mean": 0.7, "lowest": 0.5},
        "black": {"count": 1, "mean": 0.8, "lowest": 0.8},
        "unknown": {"count": 1, "mean": 0.2, "lowest": 0.2},
    }
    image = table.client.get(result["snapshot_url"])
    assert image.status_code == 200 and image.mimetype == "image/jpeg" and image.data == tray_jpeg()


def test_a_snapshot_saved_where_it_belongs_is_found_even_if_the_result_does_not_name_it(
        app: Flask, table: Table) -> None:
    advance_to(table, "toss")
    folder = Path(app.instance_path) / "snapshots"
    folder.mkdir()
    (folder / "def456.jpg").write_bytes(tray_jpeg())
    assert publish_result(app, table, "def456")["snapshot_url"] == "/snapshots/def456.jpg"


def test_without_a_snapshot_or_pieces_the_result_says_so(app: Flask, table: Table) -> None:
    advance_to(table, "toss")
    result = publish_result(app, table, "0a0a0a")
    assert result["snapshot_url"] is None and result["colour_confidence"] is None


def test_only_snapshot_files_of_the_instance_folder_are_served(app: Flask, table: Table) -> None:
    assert table.client.get("/snapshots/missing.jpg").status_code == 404
    assert table.client.get("/snapshots/..%2Fsecret_key.jpg").status_code == 404
    assert table.client.get("/snapshots/../secret_key").status_code == 404


def test_a_real_simulated_toss_shows_its_camera_snapshot_and_confidence(app: Flask, table: Table) -> None:
    """The whole path: the game's toss, the simulated tower's camera count, the JPEG it saved, the view."""
    assert app.extensions["keshi.tower"].camera_ready.wait(60)  # counted by the camera, not the simulator
    view = advance_to(table, "toss")
    tossed = table.post(f"/api/games/{table.game_id}/toss", {"version": view["version"]})
    assert tossed.status_code == 202
    toss_id = tossed.get_json()["toss_id"]
    result = wait_for_tower_result(table)["tower_result"]
    assert result["toss_id"] == toss_id and result["source"] == "camera"
    assert result["snapshot_url"] == f"/snapshots/{toss_id}.jpg"
    image = table.client.get(result["snapshot_url"])
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    frame = cv2.imdecode(np.frombuffer(image.data, np.uint8), cv2.IMREAD_COLOR)
    assert frame is not None and frame.shape == (480, 640, 3)  # the tray frame the camera counted
    seen = {c for c, n in result["counts"].items() if n} | ({"unknown"} if result["unknown"] else set())
    confidence = result["colour_confidence"] or {}
    assert set(confidence) == seen
    assert all(confidence[c]["count"] == result["counts"].get(c, result["unknown"]) for c in seen)
    assert all(0 <= v["lowest"] <= v["mean"] <= 1 for v in confidence.values())


def test_the_tower_link_remembers_only_recent_tosses(app: Flask) -> None:
    """A café tower tosses all day: the toss -> game map must not grow without end."""
    from companion.table.tower_link import KEPT_TOSSES, TowerLink

    link: TowerLink = app.extensions["keshi.tower_link"]
    for n in range(KEPT_TOSSES + 10):
        link.expect(f"toss-{n}", "game-1")
    assert link.game_of("toss.drop", {"toss_id": f"toss-{KEPT_TOSSES + 9}"}) == "game-1"
    assert link.game_of("toss.drop", {"toss_id": "toss-0"}) is None  # long settled, forgotten
