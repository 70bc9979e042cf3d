"""The SQL unit of work: one open transaction of the database (``taskcore.unit.UnitOfWork``), apart from the handle.

``Database.unit``, ``Database.run`` and ``Database.look`` (``storage.db``) open one; the use cases only receive it.
Its connection is what ``taskcore.storage``'s functions take. It is also the SQL implementation of the
conversation's store port (``services.conversation.store.ConversationStore``): what admitting a message reads and
writes, each a typed method over one statement.

A savepoint rolls back one part of the unit alone (a chat command that fails halfway); the conversation takes one
for each command but the few that raise their domain errors before their first write (their registry rows say so),
which saves its two statements. The other calls (sightings, identities, memberships, the queue) run without one: a
failure there fails the whole event.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import Connection, RootTransaction

from taskcore.access import GatingMode, Sighting
from taskcore.model import SenderFacts
from taskcore.storage import groups, identities, inbox, links, members, preferences


class SqlUnit:
    """One open transaction: ``conn`` for the storage functions, a savepoint, and the commit that keeps it."""

    def __init__(self, conn: Connection, transaction: RootTransaction | None = None) -> None:
        self._conn = conn
        self._transaction = transaction

    @property
    def conn(self) -> Connection:
        """The open transaction's connection (reads see the unit's own writes)."""
        return self._conn

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A SAVEPOINT, rolled back alone when the block raises."""
        with self._conn.begin_nested():
            yield

    def commit(self) -> None:
        """Commit the transaction (a read unit has nothing to keep: its commit ends the snapshot)."""
        if self._transaction is not None and self._transaction.is_active:
            self._transaction.commit()

    # The conversation's store (services.conversation.store.ConversationStore), on the open transaction.

    def first_sightings(self, messages: Sequence[tuple[str, str, datetime]]) -> list[bool]:
        """Record each (instance, message id, when): whether each is seen for the first time, in order."""
        return inbox.first_sightings(self._conn, messages)

    def sender_facts(self, *, phone: str | None, lid: str | None, group_id: str | None) -> SenderFacts:
        """The sender's user, alias, membership of ``group_id`` and the group, in one statement."""
        return identities.sender_facts(self._conn, phone=phone, lid=lid, group_id=group_id)

    def sight_group(self, mode: GatingMode, group_id: str, *, now: datetime) -> Sighting:
        """Record the group per the discovery rules (discover: pending, announced once)."""
        return groups.sight(self._conn, mode, group_id, name=None, now=now)

    def resolve_identity(self, *, phone: str | None, lid: str | None, name: str | None, now: datetime,
                         known: SenderFacts | None) -> tuple[str, bool]:
        """The sender's user id and whether an alias gave it; records the pair, re-keys a LID-only user."""
        return identities.resolve_identity(self._conn, phone=phone, lid=lid, name=name, now=now, known=known)

    def member_seen(self, *, group_id: str, user_id: str, now: datetime, known: SenderFacts | None) -> None:
        """The user wrote in the group: an active member seen now; with ``known``, only a change is written."""
        members.member_seen(self._conn, group_id=group_id, user_id=user_id, now=now, known=known)

    def zone_told(self, *, user_id: str, now: datetime) -> None:
        """Record that a reply named the user's zone to them."""
        preferences.zone_told(self._conn, user_id=user_id, now=now)

    def chosen_zone(self, user_id: str) -> str | None:
        """The time zone the user chose, if any."""
        return preferences.chosen_zone(self._conn, user_id)

    def chosen_languages(self, user_ids: Collection[str]) -> dict[str, str]:
        """The languages the given users chose (those who chose none are absent)."""
        return preferences.chosen_languages(self._conn, user_ids)

    def task_of_message(self, message_id: str) -> int | None:
        """The task a message is linked to (a bot message about it, else the message that created it), or None."""
        return links.task_of_message(self._conn, message_id)
