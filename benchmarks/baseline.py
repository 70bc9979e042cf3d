"""An earlier release, run beside the current one so the bench prints both webhook figures in the same run.

By default the release before the inbox (issue 16, BEFORE_INBOX); ``nox -s bench -- --before COMMIT`` names
another (``choose``), such as the commit before a change of the webhook's path. ``before_unit`` starts `tasksvc
run` from that commit's source (``git archive`` of its ``src``, cached under tmp/bench) over a copy of the current
dataset (for BEFORE_INBOX, with the inbox migration taken out), so both runs serve the same data on the same machine
in the same run. Without git or that commit, there is no "before" (None).
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import tarfile
from pathlib import Path

from tests.system.unit import Unit

from benchmarks.dataset import CACHE

MIGRATIONS = Path(__file__).resolve().parent.parent / "src" / "taskcore" / "storage" / "migrations"

BEFORE_INBOX = "9a2e4896584fc5e6d9f0e0156651db7c727728a7"  # main before issue 16: webhook events held in memory
BEFORE = BEFORE_INBOX  # the release the bench runs beside the current one
LABEL = f"before ({BEFORE_INBOX[:7]}, events held in memory)"
INBOX_MIGRATION = 2


def choose(commit: str) -> None:
    """Run ``commit`` beside the current release instead of BEFORE_INBOX (the column's label says which)."""
    global BEFORE, LABEL  # noqa: PLW0603 - one choice per bench run, made by its command line
    found = subprocess.run(["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], capture_output=True, text=True,
                           check=False)
    BEFORE = found.stdout.strip() if found.returncode == 0 else commit
    LABEL = f"before ({BEFORE[:7]})" if BEFORE != BEFORE_INBOX else LABEL


def before_source() -> Path | None:
    """The ``src`` folder of BEFORE, extracted once; None when git or the commit is not there."""
    target = (CACHE / f"before-{BEFORE[:12]}").resolve()
    if (target / "src" / "tasksvc_run").is_dir():
        return target / "src"
    archive = target.with_suffix(".tar")
    try:
        with archive.open("wb") as out:
            subprocess.run(["git", "archive", BEFORE, "src"], stdout=out, check=True,
                           stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        archive.unlink(missing_ok=True)
        return None
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    archive.unlink()
    return target / "src"


def without_inbox(source: Path, target: Path) -> Path:
    """A copy of the SQLite file ``source`` as the release before the inbox left it."""
    shutil.copyfile(source, target)
    conn = sqlite3.connect(target)
    try:
        conn.execute("DROP TABLE IF EXISTS inbox")
        conn.execute("DELETE FROM schema_migrations WHERE version >= ?", (INBOX_MIGRATION,))
        conn.commit()
    finally:
        conn.close()
    return target


def without_newer(source: Path, target: Path, before_src: Path) -> Path:
    """A copy of the SQLite file ``source`` as the release whose ``src`` is ``before_src`` would leave it: the
    migrations it does not know are taken out again (their triggers, indexes and tables dropped, their rows
    deleted)."""
    known = {int(p.name[:4]) for p in (before_src / "taskcore" / "storage" / "migrations").glob("[0-9]*.sql")}
    newer = sorted(MIGRATIONS.glob("[0-9]*.sql"), reverse=True)
    shutil.copyfile(source, target)
    conn = sqlite3.connect(target)
    try:
        for migration in (m for m in newer if int(m.name[:4]) not in known):
            text = migration.read_text(encoding="utf-8")
            for index in re.findall(r"CREATE\s+(?:UNIQUE\s+)?INDEX\s+(\w+)", text, flags=re.IGNORECASE):
                conn.execute(f"DROP INDEX IF EXISTS {index}")
            for trigger in re.findall(r"CREATE\s+TRIGGER\s+(\w+)", text, flags=re.IGNORECASE):
                conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            for table in re.findall(r"CREATE\s+TABLE\s+(\w+)", text, flags=re.IGNORECASE):
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            conn.execute("DELETE FROM schema_migrations WHERE version = ?", (int(migration.name[:4]),))
        conn.commit()
    finally:
        conn.close()
    return target


def before_unit(env: dict[str, str], folder: Path) -> Unit | None:
    """`tasksvc run` of BEFORE with ``env`` (its own ports), over a copy of env's database; None without it."""
    source = before_source()
    if source is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    if BEFORE == BEFORE_INBOX:
        database = without_inbox(Path(env["DB_PATH"]), folder / "tasks.db")
    else:
        database = without_newer(Path(env["DB_PATH"]), folder / "tasks.db", source)
    return Unit("run", {**env, "DB_PATH": str(database), "PYTHONPATH": str(source)}, folder).start(within=120.0)
