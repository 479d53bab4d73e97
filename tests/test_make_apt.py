"""`make apt-install` waits for another apt-get (a fresh Raspberry Pi OS's unattended upgrades), saying
so, and only then fails with the one command to run.

apt itself is never run: the Makefile's ``APT`` names a stand-in for ``apt-get`` that answers as apt does
when another process holds its lock (exit 100, "E: Could not get lock ..."), and logs its arguments, so
the Makefile's own waiting and wording are what is tested.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FAKE_APT = """#!/bin/bash
# stands in for apt-get: "update" is locked for the first $LOCKED_UPDATES calls; "install" answers $INSTALL_RC
echo "$*" >> "$APT_LOG"
if [ "$1" = update ]; then
  n=$(cat "$APT_COUNT" 2>/dev/null || echo 0); echo $((n + 1)) > "$APT_COUNT"
  if [ "$n" -lt "$LOCKED_UPDATES" ]; then
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 812 (unattended-upgr)" >&2
    echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
    exit 100
  fi
  echo "Reading package lists..."; exit 0
fi
[ "$INSTALL_RC" = 0 ] || echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2
exit "$INSTALL_RC"
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def make_apt_install(fake: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``make apt-install`` with ``fake`` as apt-get, in an environment free of an outer make's flags
    (``make -i`` would turn the failures tested here into successes)."""
    clean = {k: v for k, v in {**os.environ, **env}.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "apt-install", f"APT={fake}", *args],
                          env=clean, capture_output=True, text=True, timeout=60, check=False)


def stand_in(tmp_path: Path, script: str) -> Path:
    fake = tmp_path / "apt-get"
    fake.write_text(script)
    fake.chmod(0o755)
    return fake


def apt_install(tmp_path: Path, *, locked_updates: int, install_rc: int = 0,
                wait: float = 30) -> subprocess.CompletedProcess[str]:
    env = {"APT_LOG": str(tmp_path / "log"), "APT_COUNT": str(tmp_path / "count"),
           "LOCKED_UPDATES": str(locked_updates), "INSTALL_RC": str(install_rc)}
    return make_apt_install(stand_in(tmp_path, FAKE_APT), env, "PACKAGES=chromium mosquitto",
                            f"APT_LOCK_WAIT={wait:g}", "APT_LOCK_POLL=0.1")


def test_a_held_lock_is_waited_for_and_said(tmp_path: Path) -> None:
    result = apt_install(tmp_path, locked_updates=3)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("waiting for another apt-get") == 1  # said once, not at every try
    assert "Reading package lists" in result.stdout  # what the update said is shown
    calls = (tmp_path / "log").read_text().splitlines()
    assert calls[:4] == ["update -q"] * 4
    install = calls[4]
    assert install.startswith("-y -q -o DPkg::Lock::Timeout=30 install")  # dpkg's lock is waited for by apt
    assert install.endswith("install chromium mosquitto")


def test_a_lock_held_too_long_ends_with_the_command_to_run(tmp_path: Path) -> None:
    result = apt_install(tmp_path, locked_updates=10_000, wait=1)
    assert result.returncode != 0
    assert "waiting for another apt-get" in result.stdout
    assert "once it has finished, run 'sudo apt-get install chromium mosquitto'" in result.stderr
    assert "install" not in (tmp_path / "log").read_text()  # nothing installed half-way


def test_an_install_that_still_fails_names_the_command_to_run(tmp_path: Path) -> None:
    result = apt_install(tmp_path, locked_updates=0, install_rc=100)
    assert result.returncode != 0
    assert "waiting" not in result.stdout  # nothing was held: nothing to say about waiting
    assert "its message is above" in result.stderr and "E: Could not get lock" in result.stderr
    assert "run 'sudo apt-get install chromium mosquitto' and try again" in result.stderr


def test_another_update_failure_is_not_mistaken_for_a_lock(tmp_path: Path) -> None:
    """A network failure is not waited for: apt's own message is shown at once."""
    no_network = '#!/bin/bash\necho "E: Failed to fetch http://deb.debian.org/ (no network)" >&2\nexit 100\n'
    fake = stand_in(tmp_path, no_network)
    result = make_apt_install(fake, {}, "PACKAGES=chromium", "APT_LOCK_WAIT=30", "APT_LOCK_POLL=5")
    assert result.returncode != 0
    assert "Failed to fetch" in result.stderr and "waiting" not in result.stdout
