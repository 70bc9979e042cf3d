"""This process as a lease owner, and whether another process of this host still runs (Linux /proc).

The start of a process is its start time in clock ticks since the epoch: boot time (``btime`` of /proc/stat) times
the tick rate plus the process's ``starttime`` (/proc/<pid>/stat), the same value whichever process reads it. Where
/proc is missing, this process's start is its import time and any other pid that exists counts as alive, its start
unknown (its lease then runs out by itself, as before).
"""

from __future__ import annotations

import functools
import os
import secrets
import socket
import time
from collections.abc import Iterable
from pathlib import Path

from taskcore.owners import UNKNOWN_START, LeaseOwner, dead_predecessors

PROC = Path("/proc")
_IMPORTED_AT = f"t{int(time.time() * 100)}"


@functools.cache
def _boot_ticks() -> int | None:
    try:
        for line in (PROC / "stat").read_text().splitlines():
            if line.startswith("btime "):
                return int(line.split()[1]) * os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return None
    return None


def process_start(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since the epoch); None when no such process runs (or is a zombie)."""
    boot = _boot_ticks()
    if boot is None:
        return _start_without_proc(pid)
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # the command name, in parentheses, may hold spaces
    if fields[0] == "Z":
        return None
    return str(boot + int(fields[19]))


def _start_without_proc(pid: int) -> str | None:
    if pid == os.getpid():
        return _IMPORTED_AT
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return UNKNOWN_START


def process_owner() -> str:
    """A lease owner name for a holder in this process: host, pid, this process's start, and a random nonce."""
    start = process_start(os.getpid()) or _IMPORTED_AT
    return str(LeaseOwner(socket.gethostname(), os.getpid(), start, secrets.token_hex(4)))


def dead_owners(owners: Iterable[str]) -> set[str]:
    """The owners among ``owners`` that are processes of this host that no longer run."""
    return dead_predecessors(owners, host=socket.gethostname(), start_of=process_start)
