"""`tasksvc migrate` killed (SIGKILL) at many moments on a fresh file: the next start completes the migrations.

Each migration runs in one transaction, so a kill leaves the file either without it or with all of it; the next
`tasksvc migrate` (or the bot's start, R5) applies what is missing. Applying 0001 takes milliseconds, far less than
the interpreter's start, so the killed runs are slowed down: the same `tasksvc migrate`, with a pause after every
SQL statement it sends (SLOWED). The kill moments are spread over the time such a run takes on this machine,
measured first, so kills land before the file exists, while a migration is being applied, and after.
"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from tests.faults.harness import integrity
from tests.system.unit import Unit, unit_env

KNOWN = [m.version for m in migrator.load_migrations()]
MID_MIGRATION = "ledger with "  # some migrations recorded, not all: a kill inside one of them (14 now, 0001 first)
SLOWED = """
import sys, time
from sqlalchemy.engine import Connection
plain = Connection.exec_driver_sql
def slowed(self, *args, **kwargs):
    answer = plain(self, *args, **kwargs)
    time.sleep(0.015)  # ~125 statements: a run of ~2 s, most of it inside migrations
    return answer
Connection.exec_driver_sql = slowed
from tasksvc_run.cli import main
sys.exit(main(["migrate"]))
"""


def _migrate(env: dict[str, str], cwd: Path, *, slowed: bool = False) -> subprocess.Popen[bytes]:
    command = ["-c", SLOWED] if slowed else ["-m", "tasksvc_run", "migrate"]
    return subprocess.Popen([sys.executable, *command], env=env, cwd=cwd,  # noqa: S603 - our own command
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _state(path: Path) -> str:
    """What a kill left behind: no file, an empty file, the ledger only, or some/all migrations recorded."""
    if not path.exists() or path.stat().st_size == 0:
        return "no database yet"
    db = Database.from_url(sqlite_url(path))
    try:
        if not inspect(db.engine).has_table("schema_migrations"):
            return "file without the ledger"
        with db.read() as conn:
            versions = [int(v) for v in conn.execute(text("SELECT version FROM schema_migrations")).scalars()]
        return "every migration recorded" if versions == KNOWN else f"ledger with {sorted(versions)}"
    finally:
        db.dispose()


def _complete(path: Path) -> None:
    """Every known migration recorded with its checksum, every table of the schema present, the file sound."""
    db = Database.from_url(sqlite_url(path))
    try:
        assert migrator.check(db) == []
        assert migrator.tables_exist(db, schema.metadata.tables)
    finally:
        db.dispose()
    assert integrity(path) == "ok"


def _full_run_seconds(tmp: Path) -> float:
    env = unit_env(tmp, DB_PATH=str(tmp / "measure.db"))
    started = time.monotonic()
    assert _migrate(env, tmp, slowed=True).wait(timeout=60) == 0
    return time.monotonic() - started


def _kill_and_restart(tmp: Path, moments: int) -> collections.Counter[str]:
    whole = _full_run_seconds(tmp)
    seen: collections.Counter[str] = collections.Counter()
    for n in range(moments):
        path = tmp / f"killed-{n}.db"
        env = unit_env(tmp, DB_PATH=str(path))
        process = _migrate(env, tmp, slowed=True)
        time.sleep(whole * (0.2 + 0.9 * n / max(1, moments - 1)))
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        seen[_state(path)] += 1
        assert _migrate(env, tmp).wait(timeout=60) == 0, "the next start refused or failed"
        _complete(path)
    return seen


def _mid(seen: collections.Counter[str]) -> int:
    """How many kills left a file with some migrations recorded and not all."""
    return sum(count for state, count in seen.items() if state.startswith(MID_MIGRATION))


def test_a_migration_killed_at_any_moment_is_completed_by_the_next_start(tmp_path: Path) -> None:
    seen = _kill_and_restart(tmp_path, moments=5)
    assert _mid(seen) >= 1, f"no kill landed inside a migration: {dict(seen)}"


@pytest.mark.slow
def test_twenty_kills_spread_over_a_migration_all_recover(tmp_path: Path) -> None:
    seen = _kill_and_restart(tmp_path, moments=20)
    print("states left by the kills:", dict(seen))
    assert _mid(seen) >= 5, f"too few kills landed inside a migration: {dict(seen)}"


def test_the_bot_starts_on_a_file_whose_migration_was_killed(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    env = unit_env(tmp_path, DB_PATH=str(path))
    whole = _full_run_seconds(tmp_path)
    for fraction in (0.7, 0.55, 0.85, 0.4, 1.0):  # a busy machine may shift the moment: try again, bounded
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        process = _migrate(env, tmp_path, slowed=True)
        time.sleep(whole * fraction)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        if _state(path).startswith(MID_MIGRATION):
            break
    assert _state(path).startswith(MID_MIGRATION)
    unit = Unit("run", env, tmp_path).start()
    try:
        _complete(path)
    finally:
        assert unit.stop() == 0
