"""Queries on tasks and assignments: create, change, the facts the access rules need, and loading by id."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, bindparam, delete, false, insert, select, update

from taskcore.access import GroupFacts, GroupStatus, TaskFacts
from taskcore.completion import CompletionMode
from taskcore.model import Item, Origin, Person, Series, Task
from taskcore.storage import checklists
from taskcore.storage.prepared import Prepared
from taskcore.storage.proof_tables import PROOF_COLUMNS, proof_of_row, task_proofs
from taskcore.storage.schema import allowed_groups, group_members, groups, task_assignments, tasks, users
from taskcore.storage.sql import insert_ignore

t, ta, gm, ag, g, tp = tasks, task_assignments, group_members, allowed_groups, groups, task_proofs

_TASK_KEYS = ("group_id", "description", "due_date", "created_by", "created_at", "completed", "origin_chat_id",
              "origin_message_id", "origin_participant", "origin_message_at", "completion", "recurrence_rule",
              "recurrence_text", "rotation_people", "rotation_turn", "points")
# Built once; rows go in as parameters. Every "/t nueva" runs them: prepared (storage/prepared.py).
_INSERT_TASK = Prepared(insert(t).returning(t.c.id), _TASK_KEYS)
_INSERT_ASSIGNMENT = Prepared(insert(ta), ["task_id", "user_id", "assigned_at", "assigned_by", "nag_count"])


def insert_task(
    conn: Connection, *, group_id: str | None, description: str, due: date | None, created_by: str, now: datetime,
    origin: Origin | None = None, completion: CompletionMode = CompletionMode.ANY, series: Series | None = None,
    points: int = 1,
) -> int:
    """Insert an open task and return its id."""
    row: dict[str, Any] = {
        "group_id": group_id, "description": description, "due_date": due.isoformat() if due else None,
        "created_by": created_by, "created_at": now, "completed": False, "completion": completion.value,
        "origin_chat_id": None, "origin_message_id": None, "origin_participant": None, "origin_message_at": None,
        **series_columns(series), "points": points,
    }
    if origin is not None:
        row |= {"origin_chat_id": origin.chat_id, "origin_message_id": origin.message_id,
                "origin_participant": origin.participant, "origin_message_at": origin.sent_at}
    inserted = _INSERT_TASK.first(conn, row)
    if inserted is None:  # pragma: no cover - an INSERT ... RETURNING always returns its row
        raise AssertionError("the task insert returned no id")
    return int(inserted[0])


def series_columns(series: Series | None) -> dict[str, Any]:
    """The task columns that hold a series (all NULL for a task that does not repeat)."""
    if series is None:
        return dict.fromkeys(("recurrence_rule", "recurrence_text", "rotation_people", "rotation_turn"))
    people = " ".join(((BALANCED_MARK,) if series.balanced else ()) + series.rotation) or None
    return {"recurrence_rule": series.rule, "recurrence_text": series.text, "rotation_people": people,
            "rotation_turn": series.turn if people else None}


def series_of(row: Any) -> Series | None:
    """The series a task row carries, or None."""
    if not row.recurrence_rule:
        return None
    rotation, balanced = rotation_of(row.rotation_people)
    return Series(row.recurrence_rule, row.recurrence_text or "", rotation, int(row.rotation_turn or 0), balanced)


BALANCED_MARK = "!reparto"
"""The first word of ``rotation_people`` of a balanced rotation (``!reparto``, SPEC section 25): never a user id."""


def rotation_of(people: str | None) -> tuple[tuple[str, ...], bool]:
    """The people of a stored ``rotation_people`` in turn order, and whether the rotation is balanced."""
    words = tuple((people or "").split())
    return (words[1:], True) if words[:1] == (BALANCED_MARK,) else (words, False)


def insert_assignments(conn: Connection, task_id: int, user_ids: Sequence[str], *, by: str, now: datetime) -> None:
    """Assign a task just inserted (it has no assignment yet) to each of ``user_ids``."""
    for user_id in user_ids:
        _INSERT_ASSIGNMENT.run(conn, {"task_id": task_id, "user_id": user_id, "assigned_at": now, "assigned_by": by,
                                      "nag_count": 0})


def assignee_ids(conn: Connection, task_id: int) -> list[str]:
    """The task's assignees, in the order they were assigned."""
    query = select(ta.c.user_id).where(ta.c.task_id == task_id).order_by(ta.c.assigned_at, ta.c.user_id)
    return list(conn.execute(query).scalars())


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


