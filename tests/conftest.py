"""Shared fixtures: an app on a temporary instance folder, its client, and a live ``keshi serve``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.app import create_app, shutdown_app

#: Simulated tower timing in tests: 20x faster than a real tower.
FAST_TOWER = {"SIMULATOR_TIME_SCALE": 0.05, "SIMULATOR_SEED": 7}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    application = create_app({"TESTING": True, "SIMULATE": True, **FAST_TOWER}, instance_path=tmp_path / "instance")
    yield application
    shutdown_app(application)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    """A real ``keshi serve`` process on a free loopback port."""

    process: subprocess.Popen[str]
    url: str
    instance: Path

    def get_json(self, path: str) -> dict[str, object]:
        with urllib.request.urlopen(self.url + path, timeout=5) as response:
            body: dict[str, object] = json.loads(response.read())
            return body

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 5.0) -> float:
        """Send ``sig`` and wait; return how long the process took to exit."""
        start = time.monotonic()
        self.process.send_signal(sig)
        self.process.wait(timeout=timeout)
        return time.monotonic() - start


def start_server(instance: Path, config: dict[str, object] | None = None, *extra: str) -> LiveServer:
    """Start ``keshi serve --simulate`` on a free port and wait until ``/healthz`` answers.

    Another test process may take the same free port between ``free_port`` and the server's bind: the
    server then says it cannot listen, and another port is tried.
    """
    for _ in range(4):
        try:
            return _start_server(instance, config, *extra)
        except PortTaken:
            continue
    return _start_server(instance, config, *extra)


class PortTaken(RuntimeError):
    """The free port was taken by another process before the server could listen on it."""


def _start_server(instance: Path, config: dict[str, object] | None, *extra: str) -> LiveServer:
    instance.mkdir(parents=True, exist_ok=True)
    (instance / "config.json").write_text(json.dumps({**FAST_TOWER, **(config or {})}))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--simulate", "--host", "127.0.0.1",
         "--port", str(port), "--instance", str(instance), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return wait_for_healthz(LiveServer(process, f"http://127.0.0.1:{port}", instance), 30)


def wait_for_healthz(server: LiveServer, seconds: float) -> LiveServer:
    """``server`` once its ``/healthz`` answers; its words when it exited first (``PortTaken`` when its
    port was taken meanwhile); killed after ``seconds`` without an answer."""
    process = server.process
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            if "cannot listen" in output:
                raise PortTaken(output)
            raise RuntimeError(f"keshi serve exited with {process.returncode}: {output}")
        try:
            server.get_json("/healthz")
            return server
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"keshi serve did not answer /healthz within {seconds:.0f} s")


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = start_server(tmp_path / "instance")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Hardware-only tests run only on a wired Pi with ``KESHI_HARDWARE_TESTS=1``."""
    if os.environ.get("KESHI_HARDWARE_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="needs the wired tower on a Raspberry Pi: set KESHI_HARDWARE_TESTS=1")
    for item in items:
        if "hardware" in item.keywords:
            item.add_marker(skip)
