"""GET /api/me/tasks at the database's cost: the page's items as JSON-ready dicts, straight from the driver's rows.

The same tasks, order and total as ``task_lists.my_tasks`` (the same candidates, conditions and order), read in two
prepared statements on one read transaction, with no Task, Person or Series object per row:

1. the page's tasks, one row each, with the total: the candidates (id, sort key) are read once into a CTE that
   gives both the count and the page (sorted narrow rows cut by LIMIT), and only the page's tasks are then read
   with their group's name;
2. their assignees, one row each (task, id, name, part done at), by the page's ids.

Reading the assignees apart keeps each task's columns out of every assignee's row: at 20 tasks and 37 assignees that
is 448 values for the driver to turn into Python objects instead of 851, and the driver's per-value cost is what
dominated the old single statement. The dicts have the task item's shape of SPEC section 6 (key order included):
``tasksvc_run.web.render.task_item`` of the same task gives the same JSON.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Integer, bindparam, func, select

from taskcore.access import GatingMode
from taskcore.storage.checklists import task_items
from taskcore.storage.prepared import Prepared
from taskcore.storage.proof_tables import PROOF_COLUMNS, proof_of_row, task_proofs
from taskcore.storage.schema import list_stamps, task_assignments, tasks, users, utc_from_db
from taskcore.storage.task_lists import (
    MyTasksFilter,
    chosen_page,
    g,
    list_order,
    mine_candidates,
    my_tasks_conditions,
    page_parameters,
    raw_column,
)
from taskcore.storage.tasks import rotation_of

t, ta = tasks, task_assignments
_ITEM_COLUMNS = (
    t.c.id, t.c.description, t.c.due_date, t.c.group_id, g.c.name, t.c.completion, t.c.created_by,
    raw_column(t.c.created_at), raw_column(t.c.completed), raw_column(t.c.completed_at), t.c.completed_by,
    t.c.recurrence_rule, t.c.recurrence_text, t.c.rotation_people, t.c.points, *PROOF_COLUMNS,
    t.c.nag_every_hours,  # last: _item reads it from the end
)
_PAGE_KEYS = ("user_id", "limit", "offset", "since", "pattern", "due_before")
_STAMP = Prepared(select(list_stamps.c.stamp).where(list_stamps.c.user_id == bindparam("user_id")), ("user_id",))


def list_stamp(conn: Connection, user_id: str) -> int | None:
    """The person's list stamp (migration 0019: the database's triggers move it with every write that changes what
    their lists show), None while they have none."""
    found = _STAMP.raw(conn, {"user_id": user_id})
    return int(found[0][0]) if found else None


@lru_cache(maxsize=64)
def _page_statements(dialect: str, mode: GatingMode, recent: bool, searching: bool, dated: bool
                     ) -> tuple[Prepared, Prepared]:
    """(total, *_ITEM_COLUMNS) of the page's tasks in list order, and the total alone; built once per shape."""
    key_column = t.c.completed_at if recent else t.c.due_date
    mine = mine_candidates(mode, my_tasks_conditions(dialect, recent, searching, dated), key_column)
    chosen, total = chosen_page(mine, recent)
    page = (
        select(total.label("total"), *_ITEM_COLUMNS)
        .select_from(chosen.join(t, t.c.id == chosen.c.id).outerjoin(g, g.c.id == t.c.group_id)
                     .outerjoin(task_proofs, task_proofs.c.task_id == t.c.id))
        .order_by(*list_order(recent, chosen.c.sort_key, chosen.c.id))
    )
    count = select(func.count()).select_from(mine)
    return Prepared(page, _PAGE_KEYS), Prepared(count, _PAGE_KEYS)


@lru_cache(maxsize=128)
def _assignees_statement(count: int) -> Prepared:
    """(task id, user id, name, part done at) of ``count`` tasks' assignees, by task, then in assignment order."""
    ids = [bindparam(f"t{i}", type_=Integer()) for i in range(count)]
    query = (
        select(ta.c.task_id, ta.c.user_id, users.c.display_name, raw_column(ta.c.done_at))
        .select_from(ta.join(users, users.c.id == ta.c.user_id))
        .where(ta.c.task_id.in_(ids))
        .order_by(ta.c.task_id, ta.c.assigned_at, ta.c.user_id)
    )
    return Prepared(query, [f"t{i}" for i in range(count)])


