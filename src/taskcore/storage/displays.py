"""Queries of the kitchen display (SPEC section 41): one secret address per group, stored as the SHA-256 hash of its
token, and the group's open chores a display shows."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Connection, bindparam, delete, false, select

from taskcore.storage.penalty_tables import display_links
from taskcore.storage.schema import tasks
from taskcore.storage.sql import upsert

d, t = display_links, tasks
_GROUP_OF = select(d.c.group_id).where(d.c.token_hash == bindparam("token_hash"))  # every display's refresh runs it


def put_display(conn: Connection, *, group_id: str, token_hash: str, by: str, now: datetime) -> None:
    """Give the group a display under ``token_hash``, replacing the one it had (whose address then stops working)."""
    upsert(conn, d, {"group_id": group_id, "token_hash": token_hash, "created_by": by, "created_at": now},
           ["group_id"], ["token_hash", "created_by", "created_at"])


def delete_display(conn: Connection, *, group_id: str) -> bool:
    """Delete the group's display; True when there was one."""
    return bool(conn.execute(delete(d).where(d.c.group_id == group_id)).rowcount)


def display_group(conn: Connection, *, token_hash: str) -> str | None:
    """The group whose display is stored under ``token_hash``; None for a revoked, replaced or unknown one."""
    group_id: str | None = conn.execute(_GROUP_OF, {"token_hash": token_hash}).scalar_one_or_none()
    return group_id


def open_until(conn: Connection, *, group_id: str, last: date, limit: int) -> list[int]:
    """The group's open tasks due on or before ``last`` (the late ones too), soonest first."""
    query = (select(t.c.id).where(t.c.group_id == group_id, t.c.completed == false(), t.c.due_date.is_not(None),
                                  t.c.due_date <= last.isoformat())
             .order_by(t.c.due_date, t.c.id).limit(limit))
    return [int(task_id) for task_id in conn.execute(query).scalars()]
