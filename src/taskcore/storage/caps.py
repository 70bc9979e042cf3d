"""Queries of the send caps (SPEC section 31): what the bot started in a window, the identical texts among it, the
first send the database recorded, and the jobs the caps hold."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, and_, delete, func, select, update

from taskcore.queue_rules import JobStatus
from taskcore.storage.schema import outbound_queue, sending_since, started_sends
from taskcore.storage.sql import insert_ignore

ss, oq = started_sends, outbound_queue
HELD_MARK = "held: "  # the start of a postponed job's last_error: what holds it


def record_started(conn: Connection, *, job_id: int, chat_id: str, digest: str | None, now: datetime) -> None:
    """A message the bot started goes out now."""
    insert_ignore(conn, ss, {"job_id": job_id, "chat_id": chat_id, "digest": digest, "started_at": now}, ["job_id"])


def started_since(conn: Connection, since: datetime) -> tuple[int, datetime | None]:
    """How many started messages went out since ``since``, and the oldest of them."""
    row = conn.execute(select(func.count(), func.min(ss.c.started_at)).where(ss.c.started_at > since)).one()
    return int(row[0]), row[1]


def same_text_chats(conn: Connection, digest: str, since: datetime) -> tuple[set[str], datetime | None]:
    """The chats a text with this fingerprint went to since ``since``, and the oldest such send."""
    rows = conn.execute(select(ss.c.chat_id, ss.c.started_at).where(ss.c.digest == digest, ss.c.started_at > since))
    found = [(row.chat_id, row.started_at) for row in rows]
    return {chat for chat, _at in found}, min((at for _chat, at in found), default=None)


def forget_started(conn: Connection, *, before: datetime) -> None:
    """Delete the record of started messages older than ``before``."""
    conn.execute(delete(ss).where(ss.c.started_at < before))


def first_send(conn: Connection, now: datetime) -> datetime:
    """When the database recorded its first send (``now`` when this is it)."""
    insert_ignore(conn, sending_since, {"id": 1, "first_at": now}, ["id"])
    first: datetime = conn.execute(select(sending_since.c.first_at).where(sending_since.c.id == 1)).scalar_one()
    return first


def mark_held(conn: Connection, job_ids: list[int], reason: str) -> None:
    """Say why postponed jobs wait (their last_error)."""
    if job_ids:
        conn.execute(update(oq).where(oq.c.id.in_(job_ids)).values(last_error=HELD_MARK + reason))


def held_jobs(conn: Connection) -> dict[str, tuple[int, datetime | None]]:
    """Pending jobs a cap or the reach-out pause holds, by reason: how many and until when (the latest)."""
    pending = and_(oq.c.status == JobStatus.PENDING.value, oq.c.last_error.like(HELD_MARK + "%"))
    rows = conn.execute(select(oq.c.last_error, func.count(), func.max(oq.c.next_attempt_at)).where(pending)
                        .group_by(oq.c.last_error))
    return {str(row[0]).removeprefix(HELD_MARK): (int(row[1]), row[2]) for row in rows}


def oldest_waiting(conn: Connection) -> datetime | None:
    """When the oldest job still waiting to be sent was queued."""
    return conn.execute(select(func.min(oq.c.created_at)).where(
        oq.c.status.in_((JobStatus.PENDING.value, JobStatus.SENDING.value)))).scalar_one_or_none()
