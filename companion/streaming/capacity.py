"""How many event streams this machine takes: the default cap of ``keshi serve``.

A stream costs one socket (a file descriptor, kernel buffers) and a few kilobytes in the
broadcaster; what runs out first on a small Pi is memory for everything else, so the cap is one
stream per MiB of RAM (a Pi Zero 2 W's 512 MB gives about 420), never more than the open-file
limit allows beside the database, the camera and the request threads, and at most ``CEILING``.
"""

from __future__ import annotations

import resource
from pathlib import Path

CEILING = 1000
FLOOR = 16
#: File descriptors kept for everything that is not a stream (database, camera, requests, logs).
RESERVED_FILES = 128


def stream_cap(mem_total_kib: int | None = None, open_files: int | None = None) -> int:
    """The default cap for this machine (or for the given memory and open-file limit)."""
    if mem_total_kib is None:
        mem_total_kib = _mem_total_kib()
    if open_files is None:
        open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if open_files == resource.RLIM_INFINITY:
            open_files = CEILING + RESERVED_FILES
    by_memory = mem_total_kib // 1024
    return max(FLOOR, min(CEILING, by_memory, open_files - RESERVED_FILES))


def _mem_total_kib() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 512 * 1024  # unknown: assume the smallest machine the companion runs on
