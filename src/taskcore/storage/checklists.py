"""The items of a task's checklist (SPEC section 41, migration 0020): their table on the schema's metadata and one
function per query."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    ForeignKey,
    Integer,
    Table,
    Text,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)

from taskcore.model import Item
from taskcore.storage.schema import UtcDateTime, metadata

__all__ = ["add_items", "copy_items", "count", "items_of", "remove_item", "task_items", "tick", "tick_all"]

task_items = Table(
    "task_items",
    metadata,
    Column("task_id", BigInteger, ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("n", Integer, primary_key=True, autoincrement=False),
    Column("text", Text, nullable=False),
    Column("done_at", UtcDateTime),
)
ti = task_items

_OF_TASKS = (select(ti.c.task_id, ti.c.n, ti.c.text, ti.c.done_at)
             .where(ti.c.task_id.in_(bindparam("ids", expanding=True))).order_by(ti.c.task_id, ti.c.n))


def items_of(conn: Connection, task_ids: Iterable[int]) -> dict[int, tuple[Item, ...]]:
    """Each task's items in order (tasks without any are left out): one statement."""
    found: dict[int, list[Item]] = {}
    ids = list(task_ids)
    if ids:
        for task_id, n, text, done_at in conn.execute(_OF_TASKS, {"ids": ids}):
            found.setdefault(int(task_id), []).append(Item(int(n), text, done_at is not None))
    return {task_id: tuple(items) for task_id, items in found.items()}


def add_items(conn: Connection, task_id: int, texts: Sequence[str], *, first: int = 1) -> None:
    """Append ``texts`` to the task's items, numbered from ``first``."""
    if texts:
        conn.execute(insert(ti), [{"task_id": task_id, "n": first + at, "text": text, "done_at": None}
                                  for at, text in enumerate(texts)])


def count(conn: Connection, task_id: int) -> int:
    """How many items the task has."""
    return int(conn.execute(select(func.count()).select_from(ti).where(ti.c.task_id == task_id)).scalar_one())


def remove_item(conn: Connection, task_id: int, n: int) -> bool:
    """Remove item ``n`` and number the later ones down (through negative numbers, so that no two rows ever hold one
    number); False when there was no such item."""
    if not conn.execute(delete(ti).where(ti.c.task_id == task_id, ti.c.n == n)).rowcount:
        return False
    later = ti.c.task_id == task_id
    conn.execute(update(ti).where(later, ti.c.n > n).values(n=-(ti.c.n - 1)))
    conn.execute(update(ti).where(later, ti.c.n < 0).values(n=-ti.c.n))
    return True


def tick(conn: Connection, task_id: int, n: int, now: datetime) -> bool:
    """Tick item ``n``; False when it was ticked already (or there is none)."""
    stmt = update(ti).where(ti.c.task_id == task_id, ti.c.n == n, ti.c.done_at.is_(None)).values(done_at=now)
    return bool(conn.execute(stmt).rowcount)


def tick_all(conn: Connection, task_id: int, now: datetime) -> None:
    """Tick every item not ticked yet (the task was done by its own done word)."""
    conn.execute(update(ti).where(ti.c.task_id == task_id, ti.c.done_at.is_(None)).values(done_at=now))


def copy_items(conn: Connection, source: int, target: int) -> None:
    """The items of ``source``, none ticked, on ``target`` (a series' next occurrence): one statement."""
    rows = select(bindparam("target", target, type_=BigInteger()), ti.c.n, ti.c.text).where(ti.c.task_id == source)
    conn.execute(insert(ti).from_select(["task_id", "n", "text"], rows))