@lru_cache(maxsize=128)
def _items_statement(count: int) -> Prepared:
    """(task id, n, text, done at) of ``count`` tasks' checklist items (SPEC section 41), by task, in order."""
    ids = [bindparam(f"t{i}", type_=Integer()) for i in range(count)]
    query = (select(task_items.c.task_id, task_items.c.n, task_items.c.text, raw_column(task_items.c.done_at))
             .where(task_items.c.task_id.in_(ids)).order_by(task_items.c.task_id, task_items.c.n))
    return Prepared(query, [f"t{i}" for i in range(count)])


def json_stamp(value: str | datetime | None) -> str | None:
    """A stored timestamp as the driver returns it, as ISO 8601 UTC with a Z: what ``render.utc_stamp`` writes for
    the aware value (microseconds only when not zero). SQLite's text form is rewritten without parsing it."""
    if value is None:
        return None
    if isinstance(value, str) and len(value) == 26 and value[10] == " " and value[19] == ".":
        # SQLAlchemy's SQLite form: "YYYY-MM-DD HH:MM:SS.ffffff", naive UTC
        return f"{value[:10]}T{value[11:19]}Z" if value.endswith(".000000") else f"{value[:10]}T{value[11:]}Z"
    return utc_from_db(value).replace(tzinfo=None).isoformat() + "Z"


def my_task_items(conn: Connection, user_id: str, mode: GatingMode, flt: MyTasksFilter,
                  now: datetime) -> tuple[list[dict[str, Any]], int]:
    """The page's items (task item dicts, in list order) and the total of ``task_lists.my_tasks``."""
    recent = flt.status == "recent"
    page_stmt, count_stmt = _page_statements(
        conn.dialect.name, mode, recent, bool(flt.search), flt.due_before is not None)
    params = page_parameters(user_id, flt, now)
    rows = page_stmt.raw(conn, params)
    if not rows:  # past the last page no row carries the total
        total = count_stmt.raw(conn, params)[0][0]
        return [], int(total)
    ids = {f"t{i}": row[1] for i, row in enumerate(rows)}
    people: dict[int, list[dict[str, Any]]] = {}
    for task_id, person, name, done_at in _assignees_statement(len(rows)).raw(conn, ids):
        part = {"id": person, "name": name, "done": done_at is not None, "done_at": json_stamp(done_at)}
        people.setdefault(task_id, []).append(part)
    lists: dict[int, list[dict[str, Any]]] = {}  # SPEC section 41: one more statement, by the same ids
    for task_id, n, text, done_at in _items_statement(len(rows)).raw(conn, ids):
        lists.setdefault(task_id, []).append({"n": n, "text": text, "done": done_at is not None})
    return [_item(row, people, lists) for row in rows], int(rows[0][0])


def _item(row: Any, people: dict[int, list[dict[str, Any]]], lists: dict[int, list[dict[str, Any]]]
          ) -> dict[str, Any]:
    (_, task_id, description, due, group_id, group_name, completion, created_by, created_at, completed,
     completed_at, completed_by, rule, text, rotation, points) = row[:16]
    required, state, at, file_name, nag = row[16:21]
    proof = proof_of_row(state, at, file_name)
    return {
        "id": task_id,
        "description": description,
        "due_date": due or None,
        "group_id": group_id,
        "group_name": group_name,
        "completion": completion,
        "assignees": people.get(task_id, []),
        "created_by": created_by,
        "created_at": json_stamp(created_at),
        "completed": bool(completed),
        "completed_at": json_stamp(completed_at),
        "completed_by": completed_by,
        "recurrence": {"rule": rule, "text": text or "", "rotation": list(rotation_of(rotation)[0])}
        if rule else None,
        "points": int(points),
        "nag": None if nag is None else {"every_hours": int(nag)},
        "photo_required": bool(required),
        "proof": None if proof is None else {"state": proof.state.value, "at": json_stamp(proof.at),
                                             "file": proof.file_name},
        "items": lists.get(task_id, []),
    }
