"""``keshi serve`` as a real process: answers, refuses bad input in one line, stops cleanly."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LiveServer, start_server


def keshi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=60)


def test_serve_answers_healthz_as_a_simulated_tower(live_server: LiveServer) -> None:
    body = live_server.get_json("/healthz")
    assert body["tower"] == "simulated"
    assert body["database"] == "ok"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_server_within_2_s_with_the_database_closed(tmp_path: Path, sig: int) -> None:
    server = start_server(tmp_path / "instance")
    # keep an event stream open: shutdown must end it, not wait for it
    import urllib.request

    stream = urllib.request.urlopen(server.url + "/events", timeout=5)
    elapsed = server.stop(sig)
    stream.close()
    output = server.process.stdout.read() if server.process.stdout else ""
    assert server.process.returncode == 0, output
    assert elapsed < 2.0, f"took {elapsed:.2f} s to stop"
    assert "database closed" in output
    assert not (server.instance / "keshi.sqlite3-wal").exists()  # checkpointed and closed
    assert "Traceback" not in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--port", "99999"], "port must be between 1 and 65535, not 99999"),
        (["serve", "--port", "http"], "port must be a whole number"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_command_lines_get_one_clear_line(args: list[str], message: str) -> None:
    result = keshi(*args)
    assert result.returncode != 0
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_unwritable_instance_folder_gets_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = keshi("serve", "--simulate", "--port", "8999", "--instance", str(blocker / "instance"))
    assert result.returncode == 2
    assert result.stderr.strip().startswith("keshi: error: the instance folder")
    assert "cannot be written" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_port_in_use_gets_one_clear_line(live_server: LiveServer, tmp_path: Path) -> None:
    port = live_server.url.rsplit(":", 1)[1]
    result = keshi("serve", "--simulate", "--host", "127.0.0.1", "--port", port, "--instance", str(tmp_path / "i2"))
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr
