"""The conversation's store in memory (``services.conversation.store.ConversationStore``), written by hand.

It keeps only what admitting a message reads and writes: sightings, users, aliases, groups with their status,
memberships, chosen zones and languages and the links of messages to tasks.
tests/unit/test_conversation_store_contract.py runs the same suite over it and over the SQL unit of work (SQLite,
PostgreSQL), so it behaves as the database does.
``seed_*`` put in what other use cases would have written; ``reads`` counts the calls, for tests of the road.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from taskcore.access import (
    Discovery,
    GatingMode,
    GroupSnapshot,
    GroupStatus,
    Sighting,
    discovery_for,
    effectively_allowed,
)
from taskcore.model import SenderFacts

SEEN_RESOLUTION = timedelta(minutes=1)  # storage.users: a sender seen this recently is not written again


def _lately(seen: datetime | None, now: datetime) -> bool:
    return seen is not None and seen <= now < seen + SEEN_RESOLUTION


@dataclass(frozen=True)
class _User:
    name: str | None
    seen: datetime | None


@dataclass(frozen=True)
class _Member:
    active: bool
    seen: datetime


class MemoryConversationStore:
    """The store port over dictionaries."""

    def __init__(self) -> None:
        self.sighted: set[tuple[str, str]] = set()
        self.users: dict[str, _User] = {}
        self.aliases: dict[str, str] = {}
        self.groups: dict[str, GroupSnapshot] = {}
        self.members: dict[tuple[str, str], _Member] = {}
        self.zones: dict[str, str] = {}
        self.languages: dict[str, str] = {}
        self.links: dict[str, int] = {}
        self.reads: Counter[str] = Counter()

    def seed_zone(self, user_id: str, zone: str) -> None:
        """The user chose ``zone`` (``/t zona``)."""
        self.users.setdefault(user_id, _User(None, None))
        self.zones[user_id] = zone

    def seed_language(self, user_id: str, lang: str) -> None:
        """The user chose ``lang`` (``/t idioma``)."""
        self.users.setdefault(user_id, _User(None, None))
        self.languages[user_id] = lang

    def seed_group_language(self, group_id: str, lang: str) -> None:
        """The group chose ``lang`` (``/t idioma`` there)."""
        self.groups[group_id] = replace(self.groups.get(group_id, GroupSnapshot(None, True, None)), language=lang)

    def seed_link(self, message_id: str, task_id: int) -> None:
        """The message is about the task (it created it, or the bot sent it about it)."""
        self.links[message_id] = task_id

    def seed_status(self, group_id: str, status: GroupStatus) -> None:
        """An admin set the group's status (or ALLOWED_GROUPS seeded it)."""
        known = self.groups.get(group_id, GroupSnapshot(None, True, None))
        self.groups[group_id] = replace(known, status=status)

    def first_sightings(self, messages: Sequence[tuple[str, str, datetime]]) -> list[bool]:
        """Whether each (instance, id) is new; a pair given twice is new once."""
        self.reads["first_sightings"] += 1
        firsts = []
        for instance, message_id, _ in messages:
            firsts.append((instance, message_id) not in self.sighted)
            self.sighted.add((instance, message_id))
        return firsts

    def sender_facts(self, *, phone: str | None, lid: str | None, group_id: str | None) -> SenderFacts:
        """What the one statement of the SQL store reads."""
        self.reads["sender_facts"] += 1
        target = self.aliases.get(lid) if lid else None
        user_id = phone or target or lid or ""
        user = self.users.get(user_id)
        member = self.members.get((group_id, user_id)) if group_id else None
        return SenderFacts(
            user_id=user_id, alias_target=target, lid_is_user=bool(lid) and lid in self.users,
            user_known=user is not None, display_name=user.name if user else None,
            last_seen_at=user.seen if user else None, member_active=member.active if member else None,
            member_seen_at=member.seen if member else None, group=self.groups.get(group_id) if group_id else None,
            time_zone=self.zones.get(user_id), language=self.languages.get(user_id),
        )

    def sight_group(self, mode: GatingMode, group_id: str, *, now: datetime) -> Sighting:
        """The discovery rules: recorded (active), pending the first time in discover; enforce ignores it."""
        known = self.groups.get(group_id)
        discovery = discovery_for(mode, known.status if known else None)
        if discovery is Discovery.IGNORE:
            return Sighting(group_id, None, allowed=False, newly_discovered=False)
        snap = replace(known, active=True) if known else GroupSnapshot(None, True, None)
        new = discovery is Discovery.RECORD_PENDING and snap.status is None
        self.groups[group_id] = replace(snap, status=GroupStatus.PENDING) if new else snap
        status = self.groups[group_id].status
        return Sighting(group_id, status, effectively_allowed(mode, status), newly_discovered=new)

    def resolve_identity(self, *, phone: str | None, lid: str | None, name: str | None, now: datetime,
                         known: SenderFacts | None) -> tuple[str, bool]:
        """Phone known: that user, a LID-only twin merged into it, the pair recorded; LID only: through the
        aliases, else keyed by the LID."""
        if phone:
            self._see(phone, name, now)
            if lid and lid != phone:
                if lid in self.users:
                    self._rekey(lid, phone)
                self.aliases[lid] = phone
            return phone, False
        target = self.aliases.get(lid or "")
        self._see(target or lid or "", name, now)
        return target or lid or "", target is not None

    def member_seen(self, *, group_id: str, user_id: str, now: datetime, known: SenderFacts | None) -> None:
        """An active member seen now; with ``known`` (read a moment ago), one active and seen lately is not written
        again."""
        if known is not None and known.member_active and _lately(known.member_seen_at, now):
            return
        self.groups.setdefault(group_id, GroupSnapshot(None, True, None))
        self.users.setdefault(user_id, _User(None, now))
        self.members[(group_id, user_id)] = _Member(True, now)

    def chosen_zone(self, user_id: str) -> str | None:
        """The zone the user chose, if any."""
        self.reads["chosen_zone"] += 1
        return self.zones.get(user_id)

    def chosen_languages(self, user_ids: Collection[str]) -> dict[str, str]:
        """The languages the given users chose (those who chose none are absent)."""
        self.reads["chosen_languages"] += 1
        return {user: self.languages[user] for user in user_ids if user in self.languages}

    def task_of_message(self, message_id: str) -> int | None:
        """The task the message is linked to, or None."""
        self.reads["task_of_message"] += 1
        return self.links.get(message_id)

    def _see(self, user_id: str, name: str | None, now: datetime) -> None:
        user = self.users.get(user_id)
        if user is None or (name and (name != user.name or not _lately(user.seen, now))):
            self.users[user_id] = _User(name, now)

    def _rekey(self, old: str, new: str) -> None:
        """The LID-only user's rows become the phone user's (the phone user's own rows win)."""
        gone = self.users.pop(old)
        if self.users[new].name is None:
            self.users[new] = _User(gone.name, self.users[new].seen)
        for (group_id, user_id), member in list(self.members.items()):
            if user_id == old:
                del self.members[(group_id, old)]
                self.members.setdefault((group_id, new), member)
        if old in self.zones:
            self.zones.setdefault(new, self.zones.pop(old))
        for alias, target in list(self.aliases.items()):
            if target == old:
                self.aliases[alias] = new
