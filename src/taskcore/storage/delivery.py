"""Queries of SPEC section 31: the delivery status of each sent message, who wrote to the bot in private, who it
cannot reach there (and what waits for them), and the reach-out time-locks (463 on a cold direct message)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Connection, delete, func, or_, select, update

from taskcore.storage.queue import failed_values
from taskcore.storage.schema import (
    allowed_groups,
    group_members,
    groups,
    message_deliveries,
    outbound_queue,
    private_contacts,
    reachout_locks,
    unreachable_held,
    unreachable_people,
    users,
)
from taskcore.storage.sql import insert_ignore, upsert

md, pc, up, uh, rl, oq = (message_deliveries, private_contacts, unreachable_people, unreachable_held, reachout_locks,
                          outbound_queue)


@dataclass(frozen=True, slots=True)
class SentJob:
    """What the queue remembers of a sent message: its job, chat, label and body (a login link's body is gone)."""

    job_id: int
    chat_id: str
    label: str | None
    payload: str
    task_id: int | None


class Unreachable(NamedTuple):
    """A person the bot cannot reach in private, since when, and their name when known."""

    user_id: str
    since: datetime
    name: str | None


class HeldRow(NamedTuple):
    """Something held for an unreachable person."""

    kind: str
    chat_id: str
    text: str
    label: str | None


def record_status(conn: Connection, *, message_id: str, chat_id: str, status: str, error_code: str | None,
                  now: datetime) -> None:
    """Keep the last status reported for a message."""
    upsert(conn, md, {"message_id": message_id, "chat_id": chat_id, "status": status, "error_code": error_code,
                      "updated_at": now}, ["message_id"], ["status", "error_code", "updated_at"])


def last_status(conn: Connection, message_id: str) -> str | None:
    """The last status reported for a message, or None."""
    return conn.execute(select(md.c.status).where(md.c.message_id == message_id)).scalar_one_or_none()


def forget_statuses(conn: Connection, *, before: datetime) -> int:
    """Delete statuses reported before ``before``; how many."""
    return int(conn.execute(delete(md).where(md.c.updated_at < before)).rowcount or 0)


def sent_job(conn: Connection, message_id: str) -> SentJob | None:
    """The queue job whose send the gateway answered with ``message_id``, or None (not recorded yet)."""
    row = conn.execute(select(oq.c.id, oq.c.chat_id, oq.c.label, oq.c.payload, oq.c.task_id)
                       .where(oq.c.gateway_message_id == message_id).limit(1)).first()
    return None if row is None else SentJob(int(row.id), row.chat_id, row.label, row.payload, row.task_id)


def user_exists(conn: Connection, user_id: str) -> bool:
    """Whether the person is known."""
    return conn.execute(select(users.c.id).where(users.c.id == user_id)).first() is not None


def wrote_privately(conn: Connection, user_id: str, now: datetime, jid: str | None = None) -> None:
    """The person wrote to the bot in private at ``now``, from the address ``jid``."""
    upsert(conn, pc, {"user_id": user_id, "last_at": now, "jid": jid}, ["user_id"], ["last_at", "jid"])


def private_addresses(conn: Connection, user_ids: Collection[str]) -> dict[str, str]:
    """The address each of ``user_ids`` last wrote to the bot from in private, when recorded."""
    if not user_ids:
        return {}
    rows = conn.execute(select(pc.c.user_id, pc.c.jid).where(pc.c.user_id.in_(list(user_ids)), pc.c.jid.is_not(None)))
    return {row.user_id: row.jid for row in rows}


def private_since(conn: Connection, user_ids: Collection[str]) -> dict[str, datetime]:
    """When each of ``user_ids`` who ever wrote in private last did."""
    if not user_ids:
        return {}
    rows = conn.execute(select(pc.c.user_id, pc.c.last_at).where(pc.c.user_id.in_(list(user_ids))))
    return {row.user_id: row.last_at for row in rows}


def mark_unreachable(conn: Connection, user_id: str, *, message_id: str, now: datetime) -> bool:
    """Mark the person unreachable in private (kept as it was when already marked); whether newly marked."""
    if insert_ignore(conn, up, {"user_id": user_id, "since": now, "message_id": message_id, "told_at": None},
                     ["user_id"]):
        return True
    stmt = update(up).where(up.c.user_id == user_id, up.c.since.is_(None)).values(since=now, message_id=message_id)
    return bool(conn.execute(stmt).rowcount)


def clear_unreachable(conn: Connection, user_id: str) -> bool:
    """The person is reachable again (the last note's time is kept); whether they were marked."""
    stmt = update(up).where(up.c.user_id == user_id, up.c.since.is_not(None)).values(since=None, message_id=None)
    return bool(conn.execute(stmt).rowcount)


def unreachable_among(conn: Connection, user_ids: Collection[str]) -> set[str]:
    """Which of ``user_ids`` are marked unreachable."""
    if not user_ids:
        return set()
    rows = conn.execute(select(up.c.user_id).where(up.c.user_id.in_(list(user_ids)), up.c.since.is_not(None)))
    return {row.user_id for row in rows}


def told_at(conn: Connection, user_id: str) -> datetime | None:
    """When the person was last told in a group that the bot cannot write to them."""
    return conn.execute(select(up.c.told_at).where(up.c.user_id == user_id)).scalar_one_or_none()


def note_told(conn: Connection, user_id: str, *, read: datetime | None, now: datetime) -> bool:
    """Record the group note, if ``told_at`` is still ``read`` (a compare-and-set: one note per unit)."""
    same = up.c.told_at.is_(None) if read is None else up.c.told_at == read
    return bool(conn.execute(update(up).where(up.c.user_id == user_id, same).values(told_at=now)).rowcount)


def unreachable_people_list(conn: Connection) -> list[Unreachable]:
    """Everyone marked unreachable, longest first."""
    rows = conn.execute(select(up.c.user_id, up.c.since, users.c.display_name)
                        .join(users, users.c.id == up.c.user_id)
                        .where(up.c.since.is_not(None)).order_by(up.c.since, up.c.user_id))
    return [Unreachable(row.user_id, row.since, row.display_name) for row in rows]


def hold(conn: Connection, *, user_id: str, kind: str, chat_id: str, text: str, label: str | None,
         now: datetime) -> None:
    """Hold a message for an unreachable person; a newer one of the same kind replaces the older."""
    upsert(conn, uh, {"user_id": user_id, "kind": kind, "chat_id": chat_id, "text": text, "label": label,
                      "held_at": now}, ["user_id", "kind"], ["chat_id", "text", "label", "held_at"])


def take_held(conn: Connection, user_id: str) -> list[HeldRow]:
    """What was held for the person, oldest first, removed."""
    rows = conn.execute(select(uh.c.kind, uh.c.chat_id, uh.c.text, uh.c.label)
                        .where(uh.c.user_id == user_id).order_by(uh.c.held_at, uh.c.kind)).all()
    conn.execute(delete(uh).where(uh.c.user_id == user_id))
    return [HeldRow(row.kind, row.chat_id, row.text, row.label) for row in rows]


def record_lock(conn: Connection, *, message_id: str, user_id: str, now: datetime) -> bool:
    """Record a reach-out time-lock (a 463 on a cold direct message); whether new."""
    return insert_ignore(conn, rl, {"message_id": message_id, "user_id": user_id, "locked_at": now}, ["message_id"])


def forget_locks(conn: Connection, *, before: datetime) -> int:
    """Delete reach-out locks recorded before ``before``; how many."""
    return int(conn.execute(delete(rl).where(rl.c.locked_at < before)).rowcount or 0)


def last_lock(conn: Connection) -> datetime | None:
    """When the latest reach-out time-lock was recorded."""
    return conn.execute(select(func.max(rl.c.locked_at))).scalar_one_or_none()


def delete_jobs(conn: Connection, ids: Collection[int]) -> None:
    """Remove queue jobs whose message moved elsewhere (held for an unreachable person)."""
    if ids:
        conn.execute(delete(oq).where(oq.c.id.in_(list(ids))))


def fail_jobs(conn: Connection, ids: Collection[int], error: str, *, now: datetime) -> None:
    """Fail claimed jobs for good without sending them (kept, with ``error``; a login link's payload erased)."""
    if ids:
        conn.execute(update(oq).where(oq.c.id.in_(list(ids))).values(lease_owner=None, lease_until=None,
                                                                    **failed_values(error, now)))


def postpone_jobs(conn: Connection, ids: Collection[int], *, until: datetime, now: datetime) -> None:
    """Put claimed jobs back, due at ``until``, without spending the attempt the claim took."""
    if ids:
        conn.execute(update(oq).where(oq.c.id.in_(list(ids))).values(
            status="pending", lease_owner=None, lease_until=None, attempts=oq.c.attempts - 1, next_attempt_at=until,
            updated_at=now))


def shared_group(conn: Connection, user_id: str, *, any_unblocked: bool) -> str | None:
    """An active group the person is an active member of and the bot speaks in (allowed; with ``any_unblocked``,
    gating off, any group not blocked), the one they were last seen in."""
    gm, g, ag = group_members, groups, allowed_groups
    allowed = ag.c.status == "allowed"
    if any_unblocked:
        allowed = or_(ag.c.status.is_(None), ag.c.status != "blocked")
    stmt = (select(gm.c.group_id).join(g, g.c.id == gm.c.group_id).outerjoin(ag, ag.c.group_id == gm.c.group_id)
            .where(gm.c.user_id == user_id, gm.c.active.is_(True), g.c.active.is_(True), allowed)
            .order_by(gm.c.last_seen_at.desc(), gm.c.group_id).limit(1))
    return conn.execute(stmt).scalar_one_or_none()
