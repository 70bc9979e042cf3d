"""The unit of work: one write transaction that the use cases an event calls all share.

``unit_of_work(db)`` opens one write transaction of ``db`` as a ``Unit``: a ``Database`` whose reads and writes
reuse that open connection. A use
case that runs inside another's transaction says so by taking the unit (``unit: Unit``); given a plain ``Database``
it opens its own. The event's writes (the message id's first sighting included) commit together or not at all, and
the SQLite write lock is taken once per event instead of once per use case.

The unit is also the SQL implementation of the conversation's store port
(``services.conversation.store.ConversationStore``): what admitting a message reads and writes.

The use cases check before they write, so one that raises a domain error has written nothing; the conversation
still runs each command inside ``savepoint`` so that a failing command can never leave half its writes behind,
except the few that raise their domain errors before their first write
(``services.conversation.tasks.CHECKED_FIRST``: help, list, create), which save the two statements. The other calls
(sightings, identities, memberships, the queue) run without one: a failure there fails the whole event.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from typing import TypeVar

from sqlalchemy import Connection

from taskcore.access import GatingMode
from taskcore.model import SenderFacts, Sighting
from taskcore.storage import groups, identities, inbox, links, members, preferences
from taskcore.storage.db import Database

T = TypeVar("T")


class Unit(Database):
    """A Database whose transactions are part of one open write transaction."""

    def __init__(self, conn: Connection) -> None:
        super().__init__(conn.engine, busy_retries=0)
        self.conn = conn
        # The store's calls every message makes go straight to their statements, bound to the open transaction.
        self.sender_facts: Callable[..., SenderFacts] = partial(identities.sender_facts, conn)
        """The sender's user, alias, membership of ``group_id`` and the group, in one statement."""
        self.resolve_identity: Callable[..., tuple[str, bool]] = partial(identities.resolve_identity, conn)
        """The sender's user id and whether an alias gave it; records the pair, re-keys a LID-only user."""
        self.member_seen: Callable[..., None] = partial(members.member_seen, conn)
        """The user wrote in the group: an active member seen now; with ``known``, only a change is written."""

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """The open connection (reads see the event's own writes)."""
        yield self.conn

    @contextmanager
    def write(self, *, wait_ms: int | None = None) -> Iterator[Connection]:
        """The open connection."""
        yield self.conn

    def transact(self, work: Callable[[Connection], T], *, wait_ms: int | None = None,
                 retries: int | None = None) -> T:
        """Run ``work`` on the open connection (the outer transaction already waited for the database)."""
        return work(self.conn)

    def dispose(self) -> None:
        """The engine belongs to the outer Database; nothing to close here."""

    # The conversation's store (services.conversation.store.ConversationStore), on the open transaction.

    def first_sightings(self, messages: Sequence[tuple[str, str, datetime]]) -> list[bool]:
        """Record each (instance, message id, when): whether each is seen for the first time, in order."""
        return inbox.first_sightings(self.conn, messages)

    def sight_group(self, mode: GatingMode, group_id: str, *, now: datetime) -> Sighting:
        """Record the group per the discovery rules (discover: pending, announced once)."""
        return groups.sight(self.conn, mode, group_id, name=None, now=now)

    def zone_told(self, *, user_id: str, now: datetime) -> None:
        """Record that a reply named the user's zone to them."""
        preferences.zone_told(self.conn, user_id=user_id, now=now)

    def chosen_zone(self, user_id: str) -> str | None:
        """The time zone the user chose, if any."""
        return preferences.chosen_zone(self.conn, user_id)

    def chosen_languages(self, user_ids: Collection[str]) -> dict[str, str]:
        """The languages the given users chose (those who chose none are absent)."""
        return preferences.chosen_languages(self.conn, user_ids)

    def task_of_message(self, message_id: str) -> int | None:
        """The task a message is linked to (a bot message about it, else the message that created it), or None."""
        return links.task_of_message(self.conn, message_id)


@contextmanager
def savepoint(db: Database) -> Iterator[None]:
    """Inside a Unit: a SAVEPOINT, rolled back alone when the block raises; elsewhere nothing."""
    if isinstance(db, Unit):
        with db.conn.begin_nested():
            yield
    else:
        yield


@contextmanager
def unit_of_work(db: Database, *, wait_ms: int | None = None) -> Iterator[Unit]:
    """One write transaction of ``db`` as a Unit, not retried (``wait_ms`` as in ``Database.write``): committed
    when the block ends, rolled back whole when it raises."""
    with db.write(wait_ms=wait_ms) as conn:
        yield Unit(conn)
