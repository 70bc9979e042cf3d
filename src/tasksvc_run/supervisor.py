"""`tasksvc run`: bot, web and proxy as three OS processes, started in the order of R4 and stopped together.

If a child exits, the others are stopped and the supervisor exits non-zero (the container restarts the unit).
SIGTERM/SIGINT stop the proxy first, then web and bot; each finishes its in-flight work; all is down within 10 s.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import FrameType

from taskcore.settings import Settings
from taskcore.storage import migrator
from taskcore.storage.db import Database
from tasksvc_run import exits

log = logging.getLogger("supervisor")
STOP_BUDGET = 9.5
POLL = 0.1
READY_TABLES = ("web_tokens", "web_sessions")


@dataclass
class Child:
    """One managed process."""

    name: str
    process: subprocess.Popen[bytes]

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None


def absolute_paths(env: Mapping[str, str], settings: Settings) -> dict[str, str]:
    """R4: DB_PATH and DATA_DIR made absolute, so every child opens the same file whatever its cwd."""
    fixed = dict(env)
    fixed["DATA_DIR"] = os.path.abspath(settings.data_dir)
    if not settings.database_url:
        fixed["DB_PATH"] = str(settings.database_path)
    return fixed


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    """True when something accepts connections on the port."""
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0


@dataclass
class Supervisor:
    """Starts and watches the three processes."""

    settings: Settings
    env: dict[str, str]
    command: list[str] = field(default_factory=lambda: [sys.executable, "-m", "tasksvc_run"])
    ready_timeout: float = 60.0
    first: tuple[tuple[str, int], ...] = ()  # helpers started before the bot, with the port they listen on
    children: list[Child] = field(default_factory=list)
    stopping: bool = False

    def spawn(self, name: str) -> Child:
        """Start ``tasksvc <name>`` as a child process."""
        child = Child(name, subprocess.Popen([*self.command, name], env=self.env))  # noqa: S603 - our own command
        self.children.append(child)
        log.info("started", extra={"child": name, "pid": child.process.pid})
        return child

    def wait_until(self, ready: Callable[[], bool], what: str) -> bool:
        """Poll ``ready`` until true, a child dies, a stop is asked, or the timeout passes."""
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.stopping:
                return False
            if dead := [c for c in self.children if not c.alive()]:
                code = dead[0].process.returncode
                log.error(f"{dead[0].name} exited during start: {exits.reason(code)}", extra={
                    "child": dead[0].name, "code": code, "waiting_for": what})
                return False
            if ready():
                return True
            time.sleep(POLL)
        log.error("timed out waiting", extra={"for": what, "seconds": self.ready_timeout})
        return False

    def tables_ready(self) -> bool:
        """True when the bot has created web_tokens and web_sessions (R4)."""
        db = Database.from_url(self.settings.sqlalchemy_url)
        try:
            return migrator.tables_exist(db, READY_TABLES)
        except Exception:  # the file may not exist yet; keep polling
            return False
        finally:
            db.dispose()

    def start(self) -> bool:
        """R4: bot, wait for its tables, web, then the proxy (after any helper of development mode).

        The proxy starts right after the web rather than once the web listens: the webhook reaches the bot through
        the proxy, so after a restart the gateway's deliveries flow again as soon as the proxy listens. A page asked
        for before the web listens waits for it in the proxy (proxy/pool.py), as the web's own start takes."""
        for name, port in self.first:
            self.spawn(name)
            if not self.wait_until(partial(port_open, port), f"{name} port"):
                return False
        self.spawn("bot")
        # The bot listens once it has migrated and checked the schema; on a database migrated before, the tables
        # alone exist at once.
        if not self.wait_until(lambda: port_open(self.settings.bot_port) and self.tables_ready(), "bot migrations"):
            return False
        self.spawn("web")
        self.spawn("proxy")
        return (self.wait_until(lambda: port_open(self.settings.port), "proxy port")
                and self.wait_until(lambda: port_open(self.settings.web_port), "web port"))

    def watch(self) -> int:
        """Block until a child exits or a stop is asked; return the exit status of the unit."""
        while not self.stopping:
            dead = [c for c in self.children if not c.alive()]
            if dead:
                code = dead[0].process.returncode
                log.error(f"{dead[0].name} exited: {exits.reason(code)}; stopping the unit",
                          extra={"child": dead[0].name, "code": code})
                return 1
            time.sleep(POLL)
        return 0

    def stop(self) -> None:
        """Proxy first, then web and bot; SIGKILL whatever is still running when the budget is spent."""
        deadline = time.monotonic() + STOP_BUDGET
        order = [[c for c in self.children if c.name == "proxy"], [c for c in self.children if c.name != "proxy"]]
        for group in order:
            for child in group:
                if child.alive():
                    child.process.send_signal(signal.SIGTERM)
            share = deadline if group is order[-1] else min(deadline, time.monotonic() + 3)
            for child in group:
                try:
                    child.process.wait(timeout=max(0.0, share - time.monotonic()))
                except subprocess.TimeoutExpired:
                    log.warning("killing", extra={"child": child.name})
                    child.process.kill()
                    child.process.wait(timeout=2)

    def request_stop(self, signum: int, _frame: FrameType | None) -> None:
        """Signal handler: ask the loops to end."""
        log.info("stop requested", extra={"signal": signal.Signals(signum).name})
        self.stopping = True

    def run(self) -> int:
        """Start, watch, stop; the unit's exit status."""
        signal.signal(signal.SIGTERM, self.request_stop)
        signal.signal(signal.SIGINT, self.request_stop)
        try:
            started = self.start()
            return self.watch() if started else (0 if self.stopping else 1)
        finally:
            self.stop()
