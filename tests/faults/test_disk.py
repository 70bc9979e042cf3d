"""A disk that is full or read-only: writes fail with a clear error in the log and a 5xx problem on the API, reads
keep working where the file can be read, nothing is corrupted (PRAGMA integrity_check), and once the disk is
writable again the service carries on.

Full disk: the database lives on a small tmpfs that the test fills up (needs `mount`, i.e. root; skipped otherwise,
saying so). RLIMIT_FSIZE was considered and not used: it limits every file the process writes, the log included,
and SQLite reuses the WAL's space, so writes would fail at unpredictable moments and without a log line.
Read-only: the data directory is mounted read-only (as root), or chmod-ed (as anyone else, since chmod does not
stop root).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tests.faults.harness import GROUP, Live, integrity, live_unit
from tests.system.unit import Unit, unit_env

JSON = {"Content-Type": "application/json"}  # every write under /api declares JSON (SPEC section 16)
TMPFS_SIZE = "8m"


def _run(*command: str) -> bool:
    return subprocess.run(command, capture_output=True, check=False).returncode == 0  # noqa: S603


@contextmanager
def small_tmpfs(where: Path) -> Iterator[Path]:
    """A tmpfs of TMPFS_SIZE mounted at ``where``; skip the test when mounting is not permitted."""
    where.mkdir()
    if os.geteuid() != 0 or not _run("mount", "-t", "tmpfs", "-o", f"size={TMPFS_SIZE}", "tmpfs", str(where)):
        pytest.skip("FULL-DISK TEST SKIPPED: mounting a tmpfs needs root")
    try:
        yield where
    finally:
        _run("umount", "-l", str(where))


@contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """``folder`` seen read-only: a read-only bind mount as root, chmod otherwise; the path to use."""
    if os.geteuid() == 0:
        view = folder.with_name(folder.name + "-ro")
        view.mkdir()
        if not (_run("mount", "--bind", str(folder), str(view))
                and _run("mount", "-o", "remount,bind,ro", str(view))):
            _run("umount", str(view))
            pytest.skip("READ-ONLY TEST SKIPPED: a read-only bind mount needs mount permission")
        try:
            yield view
        finally:
            _run("umount", "-l", str(view))
        return
    modes = {path: path.stat().st_mode for path in [folder, *folder.iterdir()]}
    for path in modes:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield folder
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def _fill(folder: Path) -> Path:
    """Write a file until the file system is full; the file (delete it to free the space)."""
    filler = folder / "filler"
    chunk = b"\0" * 65536
    # Unbuffered: a chunk that only partly fits must not stay in a buffer whose flush at close fails again (it
    # did, depending on where the free space ended within a chunk). A raw write writes what fits, then raises.
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(chunk)
        except OSError:
            pass
    return filler


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the file and truncate it, so that the next write has to grow the WAL (bounded retries
    while a reader is in the way)."""
    conn = sqlite3.connect(path, timeout=10)
    try:
        for _ in range(50):
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy and Path(f"{path}-wal").stat().st_size == 0:
                return
            time.sleep(0.1)
        raise AssertionError("the WAL could not be truncated")
    finally:
        conn.close()


async def _groups_first_task(live: Live, cookie: dict[str, str]) -> int:
    status, listed = await live.call("GET", f"/api/groups/{GROUP}/tasks", headers=cookie)
    assert status == 200, listed
    return int(listed["items"][0]["id"])


async def _prepare(live: Live) -> dict[str, str]:
    for n in range(3):
        assert await live.say(f"/t nueva antes {n}") == 200
    await live.queued_at_least(3)
    return await live.sign_in()


