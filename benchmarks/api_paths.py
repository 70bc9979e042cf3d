"""GET /api/me/tasks' own work in-process, before and after issue 20, in one run (the bench user, 100k tasks).

Before: the Task-based path the handler ran until issue 20 (``services.task_lists.list_my_tasks``: one statement through
``Connection.execute``, a Task, Person and Series per row, then ``render.task_page``); it still serves the pages, the
chat and the calendar feed. After: the fast path (``services.task_lists.list_my_task_items``: two prepared statements on
a lean read, JSON dicts built from the driver's rows). Both end in the same orjson bytes. Kept (SPEC section 42): what
the handler does while the person's list stamp has not moved (the stamp read, the kept bytes given back). CPU time of
this process (``time.process_time``), rounds interleaved, medians: the ratio is the figure to quote.

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
from tasksvc_run.web.list_cache import ListCache

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


def measure() -> tuple[float, float, float]:
    """(before, after, kept): µs of CPU per page, query to JSON bytes; kept: the page kept at the person's list stamp
    (SPEC section 42), the stamp read and the kept bytes given back."""
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

        cache = ListCache(lambda: 0)

        def kept() -> bytes:
            key = (BENCH_USER, MODE, QUERY)
            found = units.look_prepared(db, task_lists.my_task_items_since, MODE, user_id=BENCH_USER, query=QUERY,
                                        today=now.date(), now=now, known=cache.stamp_of(key))
            if found.page is None:
                return cache.body(key)
            return cache.answer(key, found.stamp, found.page, lambda page: render.item_page(page, ids))

        if not before() == after() == kept() == kept():
            raise AssertionError("the fast path's page differs from the Task-based one, or the kept one")
        for _ in range(WARMUP):
            before()
            after()
            kept()
        old, new, held = [], [], []
        for _ in range(ROUNDS):
            old.append(_per_call_us(before))
            new.append(_per_call_us(after))
            held.append(_per_call_us(kept))
        return statistics.median(old), statistics.median(new), statistics.median(held)
    finally:
        db.dispose()


def rows() -> list[tuple[str, float, str]]:
    """The report's rows: both paths and their ratio."""
    old, new, kept = measure()
    return [("GET /api/me/tasks in-process, query to JSON: Task-based path (before issue 20)", old, "µs"),
            ("GET /api/me/tasks in-process, query to JSON: fast path", new, "µs"),
            ("GET /api/me/tasks in-process, before / after", old / new, "x"),
            ("GET /api/me/tasks in-process: kept at the person's list stamp (SPEC 42), stamp to bytes", kept, "µs")]


if __name__ == "__main__":
    for measure_name, value, unit in rows():
        print(f"{measure_name}: {value:,.1f} {unit}")
