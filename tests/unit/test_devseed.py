"""The development seed (seed section 8), checked by counting what it wrote, on every backend."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import ColumnElement, and_, func, select, true

from taskcore.services.devseed import seed_dev_data
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.schema import (
    allowed_groups,
    group_members,
    groups,
    task_assignments,
    tasks,
    user_preferences,
    users,
)
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tests.builders import NOW, TODAY, make_group, make_task

ME = "34600000999"
t, ta, gm, ag = tasks, task_assignments, group_members, allowed_groups
ALL_TABLES = (users, groups, allowed_groups, group_members, tasks, task_assignments, user_preferences)
assignee_count = select(func.count()).where(ta.c.task_id == t.c.id).scalar_subquery()


def seed(db: Database, default_user: str = ME) -> bool:
    return units.run(db, seed_dev_data, default_user=default_user, now=NOW, today=TODAY)


def count(db: Database, table: Any, *where: ColumnElement[bool]) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(*where)).scalar_one())


def table_counts(db: Database) -> list[int]:
    return [count(db, table) for table in ALL_TABLES]


@pytest.fixture
def seeded(db: Database) -> Database:
    assert seed(db)
    return db


# --- when it runs --------------------------------------------------------------------------------


def test_an_empty_database_is_seeded_with_30_to_35_tasks(seeded: Database) -> None:
    assert 30 <= count(seeded, tasks) <= 35


def test_a_second_run_does_nothing(seeded: Database) -> None:
    before = table_counts(seeded)
    assert not seed(seeded)
    assert table_counts(seeded) == before


def test_a_database_with_a_task_is_never_seeded(db: Database) -> None:
    make_group(db, members=("111",))
    make_task(db, creator="111")
    before = table_counts(db)
    assert not seed(db)
    assert table_counts(db) == before


def test_a_default_user_that_already_signed_in_is_kept_and_the_seed_still_runs(db: Database) -> None:
    with db.write() as conn:
        ensure_user(conn, ME, NOW, name="Pepa")
    assert seed(db)
    assert count(db, users, users.c.id == ME) == 1


@pytest.fixture
def another_db(tmp_path: Path) -> Iterator[Database]:
    database = Database.from_url(sqlite_url(tmp_path / "another.db"))
    migrator.migrate(database)
    yield database
    database.dispose()


def test_the_same_inputs_give_the_same_rows(seeded: Database, another_db: Database) -> None:
    assert seed(another_db)
    columns = (t.c.description, t.c.group_id, t.c.due_date, t.c.created_by, t.c.completed_by, t.c.completed_at)

    def content(db: Database) -> list[Any]:
        with db.read() as conn:
            return [tuple(r) for r in conn.execute(select(*columns).order_by(t.c.id))]

    assert content(seeded) == content(another_db)


# --- people and groups ---------------------------------------------------------------------------


def test_three_to_five_named_users_are_created_including_the_default_user(seeded: Database) -> None:
    assert 3 <= count(seeded, users) <= 5
    assert count(seeded, users, users.c.id == ME) == 1
    assert count(seeded, users, users.c.display_name.is_(None)) == 0


def test_a_default_user_sharing_a_companions_id_still_gets_distinct_companions(db: Database) -> None:
    assert seed(db, default_user="34600000101")
    assert 3 <= count(db, users) <= 5
    assert count(db, tasks) >= 30


def test_five_groups_four_allowed_and_one_pending(seeded: Database) -> None:
    assert count(seeded, groups) == 5
    assert count(seeded, ag, ag.c.status == "allowed") == 4
    assert count(seeded, ag, ag.c.status == "pending") == 1
    assert count(seeded, groups.join(ag, ag.c.group_id == groups.c.id)) == 5


def test_group_ids_use_the_platform_forms_with_one_old_style_id(seeded: Database) -> None:
    with seeded.read() as conn:
        ids = list(conn.execute(select(groups.c.id)).scalars())
        names = list(conn.execute(select(groups.c.name)).scalars())
    assert all(re.fullmatch(r"[0-9]+(-[0-9]+)?@g\.us", group_id) for group_id in ids)
    assert len([group_id for group_id in ids if "-" in group_id]) == 1
    assert all(names)
    assert len(set(names)) == 5


def test_the_default_user_is_an_active_member_of_three_allowed_groups_only(seeded: Database) -> None:
    mine = gm.join(ag, ag.c.group_id == gm.c.group_id)
    assert count(seeded, gm, gm.c.user_id == ME) == 3
    assert count(seeded, mine, gm.c.user_id == ME, gm.c.active == true(), ag.c.status == "allowed") == 3


def test_one_allowed_group_has_no_membership_for_the_default_user(seeded: Database) -> None:
    member_of = select(gm.c.group_id).where(gm.c.user_id == ME)
    assert count(seeded, ag, ag.c.status == "allowed", ag.c.group_id.not_in(member_of)) == 1


def test_the_default_user_gets_a_daily_reminder_at_half_past_eight(seeded: Database) -> None:
    p = user_preferences
    assert count(seeded, p) == 1
    assert count(seeded, p, p.c.user_id == ME, p.c.freq == "daily", p.c.time == "08:30") == 1


# --- tasks ---------------------------------------------------------------------------------------


def test_tasks_mix_personal_and_group(seeded: Database) -> None:
    assert count(seeded, t, t.c.group_id.is_(None)) > 0
    assert count(seeded, t, t.c.group_id.is_not(None)) > 0


def test_due_dates_are_past_today_future_and_missing(seeded: Database) -> None:
    today = TODAY.isoformat()
    assert count(seeded, t, t.c.due_date < today) > 0
    assert count(seeded, t, t.c.due_date == today) > 0
    assert count(seeded, t, t.c.due_date > today) > 0
    assert count(seeded, t, t.c.due_date.is_(None)) > 0


def test_tasks_have_zero_one_and_many_assignees(seeded: Database) -> None:
    assert count(seeded, t, assignee_count == 0) > 0
    assert count(seeded, t, assignee_count == 1) > 0
    assert count(seeded, t, assignee_count > 1) > 0


def test_some_tasks_were_completed_within_24_hours_and_some_over_48_hours_ago(seeded: Database) -> None:
    assert count(seeded, t, t.c.completed == true(), t.c.completed_at >= NOW - timedelta(hours=24)) > 0
    assert count(seeded, t, t.c.completed == true(), t.c.completed_at < NOW - timedelta(hours=48)) > 0
    assert count(seeded, t, t.c.completed_at > NOW) == 0


def test_the_default_user_has_recently_completed_tasks_of_their_own(seeded: Database) -> None:
    mine = t.join(ta, and_(ta.c.task_id == t.c.id, ta.c.user_id == ME))
    assert count(seeded, mine, t.c.completed == true(), t.c.completed_at >= NOW - timedelta(hours=24)) > 0


def test_every_completed_task_was_completed_by_one_of_its_assignees(seeded: Database) -> None:
    completer_assigned = select(ta.c.task_id).where(ta.c.task_id == t.c.id, ta.c.user_id == t.c.completed_by)
    done = t.c.completed == true()
    assert count(seeded, t, done, t.c.completed_by.is_(None)) == 0
    assert count(seeded, t, done, t.c.completed_at < t.c.created_at) == 0
    assert count(seeded, t, done, ~completer_assigned.exists()) == 0


def test_open_tasks_have_no_completion_fields(seeded: Database) -> None:
    open_ = t.c.completed != true()
    assert count(seeded, t, open_) > 0
    assert count(seeded, t, open_, (t.c.completed_at.is_not(None)) | (t.c.completed_by.is_not(None))) == 0


def test_a_personal_task_is_assigned_to_its_creator_alone(seeded: Database) -> None:
    personal = t.c.group_id.is_(None)
    creator_assigned = select(ta.c.task_id).where(ta.c.task_id == t.c.id, ta.c.user_id == t.c.created_by)
    assert count(seeded, t, personal, assignee_count != 1) == 0
    assert count(seeded, t, personal, ~creator_assigned.exists()) == 0
    assert count(seeded, t, personal, t.c.completed == true(), t.c.completed_by != t.c.created_by) == 0


def test_group_tasks_are_created_by_and_assigned_to_active_members(seeded: Database) -> None:
    members = gm.c.group_id == t.c.group_id
    creator_member = select(gm.c.user_id).where(members, gm.c.user_id == t.c.created_by, gm.c.active == true())
    assert count(seeded, t, t.c.group_id.is_not(None), ~creator_member.exists()) == 0
    in_task_group = select(gm.c.user_id).where(
        gm.c.group_id == t.c.group_id, gm.c.user_id == ta.c.user_id, gm.c.active == true()
    )
    group_assignments = ta.join(t, and_(t.c.id == ta.c.task_id, t.c.group_id.is_not(None)))
    assert count(seeded, group_assignments) > 0
    assert count(seeded, group_assignments, ~in_task_group.exists()) == 0


def test_the_pending_group_and_the_group_without_the_default_user_have_tasks(seeded: Database) -> None:
    member_of = select(gm.c.group_id).where(gm.c.user_id == ME)
    gated = t.join(ag, ag.c.group_id == t.c.group_id)
    assert count(seeded, gated, ag.c.status == "pending") > 0
    assert count(seeded, gated, ag.c.status == "allowed", t.c.group_id.not_in(member_of)) > 0
