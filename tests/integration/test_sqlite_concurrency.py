"""Two OS processes writing one SQLite file (PERFORMANCE.md): no "database is locked", no lost update."""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime
from multiprocessing.synchronize import Barrier
from pathlib import Path

from sqlalchemy import func, select

from taskcore.access import GatingMode
from taskcore.services import tasks as svc
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.builders import make_group, make_task

TASKS = 500
USERS = ("111", "222")


def _worker(
    url: str, user: str, task_ids: list[int], barrier: Barrier, results: multiprocessing.Queue[tuple[str, int, str]]
) -> None:
    db = Database.from_url(url)
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    errors, completed = [], 0
    for task_id in task_ids:
        try:
            units.run(db, svc.claim_task, GatingMode.OFF, user_id=user, task_id=task_id, now=now)
        except Exception as exc:  # every failure is reported to the parent
            errors.append(repr(exc))
    barrier.wait(timeout=120)  # every claim lands before any completion, so no claim meets a closed task
    for task_id in task_ids:
        try:
            completed += units.run(db, svc.complete_task, GatingMode.OFF, user_id=user, task_id=task_id,
                                   now=now).newly_completed
        except Exception as exc:
            errors.append(repr(exc))
    results.put((user, completed, "\n".join(errors[:5]) + f" ({len(errors)} errors)" if errors else ""))
    db.dispose()


def test_two_writer_processes_lose_nothing_and_complete_each_task_once(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "tasks.db")
    db = Database.from_url(url)
    migrator.migrate(db)
    make_group(db, members=USERS)
    task_ids = [make_task(db, creator=USERS[0]).id for _ in range(TASKS)]

    ctx = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue[tuple[str, int, str]] = ctx.Queue()
    barrier = ctx.Barrier(len(USERS))
    workers = [ctx.Process(target=_worker, args=(url, user, task_ids, barrier, results)) for user in USERS]
    for worker in workers:
        worker.start()
    reports = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0

    assert [error for _, _, error in reports if error] == []
    newly = {user: count for user, count, _ in reports}
    with db.read() as conn:
        assignments = conn.execute(select(func.count()).select_from(schema.task_assignments)).scalar_one()
        by_completer = dict(conn.execute(
            select(schema.tasks.c.completed_by, func.count()).group_by(schema.tasks.c.completed_by)
        ).all())
    assert assignments == TASKS * len(USERS)
    assert sum(newly.values()) == TASKS
    assert by_completer == {user: count for user, count in newly.items() if count}
    db.dispose()
