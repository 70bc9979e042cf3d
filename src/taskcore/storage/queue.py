"""Queries on the outbound queue: enqueue, claim the head job of each chat, record the outcome (SPEC section 9).

Order per chat: a chat's interactive jobs (replies, notices, reactions: every job but a reminder digest) go out in id
order, one at a time; a digest (label ``digest``) goes out after every earlier job of its chat and after every
interactive one waiting there, so a reply queued after a digest that is not due yet is not held behind it. A job
whose chat has a send in flight waits, so a chat has at most one send in flight. Sent and failed rows never block a
chat and the claim never reads them (the indexes on (chat_id, status, id) and (status, next_attempt_at) lead with
status). The claim takes the due interactive jobs first, oldest first, then the digests (issue 20).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Row,
    and_,
    case,
    exists,
    func,
    literal,
    or_,
    select,
    union_all,
    update,
)

from taskcore.errors import ValidationError
from taskcore.queue_rules import (
    DIGEST_LABEL,
    IN_DOUBT,
    IN_DOUBT_DIED,
    IN_DOUBT_LEASE,
    LOGIN_LINK_GONE,
    LOGIN_LINK_LABEL,
    JobKind,
    JobStatus,
    QueueJob,
    truncate_error,
)
from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import outbound_queue

oq = outbound_queue
_earlier = outbound_queue.alias("earlier")
ACTIVE = (JobStatus.PENDING.value, JobStatus.SENDING.value)
_KINDS = frozenset(kind.value for kind in JobKind)
_PENDING = JobStatus.PENDING.value


def enqueue(
    conn: Connection,
    *,
    chat_id: str,
    kind: str,
    payload: Mapping[str, Any],
    label: str | None = None,
    dedupe_key: str | None = None,
    max_attempts: int,
    now: datetime,
    task_id: int | None = None,
) -> int | None:
    """Queue a job due now and return its id; None when a job with ``dedupe_key`` already exists. ``task_id``: the
    one task a text is about (once sent, its message is linked to the task: ``storage.links``)."""
    values = _new_row(chat_id=chat_id, kind=kind, payload=payload, label=label, max_attempts=max_attempts, now=now,
                      due=now, dedupe_key=dedupe_key, task_id=task_id)
    # RETURNING rather than rowcount: with the implicit RETURNING of a serial key, PostgreSQL reports rowcount -1
    row = _INSERT_UNLESS_QUEUED.first(conn, dict(zip(_ROW_KEYS, values, strict=True)))
    return None if row is None else int(row[0])


def enqueue_many(conn: Connection, jobs: Sequence[Mapping[str, Any]], *, max_attempts: int, now: datetime) -> None:
    """Queue several jobs in one driver call; each ``job`` holds enqueue's chat_id, kind, payload and optionally
    label, dedupe_key (a job whose dedupe_key was queued before is left out) and due (when it may be sent; now if
    absent)."""
    _INSERT_MANY.run_rows(conn, [
        _new_row(chat_id=job["chat_id"], kind=job["kind"], payload=job["payload"], label=job.get("label"),
                 max_attempts=max_attempts, now=now, due=job.get("due", now), dedupe_key=job.get("dedupe_key"),
                 task_id=job.get("task_id"))
        for job in jobs])


_ROW_KEYS = ("chat_id", "kind", "payload", "label", "status", "attempts", "max_attempts", "next_attempt_at",
             "created_at", "updated_at", "dedupe_key", "task_id")
# Built once; rows go in as parameters (building a statement per row costs more than running it), and prepared
# (storage/prepared.py): every reply and reaction is queued through it. A NULL dedupe_key never conflicts.
_INSERT_UNLESS_QUEUED = Prepared(lambda dialect: dialect_insert(dialect, oq).on_conflict_do_nothing(
    index_elements=[oq.c.dedupe_key]).returning(oq.c.id), _ROW_KEYS)
_INSERT_MANY = Prepared(lambda dialect: dialect_insert(dialect, oq).on_conflict_do_nothing(
    index_elements=[oq.c.dedupe_key]), _ROW_KEYS)


_PAYLOAD_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # json.dumps's, built once (not per row)


def _new_row(
    *, chat_id: str, kind: str, payload: Mapping[str, Any], label: str | None, max_attempts: int, now: datetime,
    due: datetime, dedupe_key: str | None, task_id: int | None,
) -> tuple[Any, ...]:
    """A new job's values in the order of ``_ROW_KEYS``."""
    if kind not in _KINDS:
        raise ValidationError(f"unknown job kind {kind!r}", field="kind")
    if max_attempts < 1:
        raise ValidationError("a job needs at least one attempt", field="max_attempts")
    text = _PAYLOAD_JSON.encode(dict(payload))
    return (chat_id, kind, text, label, _PENDING, 0, max_attempts, due, now, now, dedupe_key, task_id)


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
                   oq.c.last_error, oq.c.created_at)
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
    )


