"""Task lists as use cases: the user's tasks (open or recent, searched, due soon), their groups with counts, a group's
open tasks, one task in full (SPEC sections 4, 5 and 6). Each is one read transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from taskcore.access import GatingMode, GroupFacts, sees_group
from taskcore.errors import Forbidden
from taskcore.model import GroupSummary, Person, Task
from taskcore.pagination import Page
from taskcore.services.tasks import get_task
from taskcore.storage import members, task_export, task_page
from taskcore.storage import task_lists as lists
from taskcore.storage import tasks as q
from taskcore.storage.identities import display_names
from taskcore.text import may_occur_in_description
from taskcore.unit import Reading


@dataclass(frozen=True, slots=True)
class MyTasksQuery:
    """GET /api/me/tasks, validated: status open|recent, search, dueBefore, soonDays, page, limit."""

    status: str = "open"
    search: str | None = None
    due_before: date | None = None
    soon_days: int | None = None
    page: int = 1
    limit: int = 20


def list_my_tasks(
    uow: Reading, mode: GatingMode, *, user_id: str, query: MyTasksQuery, today: date, now: datetime
) -> Page[Task]:
    """The user's open or recently completed tasks across groups, one page with the total."""
    flt = _my_tasks_filter(query, today)
    if flt is None:
        return Page(items=[], page=query.page, limit=query.limit, total=0)
    conn = uow.conn
    return lists.my_tasks(conn, user_id, mode, flt, now)


def list_my_task_items(
    uow: Reading, mode: GatingMode, *, user_id: str, query: MyTasksQuery, today: date, now: datetime
) -> Page[dict[str, Any]]:
    """``list_my_tasks`` for the JSON API: the same page, its items as task item dicts (SPEC section 6) read
    straight from the database's rows (``storage.task_page``)."""
    flt = _my_tasks_filter(query, today)
    if flt is None:
        return Page(items=[], page=query.page, limit=query.limit, total=0)
    conn = uow.conn
    items, total = task_page.my_task_items(conn, user_id, mode, flt, now)
    return Page(items=items, page=query.page, limit=query.limit, total=total)


@dataclass(frozen=True, slots=True)
class KeptPage:
    """``list_my_task_items``' page, or None when it is the one a reader kept (SPEC section 42); and the person's list
    stamp it goes with (None: a page not to keep, such as the recent tasks, which move with the clock)."""

    stamp: int | None
    page: Page[dict[str, Any]] | None


def my_task_items_since(
    uow: Reading, mode: GatingMode, *, user_id: str, query: MyTasksQuery, today: date, now: datetime,
    known: int | None
) -> KeptPage:
    """``list_my_task_items`` for a reader that kept the page it read at stamp ``known``: no page while the person's
    list stamp is still ``known`` (no write since changed what the list shows: the stamp and the page are read in one
    snapshot, and every such write moves the stamp in its own transaction), else the page and the stamp."""
    stamp = None if query.status == "recent" else task_page.list_stamp(uow.conn, user_id)
    if stamp is not None and stamp == known:
        return KeptPage(stamp, None)
    return KeptPage(stamp, list_my_task_items(uow, mode, user_id=user_id, query=query, today=today, now=now))


def _my_tasks_filter(query: MyTasksQuery, today: date) -> lists.MyTasksFilter | None:
    """The storage filter of ``query`` (soonDays folded into dueBefore); None when no task can match."""
    due_before = query.due_before
    if query.soon_days is not None:
        soon = today + timedelta(days=query.soon_days)
        due_before = soon if due_before is None else min(due_before, soon)
    if query.search and not may_occur_in_description(query.search):
        return None
    return lists.MyTasksFilter(query.status, query.search or None, due_before, query.page, query.limit)


def list_my_groups(uow: Reading, mode: GatingMode, *, user_id: str) -> list[GroupSummary]:
    """The groups whose tasks the user sees, with counts."""
    conn = uow.conn
    return lists.my_groups(conn, user_id, mode)


def list_group_tasks(
    uow: Reading,
    mode: GatingMode,
    *,
    user_id: str,
    group_id: str,
    unassigned_first: bool = False,
    only_unassigned: bool = False,
    limit: int = 50,
) -> Page[Task]:
    """A group's open tasks; Forbidden unless the group is effectively allowed and the user an active member."""
    conn = uow.conn
    _require_group_access(q.group_facts(conn, group_id, user_id), mode)
    return lists.group_tasks(
        conn, group_id, unassigned_first=unassigned_first, only_unassigned=only_unassigned, limit=limit
    )


def _require_group_access(facts: GroupFacts, mode: GatingMode) -> None:
    if not sees_group(mode, facts):
        raise Forbidden("the group is not available to this user")


def list_group_members(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str) -> list[Person]:
    """A group's active members by name (SPEC section 23: whom a task made on the web may be for); gated like
    ``list_group_tasks``."""
    conn = uow.conn
    _require_group_access(q.group_facts(conn, group_id, user_id), mode)
    return members.active_members(conn, group_id)


def all_group_tasks(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str) -> list[Task]:
    """Every task of a group, open and completed, oldest first (SPEC section 35: its export); gated like
    ``list_group_tasks``."""
    conn = uow.conn
    _require_group_access(q.group_facts(conn, group_id, user_id), mode)
    return task_export.group_tasks(conn, group_id)


def all_my_tasks(uow: Reading, mode: GatingMode, *, user_id: str) -> list[Task]:
    """Every task of the user's that ``list_my_tasks`` would show, open and completed, oldest first (the export)."""
    conn = uow.conn
    return task_export.my_tasks(conn, user_id, mode)


def task_details(uow: Reading, mode: GatingMode, *, user_id: str, task_id: int) -> tuple[Task, dict[str, str | None]]:
    """One task the user may see (NotFound otherwise), with the shown names of everyone it names: its creator, its
    completer and the people who take turns at it."""
    task = get_task(uow, mode, user_id=user_id, task_id=task_id)
    named = {task.created_by, *(task.recurrence.rotation if task.recurrence else ()),
             *([task.completed_by] if task.completed_by else [])}
    return task, display_names(uow.conn, named)
