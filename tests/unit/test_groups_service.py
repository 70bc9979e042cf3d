"""Group registry and member use cases over a real database (SPEC sections 3, 4 and 10; seed section 3)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.access import GatingMode, GroupStatus, Sighting
from taskcore.errors import ValidationError
from taskcore.services import groups as svc
from taskcore.services import members as msvc
from taskcore.storage import groups as group_store
from taskcore.storage import members as mq
from taskcore.storage.db import Database
from taskcore.storage.schema import allowed_groups, group_members, groups, tasks
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.chat_support import in_one_unit
from tests.queries import active_member_ids, group_status, is_active_member, sync_members

OFF, DISCOVER, ENFORCE = GatingMode.OFF, GatingMode.DISCOVER, GatingMode.ENFORCE
PENDING, ALLOWED, BLOCKED = GroupStatus.PENDING, GroupStatus.ALLOWED, GroupStatus.BLOCKED
G1, G2, G3 = "100@g.us", "200@g.us", "300-400@g.us"
ALICE, BOB, CAROL = "111", "222", "333"
LATER = NOW + timedelta(hours=1)


def group_row(db: Database, group_id: str) -> Any:
    with db.read() as conn:
        return conn.execute(select(groups).where(groups.c.id == group_id)).one_or_none()


def status_row(db: Database, group_id: str) -> Any:
    with db.read() as conn:
        return conn.execute(select(allowed_groups).where(allowed_groups.c.group_id == group_id)).one_or_none()


def member_row(db: Database, group_id: str, user_id: str) -> Any:
    with db.read() as conn:
        query = select(group_members).where(group_members.c.group_id == group_id, group_members.c.user_id == user_id)
        return conn.execute(query).one_or_none()


def see(db: Database, mode: GatingMode, group_id: str = G1, name: str | None = None, now: datetime = NOW) -> Sighting:
    return units.run(db, svc.see_group, mode, group_id=group_id, name=name, now=now)


def listing(db: Database, mode: GatingMode, *pairs: tuple[str, str | None], now: datetime = NOW) -> svc.ListingResult:
    return units.run(db, svc.apply_group_listing, mode, listed=pairs, community_id=None, now=now)


class TestSeeGroup:
    def test_discover_records_an_unknown_group_as_pending_and_announces_it(self, db: Database) -> None:
        sighting = see(db, DISCOVER, name="Casa")
        assert sighting == Sighting(G1, PENDING, allowed=False, newly_discovered=True)
        assert group_row(db, G1).name == "Casa"
        assert status_row(db, G1).status == "pending"

    def test_discover_announces_a_group_only_the_first_time_it_is_seen(self, db: Database) -> None:
        assert see(db, DISCOVER).newly_discovered
        assert not see(db, DISCOVER, name="Casa", now=LATER).newly_discovered
        assert status_row(db, G1).discovered_at == NOW

    def test_two_processes_seeing_a_new_group_at_once_announce_it_once(self, db: Database) -> None:
        other = Database.from_url(db.engine.url.render_as_string(hide_password=False))
        barrier = threading.Barrier(2)
        results: list[Sighting] = []

        def run(database: Database) -> None:
            barrier.wait()
            results.append(see(database, DISCOVER))

        threads = [threading.Thread(target=run, args=(d,)) for d in (db, other)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        other.dispose()
        assert sorted(r.newly_discovered for r in results) == [False, True]
        assert {r.status for r in results} == {PENDING}

    def test_a_process_that_sees_a_group_while_another_discovers_it_does_not_announce(self, db: Database) -> None:
        other = Database.from_url(db.engine.url.render_as_string(hide_password=False))
        results: list[Sighting] = []
        second = threading.Thread(target=lambda: results.append(see(other, DISCOVER)))
        with db.write() as conn:
            assert group_store.sight(conn, DISCOVER, G1, name=None, now=NOW).newly_discovered
            second.start()
            second.join(timeout=0.3)  # it waits on the uncommitted discovery (row lock or write lock)
        second.join()
        other.dispose()
        assert [r.newly_discovered for r in results] == [False]

    def test_discover_serves_a_known_allowed_group_without_announcing_it(self, db: Database) -> None:
        make_group(db, G1, status="allowed")
        assert see(db, DISCOVER) == Sighting(G1, ALLOWED, allowed=True, newly_discovered=False)

    def test_a_seen_name_replaces_the_stored_one_and_a_missing_name_keeps_it(self, db: Database) -> None:
        make_group(db, G1, name="Viejo")
        see(db, DISCOVER, name="Nuevo")
        see(db, DISCOVER, name=None)
        assert group_row(db, G1).name == "Nuevo"

    def test_enforce_neither_records_nor_announces_an_unknown_group(self, db: Database) -> None:
        assert see(db, ENFORCE, name="Casa") == Sighting(G1, None, allowed=False, newly_discovered=False)
        assert group_row(db, G1) is None
        assert status_row(db, G1) is None

    def test_enforce_records_the_name_of_a_known_group(self, db: Database) -> None:
        make_group(db, G1, name="Viejo", status="blocked")
        assert see(db, ENFORCE, name="Nuevo") == Sighting(G1, BLOCKED, allowed=False, newly_discovered=False)
        assert group_row(db, G1).name == "Nuevo"

    def test_off_records_an_unknown_group_without_a_status_and_serves_it(self, db: Database) -> None:
        assert see(db, OFF, name="Casa") == Sighting(G1, None, allowed=True, newly_discovered=False)
        assert group_row(db, G1).name == "Casa"
        assert status_row(db, G1) is None

    def test_a_group_recorded_in_off_mode_is_discovered_later_in_discover_mode(self, db: Database) -> None:
        see(db, OFF)
        assert see(db, DISCOVER).newly_discovered

    def test_an_inactive_group_seen_again_becomes_active(self, db: Database) -> None:
        make_group(db, G1)
        listing(db, DISCOVER)
        see(db, DISCOVER)
        assert group_row(db, G1).active


class TestSeeds:
    def test_allowed_groups_are_inserted_as_allowed_when_absent(self, db: Database) -> None:
        assert units.run(db, svc.seed_allowed_groups, [G1, G2, G1], now=NOW) == 2
        assert group_status(db, G1) is ALLOWED
        assert group_row(db, G2).active

    def test_a_seed_never_overrides_an_admin_block(self, db: Database) -> None:
        units.run(db, svc.seed_allowed_groups, [G1], now=NOW)
        units.run(db, svc.set_group_status, group_id=G1, status=BLOCKED, by=ALICE, now=NOW)
        assert units.run(db, svc.seed_allowed_groups, [G1], now=LATER) == 0
        assert group_status(db, G1) is BLOCKED

    def test_a_seed_keeps_a_pending_status_and_an_existing_name(self, db: Database) -> None:
        make_group(db, G1, name="Casa", status="pending")
        units.run(db, svc.seed_allowed_groups, [G1], now=NOW)
        assert (status_row(db, G1).status, group_row(db, G1).name) == ("pending", "Casa")

    def test_no_seeds_write_nothing(self, db: Database) -> None:
        assert units.run(db, svc.seed_allowed_groups, [], now=NOW) == 0


class TestSetStatus:
    def test_blocking_an_unknown_group_creates_it_and_records_who_and_when(self, db: Database) -> None:
        record = units.run(db, svc.set_group_status, group_id=G1, status=BLOCKED, by=ALICE, now=NOW)
        assert (record.id, record.status, record.active) == (G1, BLOCKED, True)
        row = status_row(db, G1)
        assert (row.updated_by, row.updated_at) == (ALICE, NOW)

    def test_allowing_a_pending_group_keeps_its_discovery_time(self, db: Database) -> None:
        see(db, DISCOVER, name="Casa")
        record = units.run(db, svc.set_group_status, group_id=G1, status=ALLOWED, by=BOB, now=LATER)
        assert (record.name, record.status) == ("Casa", ALLOWED)
        row = status_row(db, G1)
        assert (row.discovered_at, row.updated_at, row.updated_by) == (NOW, LATER, BOB)

    def test_a_malformed_group_id_is_rejected(self, db: Database) -> None:
        with pytest.raises(ValidationError) as caught:
            units.run(db, svc.set_group_status, group_id="casa", status=ALLOWED, by=ALICE, now=NOW)
        assert caught.value.field == "group_id"
        assert units.look(db, svc.list_groups) == []


class TestListAndCount:
    def test_groups_are_listed_by_name_then_id_with_unnamed_ones_last(self, db: Database) -> None:
        units.run(db, svc.set_group_status, group_id=G3, status=ALLOWED, by=None, now=NOW)
        make_group(db, G2, name="alpha", status="pending")
        make_group(db, G1, name="beta", status=None)
        assert [r.id for r in units.look(db, svc.list_groups)] == [G2, G1, G3]

    def test_groups_can_be_listed_by_status(self, db: Database) -> None:
        make_group(db, G1, status="allowed")
        make_group(db, G2, status="blocked")
        assert [r.id for r in units.look(db, svc.list_groups, status=BLOCKED)] == [G2]
        assert units.look(db, svc.list_groups, status=PENDING) == []

    def test_status_counts_include_every_status_with_zeros(self, db: Database) -> None:
        assert units.look(db, svc.status_counts) == {PENDING: 0, ALLOWED: 0, BLOCKED: 0}
        make_group(db, G1, status="allowed")
        make_group(db, G2, status="allowed")
        make_group(db, G3, status="blocked")
        assert units.look(db, svc.status_counts) == {PENDING: 0, ALLOWED: 2, BLOCKED: 1}


class TestGroupListing:
    def test_new_groups_are_discovered_and_unserved_ones_reported_skipped(self, db: Database) -> None:
        make_group(db, G1, status="allowed")
        make_group(db, G2, status="blocked")
        result = listing(db, DISCOVER, (G1, "Uno"), (G2, "Dos"), (G3, "Tres"))
        assert result.discovered == (G3,)
        assert set(result.skipped) == {G2, G3}
        assert group_status(db, G3) is PENDING

    def test_groups_no_longer_listed_become_inactive_and_keep_their_tasks(self, db: Database) -> None:
        make_group(db, G1)
        make_group(db, G2)
        task = make_task(db, creator=ALICE, group_id=G2)
        result = listing(db, DISCOVER, (G1, None))
        assert result.deactivated == (G2,)
        assert (group_row(db, G1).active, group_row(db, G2).active) == (True, False)
        with db.read() as conn:
            assert conn.execute(select(tasks.c.group_id).where(tasks.c.id == task.id)).scalar_one() == G2

    def test_listed_groups_get_their_name_community_and_sync_time(self, db: Database) -> None:
        make_group(db, G1, name="Viejo")
        units.run(db, svc.apply_group_listing, DISCOVER, listed=[(G1, "Nuevo")], community_id="900@g.us", now=LATER)
        row = group_row(db, G1)
        assert (row.name, row.community_id, row.last_synced_at) == ("Nuevo", "900@g.us", LATER)

    def test_a_listing_without_a_name_keeps_the_stored_one(self, db: Database) -> None:
        make_group(db, G1, name="Casa")
        listing(db, DISCOVER, (G1, None))
        assert group_row(db, G1).name == "Casa"

    def test_enforce_skips_unknown_listed_groups_without_recording_them(self, db: Database) -> None:
        result = listing(db, ENFORCE, (G1, "Uno"))
        assert (result.discovered, result.skipped) == ((), (G1,))
        assert group_row(db, G1) is None

    def test_a_listed_inactive_group_becomes_active_again(self, db: Database) -> None:
        make_group(db, G1)
        listing(db, DISCOVER)
        listing(db, DISCOVER, (G1, None))
        assert group_row(db, G1).active


class TestMembers:
    def test_a_user_who_writes_in_a_group_becomes_an_active_member(self, db: Database) -> None:
        in_one_unit(db, lambda unit: unit.member_seen(group_id=G1, user_id=ALICE, now=NOW, known=None))
        row = member_row(db, G1, ALICE)
        assert (row.active, row.is_admin, row.first_seen_at, row.last_seen_at) == (True, False, NOW, NOW)
        with db.read() as conn:
            assert is_active_member(conn, G1, ALICE)

    def test_writing_again_reactivates_a_member_and_keeps_the_first_sighting(self, db: Database) -> None:
        make_group(db, G1, inactive=(ALICE,))
        in_one_unit(db, lambda unit: unit.member_seen(group_id=G1, user_id=ALICE, now=LATER, known=None))
        row = member_row(db, G1, ALICE)
        assert (row.active, row.inactive_since, row.first_seen_at, row.last_seen_at) == (True, None, NOW, LATER)

    def test_touching_a_member_changes_is_admin_only_when_given(self, db: Database) -> None:
        with db.write() as conn:
            mq.touch_member(conn, G1, ALICE, NOW, is_admin=True)
            mq.touch_member(conn, G1, ALICE, LATER)
        assert member_row(db, G1, ALICE).is_admin

    def test_added_users_become_active_members(self, db: Database) -> None:
        assert units.run(db, msvc.members_changed, group_id=G1, user_ids=[ALICE, BOB, ALICE], action="add",
                         now=NOW) == 2
        with db.read() as conn:
            assert active_member_ids(conn, G1) == [ALICE, BOB]

    def test_removed_members_become_inactive_since_now(self, db: Database) -> None:
        make_group(db, G1, members=(ALICE, BOB))
        assert units.run(db, msvc.members_changed, group_id=G1, user_ids=[ALICE, CAROL], action="remove",
                         now=LATER) == 1
        row = member_row(db, G1, ALICE)
        assert (row.active, row.inactive_since) == (False, LATER)
        assert member_row(db, G1, CAROL) is None

    def test_promote_and_demote_set_is_admin(self, db: Database) -> None:
        units.run(db, msvc.members_changed, group_id=G1, user_ids=[ALICE], action="promote", now=NOW)
        assert member_row(db, G1, ALICE).is_admin
        units.run(db, msvc.members_changed, group_id=G1, user_ids=[ALICE], action="demote", now=NOW)
        assert not member_row(db, G1, ALICE).is_admin

    def test_an_unknown_participants_action_is_rejected(self, db: Database) -> None:
        with pytest.raises(ValidationError):
            units.run(db, msvc.members_changed, group_id=G1, user_ids=[ALICE], action="explode", now=NOW)

    def test_a_group_without_active_members_lists_none(self, db: Database) -> None:
        make_group(db, G1, inactive=(ALICE,))
        with db.read() as conn:
            assert active_member_ids(conn, G1) == []
            assert not is_active_member(conn, G1, ALICE)


class TestMemberSync:
    def test_listed_users_are_active_with_their_admin_flag_and_absent_ones_inactive(self, db: Database) -> None:
        make_group(db, G1, members=(ALICE, BOB))
        assert sync_members(db, group_id=G1, present={BOB: True, CAROL: False}, now=LATER) == (2, 1)
        assert (member_row(db, G1, ALICE).active, member_row(db, G1, ALICE).inactive_since) == (False, LATER)
        assert (member_row(db, G1, BOB).is_admin, member_row(db, G1, CAROL).active) == (True, True)

    def test_an_already_inactive_member_keeps_its_original_inactive_since(self, db: Database) -> None:
        make_group(db, G1, members=(BOB,), inactive=(ALICE,))
        sync_members(db, group_id=G1, present={BOB: False}, now=LATER)
        assert member_row(db, G1, ALICE).inactive_since == NOW

    def test_an_empty_listing_makes_every_member_inactive(self, db: Database) -> None:
        make_group(db, G1, members=(ALICE, BOB))
        assert sync_members(db, group_id=G1, present={}, now=LATER) == (0, 2)


class TestRetention:
    def test_members_inactive_since_before_the_cutoff_are_deleted_and_the_rest_kept(self, db: Database) -> None:
        make_group(db, G1, members=(CAROL,), inactive=(ALICE,), now=NOW - timedelta(seconds=1))
        make_group(db, G1, inactive=(BOB,), now=NOW)
        assert units.run(db, msvc.delete_inactive_members, older_than=NOW) == 1
        assert member_row(db, G1, ALICE) is None
        assert member_row(db, G1, BOB) is not None
        assert member_row(db, G1, CAROL) is not None

    def test_active_members_are_never_deleted(self, db: Database) -> None:
        make_group(db, G1, members=(ALICE,), now=NOW - timedelta(days=400))
        assert units.run(db, msvc.delete_inactive_members, older_than=NOW) == 0
