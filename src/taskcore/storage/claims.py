"""Claiming the outbound queue's head job of each chat (SPEC section 9).

Order per chat: a chat's interactive jobs (replies, notices, reactions: every job but a reminder digest) go out in id
order, one at a time; a digest (label ``digest``) goes out after every earlier job of its chat and after every
interactive one waiting there, so a reply queued after a digest that is not due yet is not held behind it. A job
whose chat has a send in flight waits, so a chat has at most one send in flight. Sent and failed rows never block a
chat and the claim never reads them (the indexes on (chat_id, status, id) and (status, next_attempt_at) lead with
status). The claim takes the due interactive jobs first, oldest first, then the digests (issue 20).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, and_, case, exists, func, literal, or_, select, union_all, update

from taskcore.queue_rules import DIGEST_LABEL, IN_DOUBT, IN_DOUBT_LEASE, JobKind, JobStatus, QueueJob
from taskcore.storage.schema import outbound_queue

__all__ = ["claim", "claimable_ids", "count_due"]

oq = outbound_queue
_earlier = outbound_queue.alias("earlier")
ACTIVE = (JobStatus.PENDING.value, JobStatus.SENDING.value)


def _due(now: datetime) -> ColumnElement[bool]:
    return and_(oq.c.status == JobStatus.PENDING.value, oq.c.next_attempt_at <= now)


def _orphaned(now: datetime) -> ColumnElement[bool]:
    """Sending rows whose lease ran out: their worker died or hung."""
    return and_(oq.c.status == JobStatus.SENDING.value, oq.c.lease_until <= now)


def _digest(label: ColumnElement[Any]) -> ColumnElement[bool]:
    return label == DIGEST_LABEL


def _interactive(label: ColumnElement[Any]) -> ColumnElement[bool]:
    return or_(label.is_(None), label != DIGEST_LABEL)


def _heads_its_chat(digest: bool | None = None) -> ColumnElement[bool]:
    """No other active job of the chat comes first: none in flight, no earlier interactive one, and for a digest no
    earlier job and no interactive one at all. ``digest`` True or False: the rule for that kind alone (separate
    index searches on (chat_id, status, id)); None: for a row of either kind. Built once (``_HEADS``)."""
    return _HEADS[digest]


def _build_heads(digest: bool | None) -> ColumnElement[bool]:
    if digest is None:
        return or_(and_(_digest(oq.c.label), _build_heads(True)), and_(_interactive(oq.c.label), _build_heads(False)))
    same_chat = _earlier.c.chat_id == oq.c.chat_id
    in_flight = exists().where(same_chat, _earlier.c.status == JobStatus.SENDING.value, _earlier.c.id != oq.c.id)
    active = and_(same_chat, _earlier.c.status.in_(ACTIVE))
    if digest:
        ahead = exists().where(active, _earlier.c.id != oq.c.id,
                               or_(_earlier.c.id < oq.c.id, _interactive(_earlier.c.label)))
    else:
        ahead = exists().where(active, _earlier.c.id < oq.c.id, _interactive(_earlier.c.label))
    return and_(~in_flight, ~ahead)


_HEADS = {digest: _build_heads(digest) for digest in (None, True, False)}


def claimable_ids(conn: Connection, *, now: datetime, limit: int) -> list[int]:
    """Up to ``limit`` claimable head rows: the interactive ones oldest first, then digests oldest first; on
    PostgreSQL rows locked by another claimer are skipped. A chat has at most one head (a digest is no head while an
    interactive job of its chat waits), so two of them never share a chat."""
    found = _heads(conn, now=now, limit=limit, digest=False)
    if len(found) < limit:
        found += _heads(conn, now=now, limit=limit - len(found), digest=True)
    return found


def _heads(conn: Connection, *, now: datetime, limit: int, digest: bool) -> list[int]:
    # Two index searches on (status, next_attempt_at) instead of one OR, which SQLite would answer by scanning
    # the whole table in id order, sent rows included.
    kind = _digest(oq.c.label) if digest else _interactive(oq.c.label)
    candidates = union_all(select(oq.c.id).where(_due(now), kind),
                           select(oq.c.id).where(_orphaned(now), kind)).subquery()
    stmt = (
        select(oq.c.id)
        .where(oq.c.id.in_(select(candidates.c.id)), _heads_its_chat(digest))
        .order_by(oq.c.id)
        .limit(limit)
    )
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(skip_locked=True)
    return [int(i) for i in conn.execute(stmt).scalars()]


def claim(conn: Connection, ids: Sequence[int], *, owner: str, now: datetime, lease: timedelta) -> list[QueueJob]:
    """Lease the rows of ``ids`` that are still claimable to ``owner``; returns them in the order of ``ids``."""
    if not ids:
        return []
    stmt = (
        update(oq)
        .where(oq.c.id.in_(list(ids)), or_(_due(now), _orphaned(now)), _heads_its_chat())
        .values(
            status=JobStatus.SENDING.value,
            lease_owner=owner,
            lease_until=now + lease,
            attempts=oq.c.attempts + 1,
            updated_at=now,
            # a row still sending is an orphan: whether its sender's attempt went out is unknown (SPEC section 26)
            last_error=case((oq.c.status == JobStatus.SENDING.value, literal(IN_DOUBT_LEASE)), else_=oq.c.last_error),
        )
        .returning(oq.c.id, oq.c.chat_id, oq.c.kind, oq.c.payload, oq.c.label, oq.c.attempts, oq.c.max_attempts,
                   oq.c.last_error, oq.c.created_at, oq.c.gateway_message_id)
    )
    order = {job_id: n for n, job_id in enumerate(ids)}
    return sorted((_job(row) for row in conn.execute(stmt)), key=lambda job: order[job.id])


def _job(row: Row[Any]) -> QueueJob:
    return QueueJob(
        id=int(row.id),
        chat_id=row.chat_id,
        kind=JobKind(row.kind),
        payload=json.loads(row.payload),
        label=row.label,
        attempts=int(row.attempts),
        max_attempts=int(row.max_attempts),
        in_doubt=IN_DOUBT in str(row.last_error or ""),
        created_at=row.created_at,
        chosen_id=row.gateway_message_id,
    )


def count_due(conn: Connection, *, now: datetime) -> int:
    """Pending rows due at ``now`` (an index search on (status, next_attempt_at))."""
    return int(conn.execute(select(func.count()).select_from(oq).where(_due(now))).scalar_one())
