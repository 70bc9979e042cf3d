"""Queries on tasks and assignments; visibility and gating are expressed in the SQL (SPEC sections 3, 4)."""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Row,
    Select,
    Text,
    and_,
    bindparam,
    delete,
    exists,
    false,
    func,
    or_,
    select,
    true,
    union,
    update,
)

from taskcore.access import GatingMode, GroupFacts, GroupStatus, TaskFacts
from taskcore.model import GroupSummary, Origin, Person, Task
from taskcore.pagination import Page, like_contains, offset_of
from taskcore.storage.schema import UtcDateTime, allowed_groups, group_members, groups, task_assignments, tasks, users
from taskcore.storage.sql import insert_ignore

RECENT_WINDOW = timedelta(hours=24)
_UPPER = string.ascii_uppercase
_LOWER = string.ascii_lowercase
t, ta, gm, ag, g = tasks, task_assignments, group_members, allowed_groups, groups


@dataclass(frozen=True, slots=True)
class MyTasksFilter:
    """What GET /api/me/tasks asks for."""

    status: str = "open"  # open | recent
    search: str | None = None
    due_before: date | None = None
    page: int = 1
    limit: int = 20


_INSERT_TASK = t.insert().returning(t.c.id)  # built once; the row goes in as parameters


def insert_task(
    conn: Connection,
    *,
    group_id: str | None,
    description: str,
    due: date | None,
    created_by: str,
    now: datetime,
    origin: Origin | None = None,
) -> int:
    """Insert a task and return its id."""
    values: dict[str, Any] = {
        "group_id": group_id,
        "description": description,
        "due_date": due.isoformat() if due else None,
        "created_by": created_by,
        "created_at": now,
        "completed": False,
    }
    if origin is not None:
        values |= {
            "origin_chat_id": origin.chat_id,
            "origin_message_id": origin.message_id,
            "origin_participant": origin.participant,
            "origin_message_at": origin.sent_at,
        }
    return int(conn.execute(_INSERT_TASK, values).scalar_one())


def add_assignment(conn: Connection, task_id: int, user_id: str, *, by: str | None, now: datetime) -> bool:
    """Assign the user (idempotent); True when the assignment is new."""
    row = {"task_id": task_id, "user_id": user_id, "assigned_at": now, "assigned_by": by}
    return insert_ignore(conn, ta, row, ["task_id", "user_id"])


def remove_assignment(conn: Connection, task_id: int, user_id: str) -> bool:
    """Remove the user's assignment if present; True when one was removed."""
    return bool(conn.execute(delete(ta).where(ta.c.task_id == task_id, ta.c.user_id == user_id)).rowcount)


def mark_completed(conn: Connection, task_id: int, user_id: str, now: datetime) -> bool:
    """Complete an open task; False when it was already completed (a concurrent completion lost)."""
    stmt = (
        update(t)
        .where(t.c.id == task_id, t.c.completed == false())
        .values(completed=True, completed_at=now, completed_by=user_id)
    )
    return bool(conn.execute(stmt).rowcount)


def update_task(conn: Connection, task_id: int, values: dict[str, Any]) -> None:
    """Set the given columns of an open task."""
    if values:
        conn.execute(update(t).where(t.c.id == task_id).values(**values))


def group_facts(conn: Connection, group_id: str, user_id: str) -> GroupFacts:
    """The group's stored status and whether the user is an active member of it."""
    status = conn.execute(select(ag.c.status).where(ag.c.group_id == group_id)).scalar_one_or_none()
    active = conn.execute(
        select(gm.c.active).where(gm.c.group_id == group_id, gm.c.user_id == user_id)
    ).scalar_one_or_none()
    return GroupFacts(status=GroupStatus(status) if status else None, user_is_active_member=bool(active))


def task_facts(conn: Connection, task_id: int, user_id: str) -> tuple[TaskFacts, GroupFacts | None] | None:
    """What the access rules need about a task, or None when it does not exist."""
    row = conn.execute(
        select(t.c.group_id, t.c.created_by, t.c.completed).where(t.c.id == task_id)
    ).one_or_none()
    if row is None:
        return None
    assignees = frozenset(conn.execute(select(ta.c.user_id).where(ta.c.task_id == task_id)).scalars())
    facts = TaskFacts(row.group_id, row.created_by, assignees, bool(row.completed))
    group = group_facts(conn, row.group_id, user_id) if row.group_id else None
    return facts, group


