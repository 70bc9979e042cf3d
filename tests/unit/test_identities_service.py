"""Identity use cases over a real database: phone numbers, LIDs, aliases and re-keying (SPEC section 3)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Column, func, select, update

from taskcore.access import GroupStatus
from taskcore.services import groups as group_service
from taskcore.services import identities as svc
from taskcore.services.identities import Resolution
from taskcore.storage.db import Database
from taskcore.storage.identities import record_alias
from taskcore.storage.schema import (
    allowed_groups,
    group_members,
    identity_aliases,
    reminder_deliveries,
    task_assignments,
    tasks,
    user_preferences,
    users,
    web_sessions,
    web_tokens,
)
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task

PHONE, LID, OLD_LID, BOB = "34600111222", "987654321012345", "555000111", "222"
G1, G2 = "100@g.us", "200@g.us"
EARLY, LATER = NOW - timedelta(days=3), NOW + timedelta(hours=1)

# Every column that names a user; re-keying must leave none of them pointing at the LID user.
USER_COLUMNS: tuple[Column[Any], ...] = (
    users.c.id, identity_aliases.c.user_id, group_members.c.user_id, tasks.c.created_by, tasks.c.completed_by,
    task_assignments.c.user_id, task_assignments.c.assigned_by, user_preferences.c.user_id, web_tokens.c.user_id,
    web_sessions.c.user_id, reminder_deliveries.c.user_id, allowed_groups.c.updated_by,
)


def resolve(
    db: Database, phone: str | None = None, lid: str | None = None, name: str | None = None, now: Any = NOW
) -> Resolution:
    return units.run(db, svc.resolve_user, phone=phone, lid=lid, name=name, now=now)


def references(db: Database, user_id: str) -> dict[str, int]:
    """How many rows of each user column name ``user_id``."""
    with db.read() as conn:
        return {
            f"{c.table.name}.{c.name}": conn.execute(select(func.count()).where(c == user_id)).scalar_one()
            for c in USER_COLUMNS
        }


def user_row(db: Database, user_id: str) -> Any:
    with db.read() as conn:
        return conn.execute(select(users).where(users.c.id == user_id)).one_or_none()


def member_row(db: Database, group_id: str, user_id: str) -> Any:
    with db.read() as conn:
        query = select(group_members).where(group_members.c.group_id == group_id, group_members.c.user_id == user_id)
        return conn.execute(query).one_or_none()


def give_user_rows(db: Database, user_id: str, *, slot: str = "2026-11-22T08:30", when: Any = NOW) -> int:
    """A preference, a login token, a session and a reminder delivery for the user; returns a task it created."""
    task = make_task(db, creator=user_id, group_id=G1, assignees=(user_id,), now=when)
    with db.write() as conn:
        conn.execute(update(tasks).where(tasks.c.id == task.id).values(completed=True, completed_by=user_id))
        conn.execute(user_preferences.insert().values(user_id=user_id, freq="daily", time="08:30", updated_at=when))
        conn.execute(web_tokens.insert().values(
            token_hash=f"t{user_id}", user_id=user_id, created_at=when, expires_at=when + timedelta(minutes=15)))
        conn.execute(web_sessions.insert().values(
            id_hash=f"s{user_id}", user_id=user_id, created_at=when, last_used_at=when,
            expires_at=when + timedelta(days=30)))
        conn.execute(reminder_deliveries.insert().values(user_id=user_id, slot=slot, outcome="sent", recorded_at=when))
    return task.id


def lid_only_user_with_every_kind_of_row(db: Database) -> int:
    """The LID user as first seen: member of G1, creator and assignee of a task, admin of a group, an older alias."""
    resolve(db, lid=LID, name="Ana (LID)", now=EARLY)
    make_group(db, G1, members=(LID,), now=EARLY)
    task_id = give_user_rows(db, LID, when=EARLY)
    units.run(db, group_service.set_group_status, group_id=G2, status=GroupStatus.BLOCKED, by=LID, now=EARLY)
    with db.write() as conn:
        record_alias(conn, OLD_LID, LID, EARLY)
    return task_id


class TestResolveUser:
    def test_a_phone_number_is_the_user_id_and_the_name_is_recorded(self, db: Database) -> None:
        assert resolve(db, phone=PHONE, name="Ana") == Resolution(PHONE, via_alias=False)
        assert user_row(db, PHONE).display_name == "Ana"

    def test_a_later_name_replaces_the_old_one_and_no_name_keeps_it(self, db: Database) -> None:
        resolve(db, phone=PHONE, name="Ana")
        resolve(db, phone=PHONE, name="Ana María")
        resolve(db, phone=PHONE)
        assert user_row(db, PHONE).display_name == "Ana María"

    def test_a_phone_number_with_a_lid_records_the_pair(self, db: Database) -> None:
        resolve(db, phone=PHONE, lid=LID)
        with db.read() as conn:
            query = select(identity_aliases.c.user_id).where(identity_aliases.c.alias == LID)
            assert conn.execute(query).scalar_one() == PHONE

    def test_a_lid_only_sender_without_an_alias_is_keyed_by_the_lid(self, db: Database) -> None:
        assert resolve(db, lid=LID, name="Ana") == Resolution(LID, via_alias=False)
        assert user_row(db, LID).display_name == "Ana"

    def test_a_lid_only_sender_with_an_alias_is_the_phone_user_via_the_alias(self, db: Database) -> None:
        resolve(db, phone=PHONE, lid=LID)
        assert resolve(db, lid=LID) == Resolution(PHONE, via_alias=True)
        assert user_row(db, LID) is None

    def test_a_sender_with_neither_phone_nor_lid_is_rejected(self, db: Database) -> None:
        with pytest.raises(ValueError, match="phone number or a LID"):
            resolve(db, name="Ana")


class TestRekey:
    def test_every_row_of_a_lid_only_user_moves_to_the_phone_number(self, db: Database) -> None:
        task_id = lid_only_user_with_every_kind_of_row(db)
        assert resolve(db, phone=PHONE, lid=LID) == Resolution(PHONE, via_alias=False)
        assert set(references(db, LID).values()) == {0}
        assert references(db, PHONE) == {
            "users.id": 1, "identity_aliases.user_id": 2, "group_members.user_id": 1, "tasks.created_by": 1,
            "tasks.completed_by": 1, "task_assignments.user_id": 1, "task_assignments.assigned_by": 1,
            "user_preferences.user_id": 1, "web_tokens.user_id": 1, "web_sessions.user_id": 1,
            "reminder_deliveries.user_id": 1, "allowed_groups.updated_by": 1,
        }
        with db.read() as conn:
            assignees = conn.execute(select(task_assignments.c.user_id).where(task_assignments.c.task_id == task_id))
            assert list(assignees.scalars()) == [PHONE]

    def test_the_re_keyed_user_keeps_its_name_and_first_seen_time(self, db: Database) -> None:
        lid_only_user_with_every_kind_of_row(db)
        resolve(db, phone=PHONE, lid=LID)
        row = user_row(db, PHONE)
        assert (row.display_name, row.created_at, row.last_seen_at) == ("Ana (LID)", EARLY, NOW)

    def test_an_older_alias_of_the_lid_user_now_resolves_to_the_phone_user(self, db: Database) -> None:
        lid_only_user_with_every_kind_of_row(db)
        resolve(db, phone=PHONE, lid=LID)
        assert resolve(db, lid=OLD_LID) == Resolution(PHONE, via_alias=True)

    def test_where_the_phone_user_already_has_the_same_rows_its_rows_are_kept(self, db: Database) -> None:
        lid_task = lid_only_user_with_every_kind_of_row(db)
        resolve(db, phone=PHONE, name="Ana")
        make_group(db, G1, members=(PHONE,), now=NOW)
        give_user_rows(db, PHONE, when=NOW)
        with db.write() as conn:
            conn.execute(task_assignments.insert().values(task_id=lid_task, user_id=PHONE, assigned_at=NOW))
        resolve(db, phone=PHONE, lid=LID)
        assert set(references(db, LID).values()) == {0}
        counts = references(db, PHONE)
        assert (counts["group_members.user_id"], counts["user_preferences.user_id"]) == (1, 1)
        assert (counts["reminder_deliveries.user_id"], counts["task_assignments.user_id"]) == (1, 2)
        assert (counts["tasks.created_by"], counts["web_tokens.user_id"]) == (2, 2)
        with db.read() as conn:
            kept = conn.execute(select(task_assignments.c.assigned_at).where(
                task_assignments.c.task_id == lid_task, task_assignments.c.user_id == PHONE)).scalar_one()
            assert kept == NOW
            assert conn.execute(select(user_preferences.c.updated_at)).scalar_one() == NOW
        assert user_row(db, PHONE).display_name == "Ana"

    def test_a_shared_membership_keeps_the_earlier_first_and_later_last_sighting(self, db: Database) -> None:
        lid_only_user_with_every_kind_of_row(db)
        make_group(db, G1, inactive=(PHONE,), now=LATER)
        resolve(db, phone=PHONE, lid=LID)
        row = member_row(db, G1, PHONE)
        assert (row.first_seen_at, row.last_seen_at, row.active, row.inactive_since) == (EARLY, LATER, True, None)

    def test_a_shared_membership_inactive_for_both_stays_inactive(self, db: Database) -> None:
        make_group(db, G1, inactive=(LID,), now=EARLY)
        make_group(db, G1, inactive=(PHONE,), now=LATER)
        resolve(db, phone=PHONE, lid=LID)
        row = member_row(db, G1, PHONE)
        assert (row.active, row.inactive_since) == (False, LATER)

    def test_a_membership_only_the_lid_user_had_is_moved_as_it_was(self, db: Database) -> None:
        make_group(db, G2, inactive=(LID,), now=EARLY)
        resolve(db, phone=PHONE, lid=LID)
        row = member_row(db, G2, PHONE)
        assert (row.active, row.inactive_since, row.first_seen_at) == (False, EARLY, EARLY)


class TestMentions:
    def test_mentions_name_the_group_s_active_members_through_aliases(self, db: Database) -> None:
        make_group(db, G1, members=(PHONE, BOB))
        resolve(db, phone=PHONE, lid=LID)
        found = units.look(db, svc.members_named, group_id=G1, digits=[BOB, LID, PHONE])
        assert found == {BOB: BOB, LID: PHONE, PHONE: PHONE}

    def test_a_mention_of_anyone_else_names_nobody_and_creates_nobody(self, db: Database) -> None:
        make_group(db, G1, members=(PHONE,), inactive=(BOB,))
        make_group(db, G2, members=(OLD_LID,))
        assert units.look(db, svc.members_named, group_id=G1, digits=[BOB, OLD_LID, "34699999999"]) == {}
        assert user_row(db, "34699999999") is None

    def test_no_mentions_name_nobody(self, db: Database) -> None:
        assert units.look(db, svc.members_named, group_id=G1, digits=[]) == {}

    def test_a_newer_pairing_of_a_lid_replaces_the_older_one(self, db: Database) -> None:
        make_group(db, G1, members=(PHONE, BOB))
        resolve(db, phone=PHONE, lid=LID)
        resolve(db, phone=BOB, lid=LID)
        assert units.look(db, svc.members_named, group_id=G1, digits=[LID]) == {LID: BOB}
