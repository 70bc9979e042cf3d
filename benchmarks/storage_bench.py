"""Use-case timings at 100k tasks on SQLite: "my open tasks, page 1" (with total) and "complete"."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select

from benchmarks.dataset import NOW, build
from taskcore.access import GatingMode
from taskcore.services import task_lists
from taskcore.services import tasks as svc
from taskcore.services.task_lists import MyTasksQuery
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units

RUNS = 300


def _timed(work: Callable[[int], object], runs: int) -> list[float]:
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        work(i)
        samples.append((time.perf_counter() - started) * 1e6)
    return samples


def _line(name: str, samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100)
    return f"| {name:<34} | {statistics.median(samples):>9.0f} | {q[98]:>9.0f} | {len(samples):>5} |"


def main() -> None:
    """Print median and p99 (µs) of each use case over a fixed number of runs."""
    data = build()
    db = Database.from_url(data.url)
    mode = GatingMode.ENFORCE
    today = NOW.date()
    with db.read() as conn:
        open_ids = list(conn.execute(
            select(schema.tasks.c.id).where(schema.tasks.c.completed.is_(False), schema.tasks.c.group_id.in_(
                select(schema.group_members.c.group_id).where(schema.group_members.c.user_id == data.user)))
        ).scalars())
    query = MyTasksQuery()
    first = units.look(db, task_lists.list_my_tasks, mode, user_id=data.user, query=query, today=today, now=NOW)
    rows = [
        _line("my open tasks, page 1 (+ total)", _timed(
            lambda _: units.look(db, task_lists.list_my_tasks, mode, user_id=data.user, query=query, today=today,
                                 now=NOW), RUNS)),
        _line("my open tasks, search 'tarea 1'", _timed(lambda _: units.look(
            db, task_lists.list_my_tasks, mode, user_id=data.user, query=MyTasksQuery(search="tarea 1"), today=today,
            now=NOW), RUNS)),
        _line("my groups with counts", _timed(
            lambda _: units.look(db, task_lists.list_my_groups, mode, user_id=data.user), RUNS)),
        _line("complete (a different open task each)", _timed(lambda i: units.run(
            db, svc.complete_task, mode, user_id=data.user, task_id=open_ids[i], now=NOW + timedelta(seconds=i)),
            min(RUNS, len(open_ids)))),
    ]
    print(f"dataset: {data.tasks} tasks, {data.groups} groups; user sees {first.total} open tasks; "
          f"{len(open_ids)} open tasks in the user's groups")
    print("| use case                           | median µs |    p99 µs |  runs |")
    print("|------------------------------------|-----------|-----------|-------|")
    print("\n".join(rows))
    db.dispose()