def _member_group_ids(mode: GatingMode) -> Select[Any]:
    """Groups whose tasks :user_id sees: active membership, and an allowed status unless gating is off."""
    query = select(gm.c.group_id).where(gm.c.user_id == bindparam("user_id"), gm.c.active == true())
    if mode is not GatingMode.OFF:
        query = query.join(ag, ag.c.group_id == gm.c.group_id).where(ag.c.status == GroupStatus.ALLOWED.value)
    return query


def _mine() -> ColumnElement[bool]:
    """Assigned to :user_id, or personal and created by them."""
    assigned = select(ta.c.task_id).where(ta.c.user_id == bindparam("user_id"))
    personal = select(t.c.id).where(t.c.created_by == bindparam("user_id"), t.c.group_id.is_(None))
    return t.c.id.in_(union(assigned, personal))


def _visible(mode: GatingMode) -> ColumnElement[bool]:
    return or_(t.c.group_id.is_(None), t.c.group_id.in_(_member_group_ids(mode)))


def _task_columns() -> Select[Any]:
    return select(t, g.c.name.label("group_name")).select_from(t.outerjoin(g, g.c.id == t.c.group_id))


def _contains_ignoring_ascii_case(dialect: str, column: Any) -> ColumnElement[bool]:
    """LIKE :pattern with backslash escapes; ASCII letters match either case, every other character only itself."""
    pattern = bindparam("pattern", type_=Text())
    if dialect == "sqlite":  # SQLite's LIKE already folds exactly the ASCII letters
        return column.like(pattern, escape="\\")  # type: ignore[no-any-return]
    folded = func.translate(column, _UPPER, _LOWER)
    return folded.like(func.translate(pattern, _UPPER, _LOWER), escape="\\")


@lru_cache(maxsize=64)
def _my_tasks_statements(
    dialect: str, mode: GatingMode, recent: bool, searching: bool, dated: bool
) -> tuple[Select[Any], Select[Any]]:
    """The page statement (with the total as a window count) and the count statement, built once per shape."""
    conditions: list[Any] = [_mine(), _visible(mode)]
    if recent:
        conditions += [t.c.completed == true(), t.c.completed_at >= bindparam("since", type_=UtcDateTime())]
    else:
        conditions.append(t.c.completed == false())
    if searching:
        conditions.append(_contains_ignoring_ascii_case(dialect, t.c.description))
    if dated:
        conditions += [t.c.due_date.is_not(None), t.c.due_date <= bindparam("due_before", type_=Text())]
    order = (t.c.completed_at.desc(), t.c.id.desc()) if recent else (t.c.due_date.asc().nulls_last(), t.c.id.asc())
    page = (
        _task_columns().add_columns(func.count().over().label("total")).where(*conditions).order_by(*order)
        .limit(bindparam("limit", type_=Integer())).offset(bindparam("offset", type_=Integer()))
    )
    return page, select(func.count()).select_from(t).where(*conditions)


def my_tasks(conn: Connection, user_id: str, mode: GatingMode, flt: MyTasksFilter, now: datetime) -> Page[Task]:
    """The user's open (or recently completed) visible tasks, one page, with the total, in one round trip."""
    page_stmt, count_stmt = _my_tasks_statements(
        conn.dialect.name, mode, flt.status == "recent", bool(flt.search), flt.due_before is not None)
    params: dict[str, Any] = {"user_id": user_id, "since": now - RECENT_WINDOW, "limit": flt.limit,
                              "offset": offset_of(flt.page, flt.limit)}
    if flt.search:
        params["pattern"] = like_contains(flt.search)
    if flt.due_before is not None:
        params["due_before"] = flt.due_before.isoformat()
    rows = conn.execute(page_stmt, params).all()
    # Past the last page there is no row to carry the window count, so count separately.
    total = rows[0].total if rows else conn.execute(count_stmt, params).scalar_one()
    return Page(items=_with_assignees(conn, rows), page=flt.page, limit=flt.limit, total=int(total))


def group_tasks(
    conn: Connection, group_id: str, *, unassigned_first: bool, only_unassigned: bool, limit: int
) -> Page[Task]:
    """A group's open tasks by due date (NULL last), optionally unassigned first or only."""
    unassigned = ~exists().where(ta.c.task_id == t.c.id)
    conditions: list[Any] = [t.c.group_id == group_id, t.c.completed == false()]
    if only_unassigned:
        conditions.append(unassigned)
    order: list[Any] = [t.c.due_date.asc().nulls_last(), t.c.id.asc()]
    if unassigned_first and not only_unassigned:
        order.insert(0, unassigned.desc())
    rows = conn.execute(_task_columns().where(*conditions).order_by(*order).limit(limit)).all()
    total = conn.execute(select(func.count()).select_from(t).where(*conditions)).scalar_one()
    return Page(items=_with_assignees(conn, rows), page=1, limit=limit, total=int(total))


