"""The reminder tick's queries: the preferences whose next look has come, their next plans; and the digests of
many users read at once (two statements per chunk), which say what the visibility rules say for each user alone:
their open dated tasks (assigned, or personal and theirs) in groups they see, and the unassigned tasks of those
groups (SPEC sections 3, 4 and 10)."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from taskcore.access import GatingMode
from taskcore.reminders.slots import SavedPreference
from taskcore.services import preferences
from taskcore.storage import reminders, schema
from taskcore.storage.db import Database
from taskcore.storage.reminders import DigestTask, digest_tasks, due_preferences, plan_next, unassigned_counts
from tasksvc_run import units
from tests.builders import NOW, TODAY, create_and_read, make_group

SAVED = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
UNTIL = TODAY + timedelta(days=7)
USERS = [f"3460000000{i}" for i in range(6)]


def world(db: Database, seed: int) -> dict[str, dict[str, object]]:
    """Groups of every status with active and inactive members, and tasks of every kind; returns a model of it."""
    rng = random.Random(seed)
    groups = {"1@g.us": "allowed", "2@g.us": "pending", "3@g.us": "blocked", "4@g.us": None}
    members: dict[str, set[str]] = {}
    for gid, status in groups.items():
        active = {u for u in USERS if rng.random() < 0.6}
        inactive = {u for u in USERS if u not in active and rng.random() < 0.5}
        make_group(db, gid, name=f"G{gid[0]}", status=status, members=tuple(sorted(active)),
                   inactive=tuple(sorted(inactive)))
        members[gid] = active
    tasks = []
    for n in range(40):
        group = rng.choice([None, *groups])
        due = rng.choice([None, TODAY - timedelta(days=3), TODAY, UNTIL, UNTIL + timedelta(days=1)])
        people = tuple(rng.sample(USERS, rng.choice([0, 0, 1, 2])))
        task = create_and_read(db, creator=rng.choice(USERS), description=f"t{n}", group_id=group, due=due,
                               assignees=people, now=NOW)
        done = rng.random() < 0.2
        if done:
            with db.write() as conn:
                conn.execute(schema.tasks.update().where(schema.tasks.c.id == task.id).values(
                    completed=True, completed_at=NOW, completed_by=task.created_by))
        tasks.append((task, done))
    return {"groups": groups, "members": members, "tasks": tasks}  # type: ignore[dict-item]


def sees_group(model: dict[str, object], mode: GatingMode, user: str, group: str) -> bool:
    statuses, members = model["groups"], model["members"]
    allowed = mode is GatingMode.OFF or statuses[group] == "allowed"  # type: ignore[index]
    return allowed and user in members[group]  # type: ignore[index]


def expected(model: dict[str, object], mode: GatingMode, user: str) -> tuple[list[DigestTask], int]:
    mine, unassigned = [], 0
    for task, done in model["tasks"]:  # type: ignore[attr-defined]
        if done:
            continue
        visible = task.group_id is None or sees_group(model, mode, user, task.group_id)
        ours = user in task.assignee_ids or (task.group_id is None and task.created_by == user)
        if visible and ours and task.due_date is not None and task.due_date <= UNTIL:
            mine.append(DigestTask(task.id, task.description, task.due_date, task.group_name))
        if task.group_id is not None and not task.assignees and sees_group(model, mode, user, task.group_id):
            unassigned += 1
    mine.sort(key=lambda t: (t.due_date or date.max, t.id))
    return mine, unassigned


@pytest.mark.parametrize("mode", list(GatingMode))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_users_digest_matches_the_rules_for_that_user_alone(db: Database, mode: GatingMode, seed: int) -> None:
    model = world(db, seed)
    with db.read() as conn:
        tasks = digest_tasks(conn, [*USERS, "nobody"], mode, until=UNTIL)
        counts = unassigned_counts(conn, [*USERS, "nobody"], mode)
    for user in USERS:
        mine, unassigned = expected(model, mode, user)
        assert (tasks.get(user, []), counts.get(user, 0)) == (mine, unassigned), user
    assert "nobody" not in tasks
    assert "nobody" not in counts


@pytest.mark.parametrize("mode", list(GatingMode))
@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_a_chunk_of_users_reads_as_each_user_read_alone(db: Database, mode: GatingMode, seed: int) -> None:
    world(db, seed)
    with db.read() as conn:
        tasks = digest_tasks(conn, USERS, mode, until=UNTIL)
        counts = unassigned_counts(conn, USERS, mode)
        alone = {user: (digest_tasks(conn, [user], mode, until=UNTIL).get(user, []),
                        unassigned_counts(conn, [user], mode).get(user, 0)) for user in USERS}
    assert {user: (tasks.get(user, []), counts.get(user, 0)) for user in USERS} == alone


@pytest.mark.parametrize("mode", list(GatingMode))
def test_more_users_than_one_statement_binds_read_as_one_chunk(db: Database, mode: GatingMode,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    world(db, 8)
    users = [*USERS, "nobody"]
    with db.read() as conn:
        whole = digest_tasks(conn, users, mode, until=UNTIL), unassigned_counts(conn, users, mode)
        monkeypatch.setattr(reminders, "_IN_MAX", 4)  # pieces of 4 and 3 (padded to 4)
        assert (digest_tasks(conn, users, mode, until=UNTIL), unassigned_counts(conn, users, mode)) == whole


def test_no_users_no_query(db: Database) -> None:
    with db.read() as conn:
        assert digest_tasks(conn, [], GatingMode.OFF, until=UNTIL) == {}
        assert unassigned_counts(conn, [], GatingMode.OFF) == {}


def test_only_preferences_whose_next_look_has_come_are_read_in_key_order(db: Database) -> None:
    for user, freq, minutes in [("3", "daily", 0), ("1", "daily", 0), ("2", "weekly", -5), ("4", "daily", 5),
                                ("5", "off", 0)]:
        units.run(db, preferences.set_preference, user_id=user, freq=freq, time="08:30",
                  now=SAVED + timedelta(minutes=minutes))
    with db.read() as conn:
        rows = due_preferences(conn, now=SAVED, after=None, limit=10)
        assert [row.user_id for row in rows] == ["2", "1", "3"]  # by next look, then user; off rows are never due
        assert rows[0] == SavedPreference("2", "weekly", "08:30", None, SAVED - timedelta(minutes=5),
                                          SAVED - timedelta(minutes=5))
        after = (rows[1].next_due_at, rows[1].user_id)
        assert [row.user_id for row in due_preferences(conn, now=SAVED, after=after, limit=10)] == ["3"]
        assert [row.user_id for row in due_preferences(conn, now=SAVED, after=None, limit=2)] == ["2", "1"]


def test_a_plan_is_stored_unless_the_row_was_saved_again_since_it_was_read(db: Database) -> None:
    units.run(db, preferences.set_preference, user_id="1", freq="daily", time="08:30", now=SAVED)
    units.run(db, preferences.set_preference, user_id="2", freq="daily", time="08:30", now=SAVED)
    with db.read() as conn:
        first, second = due_preferences(conn, now=SAVED, after=None, limit=10)
    units.run(db, preferences.set_preference, user_id="2", freq="daily", time="09:00", now=SAVED + timedelta(seconds=1))
    tomorrow = SAVED + timedelta(days=1)
    with db.write() as conn:
        plan_next(conn, [(first.user_id, first.updated_at, tomorrow), (second.user_id, second.updated_at, tomorrow)])
        plan_next(conn, [])
    with db.read() as conn:
        left = due_preferences(conn, now=SAVED + timedelta(seconds=1), after=None, limit=10)
    assert [(row.user_id, row.time) for row in left] == [("2", "09:00")]
