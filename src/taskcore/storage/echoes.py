"""Queries on the echoes of the bot's sends (``gateway_echoes``, SPEC section 26): record one, tell which sends were
echoed, find the echo of a send whose id is unknown (an in-doubt job), forget old ones."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import Connection, delete, exists, select

from taskcore.gateway.events import SentMessage
from taskcore.storage.prepared import dialect_insert
from taskcore.storage.schema import gateway_echoes, outbound_queue

ge = gateway_echoes


def record_echo(conn: Connection, echo: SentMessage, *, now: datetime) -> bool:
    """Keep one echo (once per message id); whether it was new."""
    stmt = dialect_insert(conn.dialect.name, ge).values(
        message_id=echo.message_id, chat_id=echo.chat_id, digest=echo.digest, quoted_id=echo.quoted_id,
        received_at=now).on_conflict_do_nothing(index_elements=[ge.c.message_id]).returning(ge.c.message_id)
    return conn.execute(stmt).scalar_one_or_none() is not None


def echoed_among(conn: Connection, message_ids: Collection[str]) -> set[str]:
    """Which of ``message_ids`` have been echoed."""
    if not message_ids:
        return set()
    rows = conn.execute(select(ge.c.message_id).where(ge.c.message_id.in_(list(message_ids))))
    return {str(ident) for ident in rows.scalars()}


def unclaimed_echo(
    conn: Connection, *, chat_id: str, digest: str | None, quoted_id: str | None, since: datetime
) -> str | None:
    """The id of an echo of this chat, text and quoted id received since ``since`` that no sent job names yet."""
    taken = exists().where(outbound_queue.c.gateway_message_id == ge.c.message_id)
    quoted = ge.c.quoted_id.is_(None) if quoted_id is None else ge.c.quoted_id == quoted_id
    stmt = (select(ge.c.message_id)
            .where(ge.c.chat_id == chat_id, ge.c.digest == digest, quoted, ge.c.received_at >= since, ~taken)
            .order_by(ge.c.received_at).limit(1))
    found = conn.execute(stmt).scalar_one_or_none()
    return None if found is None else str(found)


def forget_echoes(conn: Connection, *, before: datetime) -> int:
    """Delete the echoes received before ``before``; how many."""
    return int(conn.execute(delete(ge).where(ge.c.received_at < before)).rowcount)


def named_by_jobs(conn: Connection, message_ids: Collection[str]) -> set[str]:
    """Which of ``message_ids`` a queue job already records as its gateway message."""
    if not message_ids:
        return set()
    oq = outbound_queue
    rows = conn.execute(select(oq.c.gateway_message_id).where(oq.c.gateway_message_id.in_(list(message_ids))))
    return {str(ident) for ident in rows.scalars()}
