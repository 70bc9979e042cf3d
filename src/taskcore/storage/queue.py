"""Queries on the outbound queue: enqueue, record the outcome of a claimed job, its lease (SPEC section 9). Which
jobs are claimed, and in what order, is ``storage.claims``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    case,
    func,
    literal,
    select,
    update,
)

from taskcore.errors import ValidationError
from taskcore.queue_rules import (
    IN_DOUBT_DIED,
    LOGIN_LINK_GONE,
    LOGIN_LINK_LABEL,
    JobKind,
    JobStatus,
    truncate_error,
)
from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import outbound_queue

oq = outbound_queue
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


def _held_by(job_id: int, owner: str) -> ColumnElement[bool]:
    return and_(oq.c.id == job_id, oq.c.status == JobStatus.SENDING.value, oq.c.lease_owner == owner)


def attempts_of_held(conn: Connection, job_id: int, owner: str) -> tuple[int, int] | None:
    """(attempts, max_attempts) of a job ``owner`` still holds, or None when the lease was lost or it finished."""
    row = conn.execute(select(oq.c.attempts, oq.c.max_attempts).where(_held_by(job_id, owner))).one_or_none()
    return None if row is None else (int(row.attempts), int(row.max_attempts))


def choose_id(conn: Connection, job_id: int, owner: str, message_id: str) -> bool:
    """Keep the message id chosen for a job ``owner`` holds, before its send; False when it no longer holds it."""
    return bool(conn.execute(update(oq).where(_held_by(job_id, owner)).values(gateway_message_id=message_id))
                .rowcount)


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
