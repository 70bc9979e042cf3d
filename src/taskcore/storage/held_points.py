"""Queries of SPEC section 38's held points: a self-made task's points wait for someone else's approval."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, select, true, update

from taskcore.chores.witness import HeldPoints
from taskcore.storage.schema import group_members, groups, tasks, users

__all__ = ["held_in", "hold", "is_held", "is_member", "release"]

t, gm, g = tasks, group_members, groups


def hold(conn: Connection, task_id: int, now: datetime) -> None:
    """The task's points wait for someone else's approval from now."""
    conn.execute(update(t).where(t.c.id == task_id).values(points_held_at=now))


def is_held(conn: Connection, task_id: int) -> bool:
    """Whether the task's points wait for someone else's approval."""
    return conn.execute(select(t.c.points_held_at).where(t.c.id == task_id)).scalar() is not None


def release(conn: Connection, task_id: int) -> bool:
    """The task's points count; False when they were not waiting."""
    stmt = update(t).where(t.c.id == task_id, t.c.points_held_at.is_not(None)).values(points_held_at=None)
    return bool(conn.execute(stmt).rowcount)


def held_in(conn: Connection, group_ids: Sequence[str], *, besides: str) -> list[HeldPoints]:
    """The tasks of these groups whose points wait for approval, but those ``besides`` completed, oldest first."""
    if not group_ids:
        return []
    query = (select(t.c.id, t.c.group_id, g.c.name, t.c.description, users.c.display_name, t.c.points,
                    t.c.points_held_at)
             .select_from(t.outerjoin(g, g.c.id == t.c.group_id).outerjoin(users, users.c.id == t.c.completed_by))
             .where(t.c.group_id.in_(list(group_ids)), t.c.points_held_at.is_not(None), t.c.completed_by != besides)
             .order_by(t.c.points_held_at, t.c.id))
    return [HeldPoints(int(row[0]), str(row[1]), row[2], str(row[3]), row[4], int(row[5]), row[6])
            for row in conn.execute(query)]


def is_member(conn: Connection, group_id: str, user_id: str) -> bool:
    """Whether the user is an active member of the group."""
    query = select(gm.c.user_id).where(gm.c.group_id == group_id, gm.c.user_id == user_id, gm.c.active == true())
    return conn.execute(query).first() is not None
