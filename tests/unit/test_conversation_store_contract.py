"""The conversation's store port keeps one contract: the in-memory fake and the SQL unit of work (SQLite, and
PostgreSQL when the run reaches one) answer every call the same way (STYLE habit 2)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Protocol

import pytest

from taskcore.access import GatingMode, GroupSnapshot, GroupStatus
from taskcore.services.conversation.store import ConversationStore
from taskcore.storage import groups, migrator, preferences
from taskcore.storage.db import Database
from taskcore.storage.schema import tasks
from taskcore.storage.unit import SqlUnit
from taskcore.storage.users import ensure_user
from tests.builders import NOW
from tests.conftest import BACKENDS, _fresh_database
from tests.fakes.conversation_store import MemoryConversationStore

PHONE, LID, OTHER = "34600111111", "140000000000001", "34600222222"
GROUP = "120363000000000001@g.us"


class Seeded(ConversationStore, Protocol):
    """A store with the seeding calls of the contract's arrangements."""

    def seed_zone(self, user_id: str, zone: str) -> None: ...
    def seed_language(self, user_id: str, lang: str) -> None: ...
    def seed_group_language(self, group_id: str, lang: str) -> None: ...
    def seed_link(self, message_id: str, task_id: int) -> None: ...
    def seed_status(self, group_id: str, status: GroupStatus) -> None: ...


class SeededUnit(SqlUnit):
    """The SQL unit with the seeding calls, written through the storage functions other use cases call."""

    def seed_zone(self, user_id: str, zone: str) -> None:
        ensure_user(self.conn, user_id, NOW)
        preferences.save_zone(self.conn, user_id=user_id, tz=zone, now=NOW)

    def seed_language(self, user_id: str, lang: str) -> None:
        ensure_user(self.conn, user_id, NOW)
        preferences.save_language(self.conn, user_id=user_id, lang=lang, now=NOW)

    def seed_group_language(self, group_id: str, lang: str) -> None:
        groups.save_group_language(self.conn, group_id, lang, NOW)

    def seed_link(self, message_id: str, task_id: int) -> None:
        ensure_user(self.conn, OTHER, NOW)
        self.conn.execute(tasks.insert().values(id=task_id, description="pan", created_by=OTHER, created_at=NOW,
                                                completed=False, completion="any", origin_message_id=message_id))

    def seed_status(self, group_id: str, status: GroupStatus) -> None:
        groups.ensure_group(self.conn, group_id, NOW)
        groups.set_status(self.conn, group_id, status, by=None, now=NOW)


@pytest.fixture(params=["memory", *BACKENDS])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Seeded]:
    """The fake, or one unit of work on a fresh migrated database (rolled back at the end)."""
    if request.param == "memory":
        yield MemoryConversationStore()
        return
    db: Database = _fresh_database(request.param, tmp_path, request)
    migrator.migrate(db)
    with db.unit() as uow:
        yield SeededUnit(uow.conn)  # never committed: rolled back at the end
    db.dispose()


def test_a_message_id_is_new_once_per_instance(store: Seeded) -> None:
    assert store.first_sightings([("bot", "A", NOW), ("bot", "B", NOW), ("bot", "A", NOW)]) == [True, True, False]
    assert store.first_sightings([("bot", "B", NOW), ("other", "B", NOW)]) == [False, True]


def test_an_unknown_sender_is_known_once_resolved_with_their_name(store: Seeded) -> None:
    before = store.sender_facts(phone=PHONE, lid=None, group_id=None)
    assert (before.user_id, before.user_known, before.group) == (PHONE, False, None)
    assert store.resolve_identity(phone=PHONE, lid=None, name="Ana", now=NOW, known=before) == (PHONE, False)
    after = store.sender_facts(phone=PHONE, lid=None, group_id=None)
    assert (after.user_known, after.display_name, after.last_seen_at) == (True, "Ana", NOW)


def test_a_lid_only_sender_is_keyed_by_the_lid_until_the_pair_is_seen(store: Seeded) -> None:
    assert store.resolve_identity(phone=None, lid=LID, name="Ana", now=NOW, known=None) == (LID, False)
    store.resolve_identity(phone=PHONE, lid=LID, name="Ana", now=NOW, known=None)
    assert store.resolve_identity(phone=None, lid=LID, name=None, now=NOW, known=None) == (PHONE, True)
    facts = store.sender_facts(phone=None, lid=LID, group_id=None)
    assert (facts.user_id, facts.alias_target, facts.lid_is_user) == (PHONE, PHONE, False)


