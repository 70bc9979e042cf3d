"""The conversation's store port: what admitting a message reads and writes, in the event's unit of work.

``taskcore.storage.unit.SqlUnit`` is its SQL implementation (SQLite and PostgreSQL); tests/fakes/conversation_store.py
is the in-memory one, and one contract suite (tests/unit/test_conversation_store_contract.py) runs over all three so
the fake cannot drift (STYLE habit 2).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Protocol

from taskcore.access import GatingMode, Sighting
from taskcore.model import SenderFacts
from taskcore.unit import UnitOfWork


class ConversationStore(Protocol):
    """Reads and writes of the admission step; every call runs inside the event's one transaction."""

    def first_sightings(self, messages: Sequence[tuple[str, str, datetime]]) -> list[bool]:
        """Record each (instance, message id, when): whether each is seen for the first time, in order."""

    def sender_facts(self, *, phone: str | None, lid: str | None, group_id: str | None) -> SenderFacts:
        """The sender's user, alias, membership of ``group_id`` and the group, read before anything is written."""

    def sight_group(self, mode: GatingMode, group_id: str, *, now: datetime) -> Sighting:
        """Record the group per the discovery rules (discover: pending, announced once)."""

    def resolve_identity(self, *, phone: str | None, lid: str | None, name: str | None, now: datetime,
                         known: SenderFacts | None) -> tuple[str, bool]:
        """The sender's user id and whether an alias gave it; records the pair, re-keys a LID-only user."""

    def member_seen(self, *, group_id: str, user_id: str, now: datetime, known: SenderFacts | None) -> None:
        """The user wrote in the group: an active member seen now; with ``known``, only a change is written."""

    def zone_told(self, *, user_id: str, now: datetime) -> None:
        """Record that a reply named the user's zone to them (SPEC section 30)."""

    def chosen_zone(self, user_id: str) -> str | None:
        """The time zone the user chose, if any."""

    def chosen_languages(self, user_ids: Collection[str]) -> dict[str, str]:
        """The languages the given users chose (those who chose none are absent)."""

    def task_of_message(self, message_id: str) -> int | None:
        """The task a message is linked to (a bot message about it, else the message that created it), or None."""


class ConversationUnit(UnitOfWork, ConversationStore, Protocol):
    """The event's unit of work, whose store the conversation admits its messages through."""