def mark_part_done(conn: Connection, task_id: int, user_id: str, now: datetime) -> bool:
    """Mark the user's part of a task done; False when it was done already (or they are not assigned)."""
    stmt = update(ta).where(ta.c.task_id == task_id, ta.c.user_id == user_id, ta.c.done_at.is_(None))
    return bool(conn.execute(stmt.values(done_at=now)).rowcount)


def parts(conn: Connection, task_id: int) -> dict[str, datetime | None]:
    """Each assignee of the task and when they did their part (None: pending)."""
    rows = conn.execute(select(ta.c.user_id, ta.c.done_at).where(ta.c.task_id == task_id))
    return {str(row[0]): row[1] for row in rows}


def clear_parts(conn: Connection, task_id: int) -> None:
    """Every part pending again (a task switched to the any mode has no parts)."""
    conn.execute(update(ta).where(ta.c.task_id == task_id, ta.c.done_at.is_not(None)).values(done_at=None))


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
        select(t.c.group_id, t.c.created_by, t.c.completed, t.c.completion).where(t.c.id == task_id)
    ).one_or_none()
    if row is None:
        return None
    assignees = frozenset(conn.execute(select(ta.c.user_id).where(ta.c.task_id == task_id)).scalars())
    facts = TaskFacts(row.group_id, row.created_by, assignees, bool(row.completed),
                      each=row.completion == CompletionMode.EACH.value)
    group = group_facts(conn, row.group_id, user_id) if row.group_id else None
    return facts, group


def task_columns() -> Select[Any]:
    """Every task column, the group's name (NULL for a personal task) and its photo proof's (SPEC section 34), for
    ``with_assignees``."""
    return select(t, g.c.name.label("group_name"), *PROOF_COLUMNS).select_from(
        t.outerjoin(g, g.c.id == t.c.group_id).outerjoin(tp, tp.c.task_id == t.c.id))


_LOAD_TASKS = task_columns().where(t.c.id.in_(bindparam("ids", expanding=True)))


def load_tasks(conn: Connection, task_ids: Sequence[int]) -> list[Task]:
    """The tasks with these ids, in the order given (missing ones skipped)."""
    if not task_ids:
        return []
    rows = conn.execute(_LOAD_TASKS, {"ids": list(task_ids)}).all()
    by_id = {task.id: task for task in with_assignees(conn, rows)}
    return [by_id[i] for i in task_ids if i in by_id]


_ASSIGNEES = (
    select(ta.c.task_id, users.c.id, users.c.display_name, ta.c.done_at)
    .join(users, users.c.id == ta.c.user_id)
    .where(ta.c.task_id.in_(bindparam("ids", expanding=True)))
    .order_by(ta.c.task_id, ta.c.assigned_at, users.c.id)
)


def _assignees(conn: Connection, task_ids: Iterable[int]) -> dict[int, list[Person]]:
    ids = list(task_ids)
    found: dict[int, list[Person]] = {}
    if not ids:
        return found
    for task_id, user_id, name, done_at in conn.execute(_ASSIGNEES, {"ids": ids}):
        found.setdefault(task_id, []).append(Person(user_id, name, done_at))
    return found


def with_assignees(conn: Connection, rows: Sequence[Row[Any]]) -> list[Task]:
    """The tasks of ``task_columns`` rows, with their assignees and their checklists (two more statements)."""
    ids = [int(row.id) for row in rows]
    people, items = _assignees(conn, ids), checklists.items_of(conn, ids)
    return [_task(row, people.get(row.id, ()), items.get(int(row.id), ())) for row in rows]


def _task(row: Row[Any], assignees: Iterable[Person], items: tuple[Item, ...] = ()) -> Task:
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
        completion=CompletionMode(row.completion),
        recurrence=series_of(row),
        nag_every_hours=row.nag_every_hours,
        points=int(row.points),
        photo_required=bool(row.photo_required),
        proof=proof_of_row(row.proof_state, row.proof_at, row.proof_file),
        items=items,
    )