def test_a_re_keyed_lid_user_s_membership_becomes_the_phone_user_s(store: Seeded) -> None:
    store.resolve_identity(phone=None, lid=LID, name="Ana", now=NOW, known=None)
    store.member_seen(group_id=GROUP, user_id=LID, now=NOW, known=None)
    facts = store.sender_facts(phone=PHONE, lid=LID, group_id=GROUP)
    assert facts.needs_rekey(PHONE, LID)
    store.resolve_identity(phone=PHONE, lid=LID, name="Ana", now=NOW, known=facts)
    again = store.sender_facts(phone=PHONE, lid=LID, group_id=GROUP)
    assert (again.member_active, again.lid_is_user, again.display_name) == (True, False, "Ana")


def test_a_member_seen_is_active_and_not_written_again_within_a_minute(store: Seeded) -> None:
    store.resolve_identity(phone=PHONE, lid=None, name=None, now=NOW, known=None)
    store.member_seen(group_id=GROUP, user_id=PHONE, now=NOW, known=None)
    facts = store.sender_facts(phone=PHONE, lid=None, group_id=GROUP)
    store.member_seen(group_id=GROUP, user_id=PHONE, now=NOW + timedelta(seconds=30), known=facts)
    facts = store.sender_facts(phone=PHONE, lid=None, group_id=GROUP)
    assert (facts.member_active, facts.member_seen_at) == (True, NOW)
    later = NOW + timedelta(minutes=2)
    store.member_seen(group_id=GROUP, user_id=PHONE, now=later, known=facts)
    assert store.sender_facts(phone=PHONE, lid=None, group_id=GROUP).member_seen_at == later


@pytest.mark.parametrize(("mode", "status", "allowed", "new"), [
    (GatingMode.DISCOVER, GroupStatus.PENDING, False, True),
    (GatingMode.ENFORCE, None, False, False),
    (GatingMode.OFF, None, True, False),
])
def test_an_unknown_group_is_sighted_by_the_gating_mode(store: Seeded, mode: GatingMode,
                                                        status: GroupStatus | None, allowed: bool, new: bool) -> None:
    sighting = store.sight_group(mode, GROUP, now=NOW)
    assert (sighting.status, sighting.allowed, sighting.newly_discovered) == (status, allowed, new)
    assert not store.sight_group(mode, GROUP, now=NOW).newly_discovered


def test_a_sighted_group_shows_in_the_sender_s_facts(store: Seeded) -> None:
    store.sight_group(GatingMode.DISCOVER, GROUP, now=NOW)
    assert store.sender_facts(phone=PHONE, lid=None, group_id=GROUP).group == GroupSnapshot(
        None, True, GroupStatus.PENDING)


def test_an_allowed_group_stays_allowed_when_sighted(store: Seeded) -> None:
    store.seed_status(GROUP, GroupStatus.ALLOWED)
    sighting = store.sight_group(GatingMode.ENFORCE, GROUP, now=NOW)
    assert (sighting.status, sighting.allowed, sighting.newly_discovered) == (GroupStatus.ALLOWED, True, False)


def test_a_chosen_zone_is_read_and_none_without_one(store: Seeded) -> None:
    assert store.chosen_zone(PHONE) is None
    store.seed_zone(PHONE, "America/Bogota")
    assert store.chosen_zone(PHONE) == "America/Bogota"
    assert store.sender_facts(phone=PHONE, lid=None, group_id=None).time_zone == "America/Bogota"


def test_a_chosen_language_is_read_and_none_without_one(store: Seeded) -> None:
    assert store.chosen_languages([PHONE]) == {}
    store.seed_language(PHONE, "pt")
    assert store.chosen_languages([PHONE, OTHER]) == {PHONE: "pt"}
    assert store.sender_facts(phone=PHONE, lid=None, group_id=None).language == "pt"


def test_a_group_s_language_shows_in_the_sender_s_facts(store: Seeded) -> None:
    store.seed_status(GROUP, GroupStatus.ALLOWED)
    store.seed_group_language(GROUP, "en")
    facts = store.sender_facts(phone=PHONE, lid=None, group_id=GROUP)
    assert facts.group is not None
    assert (facts.group.language, facts.language) == ("en", None)


def test_a_message_leads_to_its_task_and_another_to_none(store: Seeded) -> None:
    store.seed_link("ORIGIN", 7)
    assert (store.task_of_message("ORIGIN"), store.task_of_message("ELSE")) == (7, None)
