"""The checklist use cases (SPEC section 41), one for every front end (the chat and the web): add items, remove one,
tick items (the last one completes the task, through the completion use case)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from taskcore.access import GatingMode, TaskAction
from taskcore.checklists import InvalidItem, check_count, item_texts
from taskcore.errors import Conflict, PhotoRequired
from taskcore.i18n import _
from taskcore.model import Completion, Task
from taskcore.services import tasks
from taskcore.storage import checklists as q
from taskcore.storage.tasks import load_tasks
from taskcore.unit import UnitOfWork

__all__ = ["Ticked", "add_items", "remove_item", "tick_items"]


@dataclass(frozen=True, slots=True)
class Ticked:
    """What ticking did: the task as it is now, the numbers newly ticked (the others were already), and the
    completion the last item made (None while items are left, or when the task needs its photo first)."""

    task: Task
    ticked: tuple[int, ...]
    completion: Completion | None = None
    needs_photo: bool = False


def add_items(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, texts: Sequence[str]) -> Task:
    """Append items to an open task's checklist (whoever may edit it); InvalidItem past 20 items."""
    texts = item_texts(texts)
    conn = uow.conn
    _open(tasks.checked(conn, mode, TaskAction.EDIT, user_id, task_id).completed)
    had = q.count(conn, task_id)
    check_count(had, len(texts))
    q.add_items(conn, task_id, texts, first=had + 1)
    return load_tasks(conn, [task_id])[0]


def remove_item(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, n: int) -> Task:
    """Remove item ``n`` of an open task (the later ones are numbered down); InvalidItem when it has none."""
    conn = uow.conn
    _open(tasks.checked(conn, mode, TaskAction.EDIT, user_id, task_id).completed)
    if not q.remove_item(conn, task_id, n):
        raise _out_of_range(task_id, n, q.count(conn, task_id))
    return load_tasks(conn, [task_id])[0]


def tick_items(
    uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, numbers: Sequence[int], now: datetime,
    today: date | None = None,
) -> Ticked:
    """Tick items of an open task (whoever may complete it); when none is left the task is completed by the same
    person, as its done word would (a task that needs a photo waits for it). InvalidItem names a number it lacks."""
    conn = uow.conn
    _open(tasks.checked(conn, mode, TaskAction.COMPLETE, user_id, task_id).completed)
    count = q.count(conn, task_id)
    wrong = next((n for n in numbers if not 1 <= n <= count), None)
    if wrong is not None:
        raise _out_of_range(task_id, wrong, count)
    ticked = tuple(n for n in numbers if q.tick(conn, task_id, n, now))
    task = load_tasks(conn, [task_id])[0]
    if not all(item.done for item in task.items):
        return Ticked(task, ticked)
    try:  # a task that needs a photo says so before its completion writes anything
        done = tasks.complete_task(uow, mode, user_id=user_id, task_id=task_id, now=now, today=today)
    except PhotoRequired:
        return Ticked(task, ticked, needs_photo=True)
    return Ticked(done.task, ticked, done)


def _open(completed: bool) -> None:
    if completed:
        raise Conflict("the task is completed")


def _out_of_range(task_id: int, n: int, count: int) -> InvalidItem:
    if count == 0:
        return InvalidItem(_("la tarea #{id} no tiene lista", id=task_id), field="items")
    return InvalidItem(_("la tarea #{id} no tiene el elemento {n}: tiene del 1 al {count}", id=task_id, n=n,
                         count=count), field="items")
