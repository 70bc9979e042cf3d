"""The daily clean-up's deletes (SPEC section 10): each bookkeeping table loses what is past its retention."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Delete, delete

from taskcore.storage import links, web_auth
from taskcore.storage.db import Database
from taskcore.storage.schema import inbound_messages, inbox, outbound_queue, reminder_deliveries

rd, im, oq = reminder_deliveries, inbound_messages, outbound_queue


def delete_expired_auth(db: Database, *, now: datetime) -> int:
    """Delete login tokens and sessions that can no longer be used; the number of rows deleted."""
    return db.transact(lambda conn: web_auth.delete_expired(conn, now=now))


def delete_stale_links(db: Database, *, completed_before: datetime) -> int:
    """Delete the message links of tasks completed before ``completed_before``; the number deleted."""
    return db.transact(lambda conn: links.delete_stale_links(conn, completed_before=completed_before))


def delete_old_deliveries(db: Database, *, older_than: datetime) -> int:
    """Delete delivery records made before ``older_than``; the number deleted."""
    return _delete(db, delete(rd).where(rd.c.recorded_at < older_than))


def delete_old_inbound(db: Database, *, older_than: datetime) -> int:
    """Delete inbound message ids first seen before ``older_than``; the number deleted."""
    return _delete(db, delete(im).where(im.c.seen_at < older_than))


def delete_handled_inbox(db: Database, *, done_before: datetime, failed_before: datetime) -> int:
    """Delete inbox events handled before ``done_before`` and failed ones kept since before ``failed_before``;
    pending events are never deleted. The number deleted."""
    return _delete(db, delete(inbox).where(
        ((inbox.c.status == "done") & (inbox.c.done_at < done_before))
        | ((inbox.c.status == "failed") & (inbox.c.done_at < failed_before))))


def delete_sent_queue_rows(db: Database, *, older_than: datetime) -> int:
    """Delete queue rows sent before ``older_than``; failed and pending rows are kept. The number deleted."""
    return _delete(db, delete(oq).where(oq.c.status == "sent", oq.c.sent_at < older_than))


def _delete(db: Database, stmt: Delete) -> int:
    return db.transact(lambda conn: int(conn.execute(stmt).rowcount))
