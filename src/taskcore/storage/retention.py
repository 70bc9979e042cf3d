"""The daily clean-up's deletes (SPEC section 10): each bookkeeping table loses what is past its retention."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, Delete, delete

from taskcore.storage import links, web_auth
from taskcore.storage.schema import inbound_messages, inbox, outbound_queue, reminder_deliveries

rd, im, oq = reminder_deliveries, inbound_messages, outbound_queue


def delete_expired_auth(conn: Connection, *, now: datetime) -> int:
    """Delete login tokens and sessions that can no longer be used; the number of rows deleted."""
    return web_auth.delete_expired(conn, now=now)


def delete_stale_links(conn: Connection, *, completed_before: datetime) -> int:
    """Delete the message links of tasks completed before ``completed_before``; the number deleted."""
    return links.delete_stale_links(conn, completed_before=completed_before)


def delete_old_deliveries(conn: Connection, *, older_than: datetime) -> int:
    """Delete delivery records made before ``older_than``; the number deleted."""
    return _delete(conn, delete(rd).where(rd.c.recorded_at < older_than))


def delete_old_inbound(conn: Connection, *, older_than: datetime) -> int:
    """Delete inbound message ids first seen before ``older_than``; the number deleted."""
    return _delete(conn, delete(im).where(im.c.seen_at < older_than))


def delete_handled_inbox(conn: Connection, *, done_before: datetime, failed_before: datetime) -> int:
    """Delete inbox events handled before ``done_before`` and failed ones kept since before ``failed_before``;
    pending events are never deleted. The number deleted."""
    return _delete(conn, delete(inbox).where(
        ((inbox.c.status == "done") & (inbox.c.done_at < done_before))
        | ((inbox.c.status == "failed") & (inbox.c.done_at < failed_before))))


def delete_sent_queue_rows(conn: Connection, *, older_than: datetime) -> int:
    """Delete queue rows sent before ``older_than``; failed and pending rows are kept. The number deleted."""
    return _delete(conn, delete(oq).where(oq.c.status == "sent", oq.c.sent_at < older_than))


def _delete(conn: Connection, stmt: Delete) -> int:
    return int(conn.execute(stmt).rowcount)
