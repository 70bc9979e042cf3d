"""The task lists: my tasks (open or recent, searched, paged), a group's open tasks, my groups with counts.

Visibility and gating are expressed in the SQL (SPEC sections 3, 4 and 6); each list is one or two statements.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Select,
    Text,
    and_,
    bindparam,
    exists,
    false,
    func,
    or_,
    select,
    true,
    type_coerce,
    union_all,
)
from sqlalchemy.types import NullType

from taskcore.access import GatingMode, GroupStatus
from taskcore.completion import CompletionMode
from taskcore.model import GroupSummary, Origin, Person, Task
from taskcore.pagination import Page, offset_of
from taskcore.search import like_contains
from taskcore.storage import checklists
from taskcore.storage.proof_tables import PROOF_COLUMNS, proof_of_row, task_proofs
from taskcore.storage.schema import (
    UtcDateTime,
    allowed_groups,
    group_members,
    groups,
    task_assignments,
    tasks,
    users,
    utc_from_db,
)
from taskcore.storage.tasks import series_of, task_columns, with_assignees

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
    pending_part: bool = False  # leave out each-mode tasks whose part the user has done (the calendar feed)


def _member_group_ids(mode: GatingMode) -> Select[Any]:
    """Groups whose tasks :user_id sees: active membership, and an allowed status unless gating is off."""
    query = select(gm.c.group_id).where(gm.c.user_id == bindparam("user_id"), gm.c.active == true())
    if mode is not GatingMode.OFF:
        query = query.join(ag, ag.c.group_id == gm.c.group_id).where(ag.c.status == GroupStatus.ALLOWED.value)
    return query


def _visible(mode: GatingMode) -> ColumnElement[bool]:
    return or_(t.c.group_id.is_(None), t.c.group_id.in_(_member_group_ids(mode)))


def _contains_ignoring_ascii_case(dialect: str, column: Any) -> ColumnElement[bool]:
    """LIKE :pattern with backslash escapes; ASCII letters match either case, every other character only itself."""
    pattern = bindparam("pattern", type_=Text())
    if dialect == "sqlite":  # SQLite's LIKE already folds exactly the ASCII letters
        return column.like(pattern, escape="\\")  # type: ignore[no-any-return]
    folded = func.translate(column, _UPPER, _LOWER)
    return folded.like(func.translate(pattern, _UPPER, _LOWER), escape="\\")


def mine_candidates(mode: GatingMode, conditions: Sequence[Any], key: Any, *, pending_part: bool = False) -> Any:
    """(id, key) of the user's tasks matching ``conditions``: assigned and visible, or personal and created by them;
    with ``pending_part``, not those whose part (each mode) the user has done.

    A UNION ALL of two index searches: a personal task its creator is also assigned to comes from the first branch
    only, so no temporary B-tree is needed to remove duplicates.
    """
    user: Any = bindparam("user_id")
    # In the any mode no part is ever marked done, so the condition needs no mode check (as in the digest).
    parts = (ta.c.done_at.is_(None),) if pending_part else ()
    assigned = (
        select(t.c.id, key).select_from(ta.join(t, t.c.id == ta.c.task_id))
        .where(ta.c.user_id == user, _visible(mode), *parts, *conditions)
    )
    also_assigned = exists().where(ta.c.task_id == t.c.id, ta.c.user_id == user)
    personal = select(t.c.id, key).where(t.c.created_by == user, t.c.group_id.is_(None), ~also_assigned, *conditions)
    return union_all(assigned, personal).cte("mine")


def my_tasks_conditions(dialect: str, recent: bool, searching: bool, dated: bool) -> list[Any]:
    conditions: list[Any] = []
    if recent:
        conditions += [t.c.completed == true(), t.c.completed_at >= bindparam("since", type_=UtcDateTime())]
    else:
        conditions.append(t.c.completed == false())
    if searching:
        conditions.append(_contains_ignoring_ascii_case(dialect, t.c.description))
    if dated:
        conditions += [t.c.due_date.is_not(None), t.c.due_date <= bindparam("due_before", type_=Text())]
    return conditions


def list_order(recent: bool, key: Any, task_id: Any) -> tuple[Any, Any]:
    """Recent: newest completion first; open: by due date, undated last; then by id."""
    return (key.desc(), task_id.desc()) if recent else (key.asc().nulls_last(), task_id.asc())


def raw_column(column: Any) -> Any:
    """The column as the driver returns it: mapped by hand in ``_task_from_row``, with no per-value processor."""
    return type_coerce(column, NullType()).label(column.name)


_assigned = ta.alias("assigned")
# The page's row, one per (task, assignee); _task_from_row reads it by position.
_PAGE_COLUMNS = (
    t.c.id, t.c.description, t.c.due_date, t.c.group_id, g.c.name.label("group_name"), t.c.created_by,
    raw_column(t.c.created_at), raw_column(t.c.completed), raw_column(t.c.completed_at), t.c.completed_by,
    t.c.origin_chat_id, t.c.origin_message_id, t.c.origin_participant, raw_column(t.c.origin_message_at),
    t.c.completion, users.c.id.label("assignee_id"), users.c.display_name.label("assignee_name"),
    raw_column(_assigned.c.done_at), t.c.recurrence_rule, t.c.recurrence_text, t.c.rotation_people, t.c.rotation_turn,
    t.c.nag_every_hours,
    t.c.points, *PROOF_COLUMNS,
)


def chosen_page(mine: Any, recent: bool) -> tuple[Any, Any]:
    """The page's candidates (id, sort_key) in list order cut by the ``limit`` and ``offset`` parameters, and the
    count of all of ``mine``."""
    key = mine.c.completed_at if recent else mine.c.due_date
    chosen = (
        select(mine.c.id, key.label("sort_key")).order_by(*list_order(recent, key, mine.c.id))
        .limit(bindparam("limit", type_=Integer())).offset(bindparam("offset", type_=Integer()))
    ).subquery("chosen")
    return chosen, select(func.count()).select_from(mine).scalar_subquery()


@lru_cache(maxsize=64)
def _my_tasks_statements(
    dialect: str, mode: GatingMode, recent: bool, searching: bool, dated: bool, *, pending_part: bool = False
) -> tuple[Select[Any], Select[Any]]:
    """The page statement and the count statement, built once per shape.

    The candidates (id, key) are read once into a CTE (materialised: it is used twice) that gives both the total
    (a count, cheaper than a window count over the sorted rows) and the page (sorted narrow rows, cut by LIMIT);
    only the page's tasks are then read, with their group name and assignees, one row per task and assignee.
    """
    mine = mine_candidates(mode, my_tasks_conditions(dialect, recent, searching, dated),
                            t.c.completed_at if recent else t.c.due_date, pending_part=pending_part)
    chosen, total = chosen_page(mine, recent)
    joined = (
        chosen.join(t, t.c.id == chosen.c.id).outerjoin(g, g.c.id == t.c.group_id)
        .outerjoin(task_proofs, task_proofs.c.task_id == t.c.id)
        .outerjoin(_assigned, _assigned.c.task_id == t.c.id).outerjoin(users, users.c.id == _assigned.c.user_id)
    )
    page = (
        select(total.label("total"), *_PAGE_COLUMNS).select_from(joined)
        .order_by(*list_order(recent, chosen.c.sort_key, chosen.c.id), _assigned.c.assigned_at, users.c.id)
    )
    return page, select(func.count()).select_from(mine)


def page_parameters(user_id: str, flt: MyTasksFilter, now: datetime) -> dict[str, Any]:
    """The parameters of the page and count statements of ``flt`` for ``user_id`` at ``now``."""
    params: dict[str, Any] = {"user_id": user_id, "limit": flt.limit, "offset": offset_of(flt.page, flt.limit)}
    if flt.status == "recent":
        params["since"] = now - RECENT_WINDOW
    if flt.search:
        params["pattern"] = like_contains(flt.search)
    if flt.due_before is not None:
        params["due_before"] = flt.due_before.isoformat()
    return params


def my_tasks(conn: Connection, user_id: str, mode: GatingMode, flt: MyTasksFilter, now: datetime) -> Page[Task]:
    """The user's open (or recently completed) visible tasks: one page with its total and assignees, one statement."""
    recent = flt.status == "recent"
    page_stmt, count_stmt = _my_tasks_statements(
        conn.dialect.name, mode, recent, bool(flt.search), flt.due_before is not None,
        pending_part=flt.pending_part)
    params = page_parameters(user_id, flt, now)
    rows = conn.execute(page_stmt, params).fetchall()
    # Past the last page there is no row to carry the total, so count separately.
    total = rows[0][0] if rows else conn.execute(count_stmt, params).scalar_one()
    items = [_task_from_row(task_rows) for _, task_rows in groupby(rows, itemgetter(1))]
    lists = checklists.items_of(conn, [task.id for task in items])  # SPEC section 41
    items = [replace(task, items=lists[task.id]) if task.id in lists else task for task in items]
    return Page(items=items, page=flt.page, limit=flt.limit, total=int(total))


