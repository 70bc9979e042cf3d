"""The daily backup (SPEC section 27): with BACKUP_DIR set, the bot copies the SQLite file there once a day.

The job looks every hour and writes a backup when the newest one in BACKUP_DIR is 23 hours old or more (or there is
none), so a restarted bot neither skips a day nor writes one backup per restart; each copy is checked with
``PRAGMA integrity_check`` before it takes its name, the oldest beyond BACKUP_KEEP are deleted, and
``backup_last_success_timestamp_seconds`` says when the newest verified one was taken. A backup that cannot be
written (BACKUP_DIR not writable, disk full, the copy corrupt) is one error line naming BACKUP_DIR and the reason,
``job=backup``, no traceback; the gauge keeps the time of the newest backup there is.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from tasksvc_run.backup import BackupCorrupt, backup_name, backup_sqlite, dated_backups, rotate
from tasksvc_run.places import folder_problem
from tasksvc_run.schedulers.failure import JobFailed

if TYPE_CHECKING:
    from tasksvc_run.schedulers.jobs import JobContext

log = logging.getLogger(__name__)
CHECK_EVERY = timedelta(hours=1)
DUE_AFTER = timedelta(hours=23)


def newest_backup(folder: Path) -> datetime | None:
    """When the newest backup in ``folder`` was taken; None when there is none."""
    found = dated_backups(folder)
    return found[-1][0] if found else None


class BackupJob:
    """One look at BACKUP_DIR: a new verified backup when the newest is due, then the rotation."""

    def __init__(self, ctx: JobContext) -> None:
        self.ctx = ctx
        self.folder = Path(ctx.settings.backup_dir or ".")

    async def __call__(self) -> None:
        """Back up when due; the gauge always shows the newest backup's time."""
        now = self.ctx.clock.now()
        last = await asyncio.to_thread(newest_backup, self.folder)
        if last is not None:
            self.ctx.metrics.backup_last_success.set(last.timestamp())
        if last is not None and now - last < DUE_AFTER:
            return
        destination = self.folder / backup_name(now)
        try:
            pages = await asyncio.to_thread(backup_sqlite, self.ctx.settings.database_path, destination)
        except (OSError, sqlite3.Error, BackupCorrupt) as exc:
            raise JobFailed("backup not written", backup_dir=str(self.folder),
                            reason=await asyncio.to_thread(self.reason, exc)) from exc
        self.ctx.metrics.backup_last_success.set(now.timestamp())
        removed = await asyncio.to_thread(rotate, self.folder, self.ctx.settings.backup_keep)
        log.info("backup written", extra={"file": str(destination), "pages": pages, "removed": len(removed)})

    def reason(self, exc: BaseException) -> str:
        """Why a backup failed, in words naming the file or folder: SQLite's own message names neither."""
        if isinstance(exc, BackupCorrupt):
            return str(exc)
        if problem := folder_problem(self.folder):
            return problem
        if not self.ctx.settings.database_path.is_file():
            return f"no database at {self.ctx.settings.database_path}"
        text = (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
        return f"{text} (backing up {self.ctx.settings.database_path} into {self.folder})"
