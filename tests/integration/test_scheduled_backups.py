"""The bot's daily backup into BACKUP_DIR (SPEC section 27): written when due, verified, rotated, and counted by
backup_last_success_timestamp_seconds; a restarted bot does not write one backup per start."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest

from taskcore.settings import load_settings
from taskcore.storage.db import Database
from tasksvc_run.backup import BackupCorrupt, backup_name, backup_sqlite, dated_backups
from tasksvc_run.logs import KeyValueFormatter
from tasksvc_run.metrics import Metrics
from tasksvc_run.schedulers import JobContext
from tasksvc_run.schedulers.backups import BackupJob
from tasksvc_run.schedulers.failure import JobFailed
from tasksvc_run.schedulers.jobs import build_jobs
from tasksvc_run.schedulers.runtime import SchedulerRuntime
from tests.builders import make_task
from tests.fakes.clock import FrozenClock

NOW = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
GAUGE = "backup_last_success_timestamp_seconds"


def context(db: Database, folder: Path, clock: FrozenClock, *, keep: int = 7, metrics: Metrics | None = None,
            ) -> JobContext:
    settings = load_settings({"NODE_ENV": "test", "DB_PATH": str(db.engine.url.database),
                              "BACKUP_DIR": str(folder), "BACKUP_KEEP": str(keep)})
    return JobContext(settings, db, clock, metrics or Metrics(db, backups=True), None)


def files(folder: Path) -> list[str]:
    return [path.name for _, path in dated_backups(folder)]


async def test_a_backup_is_written_verified_and_counted(sqlite_db: Database, tmp_path: Path) -> None:
    make_task(sqlite_db, group_id=None, description="pan")
    metrics = Metrics(sqlite_db, backups=True)
    await BackupJob(context(sqlite_db, tmp_path / "backups", FrozenClock(NOW), metrics=metrics))()
    assert files(tmp_path / "backups") == ["tasks-2026-11-26T030000Z.db"]
    with closing(sqlite3.connect(tmp_path / "backups" / "tasks-2026-11-26T030000Z.db")) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT description FROM tasks").fetchall() == [("pan",)]
    assert metrics.registry.get_sample_value(GAUGE) == NOW.timestamp()


async def test_one_backup_a_day_whatever_the_restarts_and_only_backup_keep_files_stay(
        sqlite_db: Database, tmp_path: Path) -> None:
    folder, clock = tmp_path / "backups", FrozenClock(NOW)
    for _ in range(10 * 24):  # ten days of hourly looks, each by a freshly started job (a restart every hour)
        await BackupJob(context(sqlite_db, folder, clock, keep=3))()
        clock.advance(timedelta(hours=1))
    taken = [when for when, _ in dated_backups(folder)]
    assert len(taken) == 3
    assert all(timedelta(hours=23) <= later - earlier <= timedelta(hours=24) for earlier, later in pairwise(taken))
    assert taken[-1] >= NOW + timedelta(days=9)


async def test_a_restarted_bot_shows_the_newest_backup_before_writing_another(sqlite_db: Database,
                                                                              tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    await BackupJob(context(sqlite_db, folder, FrozenClock(NOW)))()
    metrics = Metrics(sqlite_db, backups=True)
    await BackupJob(context(sqlite_db, folder, FrozenClock(NOW + timedelta(hours=5)), metrics=metrics))()
    assert metrics.registry.get_sample_value(GAUGE) == NOW.timestamp()
    assert len(files(folder)) == 1


async def test_other_files_in_the_folder_are_left_alone(sqlite_db: Database, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "tasks-before-upgrade.db").write_text("mine")
    (folder / backup_name(NOW - timedelta(days=30))).write_text("old")
    await BackupJob(context(sqlite_db, folder, FrozenClock(NOW), keep=1))()
    assert sorted(path.name for path in folder.iterdir()) == ["tasks-2026-11-26T030000Z.db", "tasks-before-upgrade.db"]


def test_a_copy_that_fails_the_integrity_check_is_not_kept(sqlite_db: Database, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    real_connect = sqlite3.connect

    class Corrupting(sqlite3.Connection):
        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
            if sql == "PRAGMA integrity_check":
                return super().execute("SELECT 'row 3 missing from index'")
            return super().execute(sql, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, **k, factory=Corrupting))
    with pytest.raises(BackupCorrupt, match="row 3 missing"):
        backup_sqlite(Path(str(sqlite_db.engine.url.database)), tmp_path / "backups" / "copy.db")
    assert list((tmp_path / "backups").iterdir()) == []


def test_the_job_exists_only_with_backup_dir_on_sqlite(sqlite_db: Database, tmp_path: Path) -> None:
    with_dir = context(sqlite_db, tmp_path, FrozenClock(NOW))
    assert "backup" in {job.name for job in build_jobs(with_dir)}
    for env in ({}, {"BACKUP_DIR": str(tmp_path), "DATABASE_URL": "postgresql+psycopg://u@127.0.0.1/x"}):
        settings = load_settings({"NODE_ENV": "test", **env})
        assert "backup" not in {job.name for job in build_jobs(JobContext(settings, sqlite_db, FrozenClock(NOW),
                                                                          Metrics(sqlite_db), None))}


def test_the_gauge_is_shown_only_where_backups_are_made(sqlite_db: Database) -> None:
    assert GAUGE.encode() in Metrics(sqlite_db, backups=True).render()
    assert GAUGE.encode() not in Metrics(sqlite_db).render()


async def test_a_backup_that_cannot_be_written_says_where_and_why_and_the_gauge_keeps_the_newest(
        sqlite_db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / backup_name(NOW - timedelta(hours=30))).write_text("yesterday's")
    metrics = Metrics(sqlite_db, backups=True)

    def refused(*_: object) -> int:  # what SQLite says when the folder cannot be written: no path at all
        raise sqlite3.OperationalError("unable to open database file")
    monkeypatch.setattr("tasksvc_run.schedulers.backups.backup_sqlite", refused)
    monkeypatch.setattr("tasksvc_run.schedulers.backups.folder_problem",
                        lambda path: f"cannot write in {path}: Permission denied")
    with pytest.raises(JobFailed) as failed:
        await BackupJob(context(sqlite_db, folder, FrozenClock(NOW), metrics=metrics))()
    assert failed.value.fields == {"backup_dir": str(folder), "reason": f"cannot write in {folder}: Permission denied"}
    assert metrics.registry.get_sample_value(GAUGE) == (NOW - timedelta(hours=30)).timestamp()


async def test_a_backup_dir_under_a_file_is_named_with_the_reason(sqlite_db: Database, tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    metrics = Metrics(sqlite_db, backups=True)
    with pytest.raises(JobFailed) as failed:
        await BackupJob(context(sqlite_db, tmp_path / "plain" / "backups", FrozenClock(NOW), metrics=metrics))()
    assert failed.value.fields["reason"] == f"cannot create {tmp_path}/plain/backups: Not a directory"
    assert metrics.registry.get_sample_value(GAUGE) == 0


async def test_a_failed_backup_is_one_line_with_job_backup_and_no_traceback(
        sqlite_db: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "plain").write_text("x")
    job = next(job for job in build_jobs(context(sqlite_db, tmp_path / "plain" / "b", FrozenClock(NOW)))
               if job.name == "backup")
    runtime = SchedulerRuntime([job], clock=FrozenClock(NOW))
    with caplog.at_level(logging.DEBUG):
        assert await runtime.run_job("backup") is False
    [line] = [KeyValueFormatter().format(r) for r in caplog.records if r.levelno >= logging.WARNING]
    assert 'msg="scheduled job failed: backup not written; it runs again at its next tick"' in line
    assert "job=backup" in line
    assert f'reason="cannot create {tmp_path}/plain/b: Not a directory"' in line
    assert "Traceback" not in line
    assert not any(r.exc_info for r in caplog.records)


def test_a_backups_name_is_not_masked_in_a_log_line_and_old_names_still_count(tmp_path: Path) -> None:
    record = logging.LogRecord("x", logging.INFO, "", 0, "backup written", (), None)
    record.file = f"/backups/{backup_name(NOW)}"
    assert "file=/backups/tasks-2026-11-26T030000Z.db" in KeyValueFormatter().format(record)
    (tmp_path / "tasks-20261120T030000Z.db").write_text("before 0.2.0")
    (tmp_path / backup_name(NOW)).write_text("now")
    assert [when for when, _ in dated_backups(tmp_path)] == [datetime(2026, 11, 20, 3, tzinfo=UTC), NOW]


OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


async def test_the_failure_line_docs_operations_shows_is_the_line_the_bot_writes(
        sqlite_db: Database, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    operations = await asyncio.to_thread(OPERATIONS.read_text, encoding="utf-8")
    [documented] = [line for line in operations.splitlines() if line.startswith("level=error") and "job=backup" in line]
    monkeypatch.setattr("tasksvc_run.schedulers.backups.folder_problem",
                        lambda path: f"cannot write in {path}: Permission denied")
    monkeypatch.setattr("tasksvc_run.schedulers.backups.backup_sqlite", lambda *_: (_ for _ in ()).throw(
        sqlite3.OperationalError("unable to open database file")))
    jobs = build_jobs(context(sqlite_db, Path("/backups"), FrozenClock(NOW)))
    job = next(job for job in jobs if job.name == "backup")
    with caplog.at_level(logging.INFO):
        await SchedulerRuntime([job], clock=FrozenClock(NOW)).run_job("backup")
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    record.proc = "bot"
    written = KeyValueFormatter().format(record)  # ts=... level=error proc=bot logger=... msg=... job=backup ...
    assert " level=error proc=bot " in written
    assert written.endswith(" " + documented.removeprefix("level=error proc=bot "))
