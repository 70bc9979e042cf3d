"""``tasksvc restore <file>`` (SPEC section 40): a backup put in place of the SQLite database, checked first.

The backup is copied beside the database with SQLite's backup API, and the copy must pass ``PRAGMA integrity_check``
and be a tasksvc database whose migration history this release knows (a backup of a newer release is refused: no
downgrades). Only then is the current database (its WAL checkpointed into it) kept beside itself as
``tasks.db.replaced-<UTC time>`` and the copy takes its name. It refuses while the unit runs: a port of the unit
answers on 127.0.0.1, or a process holds the database open (SQLite's lock on its ``-shm`` file, which a container
sharing the volume holds too). Run as root, the restored file gets the owner of the file it replaces, so that the
service's user can write it (a file restored as root is a database that takes no write).
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from taskcore.errors import SchemaError
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import exits
from tasksvc_run.backup import BackupCorrupt, backup_sqlite
from tasksvc_run.supervisor import port_open

if TYPE_CHECKING:
    from taskcore.settings import Settings

SHM_DMS = 128  # the byte of the -shm file every open SQLite connection holds a shared lock on (os_unix.c)
STAMP = "%Y-%m-%dT%H%M%SZ"


def _say(line: str) -> None:
    print(f"tasksvc restore: {line}", file=sys.stderr)


def unit_running(settings: Settings, live: Path) -> str | None:
    """Why the unit seems to run (a port of it answers, or a process has the database open); None when it does not."""
    for name, port in (("PORT", settings.port), ("BOT_PORT", settings.bot_port), ("WEB_PORT", settings.web_port)):
        if port and port_open(port):
            return f"something answers on 127.0.0.1:{port} ({name})"
    shm = live.with_name(live.name + "-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return None  # no -shm file: nobody has the database open in WAL mode
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EAGAIN):
            return f"a process has {live} open"
        raise
    finally:
        os.close(fd)  # closing the file releases the lock taken
    return None


def _schema_problem(staged: Path) -> str | None:
    """Why the copy at ``staged`` is not a database this release can run on; None when it is."""
    db = Database.from_url(sqlite_url(staged))
    try:
        if not migrator.tables_exist(db, ("schema_migrations",)):
            return "it is not a tasksvc database (it has no schema_migrations table)"
        migrator.check(db)
    except SchemaError as exc:
        return str(exc)
    finally:
        db.dispose()
    return None


def _set_aside(live: Path, now: datetime) -> Path | None:
    """Checkpoint ``live``'s WAL into it and rename it beside itself; the new name (None when there was none)."""
    if not live.exists():
        return None
    with sqlite3.connect(live) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    kept = live.with_name(f"{live.name}.replaced-{now.astimezone(UTC).strftime(STAMP)}")
    live.replace(kept)
    for suffix in ("-wal", "-shm"):
        live.with_name(live.name + suffix).unlink(missing_ok=True)
    return kept


def _owned_like(path: Path, model: Path | None) -> None:
    """Give ``path`` the owner of ``model`` (or of its folder) when this runs as root."""
    if os.geteuid() == 0:
        like = (model if model is not None and model.exists() else path.parent).stat()
        os.chown(path, like.st_uid, like.st_gid)


def cmd_restore(settings: Settings, source: str, *, now: datetime | None = None) -> int:
    """Check the backup ``source`` and put it in place of the database; the replaced one is kept beside it."""
    if settings.database_url:
        _say("DATABASE_URL is set; restore PostgreSQL with pg_restore (docs/operations.md)")
        return exits.CONFIG
    backup, live = Path(source).absolute(), settings.database_path
    if not backup.is_file():
        _say(f"no backup at {backup}")
        return exits.FAILED
    if (running := unit_running(settings, live)) is not None:
        _say(f"the unit is running ({running}); stop it first (docker compose stop tasksvc), then restore")
        return exits.FAILED
    staged = live.with_name(live.name + ".restoring")
    try:
        backup_sqlite(backup, staged)
        problem = _schema_problem(staged)
    except (BackupCorrupt, sqlite3.Error, OSError) as exc:
        problem = str(exc)
    if problem is not None:
        staged.unlink(missing_ok=True)
        _say(f"{backup} not restored: {problem}; {live} was not touched")
        return exits.FAILED
    kept = _set_aside(live, now or datetime.now(UTC))
    _owned_like(staged, kept)
    staged.replace(live)
    print(f"tasksvc restore: {live} restored from {backup}"
          + (f"; the database it replaced is kept as {kept}" if kept else ""))
    return exits.OK