def _task_from_row(rows: Iterable[Any]) -> Task:
    """One task from its page rows (total, *_PAGE_COLUMNS), one per assignee, values as the driver returns them."""
    first, *others = rows
    (_, task_id, description, due, group_id, group_name, created_by, created_at, completed, completed_at,
     completed_by, chat, message, participant, sent_at, completion, assignee, name, done_at) = first[:19]
    assignees = () if assignee is None else (
        Person(assignee, name, utc_from_db(done_at)), *(Person(r[16], r[17], utc_from_db(r[18])) for r in others))
    return Task(
        id=int(task_id), description=description, due_date=date.fromisoformat(due) if due else None,
        group_id=group_id, group_name=group_name, created_by=created_by, created_at=utc_from_db(created_at),
        completed=bool(completed), completed_at=utc_from_db(completed_at), completed_by=completed_by,
        assignees=assignees,
        origin=Origin(chat, message, participant, utc_from_db(sent_at)) if chat and message else None,
        completion=CompletionMode(completion),
        recurrence=series_of(first), points=int(first.points),
        nag_every_hours=first.nag_every_hours, photo_required=bool(first.photo_required),
        proof=proof_of_row(first.proof_state, first.proof_at, first.proof_file),
    )


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
    rows = conn.execute(task_columns().where(*conditions).order_by(*order).limit(limit)).all()
    total = conn.execute(select(func.count()).select_from(t).where(*conditions)).scalar_one()
    return Page(items=with_assignees(conn, rows), page=1, limit=limit, total=int(total))


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
