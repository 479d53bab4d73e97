"""A real server killed with SIGKILL mid-game resumes the same game; event streams resume exactly."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.conftest import start_server
from tests.web.conftest import PLAYERS
from tests.web.http_table import HttpTable, read_sse_ids
from tests.web.play import first_action, scores


def test_sigkill_mid_game_then_restart_resumes_the_same_state(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    server = start_server(instance)
    try:
        phone = HttpTable(server.url)
        game_id = phone.create(PLAYERS, seed=5)["id"]
        view = phone.view(game_id)
        tossed = False
        while view["actions"] < 40 or not tossed:
            if view["phase"] == "toss" and not view["pending"] and not view["tower_result"]:
                view = phone.toss_and_wait(game_id, view["version"])  # through the simulated tower
                tossed = True
            action = first_action(view)
            if action["type"] == "release" and view["tower_result"]:
                action["counts"] = view["tower_result"]["counts"]
            view = phone.act(game_id, action, view["version"])
        before = phone.view(game_id)
        events_url = f"{server.url}/api/games/{game_id}/events"
        all_ids = read_sse_ids(events_url, 0, before["event_id"])
        server.stop(signal.SIGKILL)
    finally:
        if server.process.poll() is None:
            server.process.kill()
    assert server.process.returncode == -signal.SIGKILL

    server = start_server(instance)
    try:
        phone_again = HttpTable(server.url)
        after = phone_again.view(game_id)
        assert after["actions"] == before["actions"] and after["version"] == before["version"]
        assert scores(after) == scores(before)
        assert after["state"] == before["state"]
        # a phone that saw the first half of the events gets exactly the rest, none twice
        middle = all_ids[len(all_ids) // 2]
        resumed = read_sse_ids(f"{server.url}/api/games/{game_id}/events", middle, before["event_id"])
        assert resumed == [i for i in all_ids if i > middle]
        # the game goes on after the restart (the old session cookie is still seated: the key persists)
        phone.base = server.url
        moved = phone.act(game_id, first_action(after), after["version"])
        assert moved["actions"] == after["actions"] + 1
        newer = read_sse_ids(f"{server.url}/api/games/{game_id}/events", before["event_id"], moved["event_id"])
        assert newer and newer[0] > before["event_id"] and len(newer) == len(set(newer))
    finally:
        server.stop()
