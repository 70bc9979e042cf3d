"""A generated dataset for benchmarks: 100k tasks in 1k groups, one user to measure, built once and cached."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url

CACHE = Path("tmp/bench")
BENCH_USER = "34600000001"
NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Dataset:
    """Where the data is and what it holds."""

    path: Path
    tasks: int
    groups: int
    user: str = BENCH_USER

    @property
    def url(self) -> str:
        """SQLAlchemy URL of the file."""
        return sqlite_url(self.path)


def _group_id(i: int) -> str:
    return f"120363{i:012d}@g.us"


def _rows(tasks: int, groups: int, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    members_per_group = 20
    pool = [f"34{700000000 + i}" for i in range(groups * 5)]
    mine = set(rng.sample(range(groups), 5))
    keys = ("users", "groups", "allowed", "members", "tasks", "assign")
    rows: dict[str, list[dict[str, Any]]] = {k: [] for k in keys}
    rows["users"] = [{"id": u, "display_name": f"U{u[-4:]}", "created_at": NOW} for u in [BENCH_USER, *pool]]
    for g in range(groups):
        gid = _group_id(g)
        rows["groups"].append({"id": gid, "name": f"Grupo {g:04d}", "active": True, "created_at": NOW})
        rows["allowed"].append({"group_id": gid, "status": "allowed", "discovered_at": NOW, "updated_at": NOW})
        people = rng.sample(pool, members_per_group) + ([BENCH_USER] if g in mine else [])
        rows["members"] += [{"group_id": gid, "user_id": u, "is_admin": False, "active": True,
                             "first_seen_at": NOW, "last_seen_at": NOW} for u in people]
    for task_id in range(1, tasks + 1):
        g = rng.randrange(groups)
        personal = task_id % 50 == 0
        done = rng.random() < 0.3
        creator = BENCH_USER if personal and task_id % 5000 == 0 else rng.choice(pool)
        due = (date(2026, 11, 1) + timedelta(days=rng.randrange(90))).isoformat() if rng.random() < 0.8 else None
        rows["tasks"].append({
            "id": task_id, "group_id": None if personal else _group_id(g), "description": f"Tarea {task_id} de prueba",
            "due_date": due, "created_by": creator, "created_at": NOW, "completed": done,
            "completed_at": NOW - timedelta(hours=rng.randrange(72)) if done else None,
            "completed_by": creator if done else None})
        people = [creator] if personal else rng.sample(pool, rng.choice((0, 0, 1, 1, 1, 2)))
        if not personal and g in mine and rng.random() < 0.3:
            people.append(BENCH_USER)
        rows["assign"] += [{"task_id": task_id, "user_id": u, "assigned_at": NOW} for u in dict.fromkeys(people)]
    return rows


def build(tasks: int = 100_000, groups: int = 1_000, *, fresh: bool = False) -> Dataset:
    """Build (or reuse) the dataset file and return a pristine copy for one benchmark run."""
    CACHE.mkdir(parents=True, exist_ok=True)
    master = CACHE / f"master-{tasks}-{groups}.db"
    if fresh or not master.exists():
        master.unlink(missing_ok=True)
        db = Database.from_url(sqlite_url(master))
        migrator.migrate(db)
        rows = _rows(tasks, groups, random.Random(42))
        tables = {"users": schema.users, "groups": schema.groups, "allowed": schema.allowed_groups,
                  "members": schema.group_members, "tasks": schema.tasks, "assign": schema.task_assignments}
        with db.write() as conn:
            for key, table in tables.items():
                conn.execute(table.insert(), rows[key])
        with db.write() as conn:
            conn.exec_driver_sql("ANALYZE")
        with db.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        db.dispose()
    copy = CACHE / f"run-{tasks}-{groups}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(master, copy)
    return Dataset(copy, tasks, groups)
