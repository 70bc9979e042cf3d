"""Start the real unit (`tasksvc run|dev|bot|proxy`) as OS processes on free loopback ports, bounded in time."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def _below_ephemeral() -> range:
    """Ports the OS never hands out itself (neither for a bind to port 0 nor as a connection's source port)."""
    try:
        low = int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    return range(max(1024, low - 12_000), low)


def free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 now (each checked by a bind, closed again so a child can bind it), picked at random
    below the OS's ephemeral range. A unit keeps its ports across the restarts the fault tests cause; were they
    ephemeral ones, a test in another worker binding port 0 could be handed one while the unit is down, and the load
    meant for the unit would reach that test's server. Ephemeral ports only when none below is free."""
    ports: list[int] = []
    candidates = _below_ephemeral()
    pick = random.SystemRandom().choice
    tries = 100 * count if candidates else 0  # bounded: a busy port is skipped
    while len(ports) < count and tries:
        tries -= 1
        port = pick(candidates)
        if port in ports:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        ports.append(port)
    sockets = [socket.socket() for _ in range(count - len(ports))]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports += [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


def http_status(url: str, timeout: float = 2.0) -> int:
    """The status of a GET, 0 when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # noqa: S310 - loopback test URL
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0


def children_of(pid: int) -> dict[str, int]:
    """The direct children of ``pid`` by `tasksvc` subcommand (Linux /proc): the name a process forked by the
    unit's template gave itself (``tasksvc-bot``: its command line is the template's), else its last argument."""
    found: dict[str, int] = {}
    path = Path(f"/proc/{pid}/task/{pid}/children")
    for child in path.read_text().split() if path.exists() else []:
        try:
            argv = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            comm = Path(f"/proc/{child}/comm").read_text().strip()
        except OSError:
            continue
        if len(argv) < 2:  # a zombie's command line is empty
            continue
        name = comm.removeprefix("tasksvc-") if comm.startswith("tasksvc-") else None
        found[name or (argv[-2].decode() if argv[-1] == b"" else argv[-1].decode())] = int(child)
    return found


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


@dataclass
class Unit:
    """One `tasksvc <command>` process with its environment and log file."""

    command: str
    env: dict[str, str]
    cwd: Path
    process: subprocess.Popen[bytes] | None = None
    log_path: Path = field(init=False)
    args: tuple[str, ...] = ()  # after the command: `tasksvc dev --gateway waha`

    def __post_init__(self) -> None:
        self.log_path = self.cwd / f"{self.command}.log"

    @property
    def port(self) -> int:
        """The public port (PORT)."""
        return int(self.env["PORT"])

    def url(self, path: str) -> str:
        """A URL on the public port."""
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self, *, wait_for: str | None = "/health", within: float = 40.0) -> Unit:
        """Start the process and wait (bounded) until ``wait_for`` answers 200 on its port."""
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own console script
                [sys.executable, "-m", "tasksvc_run", self.command, *self.args], env=self.env, cwd=self.cwd,
                stdout=log, stderr=subprocess.STDOUT)
        if wait_for is not None:
            deadline = time.monotonic() + within
            while http_status(self.url(wait_for)) != 200:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{self.command} did not come up:\n{self.log()}")
                time.sleep(0.1)
        return self

    def log(self) -> str:
        """What the process wrote so far."""
        return self.log_path.read_text(errors="replace")[-6000:]

    def stop(self, timeout: float = 15.0) -> int:
        """SIGTERM, wait (bounded), SIGKILL if needed; the exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        return int(self.process.returncode)


def unit_env(tmp: Path, **extra: str) -> dict[str, str]:
    """A clean environment for one unit on free ports and a SQLite file under ``tmp``."""
    port, bot_port, web_port, gateway_port = free_ports(4)
    env = {k: v for k, v in os.environ.items() if not k.isupper() or k in ("PATH", "HOME", "LANG", "PYTHONPATH")}
    env.update({
        "PORT": str(port), "BOT_PORT": str(bot_port), "WEB_PORT": str(web_port), "DB_PATH": str(tmp / "tasks.db"),
        "NODE_ENV": "test", "METRICS_ENABLED": "true", "TASKSVC_DEV_GATEWAY_PORT": str(gateway_port),
        "PYTHONUNBUFFERED": "1",
    })
    env.update(extra)
    return env


def unit_pids(unit: Unit) -> dict[str, int]:
    """The unit's processes by name: the supervisor as ``unit.command`` plus its children (bot, web, proxy)."""
    assert unit.process is not None
    return {unit.command: unit.process.pid, **children_of(unit.process.pid)}


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB, from /proc; (0.0, 0.0) once it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0, 0.0
    values = {line.split(":")[0]: int(line.split()[1]) / 1024 for line in lines if line.startswith(("VmRSS", "VmHWM"))}
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def pss_mb(pid: int) -> float:
    """The proportional set size of a process in MB (Linux /proc/<pid>/smaps_rollup: each page shared by n processes
    counted 1/n), 0.0 once it is gone."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0.0
    return next((int(line.split()[1]) / 1024 for line in lines if line.startswith("Pss:")), 0.0)


def pin(pid: int, cpus: set[int]) -> None:
    """Pin every thread of a running process to ``cpus`` (Linux; threads started later inherit it)."""
    for tid in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(tid.name), cpus)
        except OSError:  # the thread just ended
            continue


def chat_message(text: str, *, sender: str, message_id: str, group: str | None = None,
                 timestamp: int | None = None, push_name: str | None = None) -> dict[str, object]:
    """A gateway ``messages.upsert`` event: ``text`` from ``sender`` (digits) in ``group`` or a direct chat."""
    person = f"{sender}@s.whatsapp.net"
    key: dict[str, object] = {"remoteJid": group or person, "fromMe": False, "id": message_id}
    if group:
        key["participant"] = person
    data = {"key": key, "pushName": push_name or f"P{sender[-4:]}", "message": {"conversation": text},
            "messageType": "conversation", "messageTimestamp": timestamp or int(time.time())}
    return {"event": "messages.upsert", "instance": "taskbot", "data": data}


def gateway_env(url: str, **extra: str) -> dict[str, str]:
    """The variables that point the bot's outbound worker at a (fake) gateway, schedulers off, sends paced at
    1,000 a second (the default 20 a minute would hold a test's dozens of messages 3 s each)."""
    return {"GATEWAY_API_URL": url, "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": "test-api-key",
            "FORCE_SCHEDULERS": "false", "GATEWAY_MAX_SENDS_PER_MIN": "60000", **extra}
