"""The tasks a CSV export holds (SPEC section 35): every task of a group, or every task of mine, open and completed,
by id, with their group's name and their assignees."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select

from taskcore.access import GatingMode
from taskcore.model import Task
from taskcore.storage.schema import tasks
from taskcore.storage.task_lists import mine_candidates
from taskcore.storage.tasks import task_columns, with_assignees

EXPORT_MAX = 20_000
"""At most this many tasks in one export (the newest ones): a spreadsheet, not a backup."""
_CHUNK = 500  # tasks whose assignees are read in one statement
t = tasks


def group_tasks(conn: Connection, group_id: str, *, limit: int = EXPORT_MAX) -> list[Task]:
    """Every task of the group, open and completed, oldest first (the newest ``limit``)."""
    newest = select(t.c.id).where(t.c.group_id == group_id).order_by(t.c.id.desc()).limit(limit)
    return _tasks(conn, task_columns().where(t.c.id.in_(newest.scalar_subquery())).order_by(t.c.id), {})


def my_tasks(conn: Connection, user_id: str, mode: GatingMode, *, limit: int = EXPORT_MAX) -> list[Task]:
    """Every task of the user's, open and completed: assigned to them in a group they see, or personal and theirs,
    oldest first (the newest ``limit``)."""
    mine = mine_candidates(mode, [], t.c.id)
    newest = select(mine.c.id).order_by(mine.c.id.desc()).limit(limit)
    query = task_columns().where(t.c.id.in_(newest.scalar_subquery())).order_by(t.c.id)
    return _tasks(conn, query, {"user_id": user_id})


def _tasks(conn: Connection, query: Any, params: dict[str, Any]) -> list[Task]:
    rows: Sequence[Any] = conn.execute(query, params).all()
    found: list[Task] = []
    for start in range(0, len(rows), _CHUNK):
        found += with_assignees(conn, rows[start:start + _CHUNK])
    return found