def _held_by(job_id: int, owner: str) -> ColumnElement[bool]:
    return and_(oq.c.id == job_id, oq.c.status == JobStatus.SENDING.value, oq.c.lease_owner == owner)


def attempts_of_held(conn: Connection, job_id: int, owner: str) -> tuple[int, int] | None:
    """(attempts, max_attempts) of a job ``owner`` still holds, or None when the lease was lost or it finished."""
    row = conn.execute(select(oq.c.attempts, oq.c.max_attempts).where(_held_by(job_id, owner))).one_or_none()
    return None if row is None else (int(row.attempts), int(row.max_attempts))


def finish(conn: Connection, job_id: int, owner: str, values: Mapping[str, Any]) -> bool:
    """Release a job ``owner`` still holds, setting ``values``; False when someone else holds it or it is done."""
    stmt = update(oq).where(_held_by(job_id, owner)).values(lease_until=None, **values)
    return bool(conn.execute(stmt).rowcount)


def _payload_once_done() -> ColumnElement[Any]:
    """The payload a job keeps once it is sent or failed for good: a login link's is replaced (SPEC section 16)."""
    gone = json.dumps(LOGIN_LINK_GONE, ensure_ascii=False, separators=(",", ":"))
    return case((oq.c.label == LOGIN_LINK_LABEL, literal(gone)), else_=oq.c.payload)


def sent_values(gateway_message_id: str | None, now: datetime) -> dict[str, Any]:
    """The columns of a job the gateway acknowledged."""
    return {"status": JobStatus.SENT.value, "sent_at": now, "gateway_message_id": gateway_message_id, "updated_at": now,
            "payload": _payload_once_done()}


def retry_values(error: str, next_attempt_at: datetime, now: datetime) -> dict[str, Any]:
    """The columns of a job that waits for another attempt."""
    return {
        "status": JobStatus.PENDING.value,
        "next_attempt_at": next_attempt_at,
        "last_error": truncate_error(error),
        "updated_at": now,
    }


def failed_values(error: str, now: datetime) -> dict[str, Any]:
    """The columns of a job that will not be tried again (kept, never deleted here)."""
    return {"status": JobStatus.FAILED.value, "last_error": truncate_error(error), "updated_at": now,
            "payload": _payload_once_done()}


def sending_owners(conn: Connection) -> set[str]:
    """The owners of the jobs in flight."""
    rows = conn.execute(select(oq.c.lease_owner).where(oq.c.status == JobStatus.SENDING.value).distinct())
    return {str(owner) for owner in rows.scalars() if owner is not None}


def release_owners(conn: Connection, owners: Sequence[str], *, now: datetime) -> int:
    """Put the jobs in flight of ``owners`` (processes that died) back as due now, in doubt; how many. The attempt
    they made stays counted: whether the gateway carried it out is unknown (it is settled before any resend)."""
    if not owners:
        return 0
    stmt = (update(oq).where(oq.c.status == JobStatus.SENDING.value, oq.c.lease_owner.in_(list(owners)))
            .values(status=JobStatus.PENDING.value, lease_owner=None, lease_until=None, next_attempt_at=now,
                    updated_at=now, last_error=IN_DOUBT_DIED))
    return int(conn.execute(stmt).rowcount)


def extend_lease(conn: Connection, job_id: int, owner: str, *, until: datetime) -> bool:
    """Keep the job ``owner`` holds until ``until``; False when it no longer holds it."""
    return bool(conn.execute(update(oq).where(_held_by(job_id, owner)).values(lease_until=until)).rowcount)


def count_by_status(conn: Connection) -> dict[str, int]:
    """Rows per status, every status present."""
    counts = dict.fromkeys((s.value for s in JobStatus), 0)
    for status, count in conn.execute(select(oq.c.status, func.count()).group_by(oq.c.status)):
        counts[status] = int(count)
    return counts


def count_due(conn: Connection, *, now: datetime) -> int:
    """Pending rows due at ``now`` (an index search on (status, next_attempt_at))."""
    return int(conn.execute(select(func.count()).select_from(oq).where(_due(now))).scalar_one())