async def test_a_full_disk_gives_a_5xx_problem_and_a_clear_log_line_and_nothing_is_corrupted(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "data") as data:
        async with live_unit(tmp_path, DB_PATH=str(data / "tasks.db")) as live:
            cookie = await _prepare(live)
            task = await _groups_first_task(live, cookie)
            await live.drained(within=20)  # no background write left to grow the WAL before the disk fills
            await asyncio.to_thread(_checkpoint, data / "tasks.db")
            filler = await asyncio.to_thread(_fill, data)

            status, problem = await live.call("POST", f"/api/tasks/{task}/claim", headers={**cookie, **JSON})
            assert (status, problem["status"], problem["type"]) == (503, 503, "about:blank#storage-unavailable")
            assert live.log_lines("database unavailable: database or disk is full")  # one line names the cause
            assert (await live.call("GET", "/api/me/tasks", headers=cookie))[0] == 200  # reads still work
            # not stored, so not acknowledged: the gateway keeps it and delivers it again later
            assert await live.say("/t nueva con el disco lleno") == 503
            assert await live.say("/t nueva mientras tanto") == 503
            # SPEC section 40: the unit's health says it, and the bot's log once, whatever the number of loops
            status, health = await _health(live, 503)
            assert (status, health["reason"], health["database"]) == (503, "database or disk is full",
                                                                      str(data / "tasks.db"))
            assert len(live.log_lines("the database does not take writes")) == 1

            filler.unlink()
            assert await live.say("/t nueva con el disco lleno") == 200  # the gateway's next delivery
            await live.wait_until(lambda: live.log_lines("the database takes writes again"), 20, "the end is said")
            assert (await _health(live, 200))[0] == 200
            await live.wait_until(lambda: _tasks(live) >= 4, 20, "the command is applied once there is room")
            assert (await live.call("POST", f"/api/tasks/{task}/claim", headers={**cookie, **JSON}))[0] == 200
            assert await live.say("/t nueva con sitio otra vez") == 200
            await live.wait_until(lambda: _tasks(live) >= 5, 10, "commands work again")
            assert {"con el disco lleno", "con sitio otra vez"} <= set(_descriptions(live))
        assert integrity(data / "tasks.db") == "ok"


async def _health(live: Live, expected: int, within: float = 5.0) -> tuple[int, Any]:
    """The unit's /health once it answers ``expected`` (the proxy keeps the bot's word a second: proxy/health.py),
    or its last answer after ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        status, body = await live.call("GET", "/health")
        if status == expected or time.monotonic() > deadline:
            return status, body
        await asyncio.sleep(0.2)


def _descriptions(live: Live) -> list[str]:
    with live.db.read() as conn:
        return [str(d) for d in conn.exec_driver_sql("SELECT description FROM tasks").scalars()]


def _tasks(live: Live) -> int:
    with live.db.read() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM tasks").scalar_one())


async def test_a_database_that_became_read_only_answers_reads_and_fails_writes_with_5xx_problems(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    async with live_unit(tmp_path, DB_PATH=str(data / "tasks.db")) as live:
        cookie = await _prepare(live)
        task = await _groups_first_task(live, cookie)
        tasks_before = await asyncio.to_thread(_tasks, live)
    keeper = sqlite3.connect(data / "tasks.db")  # another reader keeps the WAL files, as a running unit would
    keeper.execute("SELECT count(*) FROM tasks").fetchall()
    try:
        with read_only(data) as view:
            async with live_unit(tmp_path, ready="/metrics", DB_PATH=str(view / "tasks.db")) as live:
                status, problem = await live.call("POST", f"/api/tasks/{task}/claim", headers={**cookie, **JSON})
                assert (status, problem["status"]) == (503, 503)
                assert problem["type"] == "about:blank#storage-unavailable"
                assert (await live.call("GET", "/api/me/tasks", headers=cookie))[0] == 200
                assert await live.say("/t nueva en solo lectura") == 503  # not stored: the gateway keeps it
                await live.wait_until(lambda: live.log_lines("attempt to write a readonly database"), 10,
                                      "the log names the cause")
                status, health = await _health(live, 503)  # SPEC section 40: a problem everyone sees
                assert (status, health["problem"]) == (503, "the database does not take writes")
                assert await asyncio.to_thread(_tasks, live) == tasks_before
    finally:
        keeper.close()
    assert integrity(data / "tasks.db") == "ok"


async def test_a_unit_started_on_a_read_only_database_stops_and_says_why(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = Database.from_url(sqlite_url(data / "tasks.db"))
    migrator.migrate(db)
    db.dispose()  # the last connection closes: no -wal or -shm file is left
    with read_only(data) as view:
        unit = Unit("run", unit_env(tmp_path, DB_PATH=str(view / "tasks.db")), tmp_path).start(wait_for=None)
        assert unit.process is not None
        assert unit.process.wait(timeout=60) != 0
    log = unit.log()
    assert "bot not started: the database cannot be used" in log, log
    assert "unable to open database file" in log, log
    [said] = [line for line in log.splitlines() if "bot not started" in line]
    assert f"database={view / 'tasks.db'}" in said  # SPEC section 33: the line names the file
    assert 'msg="bot exited during start: the database cannot be used' in log, log  # names the child and why
    assert "Traceback" not in log, log  # one clear line, not a stack dump
    assert integrity(data / "tasks.db") == "ok"
