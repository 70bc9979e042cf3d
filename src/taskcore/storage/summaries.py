"""Queries of effort and summaries (SPEC section 25): who completed what and with how many points, the open overdue
parts, who is away, and each group's weekly summary moment (read through its index, moved by compare-and-set).

A completion is credited per person: an ``any`` task to its ``completed_by`` at ``completed_at``, an ``each`` task to
every assignee at their part's ``done_at`` (each part earns the task's points).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, time
from typing import Any, NamedTuple

from sqlalchemy import (
    Connection,
    Integer,
    Text,
    case,
    false,
    literal,
    null,
    select,
    true,
    type_coerce,
    union_all,
    update,
)

from taskcore.chores.rows import CompletionRow, OpenRow
from taskcore.completion import CompletionMode
from taskcore.storage.metadata import TS
from taskcore.storage.schema import groups, task_assignments, tasks, user_preferences

t, ta, g = tasks, task_assignments, groups
_DONE, _OPEN = 0, 1


def _scope(user: Any, group_id: str | None, user_id: str | None) -> list[Any]:
    """A group's rows, or one person's across their groups."""
    if group_id is not None:
        return [t.c.group_id == group_id]
    return [t.c.group_id.is_not(None), user == user_id]


def _completions(start: datetime, end: datetime, group_id: str | None, user_id: str | None) -> list[Any]:
    no_due = type_coerce(null(), Text()).label("due_date")
    points = case((t.c.points_held_at.is_not(None), 0), else_=t.c.points)  # held: done, no points yet (SPEC 38)
    any_done = select(literal(_DONE, Integer()).label("kind"), t.c.completed_by.label("user_id"), t.c.id,
                      points, t.c.completed_at.label("at"), no_due).where(
        t.c.completed == true(), t.c.completion == CompletionMode.ANY.value, t.c.completed_by.is_not(None),
        t.c.completed_at >= start, t.c.completed_at < end, *_scope(t.c.completed_by, group_id, user_id))
    parts_done = select(literal(_DONE, Integer()), ta.c.user_id, t.c.id, points, ta.c.done_at, no_due).join(
        ta, ta.c.task_id == t.c.id).where(
        t.c.completion == CompletionMode.EACH.value, ta.c.done_at >= start, ta.c.done_at < end,
        *_scope(ta.c.user_id, group_id, user_id))
    return [any_done, parts_done]


def _overdue(today: date, group_id: str | None, user_id: str | None) -> Any:
    return select(literal(_OPEN, Integer()), ta.c.user_id, t.c.id, t.c.points, type_coerce(null(), TS()),
                  t.c.due_date).join(ta, ta.c.task_id == t.c.id).where(
        t.c.completed == false(), ta.c.done_at.is_(None), t.c.due_date.is_not(None),
        t.c.due_date < today.isoformat(), *_scope(ta.c.user_id, group_id, user_id))


def _rows(conn: Connection, selects: list[Any]) -> list[CompletionRow | OpenRow]:
    found: list[CompletionRow | OpenRow] = []
    for kind, user, task_id, points, at, due in conn.execute(union_all(*selects)):
        if kind == _DONE:
            found.append(CompletionRow(str(user), int(task_id), int(points), at))
        else:
            found.append(OpenRow(str(user), int(task_id), date.fromisoformat(due)))
    return found


def completion_rows(conn: Connection, *, group_id: str, start: datetime, end: datetime) -> list[CompletionRow]:
    """The group's completions credited from ``start`` (included) to ``end`` (excluded)."""
    return [row for row in _rows(conn, _completions(start, end, group_id, None)) if isinstance(row, CompletionRow)]


def summary_rows(conn: Connection, *, start: datetime, end: datetime, today: date, group_id: str | None = None,
                 user_id: str | None = None) -> list[CompletionRow | OpenRow]:
    """One statement: the completions in [start, end) and the open parts due before ``today``, of a group (or of
    one person across their groups)."""
    return _rows(conn, [*_completions(start, end, group_id, user_id), _overdue(today, group_id, user_id)])


def away_users(conn: Connection, user_ids: Collection[str], today: date) -> frozenset[str]:
    """The people of ``user_ids`` away on ``today`` (``away_until`` on or after it)."""
    up = user_preferences
    query = select(up.c.user_id).where(up.c.user_id.in_(list(user_ids)), up.c.away_until >= today.isoformat())
    return frozenset(str(user) for user in conn.execute(query).scalars())


class WeeklyRow(NamedTuple):
    """A group whose weekly summary is due: its moment and the due instant as stored."""

    group_id: str
    weekday: int
    at: time
    next_at: datetime
    time_zone: str | None = None  # the group's (SPEC section 30)


def set_weekly(conn: Connection, group_id: str, weekday: int | None, at: time | None,
               next_at: datetime | None) -> None:
    """Store (or with Nones clear) a group's weekly summary moment and its next instant."""
    values = {"summary_weekday": weekday, "summary_time": f"{at:%H:%M}" if at else None, "summary_next_at": next_at}
    conn.execute(update(g).where(g.c.id == group_id).values(**values))


def due_weekly(conn: Connection, *, now: datetime, limit: int) -> list[WeeklyRow]:
    """The groups whose weekly summary is due at ``now`` (an index search on ``summary_next_at``)."""
    query = (select(g.c.id, g.c.summary_weekday, g.c.summary_time, g.c.summary_next_at, g.c.time_zone)
             .where(g.c.summary_next_at <= now).order_by(g.c.summary_next_at, g.c.id).limit(limit))
    return [WeeklyRow(str(gid), int(day), time.fromisoformat(at), next_at, tz)
            for gid, day, at, next_at, tz in conn.execute(query)]


def advance_weekly(conn: Connection, group_id: str, *, seen: datetime, next_at: datetime) -> bool:
    """Move the group's summary from ``seen`` to ``next_at``; False when another run moved it first."""
    query = update(g).where(g.c.id == group_id, g.c.summary_next_at == seen).values(summary_next_at=next_at)
    return bool(conn.execute(query).rowcount)
