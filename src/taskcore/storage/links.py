"""Links between chat messages and tasks (SPEC section 18): the message a reply quotes or a reaction names leads to
its task, through the task's origin message or a bot message about exactly that task."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import BigInteger, Connection, Text, and_, bindparam, delete, literal, select, true, union_all

from taskcore.storage.prepared import dialect_insert
from taskcore.storage.schema import UtcDateTime, outbound_queue, task_messages, tasks

tm, oq, t = task_messages, outbound_queue, tasks


@lru_cache(maxsize=4)
def _link_sent(dialect: str) -> Any:
    """The sent row's task, under the gateway's id for the message; a second outcome links nothing twice."""
    row = select(bindparam("message_id", type_=Text()), oq.c.task_id, oq.c.chat_id,
                 bindparam("now", type_=UtcDateTime())).where(
        oq.c.id == bindparam("job_id", type_=BigInteger()), oq.c.task_id.is_not(None))
    return dialect_insert(dialect, tm).from_select(["message_id", "task_id", "chat_id", "created_at"], row) \
        .on_conflict_do_nothing(index_elements=[tm.c.message_id])


_TASK_OF = union_all(
    select(tm.c.task_id.label("task_id"), literal(0).label("rank")).where(
        tm.c.message_id == bindparam("message_id", type_=Text())),
    select(t.c.id.label("task_id"), literal(1).label("rank")).where(
        t.c.origin_message_id == bindparam("message_id", type_=Text())),
    # A bot message about a task whose send is not settled yet: the id chosen before it (WAHA), its answer late
    # (SPEC section 39: a ✅ on it is handled as on any message about the task).
    select(oq.c.task_id.label("task_id"), literal(2).label("rank")).where(
        oq.c.gateway_message_id == bindparam("message_id", type_=Text()), oq.c.task_id.is_not(None)),
).subquery()
_TASK_OF_MESSAGE = select(_TASK_OF.c.task_id).order_by(_TASK_OF.c.rank, _TASK_OF.c.task_id).limit(1)


def link_sent_message(conn: Connection, *, job_id: int, message_id: str, now: datetime) -> None:
    """When the sent queue row is about one task, link the gateway's id of the message to that task."""
    conn.execute(_link_sent(conn.dialect.name), {"message_id": message_id, "now": now, "job_id": job_id})


def task_of_message(conn: Connection, message_id: str) -> int | None:
    """The task a message is linked to (a bot message about it, else the message that created it), or None."""
    found = conn.execute(_TASK_OF_MESSAGE, {"message_id": message_id}).scalar_one_or_none()
    return None if found is None else int(found)


def delete_stale_links(conn: Connection, *, completed_before: datetime) -> int:
    """Delete the links of tasks completed before ``completed_before``; the number deleted."""
    done = select(t.c.id).where(and_(t.c.completed == true(), t.c.completed_at < completed_before))
    return int(conn.execute(delete(tm).where(tm.c.task_id.in_(done))).rowcount)