def my_groups(conn: Connection, user_id: str, mode: GatingMode) -> list[GroupSummary]:
    """Groups whose tasks the user sees, by name, with open and unassigned counts."""
    open_tasks = and_(t.c.group_id == g.c.id, t.c.completed == false())
    open_count = select(func.count()).where(open_tasks).scalar_subquery()
    unassigned_count = (
        select(func.count()).where(open_tasks, ~exists().where(ta.c.task_id == t.c.id)).scalar_subquery()
    )
    query = (
        select(g.c.id, g.c.name, g.c.active, open_count.label("open"), unassigned_count.label("unassigned"))
        .where(g.c.id.in_(_member_group_ids(mode)))
        .order_by(g.c.name, g.c.id)
    )
    rows = conn.execute(query, {"user_id": user_id})
    return [GroupSummary(r.id, r.name, bool(r.active), int(r.open), int(r.unassigned)) for r in rows]


_LOAD_TASKS = _task_columns().where(t.c.id.in_(bindparam("ids", expanding=True)))


def load_tasks(conn: Connection, task_ids: Sequence[int]) -> list[Task]:
    """The tasks with these ids, in the order given (missing ones skipped)."""
    if not task_ids:
        return []
    rows = conn.execute(_LOAD_TASKS, {"ids": list(task_ids)}).all()
    by_id = {task.id: task for task in _with_assignees(conn, rows)}
    return [by_id[i] for i in task_ids if i in by_id]


def open_tasks_for_digest(
    conn: Connection, user_id: str, mode: GatingMode, *, until: date
) -> list[Task]:
    """The user's open visible tasks due on or before ``until`` (overdue included), by due date."""
    conditions = [_mine(), _visible(mode), t.c.completed == false(),
                  t.c.due_date.is_not(None), t.c.due_date <= until.isoformat()]
    rows = conn.execute(_task_columns().where(*conditions).order_by(t.c.due_date, t.c.id), {"user_id": user_id}).all()
    return _with_assignees(conn, rows)


def unassigned_in_my_groups(conn: Connection, user_id: str, mode: GatingMode) -> int:
    """How many open tasks without assignees the user's visible groups hold."""
    query = select(func.count()).select_from(t).where(
        t.c.group_id.in_(_member_group_ids(mode)),
        t.c.completed == false(),
        ~exists().where(ta.c.task_id == t.c.id),
    )
    return int(conn.execute(query, {"user_id": user_id}).scalar_one())


_ASSIGNEES = (
    select(ta.c.task_id, users.c.id, users.c.display_name)
    .join(users, users.c.id == ta.c.user_id)
    .where(ta.c.task_id.in_(bindparam("ids", expanding=True)))
    .order_by(ta.c.task_id, ta.c.assigned_at, users.c.id)
)


def _assignees(conn: Connection, task_ids: Iterable[int]) -> dict[int, list[Person]]:
    ids = list(task_ids)
    found: dict[int, list[Person]] = {}
    if not ids:
        return found
    for task_id, user_id, name in conn.execute(_ASSIGNEES, {"ids": ids}):
        found.setdefault(task_id, []).append(Person(user_id, name))
    return found


def _with_assignees(conn: Connection, rows: Sequence[Row[Any]]) -> list[Task]:
    people = _assignees(conn, (row.id for row in rows))
    return [_task(row, people.get(row.id, ())) for row in rows]


def _task(row: Row[Any], assignees: Iterable[Person]) -> Task:
    origin = (
        Origin(row.origin_chat_id, row.origin_message_id, row.origin_participant, row.origin_message_at)
        if row.origin_chat_id and row.origin_message_id
        else None
    )
    return Task(
        id=int(row.id),
        description=row.description,
        due_date=date.fromisoformat(row.due_date) if row.due_date else None,
        group_id=row.group_id,
        group_name=row.group_name,
        created_by=row.created_by,
        created_at=row.created_at,
        completed=bool(row.completed),
        completed_at=row.completed_at,
        completed_by=row.completed_by,
        assignees=tuple(assignees),
        origin=origin,
    )
