"""Real Mosquitto and PostgreSQL servers from Debian's packages, on free loopback ports in temp dirs.

Used by the hub's integration tests and by ``benchmarks/bench_hub.py``. PostgreSQL refuses to run
as root, so when the tests run as root (CI) its data directory belongs to, and its processes run
as, the unprivileged ``nobody``. Both servers are stopped and their directories removed on ``close``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

MOSQUITTO = Path("/usr/sbin/mosquitto")
#: The broker configuration docs/hub.md installs; the test brokers run with every setting of it but
#: the site's own (where to listen, the password and ACL files).
SHIPPED_CONF = Path(__file__).resolve().parents[2] / "companion" / "hub" / "mosquitto" / "keshi.conf"
SITE_SETTINGS = ("listener", "password_file", "acl_file")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")
PG_BIN = Path("/usr/lib/postgresql/15/bin")
UNPRIVILEGED = "nobody"


def missing_binaries() -> str | None:
    """Why the servers cannot be started here (None when they can)."""
    for path in (MOSQUITTO, MOSQUITTO_PASSWD, PG_BIN / "initdb", PG_BIN / "pg_ctl"):
        if not path.exists():
            return f"{path} is missing: install Debian's mosquitto and postgresql-15 (make test does)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float, process: subprocess.Popen[Any] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


def shipped_settings() -> str:
    """The shipped broker configuration without its site lines (comments dropped)."""
    lines = []
    for line in SHIPPED_CONF.read_text().splitlines():
        words = line.split()
        if words and not words[0].startswith("#") and words[0] not in SITE_SETTINGS:
            lines.append(line)
    return "\n".join(lines) + "\n"


class Mosquitto:
    """A Mosquitto broker with one user, the shipped configuration (``SHIPPED_CONF``) and, given
    ``acl``, an access control list."""

    def __init__(
        self, username: str = "keshi-table", password: str = "s3cret-broker-pw", acl: str | None = None
    ) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="keshi-mosquitto-"))
        self.port = free_port()
        self.username = username
        self.password = password
        subprocess.run([str(MOSQUITTO_PASSWD), "-b", "-c", str(self.dir / "passwd"), username, password],
                       check=True, capture_output=True)
        user = "root" if os.geteuid() == 0 else os.environ.get("USER", "")
        if acl is not None:
            (self.dir / "acl").write_text(acl)
        (self.dir / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous false\n"
            f"password_file {self.dir / 'passwd'}\n"
            f"persistence_location {self.dir}/\n"
            f"log_dest file {self.dir / 'mosquitto.log'}\n"
            + shipped_settings()
            + (f"user {user}\n" if user else "")
            + (f"acl_file {self.dir / 'acl'}\n" if acl is not None else "")
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([str(MOSQUITTO), "-c", str(self.dir / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, 10, self.process)

    def reload_acl(self, acl: str) -> None:
        """Replace the access rules and have the running broker reload them (SIGHUP)."""
        (self.dir / "acl").write_text(acl)
        assert self.process is not None
        self.process.send_signal(signal.SIGHUP)

    def restart_forgetting(self) -> None:
        """Kill the broker (SIGKILL) and start it again without its store: every session, queued and
        retained message is gone, as after a restart without persistence."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        (self.dir / "mosquitto.db").unlink(missing_ok=True)
        self.start()

    def stop(self) -> None:
        """Stop gracefully (SIGTERM: the broker saves its persistent sessions and queues)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class Postgres:
    """A throw-away PostgreSQL 15 cluster with trust authentication on a loopback port."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="keshi-pg-"))
        self.port = free_port()
        self.run_as: dict[str, Any] = {}
        if os.geteuid() == 0:  # postgres will not run as root
            shutil.chown(self.dir, UNPRIVILEGED, "nogroup")
            self.run_as = {"user": UNPRIVILEGED, "group": "nogroup", "extra_groups": []}
        self.data = self.dir / "data"
        self.env = {"PATH": os.environ.get("PATH", ""), "HOME": str(self.dir), "LC_ALL": "C.UTF-8"}

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://keshi@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run(list(args), check=True, capture_output=True, env=self.env, cwd=self.dir, **self.run_as)

    def start(self) -> None:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "keshi", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"),
                  "-w", "-t", "30", "start")

    def create_database(self, name: str) -> str:
        """A fresh database; returns its URL."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=keshi dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)
