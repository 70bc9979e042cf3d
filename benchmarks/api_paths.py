"""GET /api/me/tasks' own work in-process, before and after issue 20, in one run (the bench user, 100k tasks).

Before: the Task-based path the handler ran until issue 20 (``services.task_lists.list_my_tasks``: one statement through
``Connection.execute``, a Task, Person and Series per row, then ``render.task_page``); it still serves the pages, the
chat and the calendar feed. After: the fast path (``services.task_lists.list_my_task_items``: two prepared statements on
a lean read, JSON dicts built from the driver's rows). Both end in the same orjson bytes. CPU time of this process
(``time.process_time``), rounds interleaved, medians: the ratio is the figure to quote.

``python -m benchmarks.api_paths`` prints the rows.
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import orjson

from benchmarks.dataset import BENCH_USER, CACHE, NOW, build
from taskcore.access import GatingMode
from taskcore.services import task_lists
from taskcore.services.people import PublicIds, public_key
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tasksvc_run.web import render

ROUNDS, CALLS, WARMUP = 5, 400, 100
QUERY = task_lists.MyTasksQuery()  # page 1 of 20 with the total, as the bench's GET /api/me/tasks
MODE = GatingMode.ENFORCE


def _database() -> Database:
    """A migrated private copy of the cached dataset (migration 0006 adds the assignees' index)."""
    target = CACHE / "api-paths.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(build().path, target)
    db = Database.from_url(sqlite_url(target))
    migrator.migrate(db)
    return db


def _per_call_us(work: Callable[[], bytes]) -> float:
    start = time.process_time()
    for _ in range(CALLS):
        work()
    return (time.process_time() - start) / CALLS * 1e6


def measure() -> tuple[float, float]:
    """(before, after): µs of CPU per page, query to JSON bytes."""
    db = _database()
    now = NOW + timedelta(hours=1)
    ids = PublicIds(lambda: units.run(db, public_key, now=now)).of  # as the web names people (SPEC section 32)
    try:
        def before() -> bytes:
            page = units.look(db, task_lists.list_my_tasks, MODE, user_id=BENCH_USER, query=QUERY, today=now.date(),
                              now=now)
            return orjson.dumps(render.task_page(page, ids))

        def after() -> bytes:
            page = units.look(db, task_lists.list_my_task_items, MODE, user_id=BENCH_USER, query=QUERY,
                              today=now.date(), now=now)
            return orjson.dumps(render.item_page(page, ids))

        if before() != after():
            raise AssertionError("the fast path's page differs from the Task-based one")
        for _ in range(WARMUP):
            before()
            after()
        old, new = [], []
        for _ in range(ROUNDS):
            old.append(_per_call_us(before))
            new.append(_per_call_us(after))
        return statistics.median(old), statistics.median(new)
    finally:
        db.dispose()


def rows() -> list[tuple[str, float, str]]:
    """The report's rows: both paths and their ratio."""
    old, new = measure()
    return [("GET /api/me/tasks in-process, query to JSON: Task-based path (before issue 20)", old, "µs"),
            ("GET /api/me/tasks in-process, query to JSON: fast path", new, "µs"),
            ("GET /api/me/tasks in-process, before / after", old / new, "x")]


if __name__ == "__main__":
    for measure_name, value, unit in rows():
        print(f"{measure_name}: {value:,.1f} {unit}")
