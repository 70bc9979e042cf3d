"""Reads and writes only the tests make, never the service: setting up rows the service writes in bulk, and
reading back what it wrote."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from sqlalchemy import Connection, func, select, true

from taskcore.access import GroupStatus
from taskcore.queue_rules import JobStatus
from taskcore.reminders import ReminderFreq
from taskcore.services import web_auth
from taskcore.storage import groups, members
from taskcore.storage.db import Database
from taskcore.storage.reminders import claim_deliveries
from taskcore.storage.schema import group_members, outbound_queue, reminder_deliveries, user_preferences, users
from tasksvc_run import units

_IN_CHUNK = 500  # bound on bind parameters per IN list, well under SQLite's and PostgreSQL's limits


def claim_delivery(conn: Connection, *, user_id: str, slot: str, outcome: str, now: datetime) -> bool:
    """Record one (user, slot) delivery as the reminder tick does; True when this call recorded it."""
    return bool(claim_deliveries(conn, [(user_id, slot, outcome)], now=now))


def delivered(conn: Connection, *, user_ids: Iterable[str], slots: Iterable[str]) -> set[tuple[str, str]]:
    """The (user, slot) pairs among ``user_ids`` x ``slots`` that already have a recorded delivery."""
    rd = reminder_deliveries
    people, wanted = list(dict.fromkeys(user_ids)), list(dict.fromkeys(slots))
    found: set[tuple[str, str]] = set()
    if not wanted:
        return found
    for start in range(0, len(people), _IN_CHUNK):
        chunk = people[start : start + _IN_CHUNK]
        stmt = select(rd.c.user_id, rd.c.slot).where(rd.c.user_id.in_(chunk), rd.c.slot.in_(wanted))
        found.update((user_id, slot) for user_id, slot in conn.execute(stmt))
    return found


def user_exists(conn: Connection, user_id: str) -> bool:
    """True when the user is known."""
    return bool(conn.execute(select(func.count()).where(users.c.id == user_id)).scalar_one())


def is_active_member(conn: Connection, group_id: str, user_id: str) -> bool:
    """True when the user is an active member of the group."""
    gm = group_members
    active = conn.execute(
        select(gm.c.active).where(gm.c.group_id == group_id, gm.c.user_id == user_id)
    ).scalar_one_or_none()
    return bool(active)


def active_member_ids(conn: Connection, group_id: str) -> list[str]:
    """The ids of the group's active members, in id order."""
    gm = group_members
    query = select(gm.c.user_id).where(gm.c.group_id == group_id, gm.c.active == true())
    return list(conn.execute(query.order_by(gm.c.user_id)).scalars())


def sync_members(db: Database, *, group_id: str, present: Mapping[str, bool], now: datetime) -> tuple[int, int]:
    """A member listing written as the member sync writes it: listed users active (is_admin as listed), absent ones
    inactive; returns (active, deactivated)."""

    def work(conn: Connection) -> tuple[int, int]:
        members.touch_members(conn, group_id, dict(present), now)
        return len(present), members.deactivate_absent(conn, group_id, present.keys(), now)

    return db.transact(work)


def group_status(db: Database, group_id: str) -> GroupStatus | None:
    """The group's stored status, or None when unknown."""
    with db.read() as conn:
        return groups.group_status(conn, group_id)


def reminder_candidates(conn: Connection, *, times: Sequence[str]) -> list[tuple[str, str, str]]:
    """(user id, freq, time) of every preference that is not off and whose time is one of ``times``."""
    p = user_preferences
    if not times:
        return []
    on = [freq.value for freq in ReminderFreq if freq is not ReminderFreq.OFF]
    stmt = select(p.c.user_id, p.c.freq, p.c.time).where(p.c.time.in_(list(times)), p.c.freq.in_(on))
    return [(user_id, freq, time) for user_id, freq, time in conn.execute(stmt)]


def oldest_pending_age(db: Database, now: datetime) -> float | None:
    """Seconds since the oldest job still waiting to be sent (pending or sending) was queued; None when none."""
    oq = outbound_queue
    waiting = (JobStatus.PENDING.value, JobStatus.SENDING.value)
    with db.read() as conn:
        created = conn.execute(select(func.min(oq.c.created_at)).where(oq.c.status.in_(waiting))).scalar_one()
    return None if created is None else (now - created).total_seconds()


def session_user(db: Database, *, session_id: str, now: datetime) -> str | None:
    """The user of a live session, or None; records the use at most once per SESSION_TOUCH_EVERY (as the web does
    through its session cache)."""
    found = units.look(db, web_auth.look_up_session, session_id=session_id, now=now)
    if found is None:
        return None
    if found.touch_due:
        units.run(db, web_auth.touch_session, session_id=session_id, now=now)
    return found.user_id
