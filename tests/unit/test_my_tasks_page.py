"""The page of "my tasks" is read in one statement: each task once, whole, with every assignee (SPEC section 6)."""

from __future__ import annotations

from datetime import timedelta

from taskcore.access import GatingMode
from taskcore.model import Origin, Task
from taskcore.pagination import Page
from taskcore.services import task_lists
from taskcore.services import tasks as svc
from taskcore.services.task_lists import MyTasksQuery
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, TODAY, make_group, make_task

ALICE, BOB, CAROL = "111", "222", "333"
ENFORCE = GatingMode.ENFORCE


def mine(db: Database, user: str = ALICE, **query: object) -> Page[Task]:
    return units.look(db, task_lists.list_my_tasks, ENFORCE, user_id=user, query=MyTasksQuery(**query),  # type: ignore[arg-type]
                             today=TODAY, now=NOW)


def test_each_listed_task_carries_every_assignee_in_the_order_they_were_assigned(db: Database) -> None:
    make_group(db, members=(ALICE, BOB, CAROL))
    shared = make_task(db, creator=BOB, assignees=(CAROL,), due="2026-12-01")
    for minutes, user in ((1, ALICE), (2, BOB)):
        units.run(db, svc.claim_task, ENFORCE, user_id=user, task_id=shared.id, now=NOW + timedelta(minutes=minutes))
    alone = make_task(db, creator=BOB, assignees=(ALICE,), due="2026-12-02")
    page = mine(db)
    assert [task.id for task in page.items] == [shared.id, alone.id]
    assert [[person.id for person in task.assignees] for task in page.items] == [[CAROL, ALICE, BOB], [ALICE]]


def test_a_listed_task_is_the_same_as_the_task_read_by_id(db: Database) -> None:
    make_group(db, members=(ALICE, BOB))
    origin = Origin("100@g.us", "MSG1", f"{BOB}@s.whatsapp.net", NOW - timedelta(seconds=3))
    task = units.run(db, svc.create_task, creator=BOB, description="Regar las plantas", group_id="100@g.us",
                     due=TODAY + timedelta(days=2), assignees=(ALICE, BOB), origin=origin, now=NOW)
    listed = mine(db).items[0]
    read = units.look(db, svc.get_task, ENFORCE, user_id=ALICE, task_id=task.id)
    assert listed == read
    assert (listed.origin, listed.created_at, listed.group_name) == (read.origin, read.created_at, read.group_name)


def test_a_recently_completed_task_is_listed_whole(db: Database) -> None:
    task = make_task(db, creator=ALICE, group_id=None)
    done = units.run(db, svc.complete_task, ENFORCE, user_id=ALICE, task_id=task.id, now=NOW - timedelta(hours=1)).task
    listed = mine(db, status="recent").items
    assert listed == [done]
    assert listed[0].completed_at == NOW - timedelta(hours=1)


def test_a_personal_task_its_creator_is_assigned_to_is_listed_once(db: Database) -> None:
    personal = make_task(db, creator=ALICE, group_id=None)
    page = mine(db)
    assert ([task.id for task in page.items], page.total) == ([personal.id], 1)


def test_a_personal_task_its_creator_unassigned_is_still_theirs(db: Database) -> None:
    personal = make_task(db, creator=ALICE, group_id=None)
    units.run(db, svc.unassign_task, ENFORCE, user_id=ALICE, task_id=personal.id)
    page = mine(db)
    assert ([task.id for task in page.items], page.total) == ([personal.id], 1)
    assert page.items[0].assignees == ()


def test_a_page_past_the_end_is_empty_and_still_reports_the_total(db: Database) -> None:
    for _ in range(3):
        make_task(db, creator=ALICE, group_id=None)
    page = mine(db, page=5, limit=2)
    assert (list(page.items), page.total, page.has_more) == ([], 3, False)
