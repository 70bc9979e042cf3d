"""Queries of missed turns (SPEC section 25): the open rotation occurrences past their date (migration 0010's
index), the away dates of a rotation's people, and handing an occurrence to the next person."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime

from sqlalchemy import Connection, false, select, update

from taskcore.storage.schema import task_assignments, tasks, user_preferences

t, ta, up = tasks, task_assignments, user_preferences


def late_turns(conn: Connection, *, due_on_or_before: date, after: int, limit: int) -> list[int]:
    """Open rotation occurrences not passed on yet, due on or before the date, ids after ``after``."""
    query = (select(t.c.id).where(t.c.rotation_people.is_not(None), t.c.completed == false(),
                                  t.c.turn_passed_at.is_(None), t.c.due_date <= due_on_or_before.isoformat(),
                                  t.c.id > after)
             .order_by(t.c.id).limit(limit))
    return [int(task_id) for task_id in conn.execute(query).scalars()]


def turn_holders(conn: Connection, task_ids: Collection[int]) -> dict[int, tuple[date, list[tuple[str, str | None]]]]:
    """Of each task of ``task_ids`` that has a date: the date, and its assignees with their chosen zones (one
    statement)."""
    query = (select(t.c.id, t.c.due_date, ta.c.user_id, up.c.tz)
             .select_from(t.outerjoin(ta, ta.c.task_id == t.c.id).outerjoin(up, up.c.user_id == ta.c.user_id))
             .where(t.c.id.in_(list(task_ids)), t.c.due_date.is_not(None)))
    found: dict[int, tuple[date, list[tuple[str, str | None]]]] = {}
    for task_id, due, user_id, tz in conn.execute(query):
        people = found.setdefault(int(task_id), (date.fromisoformat(due), []))[1]
        if user_id is not None:
            people.append((str(user_id), tz))
    return found


def away_dates(conn: Connection, user_ids: Collection[str]) -> dict[str, date]:
    """The away date of each of ``user_ids`` that has one."""
    rows = conn.execute(select(up.c.user_id, up.c.away_until).where(up.c.user_id.in_(list(user_ids)),
                                                                    up.c.away_until.is_not(None)))
    return {str(row.user_id): date.fromisoformat(row.away_until) for row in rows}


def mark_passed(conn: Connection, task_id: int, now: datetime) -> bool:
    """Compare-and-set: the occurrence's turn passed on (once); False when it had already."""
    stmt = update(t).where(t.c.id == task_id, t.c.turn_passed_at.is_(None)).values(turn_passed_at=now)
    return bool(conn.execute(stmt).rowcount)


def hand_over(conn: Connection, task_id: int, *, holder: str, to: str, turn: int, now: datetime) -> None:
    """The occurrence goes from ``holder`` to ``to``, whose place in the rotation is ``turn``."""
    conn.execute(ta.delete().where(ta.c.task_id == task_id, ta.c.user_id == holder))
    conn.execute(ta.insert().values(task_id=task_id, user_id=to, assigned_at=now, assigned_by=holder))
    conn.execute(update(t).where(t.c.id == task_id).values(rotation_turn=turn))
