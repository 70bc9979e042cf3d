"""The inbox of webhook events as use cases (SPEC section 17): what waits and what failed.

The road stores what arrived, claims it in order and finishes it, inside the unit of work of its effects
(``taskcore.services.conversation.road``).
"""

from __future__ import annotations

from taskcore.storage import inbox as store
from taskcore.storage.inbox import INBOX_FAILURES, InboxRow, NewEvent
from taskcore.unit import Reading

__all__ = ["INBOX_FAILURES", "InboxRow", "NewEvent", "inbox_stats"]


def inbox_stats(uow: Reading) -> dict[str, int]:
    """How many events are pending and how many failed (``pending``, ``failed``)."""
    return store.count_open(uow.conn)
