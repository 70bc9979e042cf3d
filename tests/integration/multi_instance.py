"""Several bot and web processes on one PostgreSQL schema: the database, the processes, their logs (SPEC section 13)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from taskcore.storage.db import Database
from tests.conftest import pg_schema_url

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
START_SECONDS = 30.0
STOP_SECONDS = 15.0


def postgres_url() -> str:
    """TASKSVC_TEST_DATABASE_URL, else the PostgreSQL this machine runs on loopback; skips loudly when none answers."""
    url = os.environ.get("TASKSVC_TEST_DATABASE_URL") or DEFAULT_PG_URL
    probe = Database.from_url(url)
    try:
        with probe.read() as conn:
            conn.execute(text("SELECT 1"))
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL DOES NOT ANSWER at {url.split('@')[-1]} ({type(exc.orig).__name__}): "
                    "the several-instances test did not run")
    finally:
        probe.dispose()
    return url


@contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """A new schema, dropped afterwards; yields the URL whose connections use it."""
    schema = f"t_multi_{uuid.uuid4().hex[:10]}"
    admin = Database.from_url(url)
    with admin.write() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield pg_schema_url(url, schema)
    finally:
        with admin.write() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def base_environment() -> dict[str, str]:
    """What a child process gets from the test run's own environment: PATH, HOME and LANG, no settings."""
    return {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}


def free_port() -> int:
    """A port that was free on 127.0.0.1 a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run_command(args: list[str], env: Mapping[str, str], *, within: float = START_SECONDS) -> tuple[int, str]:
    """Run ``python -m tasksvc_run <args>`` to the end; (exit status, stderr)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tasksvc_run", *args, cwd=ROOT, env=dict(env),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), within)
    return int(proc.returncode or 0), err.decode()


@dataclass
class Instance:
    """One OS process (``bot`` or ``web``) with its port and its log file."""

    kind: str
    name: str
    port: int
    log_path: Path
    proc: asyncio.subprocess.Process

    @property
    def url(self) -> str:
        """http://127.0.0.1:<port>."""
        return f"http://127.0.0.1:{self.port}"

    def log_records(self) -> list[dict[str, Any]]:
        """The JSON lines this process logged (LOG_FORMAT=json)."""
        records = []
        for line in self.log_path.read_text(encoding="utf-8").splitlines():
            with suppress(ValueError):
                records.append(json.loads(line))
        return records

    def errors(self) -> list[str]:
        """The error lines this process logged, with their tracebacks."""
        return [f"{self.name}: {r['msg']} {r.get('exc', '')}" for r in self.log_records()
                if r.get("level") in ("error", "critical")]

    async def wait_listening(self) -> None:
        """Until the port accepts connections; AssertionError (with the log) when the process exits or is too slow."""
        try:
            async with asyncio.timeout(START_SECONDS):
                while True:
                    if self.proc.returncode is not None:
                        break
                    try:
                        _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                    except OSError:
                        await asyncio.sleep(0.1)
                        continue
                    writer.close()
                    await writer.wait_closed()
                    return
        except TimeoutError:
            pass
        raise AssertionError(f"{self.name} did not start listening:\n{self.log_path.read_text(encoding='utf-8')}")

    async def stop(self) -> int:
        """SIGTERM, then SIGKILL if it is still there after STOP_SECONDS; the exit status."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.proc.wait(), STOP_SECONDS)
        except TimeoutError:
            self.proc.kill()
            return await self.proc.wait()


async def start_instance(kind: str, name: str, env: Mapping[str, str], tmp_path: Path) -> Instance:
    """Start ``python -m tasksvc_run <kind>`` on the BOT_PORT or WEB_PORT of ``env``, logging to a file."""
    port = int(env["BOT_PORT" if kind == "bot" else "WEB_PORT"])
    log_path = tmp_path / f"{name}.log"
    with log_path.open("wb") as log_file:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tasksvc_run", kind, cwd=ROOT, env=dict(env), stdout=log_file, stderr=log_file)
    return Instance(kind, name, port, log_path, proc)


@asynccontextmanager
async def instances(specs: list[tuple[str, str, Mapping[str, str]]], tmp_path: Path) -> AsyncIterator[list[Instance]]:
    """Start every (kind, name, env) at once, wait until each listens; stop them all afterwards (SIGTERM)."""
    started = [await start_instance(kind, name, env, tmp_path) for kind, name, env in specs]
    try:
        await asyncio.gather(*(instance.wait_listening() for instance in started))
        yield started
    finally:
        await asyncio.gather(*(instance.stop() for instance in started))


async def until(condition: Callable[[], bool], *, within: float, what: str) -> None:
    """Poll ``condition`` in a thread (it may read the database) until it holds; AssertionError after ``within``."""
    try:
        async with asyncio.timeout(within):
            while True:
                if await asyncio.to_thread(condition):
                    return
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"not within {within} s: {what}") from None


@dataclass(frozen=True)
class JobRun:
    """One 'scheduled job ran' log line."""

    job: str
    trigger: str
    owner: str
    started: datetime
    finished: datetime


def job_runs(bots: list[Instance]) -> list[JobRun]:
    """Every scheduled run logged by the bots, by start time."""
    runs = [JobRun(r["job"], r["trigger"], r["owner"], datetime.fromisoformat(r["started"]),
                   datetime.fromisoformat(r["finished"]))
            for bot in bots for r in bot.log_records() if r.get("msg") == "scheduled job ran"]
    return sorted(runs, key=lambda run: (run.job, run.started))


def overlapping(runs: list[JobRun]) -> list[tuple[JobRun, JobRun]]:
    """Pairs of runs of the same job whose times overlap."""
    pairs, latest = [], {}
    for run in runs:  # by job, then start: a run overlaps when it starts before an earlier one of its job finished
        earlier = latest.get(run.job)
        if earlier is not None and run.started < earlier.finished:
            pairs.append((earlier, run))
        if earlier is None or run.finished > earlier.finished:
            latest[run.job] = run
    return pairs
