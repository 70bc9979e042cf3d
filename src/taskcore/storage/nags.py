"""Queries of nagging (SPEC section 25): each open part's next nag (the scheduler's index, ``nag_next_at``), the
facts one nag is decided on, and the compare-and-set writes that let two bot instances send each nag once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, and_, false, or_, select, tuple_, update

from taskcore.storage.schema import task_assignments, tasks, user_preferences

t, ta, up = tasks, task_assignments, user_preferences


@dataclass(frozen=True, slots=True)
class DueNag:
    """One assignment whose next nag has come: the key and the ``nag_next_at`` it was read with."""

    task_id: int
    user_id: str
    next_at: datetime


@dataclass(frozen=True, slots=True)
class NagFacts:
    """What one nag is decided on, read in its transaction."""

    description: str
    group_id: str | None
    due_date: date | None
    completed: bool
    every_hours: int | None
    escalated: bool
    done: bool
    count: int
    last_at: datetime | None
    away_until: date | None


def due_nags(conn: Connection, *, now: datetime, after: tuple[datetime, int, str] | None, limit: int) -> list[DueNag]:
    """The assignments whose ``nag_next_at`` is at or before ``now``, in index order, from after ``after``."""
    query = select(ta.c.nag_next_at, ta.c.task_id, ta.c.user_id).where(ta.c.nag_next_at <= now)
    if after is not None:
        query = query.where(tuple_(ta.c.nag_next_at, ta.c.task_id, ta.c.user_id) > tuple_(*after))
    rows = conn.execute(query.order_by(ta.c.nag_next_at, ta.c.task_id, ta.c.user_id).limit(limit))
    return [DueNag(int(row.task_id), str(row.user_id), row.nag_next_at) for row in rows]


def nag_facts(conn: Connection, task_id: int, user_id: str) -> NagFacts | None:
    """The task's and the part's facts and the person's away date; None when the assignment is gone."""
    query = (select(t.c.description, t.c.group_id, t.c.due_date, t.c.completed, t.c.nag_every_hours,
                    t.c.nag_escalated_at, ta.c.done_at, ta.c.nag_count, ta.c.nag_last_at, up.c.away_until)
             .select_from(ta.join(t, t.c.id == ta.c.task_id).outerjoin(up, up.c.user_id == ta.c.user_id))
             .where(ta.c.task_id == task_id, ta.c.user_id == user_id))
    row = conn.execute(query).first()
    if row is None:
        return None
    return NagFacts(row.description, row.group_id, _day(row.due_date), bool(row.completed), row.nag_every_hours,
                    row.nag_escalated_at is not None, row.done_at is not None, int(row.nag_count), row.nag_last_at,
                    _day(row.away_until))


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def move_nag(conn: Connection, task_id: int, user_id: str, *, read: datetime, values: Mapping[str, Any]) -> bool:
    """Compare-and-set: write ``values`` to the assignment only while its ``nag_next_at`` is still ``read``."""
    stmt = update(ta).where(ta.c.task_id == task_id, ta.c.user_id == user_id, ta.c.nag_next_at == read)
    return bool(conn.execute(stmt.values(**values)).rowcount)


def escalate(conn: Connection, task_id: int, now: datetime) -> bool:
    """Compare-and-set: mark the group told about the task; False when it was told already."""
    stmt = update(t).where(t.c.id == task_id, t.c.nag_escalated_at.is_(None)).values(nag_escalated_at=now)
    return bool(conn.execute(stmt).rowcount)


def pending_counts(conn: Connection, task_id: int) -> dict[str, int]:
    """Each assignee whose part is still open and how many nags they had."""
    rows = conn.execute(select(ta.c.user_id, ta.c.nag_count).where(ta.c.task_id == task_id, ta.c.done_at.is_(None)))
    return {str(row.user_id): int(row.nag_count) for row in rows}


def set_every(conn: Connection, task_id: int, every_hours: int | None) -> None:
    """The task's interval (None: it does not nag); the group notice starts over."""
    conn.execute(update(t).where(t.c.id == task_id).values(nag_every_hours=every_hours, nag_escalated_at=None))


def nag_setting(conn: Connection, task_id: int) -> tuple[int | None, date | None, bool]:
    """The task's interval (None: no nags), due date and whether it is completed."""
    row = conn.execute(select(t.c.nag_every_hours, t.c.due_date, t.c.completed).where(t.c.id == task_id)).one()
    return row.nag_every_hours, _day(row.due_date), bool(row.completed)


def schedule(conn: Connection, task_id: int, next_at: Mapping[str, datetime]) -> None:
    """Each open part's first nag at the given instant, counted from zero."""
    for user_id, at in next_at.items():
        conn.execute(update(ta).where(ta.c.task_id == task_id, ta.c.user_id == user_id, ta.c.done_at.is_(None))
                     .values(nag_next_at=at, nag_count=0, nag_last_at=None))


def stop(conn: Connection, task_id: int, *, done_only: bool = False) -> None:
    """No more nags for the task's parts (``done_only``: for its done parts, unless the task is completed)."""
    query = update(ta).where(ta.c.task_id == task_id, ta.c.nag_next_at.is_not(None))
    if done_only:
        open_task = select(t.c.id).where(t.c.id == task_id, t.c.completed == false()).exists()
        query = query.where(or_(ta.c.done_at.is_not(None), and_(~open_task)))
    conn.execute(query.values(nag_next_at=None))


def reset_escalation(conn: Connection, task_id: int) -> None:
    """The group notice may be given again (after a re-date)."""
    conn.execute(update(t).where(t.c.id == task_id).values(nag_escalated_at=None))
