"""What several benchmarks need: CPU placement, free loopback ports, and a process's CPU time and memory from /proc."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path


def two_cpus() -> bool:
    """True where processes can be placed on two different CPUs."""
    return (os.cpu_count() or 1) >= 2 and hasattr(os, "sched_setaffinity")


def pin(core: int) -> None:
    """Keep this process on one CPU (a no-op on a one-CPU machine)."""
    if two_cpus():
        os.sched_setaffinity(0, {core})


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User plus system CPU a process has used so far, all threads (0 once it is gone, or where /proc is absent)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int, key: str = "VmRSS") -> float:
    """VmRSS (or another Vm* line, e.g. VmHWM for the peak) of a process, in MB (0 where /proc is absent)."""
    status = Path(f"/proc/{pid}/status")
    for line in status.read_text().splitlines() if status.exists() else []:
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def stop_child(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """Close a server child's stdin (its signal to stop), wait (bounded), kill it if it lingers."""
    if process.stdin:
        process.stdin.close()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
