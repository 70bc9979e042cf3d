"""`tasksvc run`: bot, web and proxy as three OS processes, started in the order of R4 and stopped together.

If a child exits, the others are stopped and the supervisor exits non-zero (the container restarts the unit): with the
child's own status when it gave one (3 for a schema it refuses, 4 for a database it cannot use: exits.py), else 1.
SIGTERM/SIGINT stop the proxy first, then web and bot; each finishes its in-flight work; all is down within 10 s.
The children run in a process group of their own: a Ctrl-C in the terminal reaches the supervisor alone, which stops
them in that order (a child interrupted while it imports would print a traceback).

This process imports only what supervising needs (no pydantic, SQLAlchemy or aiohttp: about 17 MB resident); the
configuration reaches it as a plan read by a child (plan.py), and the readiness of the bot's tables is read with the
standard library's sqlite3 (SQLAlchemy is loaded only for a DATABASE_URL). Bot, web and proxy are forked by a template
process that imported what they run once (template.py, forks.py: SPEC section 42), and adopted by this one, which
watches, signals and reads them as processes it started; where that cannot be, it starts them itself.
"""

from __future__ import annotations

import logging
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType

from tasksvc_run import exits
from tasksvc_run.forks import Forked, Template, become_subreaper
from tasksvc_run.plan import Plan

log = logging.getLogger("supervisor")
STOP_BUDGET = 9.5
POLL = 0.1
READY_TABLES = ("web_tokens", "web_sessions")
FORKED = frozenset({"bot", "web", "proxy"})  # what the template forks (template.COMMANDS)


@dataclass
class Child:
    """One managed process."""

    name: str
    process: subprocess.Popen[bytes] | Forked

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None


def sqlite_tables_exist(path: str, tables: tuple[str, ...]) -> bool:
    """True when the SQLite file at ``path`` has every table of ``tables`` (read-only; a missing file: False)."""
    if not Path(path).is_file():
        return False
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)) as conn:
        found = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return set(tables) <= found


def database_tables_exist(url: str, tables: tuple[str, ...]) -> bool:
    """The same through SQLAlchemy, for a DATABASE_URL (loaded here only)."""
    from taskcore.storage import migrator  # noqa: PLC0415 - PostgreSQL only: a SQLite unit's supervisor stays lean
    from taskcore.storage.db import Database  # noqa: PLC0415

    db = Database.from_url(url)
    try:
        return migrator.tables_exist(db, tables)
    finally:
        db.dispose()


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    """True when something accepts connections on the port."""
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0


@dataclass
class Supervisor:
    """Starts and watches the three processes."""

    plan: Plan
    command: list[str] = field(default_factory=lambda: [sys.executable, "-m", "tasksvc_run"])
    ready_timeout: float = 60.0
    first: tuple[tuple[str, int], ...] = ()  # helpers started before the bot, with the port they listen on
    children: list[Child] = field(default_factory=list)
    stopping: bool = False
    status: int = exits.FAILED  # the unit's exit status once a child stopped it (its own, when it gave one)
    preload: bool = True  # bot, web and proxy forked by a template process (SPEC section 42)
    template: Template | None = None

    def spawn(self, name: str) -> Child:
        """Start ``tasksvc <name>`` as a child process: forked by the template when there is one."""
        forked = self.template.fork(name, self.ready_timeout) if self.template and name in FORKED else None
        if self.template is not None and name in FORKED and forked is None:
            log.warning("the template did not fork it: started on its own", extra={"child": name})
        child = Child(name, forked or subprocess.Popen([*self.command, name], env=self.plan.env,  # noqa: S603
                                                       process_group=0))
        self.children.append(child)
        log.info("started", extra={"child": name, "pid": child.process.pid})
        return child

    def _start_template(self) -> None:
        if self.preload and become_subreaper():
            self.template = Template(self.command, self.plan.env)

    def _end_template(self) -> None:
        if self.template is not None:
            self.template.close()
            self.template = None

    def wait_until(self, ready: Callable[[], bool], what: str) -> bool:
        """Poll ``ready`` until true, a child dies, a stop is asked, or the timeout passes."""
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.stopping:
                return False
            if dead := [c for c in self.children if not c.alive()]:
                code = self._stopped_by(dead[0])
                log.error(f"{dead[0].name} exited during start: {exits.reason(code)}", extra={
                    "child": dead[0].name, "code": code, "waiting_for": what})
                return False
            if ready():
                return True
            time.sleep(POLL)
        log.error("timed out waiting", extra={"for": what, "seconds": self.ready_timeout})
        return False

    def _stopped_by(self, child: Child) -> int:
        """The exit code of ``child``, which stops the unit: a status it chose is the unit's; a signal or 0 is 1."""
        code = child.process.returncode
        self.status = code if code is not None and code > 0 else exits.FAILED
        return self.status if code is None else code

    def tables_ready(self) -> bool:
        """True when the bot has created web_tokens and web_sessions (R4)."""
        try:
            if self.plan.sqlite_path is not None:
                return sqlite_tables_exist(self.plan.sqlite_path, READY_TABLES)
            return database_tables_exist(self.plan.database, READY_TABLES)
        except Exception:  # the file may be in the making; keep polling
            return False

    def start(self) -> bool:
        """R4: bot, wait for its tables, web, then the proxy (after any helper of development mode).

        The proxy starts right after the web rather than once the web listens: the webhook reaches the bot through
        the proxy, so after a restart the gateway's deliveries flow again as soon as the proxy listens. A page asked
        for before the web listens waits for it in the proxy (proxy/pool.py), as the web's own start takes."""
        for name, port in self.first:
            self.spawn(name)
            if not self.wait_until(partial(port_open, port), f"{name} port"):
                return False
        self._start_template()
        self.spawn("bot")
        # The bot listens once it has migrated and checked the schema; on a database migrated before, the tables
        # alone exist at once.
        if not self.wait_until(lambda: port_open(self.plan.bot_port) and self.tables_ready(), "bot migrations"):
            return False
        self.spawn("web")
        self.spawn("proxy")
        self._end_template()
        return (self.wait_until(lambda: port_open(self.plan.port), "proxy port")
                and self.wait_until(lambda: port_open(self.plan.web_port), "web port"))

    def watch(self) -> int:
        """Block until a child exits or a stop is asked; return the exit status of the unit."""
        while not self.stopping:
            dead = [c for c in self.children if not c.alive()]
            if dead:
                code = self._stopped_by(dead[0])
                log.error(f"{dead[0].name} exited: {exits.reason(code)}; stopping the unit",
                          extra={"child": dead[0].name, "code": code})
                return self.status
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
            return self.watch() if started else (exits.OK if self.stopping else self.status)
        finally:
            self._end_template()
            self.stop()
