"""The daily maintenance (SPEC section 10): retention deletes, each counted by what it deleted."""

from __future__ import annotations

from datetime import datetime, timedelta

from taskcore.services.delivery import forget_statuses
from taskcore.services.members import delete_inactive_members
from taskcore.storage import retention
from taskcore.unit import UnitOfWork

SENT_QUEUE_RETENTION = timedelta(days=7)
DELIVERY_RETENTION = timedelta(days=60)
INBOUND_RETENTION = timedelta(hours=48)
INBOX_DONE_RETENTION = timedelta(hours=48)
INBOX_FAILED_RETENTION = timedelta(days=30)


def run_maintenance(
    uow: UnitOfWork, *, now: datetime, member_retention_days: int, link_retention_days: int = 14
) -> dict[str, int]:
    """Delete members inactive longer than the retention, expired tokens and sessions, sent queue rows older than
    7 days, reminder deliveries older than 60 days, inbound message ids older than 48 h, inbox events handled more
    than 48 h ago (failed ones after 30 days) and the message links of tasks completed more than
    ``link_retention_days`` (REACTIONS_TTL_DAYS) ago, delivery statuses and reach-out locks older than 7 days; rows
    deleted by kind."""
    return {
        "links": retention.delete_stale_links(uow.conn, completed_before=now - timedelta(days=link_retention_days)),
        "members": delete_inactive_members(uow, older_than=now - timedelta(days=member_retention_days)),
        "auth": retention.delete_expired_auth(uow.conn, now=now),
        "queue": retention.delete_sent_queue_rows(uow.conn, older_than=now - SENT_QUEUE_RETENTION),
        "deliveries": retention.delete_old_deliveries(uow.conn, older_than=now - DELIVERY_RETENTION),
        "inbound": retention.delete_old_inbound(uow.conn, older_than=now - INBOUND_RETENTION),
        "inbox": retention.delete_handled_inbox(uow.conn, done_before=now - INBOX_DONE_RETENTION,
                                                failed_before=now - INBOX_FAILED_RETENTION),
        "statuses": forget_statuses(uow, before=now - SENT_QUEUE_RETENTION),
    }
