"""Online backup of the SQLite file: consistent while bot and web keep writing (WAL included), checked with
``PRAGMA integrity_check`` before it takes its final name; the dated files of BACKUP_DIR and their rotation.

The backup is the database alone: the photos of photo proof (``DATA_DIR/photos``, SPEC section 34) are not in it
(short-lived by design: docs/operations.md, "Backups"; docs/decisions.md, "Photo proof")."""

from __future__ import annotations

import logging
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taskcore.settings import Settings

log = logging.getLogger("tasksvc")  # the command's own lines, as `tasksvc backup` always wrote them

# The date with its dashes: a run of eight digits in a log line is masked as if it were a phone number.
STAMP = "%Y-%m-%dT%H%M%SZ"
STAMPS = (STAMP, "%Y%m%dT%H%M%SZ")  # and the names of releases before 0.2.0, still rotated
PREFIX, SUFFIX = "tasks-", ".db"


class NoDatabase(FileNotFoundError):
    """The SQLite file to back up does not exist."""


class BackupCorrupt(RuntimeError):
    """The copy failed SQLite's integrity check (it is deleted, never kept as a backup)."""


def backup_sqlite(source: Path, destination: Path) -> int:
    """Copy ``source`` to ``destination`` page by page with SQLite's backup API, verify the copy; pages copied."""
    if not source.is_file():
        raise NoDatabase(f"no database at {source}")
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, sqlite3.connect(partial) as dst:
            src.execute("PRAGMA busy_timeout=5000")
            src.backup(dst, pages=1024)
            pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
            dst.execute("PRAGMA journal_mode=DELETE")
            verdict = [row[0] for row in dst.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise BackupCorrupt(f"backup of {source} failed its integrity check: {'; '.join(verdict[:3])}")
        partial.replace(destination)
    finally:
        partial.unlink(missing_ok=True)
    return pages


def backup_name(now: datetime) -> str:
    """The file name of a backup taken at ``now``: ``tasks-2026-11-26T030000Z.db``."""
    return f"{PREFIX}{now.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def dated_backups(folder: Path) -> list[tuple[datetime, Path]]:
    """The backups this service wrote in ``folder``, oldest first (other files are not its own and stay)."""
    found = []
    for path in folder.glob(f"{PREFIX}*{SUFFIX}") if folder.is_dir() else []:
        if (taken := _taken(path.name[len(PREFIX):-len(SUFFIX)])) is not None:
            found.append((taken, path))
    return sorted(found)


def _taken(stamp: str) -> datetime | None:
    for form in STAMPS:
        try:
            return datetime.strptime(stamp, form).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def rotate(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups; the paths deleted."""
    old = [path for _, path in dated_backups(folder)[:-keep]]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def cmd_backup(settings: Settings, destination: str, *, force: bool = False) -> int:
    """``tasksvc backup``: copy the live SQLite database to ``destination`` with SQLite's online backup (consistent
    while running); one line saying why when it cannot. A file already there is replaced only with ``force``."""
    from tasksvc_run.places import folder_problem  # noqa: PLC0415 - only a failed backup needs it

    if settings.database_url:
        log.error("backup: DATABASE_URL is set; back up PostgreSQL with pg_dump (docs/operations.md)")
        return 2
    if Path(destination).exists() and not force:
        print(f"tasksvc backup: {Path(destination).absolute()} exists; nothing was written (--force replaces it)",
              file=sys.stderr)
        return 1
    try:
        pages = backup_sqlite(settings.database_path, Path(destination))
    except NoDatabase:
        print(f"tasksvc backup: no database at {settings.database_path} (DB_PATH, or DATA_DIR/tasks.db when DB_PATH "
              "is unset); point DB_PATH at the file, e.g. DB_PATH=tmp/tasks.db for the one of `tasksvc dev`",
              file=sys.stderr)
        return 1
    except BackupCorrupt as exc:
        print(f"tasksvc backup: {exc}; nothing was written", file=sys.stderr)
        return 1
    except (OSError, sqlite3.Error) as exc:  # SQLite's own message names no file: say which, and why
        folder = Path(destination).absolute().parent
        reason = folder_problem(folder) or f"{exc} (writing {Path(destination).absolute()})"
        print(f"tasksvc backup: nothing was written: {reason}", file=sys.stderr)
        return 1
    log.info("backup written", extra={"destination": destination, "pages": pages})
    return 0
