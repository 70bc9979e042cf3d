"""The inbox of webhook events as use cases (SPEC section 17): store what arrived, claim it in order, finish it.

``store_events`` is the webhook's one write: the events that arrived together, in one short transaction whose wait
for the database is bounded, so that the webhook answers 2xx only for a committed event and 503 past the bound.
The chat claims and finishes events inside the transaction of their effects (``taskcore.services.conversation.road``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from taskcore.storage import inbox as store
from taskcore.storage.db import Database
from taskcore.storage.inbox import INBOX_FAILURES, InboxRow, NewEvent

__all__ = ["INBOX_FAILURES", "InboxRow", "NewEvent", "inbox_stats", "store_events"]


def store_events(db: Database, events: Sequence[NewEvent], *, now: datetime, wait_ms: int | None = None,
                 done: bool = False) -> list[int]:
    """Store ``events`` as pending (or, ``done``, as handled in the caller's transaction), in order, in one
    transaction that waits at most ``wait_ms`` for the database (not retried: the caller answers 503 instead);
    their ids."""
    if not events:
        return []
    return db.transact(lambda conn: store.insert_events(conn, events, now=now, done=done), wait_ms=wait_ms,
                       retries=0)


def inbox_stats(db: Database) -> dict[str, int]:
    """How many events are pending and how many failed (``pending``, ``failed``)."""
    with db.read() as conn:
        return store.count_open(conn)
