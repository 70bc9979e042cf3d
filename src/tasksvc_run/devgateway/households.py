"""The chat simulator plays every household (SPEC section 39): it creates a group (its name, its members, named by
phone or by LID), makes a member a group admin, adds someone to a group, and knows people WhatsApp shows only by a
LID. Each act goes to the bot as the gateway tells it (``ChatFake.join``: Evolution API's ``groups.upsert``, WAHA's
``group.v2.join``; ``ChatFake.change``: ``group-participants.update``, ``group.v2.participants``).

Choices:

- A person is picked on the page by a key: their phone digits, or ``<lid>@lid`` for someone known only by a LID.
- In a group addressed by LID every member is named by a LID, with their number beside it when WhatsApp shows it
  (a phone person's LID is made from their digits, the same in every group: ``lid_of``); the bot stays named by its
  number, as the fakes' own account is.
- The groups made here are the simulator's own: the local gateway lists them as made (their addressing, LIDs and
  admins) beside the database's, whose members it can only name by number.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace

from tasksvc_run.devgateway.acts import Group, Member, phone_jid

__all__ = ["Households", "Person", "lid_of"]

_LID = re.compile(r"[0-9]{8,20}@lid")
_PHONE = re.compile(r"[0-9]{8,15}")
_FIRST_GROUP = 120363900000000000


def lid_of(digits: str) -> str:
    """The LID the simulator gives a phone person in LID-addressed groups (15 digits, never a valid number)."""
    return f"9{digits[-14:].rjust(14, '0')}@lid"


@dataclass(frozen=True)
class Person:
    """Someone the page may write as: ``key`` (digits, or ``<lid>@lid``) and their name."""

    key: str
    name: str

    @property
    def lid_only(self) -> bool:
        """WhatsApp shows them by a LID alone."""
        return self.key.endswith("@lid")


def is_person_key(key: str) -> bool:
    """Phone digits or a LID JID."""
    return bool(_PHONE.fullmatch(key) or _LID.fullmatch(key))


@dataclass
class Households:
    """The people known only to the simulator (LID-only ones, until they write) and the groups it made."""

    bot: str
    people: dict[str, Person] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(_FIRST_GROUP))

    def add_person(self, key: str, name: str) -> Person:
        """Know ``key`` by ``name`` (a LID-only person: the page can write as them before the bot knows them)."""
        person = Person(key, name)
        self.people[key] = person
        return person

    def member(self, key: str, addressing: str, *, admin: bool = False) -> Member:
        """``key`` as a group of this addressing names them: a LID-only person by their LID; a phone person by
        number, or in a LID group by ``lid_of`` with their number beside it."""
        if key.endswith("@lid"):
            return Member(key, None, admin)
        if addressing == "lid":
            return Member(lid_of(key), phone_jid(key), admin)
        return Member(phone_jid(key), None, admin)

    def make_group(self, name: str, keys: list[str], admins: set[str], addressing: str) -> Group:
        """A new group named ``name`` with the bot and ``keys`` (``admins`` among them) in it."""
        group_id = f"{next(self._ids)}@g.us"
        members = (Member(self.bot), *(self.member(key, addressing, admin=key in admins)
                                       for key in dict.fromkeys(keys)))
        group = Group(group_id, name, members, addressing)
        self.groups[group_id] = group
        return group

    def changed(self, group: Group, key: str, action: str) -> tuple[Group, Member]:
        """``group`` after ``key`` is added to it or made an admin (``action``: ``add`` or ``promote``), and that
        member as the group names them; a group made here keeps the change."""
        member = self.member(key, group.addressing, admin=action == "promote")
        kept = [m for m in group.members if m.jid != member.jid and (m.phone is None or m.phone != member.phone)]
        if action == "promote":
            before = next((m for m in group.members if member.jid in (m.jid, m.phone)), None)
            member = replace(before, admin=True) if before is not None else member
        updated = replace(group, members=(*kept, member))
        if group.id in self.groups:
            self.groups[group.id] = updated
        return updated, member

    def sender(self, key: str, chat: str) -> tuple[str, str | None]:
        """The JID ``key`` writes as in ``chat`` and their phone JID beside it when the chat names them by LID."""
        if key.endswith("@lid"):
            return key, None
        group = self.groups.get(chat)
        if group is not None and group.addressing == "lid":
            return lid_of(key), phone_jid(key)
        return phone_jid(key), None

    def listed(self, from_database: list[Group]) -> list[Group]:
        """The database's groups, each made here as made."""
        seen = {group.id: group for group in from_database}
        seen.update(self.groups)
        return list(seen.values())
