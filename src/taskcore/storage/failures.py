"""Queries on what failed for good (SPEC section 33): inbox events whose handling broke and outbound jobs that
exhausted their attempts, listed together and put back in their queue on an operator's word."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, literal, select, union_all, update

from taskcore.queue_rules import LOGIN_LINK_LABEL, JobStatus
from taskcore.storage.inbox import FAILED, PENDING
from taskcore.storage.schema import inbox, outbound_queue

INBOX, SEND = "inbox", "send"  # the two kinds of failure, and the prefix of their ids (``inbox:12``, ``send:7``)
oq = outbound_queue


@dataclass(frozen=True, slots=True)
class FailedRow:
    """One failure: which table (``inbox`` or ``send``), its row id, when it failed, what it was, the error."""

    kind: str
    id: int
    failed_at: datetime | None
    what: str
    chat: str
    error: str | None
    attempts: int | None
    label: str | None


def failed_rows(conn: Connection, *, limit: int) -> list[FailedRow]:
    """The newest ``limit`` failures of both tables, newest first."""
    events = select(literal(INBOX).label("kind"), inbox.c.id, inbox.c.done_at.label("failed_at"),
                    inbox.c.event.label("what"), inbox.c.chat_key.label("chat"), inbox.c.last_error.label("error"),
                    literal(None).label("attempts"), literal(None).label("label")
                    ).where(inbox.c.status == FAILED)
    sends = select(literal(SEND).label("kind"), oq.c.id, oq.c.updated_at.label("failed_at"), oq.c.kind.label("what"),
                   oq.c.chat_id.label("chat"), oq.c.last_error.label("error"), oq.c.attempts, oq.c.label,
                   ).where(oq.c.status == JobStatus.FAILED.value)
    both = union_all(events, sends).subquery()
    rows = conn.execute(select(both).order_by(both.c.failed_at.desc(), both.c.kind, both.c.id.desc()).limit(limit))
    return [FailedRow(row.kind, int(row.id), row.failed_at, row.what or "", row.chat, row.error,
                      None if row.attempts is None else int(row.attempts), row.label) for row in rows]


def failed_ids(conn: Connection) -> dict[str, list[int]]:
    """Every failed row's id by kind (``--all``)."""
    return {INBOX: [int(i) for i in conn.execute(select(inbox.c.id).where(inbox.c.status == FAILED)).scalars()],
            SEND: [int(i) for i in conn.execute(select(oq.c.id).where(oq.c.status == JobStatus.FAILED.value))
                   .scalars()]}


def login_link_ids(conn: Connection, ids: Collection[int]) -> set[int]:
    """Which of the outbound jobs ``ids`` carried a login link (its text is gone once failed: never sent again)."""
    if not ids:
        return set()
    return {int(i) for i in conn.execute(select(oq.c.id).where(oq.c.id.in_(list(ids)),
                                                               oq.c.label == LOGIN_LINK_LABEL)).scalars()}


def requeue_events(conn: Connection, ids: Collection[int]) -> set[int]:
    """Failed inbox events back to pending (handled again in their chat's order); the ids requeued."""
    if not ids:
        return set()
    rows = conn.execute(update(inbox).where(inbox.c.id.in_(list(ids)), inbox.c.status == FAILED)
                        .values(status=PENDING, done_at=None).returning(inbox.c.id))
    return {int(row.id) for row in rows}


def requeue_sends(conn: Connection, ids: Collection[int], *, now: datetime) -> set[int]:
    """Failed outbound jobs back to pending with their attempts counted from zero, due now; the ids requeued."""
    if not ids:
        return set()
    rows = conn.execute(update(oq).where(oq.c.id.in_(list(ids)), oq.c.status == JobStatus.FAILED.value,
                                         oq.c.label.is_distinct_from(LOGIN_LINK_LABEL))
                        .values(status=JobStatus.PENDING.value, attempts=0, next_attempt_at=now, updated_at=now,
                                lease_owner=None, lease_until=None).returning(oq.c.id))
    return {int(row.id) for row in rows}
