"""Calendar feed use cases (SPEC section 22): issue, rotate, revoke, and read by the secret token."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.errors import NotFound
from taskcore.services.calendar import (
    calendar_feed_since,
    issue_calendar_feed,
    read_calendar_feed,
    revoke_calendar_feed,
)
from taskcore.services.identities import resolve_user
from taskcore.services.tasks import complete_task
from taskcore.services.web_auth import hash_secret
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task

ME, OTHER = "34600000001", "34600000002"
GROUP = "120363000000000001@g.us"


def feed_ids(db: Database, token: str, mode: GatingMode = GatingMode.ENFORCE) -> list[int]:
    return [t.id for t in units.look(db, read_calendar_feed, mode, token=token, now=NOW).tasks]


def test_a_feed_token_is_32_random_bytes_stored_only_as_its_hash(db: Database) -> None:
    token = units.run(db, issue_calendar_feed, user_id=ME, now=NOW)
    assert len(token) == 43  # token_urlsafe(32)
    with db.read() as conn:
        stored = conn.execute(select(schema.calendar_feeds)).one()
    assert (stored.user_id, stored.token_hash) == (ME, hash_secret(token))
    assert token not in repr(stored)
    assert units.look(db, calendar_feed_since, user_id=ME) == NOW


def test_the_feed_shows_my_open_tasks_with_a_due_date_soonest_first(db: Database) -> None:
    make_group(db, GROUP, members=(ME, OTHER))
    late = make_task(db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-12-20")
    soon = make_task(db, creator=ME, group_id=None, due="2026-11-25")
    make_task(db, creator=ME, group_id=None)  # no due date
    make_task(db, creator=OTHER, group_id=GROUP, assignees=(OTHER,), due="2026-11-24")  # not mine
    make_task(db, creator=OTHER, group_id=None, due="2026-11-24")  # someone else's personal task
    assert feed_ids(db, units.run(db, issue_calendar_feed, user_id=ME, now=NOW)) == [soon.id, late.id]


def test_a_shared_task_leaves_my_feed_once_my_part_is_done_and_stays_in_the_others(db: Database) -> None:
    make_group(db, GROUP, members=(ME, OTHER))
    shared = make_task(db, creator=OTHER, group_id=GROUP, assignees=(ME, OTHER), due="2026-11-30", each=True)
    anyone = make_task(db, creator=OTHER, group_id=GROUP, assignees=(ME, OTHER), due="2026-12-01")
    mine, theirs = units.run(db, issue_calendar_feed, user_id=ME, now=NOW), units.run(db, issue_calendar_feed,
                                                                                      user_id=OTHER, now=NOW)
    assert feed_ids(db, mine) == feed_ids(db, theirs) == [shared.id, anyone.id]
    units.run(db, complete_task, GatingMode.ENFORCE, user_id=ME, task_id=shared.id, now=NOW)
    assert feed_ids(db, mine) == [anyone.id]
    (left, _) = units.look(db, read_calendar_feed, GatingMode.ENFORCE, token=theirs, now=NOW).tasks
    assert (left.id, [p.done for p in left.assignees]) == (shared.id, [True, False])
    units.run(db, complete_task, GatingMode.ENFORCE, user_id=OTHER, task_id=shared.id, now=NOW)
    assert feed_ids(db, theirs) == [anyone.id]


def test_a_group_that_is_not_allowed_keeps_its_tasks_out_of_the_feed(db: Database) -> None:
    make_group(db, GROUP, status="blocked", members=(ME,))
    make_task(db, creator=ME, group_id=GROUP, assignees=(ME,), due="2026-11-30")
    token = units.run(db, issue_calendar_feed, user_id=ME, now=NOW)
    assert feed_ids(db, token) == []
    assert len(feed_ids(db, token, GatingMode.OFF)) == 1


def test_rotating_gives_a_new_address_and_the_old_one_stops_working(db: Database) -> None:
    old = units.run(db, issue_calendar_feed, user_id=ME, now=NOW)
    new = units.run(db, issue_calendar_feed, user_id=ME, now=NOW + timedelta(hours=1))
    assert old != new
    assert units.look(db, read_calendar_feed, GatingMode.OFF, token=new, now=NOW).user_id == ME
    with pytest.raises(NotFound):
        units.look(db, read_calendar_feed, GatingMode.OFF, token=old, now=NOW)
    assert units.look(db, calendar_feed_since, user_id=ME) == NOW + timedelta(hours=1)


def test_a_revoked_token_and_an_unknown_one_are_the_same_not_found(db: Database) -> None:
    token = units.run(db, issue_calendar_feed, user_id=ME, now=NOW)
    assert units.run(db, revoke_calendar_feed, user_id=ME) is True
    errors = []
    for presented in (token, "x" * 43, "", "../../etc/passwd", "ñ" * 5000):
        with pytest.raises(NotFound) as raised:
            units.look(db, read_calendar_feed, GatingMode.OFF, token=presented, now=NOW)
        errors.append(str(raised.value))
    assert set(errors) == {"no such calendar feed"}
    assert units.look(db, calendar_feed_since, user_id=ME) is None


def test_revoking_without_a_feed_says_there_was_none(db: Database) -> None:
    assert units.run(db, revoke_calendar_feed, user_id=ME) is False


def test_each_user_has_their_own_feed(db: Database) -> None:
    make_task(db, creator=ME, group_id=None, due="2026-11-30")
    theirs = make_task(db, creator=OTHER, group_id=None, due="2026-11-30")
    mine_token = units.run(db, issue_calendar_feed, user_id=ME, now=NOW)
    their_token = units.run(db, issue_calendar_feed, user_id=OTHER, now=NOW)
    assert feed_ids(db, their_token) == [theirs.id]
    units.run(db, revoke_calendar_feed, user_id=OTHER)
    assert len(feed_ids(db, mine_token)) == 1


def test_a_lid_user_re_keyed_to_their_phone_keeps_their_feed(db: Database) -> None:
    lid, phone = "900111", "34600000009"
    units.run(db, resolve_user, phone=None, lid=lid, name="Ana", now=NOW)
    token = units.run(db, issue_calendar_feed, user_id=lid, now=NOW)
    units.run(db, resolve_user, phone=phone, lid=lid, name="Ana", now=NOW)
    assert units.look(db, read_calendar_feed, GatingMode.OFF, token=token, now=NOW).user_id == phone


def test_when_both_identities_had_a_feed_the_phone_users_survives(db: Database) -> None:
    lid, phone = "900112", "34600000008"
    units.run(db, resolve_user, phone=None, lid=lid, name="Ana", now=NOW)
    units.run(db, resolve_user, phone=phone, lid=None, name="Ana", now=NOW)
    lid_token = units.run(db, issue_calendar_feed, user_id=lid, now=NOW)
    phone_token = units.run(db, issue_calendar_feed, user_id=phone, now=NOW)
    units.run(db, resolve_user, phone=phone, lid=lid, name="Ana", now=NOW)
    assert units.look(db, read_calendar_feed, GatingMode.OFF, token=phone_token, now=NOW).user_id == phone
    with pytest.raises(NotFound):
        units.look(db, read_calendar_feed, GatingMode.OFF, token=lid_token, now=NOW)


@pytest.mark.parametrize(("owner", "lang"), [(ME, "es"), ("5511987654321", "pt"), ("447911123456", "en")])
def test_a_feed_is_read_with_its_owners_language(db: Database, owner: str, lang: str) -> None:
    token = units.run(db, issue_calendar_feed, user_id=owner, now=NOW)
    assert units.look(db, read_calendar_feed, GatingMode.OFF, token=token, now=NOW).lang == lang


def test_a_feed_owner_with_no_countrys_language_gets_the_default(db: Database) -> None:
    token = units.run(db, issue_calendar_feed, user_id="99912345", now=NOW)
    assert units.look(db, read_calendar_feed, GatingMode.OFF, token=token, now=NOW, default_language="en").lang == "en"
