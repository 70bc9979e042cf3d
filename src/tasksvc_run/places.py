"""Where the service writes (DATA_DIR, DB_PATH, BACKUP_DIR): can it? (SPEC section 33).

Each check really creates what it needs (the folder, a scratch file), so it answers for this process's user, root
and read-only file systems included, and says why not in words that name the path: ``cannot create /srv/data:
Permission denied``. Used at start (a database that cannot be opened: one line, exit status 4; a BACKUP_DIR that
cannot be written: one warning line), by `tasksvc doctor` and by the daily backup's failure line.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taskcore.settings import Settings

SCRATCH_PREFIX = ".tasksvc-write-check-"
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def folder_problem(folder: Path, *, create: bool = True) -> str | None:
    """None when a file can be created in ``folder`` (made, parents included, when missing); else why not.
    ``create=False`` (doctor) makes nothing: a missing folder is judged by the nearest folder above it."""
    if not create and not folder.exists():
        return _creatable(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"{folder} exists and is not a directory"
    except OSError as exc:
        return f"cannot create {folder}: {_reason(exc)}"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=SCRATCH_PREFIX):
            pass
    except OSError as exc:
        return f"cannot write in {folder}: {_reason(exc)}"
    return None


def _creatable(folder: Path) -> str | None:
    above = next((parent for parent in folder.parents if parent.exists()), Path("/"))
    if not above.is_dir():
        return f"cannot create {folder}: {above} is not a directory"
    if not os.access(above, os.W_OK | os.X_OK):
        return f"cannot create {folder}: {above} is not writable by this user"
    return None


def sqlite_file_problem(path: Path, *, create: bool = True) -> str | None:
    """None when the SQLite file ``path`` exists and can be read as a database, or can be created (its folder made
    and writable); else why not. An existing file on a read-only disk passes: the service then answers reads, and
    writes fail as a passing outage (SPEC section 17); SQLite itself says so at start if it cannot even open it."""
    if path.is_dir():
        return f"{path} is a directory, not a database file"
    if not path.exists():
        return folder_problem(path.parent, create=create)
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        return f"cannot open {path}: {_reason(exc)}"
    if header and header != SQLITE_HEADER:
        return f"{path}: file is not a database (not SQLite's header)"
    return None


def database_problem(database_url: str | None, sqlite_path: Path, *, create: bool = True) -> str | None:
    """Why the configured SQLite file (DB_PATH, or DATA_DIR/tasks.db) cannot be used; None with DATABASE_URL."""
    return None if database_url else sqlite_file_problem(sqlite_path, create=create)


def database_fix(sqlite_path: Path) -> str:
    """How to fix the problem ``database_problem`` found with ``sqlite_path``: a file (or folder) there that is not a
    database is named itself; a folder that cannot be written or made, by its own path."""
    if sqlite_path.exists():
        return (f"point DB_PATH at the service's SQLite database, or move {sqlite_path} away so that a new one is "
                "made there (docs/operations.md)")
    return (f"make {sqlite_path.parent} writable by the service's user (chown), or point DB_PATH elsewhere "
            "(docs/operations.md)")


def database_named(settings: Settings) -> str:
    """The database as a log line may name it: the SQLite file's path, or ``DATABASE_URL`` (never its value)."""
    return "DATABASE_URL" if settings.database_url else str(settings.database_path)
