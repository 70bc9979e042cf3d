"""The daily backup (SPEC section 27): with BACKUP_DIR set, the bot copies the SQLite file there once a day.

The job looks every hour and writes a backup when the newest one in BACKUP_DIR is 23 hours old or more (or there is
none), so a restarted bot neither skips a day nor writes one backup per restart; each copy is checked with
``PRAGMA integrity_check`` before it takes its name, the oldest beyond BACKUP_KEEP are deleted, and
``backup_last_success_timestamp_seconds`` says when the newest verified one was taken.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from tasksvc_run.backup import backup_name, backup_sqlite, dated_backups, rotate

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
        pages = await asyncio.to_thread(backup_sqlite, self.ctx.settings.database_path, destination)
        self.ctx.metrics.backup_last_success.set(now.timestamp())
        removed = await asyncio.to_thread(rotate, self.folder, self.ctx.settings.backup_keep)
        log.info("backup written", extra={"file": str(destination), "pages": pages, "removed": len(removed)})
