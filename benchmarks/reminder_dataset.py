"""A generated dataset for the reminder tick: 100k users with preferences spread over 20 time zones, open tasks,
groups; built once, cached. Each preference's next look is planned as a running bot leaves it (its first slot after
START in its user's zone): 80% chose a zone (``/t zona``), 10% are Colombian numbers (Bogotá by their country), 10%
Spanish ones on TZ (Madrid). Over them, SPEC section 25's state (``chores_dataset``): quiet hours, away, nags,
rotations, held messages, weekly summaries."""

from __future__ import annotations

import random
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from benchmarks.chores_dataset import add_chores
from taskcore.reminders import next_slot
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.penalty_tables import group_penalties
from taskcore.zones import effective_zone

CACHE = Path("tmp/bench")
CREATED = datetime(2026, 1, 1, tzinfo=UTC)
TODAY = date(2026, 11, 23)  # a Monday
START = datetime(2026, 11, 23, 0, 0, tzinfo=UTC)  # the simulated day runs from here, minute by minute
TZ = ZoneInfo("Europe/Madrid")
PEAK_SHARE = 0.20  # users who chose the default 08:30
ZONES = (
    "Europe/Madrid", "Europe/Berlin", "Europe/London", "Europe/Lisbon", "Atlantic/Canary", "Africa/Casablanca",
    "America/Bogota", "America/Lima", "America/Mexico_City", "America/New_York", "America/Chicago",
    "America/Los_Angeles", "America/Sao_Paulo", "America/Argentina/Buenos_Aires", "America/Santiago",
    "America/Caracas", "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney", "Pacific/Auckland",
)
_FREQS = ("daily",) * 5 + ("weekdays",) * 3 + ("weekly",) + ("off",)
_TIMES = [f"{h:02d}:{m:02d}" for h in range(6, 23) for m in (0, 15, 30, 45)]
VERSION = 4  # of the generated data: a change makes a new master file


def _user(i: int) -> str:
    return f"5730{i:08d}" if i % 10 == 1 else f"34{600000000 + i}"


def _zone(i: int) -> str | None:
    return None if i % 10 in (1, 2) else ZONES[i % len(ZONES)]


def _preference(i: int, rng: random.Random) -> dict[str, Any]:
    if rng.random() < PEAK_SHARE:
        freq, time = "daily", "08:30"
    else:
        freq, time = rng.choice(_FREQS), rng.choice(_TIMES)
    tz = _zone(i)
    zone = effective_zone(tz, _user(i), TZ).zone
    return {"user_id": _user(i), "freq": freq, "time": time, "updated_at": CREATED, "tz": tz,
            "next_due_at": next_slot(freq, time, after=START - timedelta(seconds=1), tz=zone)}


def _rows(users: int, groups: int, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {k: [] for k in ("users", "groups", "members", "prefs", "tasks", "assign")}
    rows["users"] = [{"id": _user(i), "created_at": CREATED} for i in range(users)]
    rows["prefs"] = [_preference(i, rng) for i in range(users)]
    for g in range(groups):
        gid = f"120363{g:012d}@g.us"
        rows["groups"].append({"id": gid, "name": f"Grupo {g}", "active": True, "created_at": CREATED})
        rows["members"] += [{"group_id": gid, "user_id": _user(u), "is_admin": False, "active": True,
                             "first_seen_at": CREATED, "last_seen_at": CREATED} for u in rng.sample(range(users), 20)]
    task_id = 0
    for i in range(users):
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3))):
            task_id += 1
            group = f"120363{rng.randrange(groups):012d}@g.us" if rng.random() < 0.5 else None
            due = (TODAY + timedelta(days=rng.randrange(-10, 20))).isoformat()
            rows["tasks"].append({"id": task_id, "group_id": group, "description": f"Tarea {task_id}",
                                  "due_date": due, "created_by": _user(i), "created_at": CREATED, "completed": False})
            if group is None or rng.random() < 0.7:
                rows["assign"].append({"task_id": task_id, "user_id": _user(i), "assigned_at": CREATED})
    return rows


def build(users: int = 100_000, groups: int = 1_000) -> Path:
    """Build (or reuse) the master file and return a fresh copy to run on."""
    CACHE.mkdir(parents=True, exist_ok=True)
    master = CACHE / f"reminders-master-v{VERSION}-{users}.db"
    if not master.exists():
        db = Database.from_url(sqlite_url(master))
        migrator.migrate(db)
        rows = _rows(users, groups, random.Random(7))
        add_chores(rows, random.Random(25), start=START, today=TODAY, fallback=TZ)
        tables = {"users": schema.users, "groups": schema.groups, "members": schema.group_members,
                  "prefs": schema.user_preferences, "tasks": schema.tasks, "assign": schema.task_assignments,
                  "held": schema.held_messages, "penalties": group_penalties}
        with db.write() as conn:
            for key, table in tables.items():
                conn.execute(table.insert(), rows[key])
        with db.write() as conn:
            conn.exec_driver_sql("ANALYZE")
        with db.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        db.dispose()
    copy = CACHE / f"reminders-run-{users}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(master, copy)
    return copy
