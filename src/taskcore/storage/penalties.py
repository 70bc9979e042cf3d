"""Queries of missed chores (SPEC section 41): a group's penalty, the occurrences past their date the tick looks at,
the missed ones waiting for a group admin and their decision, and the points a person's applied ones took."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, false, func, insert, select, update

from taskcore.chores.missed import Missed, MissedState
from taskcore.storage.penalty_tables import group_penalties, missed_chores
from taskcore.storage.schema import groups, tasks, users
from taskcore.storage.sql import upsert

p, mc, t = group_penalties, missed_chores, tasks


class Penalty(NamedTuple):
    """A group's penalty for a missed occurrence (0: off) and since when it is on."""

    points: int
    since: datetime


def penalty_of(conn: Connection, group_id: str) -> Penalty | None:
    """The group's penalty, None when it was never set."""
    row = conn.execute(select(p.c.points, p.c.since).where(p.c.group_id == group_id)).one_or_none()
    return None if row is None else Penalty(int(row.points), row.since)


def set_penalty(conn: Connection, *, group_id: str, points: int, by: str, now: datetime) -> None:
    """Set the group's penalty; ``since`` moves to ``now`` only when it is turned on from off (or first set)."""
    before = penalty_of(conn, group_id)
    since = before.since if before is not None and before.points > 0 and points > 0 else now
    upsert(conn, p, {"group_id": group_id, "points": points, "since": since, "set_by": by}, ["group_id"],
           ["points", "since", "set_by"])


class Candidate(NamedTuple):
    """An open recurring occurrence past its date in UTC, of a group with a penalty on."""

    task_id: int
    group_id: str
    due: date
    points: int
    since: datetime
    zone: str | None


def candidates(conn: Connection, *, due_before: date, after: int, limit: int) -> list[Candidate]:
    """The open recurring occurrences not looked at yet, due before ``due_before``, of groups whose penalty is on,
    ids after ``after`` (through ``ix_tasks_missed``)."""
    query = (select(t.c.id, t.c.group_id, t.c.due_date, p.c.points, p.c.since, groups.c.time_zone)
             .join(p, p.c.group_id == t.c.group_id).join(groups, groups.c.id == t.c.group_id)
             .where(t.c.recurrence_rule.is_not(None), t.c.completed == false(), t.c.missed_at.is_(None),
                    t.c.due_date < due_before.isoformat(), p.c.points > 0, t.c.id > after)
             .order_by(t.c.id).limit(limit))
    return [Candidate(int(row.id), str(row.group_id), date.fromisoformat(row.due_date), int(row.points), row.since,
                      row.time_zone) for row in conn.execute(query)]


def mark_looked(conn: Connection, task_id: int, now: datetime) -> bool:
    """Mark the occurrence looked at (compare-and-set); False when another tick did, or it is done by now."""
    query = update(t).where(t.c.id == task_id, t.c.missed_at.is_(None), t.c.completed == false()).values(
        missed_at=now)
    return bool(conn.execute(query).rowcount)


def add_missed(conn: Connection, *, task_id: int, group_id: str, user_id: str, due: date, points: int,
               now: datetime) -> int:
    """Store one person's missed occurrence, waiting; its number."""
    row = {"task_id": task_id, "group_id": group_id, "user_id": user_id, "due_date": due.isoformat(),
           "points": points, "state": MissedState.WAITING.value, "found_at": now}
    return int(conn.execute(insert(mc).values(**row).returning(mc.c.id)).scalar_one())


def _missed(*conditions: Any) -> Any:
    who = users.alias("missed_user")
    return (select(mc.c.id, mc.c.task_id, t.c.description, mc.c.due_date, mc.c.group_id,
                   groups.c.name.label("group_name"), mc.c.user_id, who.c.display_name, mc.c.points, mc.c.state,
                   mc.c.found_at, mc.c.reason)
            .join(t, t.c.id == mc.c.task_id).join(groups, groups.c.id == mc.c.group_id)
            .outerjoin(who, who.c.id == mc.c.user_id).where(*conditions))


def _row(row: Any) -> Missed:
    return Missed(int(row.id), int(row.task_id), str(row.description), date.fromisoformat(row.due_date),
                  str(row.group_id), row.group_name, str(row.user_id), row.display_name, int(row.points),
                  MissedState(row.state), row.found_at, row.reason)


def missed_by_id(conn: Connection, missed_id: int) -> Missed | None:
    """The missed occurrence with its task's, group's and person's names; None when there is none."""
    row = conn.execute(_missed(mc.c.id == missed_id)).one_or_none()
    return None if row is None else _row(row)


def of_task(conn: Connection, task_id: int) -> list[Missed]:
    """The missed occurrences found for a task, by number."""
    return [_row(row) for row in conn.execute(_missed(mc.c.task_id == task_id).order_by(mc.c.id))]


def waiting_in(conn: Connection, group_ids: Iterable[str]) -> list[Missed]:
    """The missed occurrences of the groups waiting for a decision, oldest first."""
    query = _missed(mc.c.group_id.in_(list(group_ids)), mc.c.state == MissedState.WAITING.value)
    return [_row(row) for row in conn.execute(query.order_by(mc.c.id))]


def decide(conn: Connection, missed_id: int, state: MissedState, *, by: str, now: datetime,
           reason: str | None) -> bool:
    """Apply or excuse a waiting one; False when it was decided already."""
    query = update(mc).where(mc.c.id == missed_id, mc.c.state == MissedState.WAITING.value).values(
        state=state.value, decided_by=by, decided_at=now, reason=reason)
    return bool(conn.execute(query).rowcount)


def applied_points(conn: Connection, user_id: str, group_ids: Iterable[str]) -> dict[str, int]:
    """By group: the points the user's applied penalties took (groups without any are absent)."""
    query = (select(mc.c.group_id, func.sum(mc.c.points))
             .where(mc.c.user_id == user_id, mc.c.group_id.in_(list(group_ids)),
                    mc.c.state == MissedState.APPLIED.value).group_by(mc.c.group_id))
    return {str(group): int(points) for group, points in conn.execute(query)}
