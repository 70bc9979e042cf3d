"""Recurring tasks through the task use cases (SPEC section 20): a series is created, each completion creates the
next occurrence in the same transaction, turns rotate, and a series ends."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from taskcore import parse_recurrence
from taskcore.access import GatingMode
from taskcore.completion import CompletionMode
from taskcore.errors import Conflict, InvalidRecurrence
from taskcore.model import Task
from taskcore.services import task_lists
from taskcore.services import tasks as svc
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.identities import record_alias
from taskcore.storage.tasks import load_tasks
from taskcore.storage.users import ensure_users
from tasksvc_run import units
from tests.builders import NOW, TODAY, make_group

ALICE, BOB, CAROL = "111", "222", "333"
OFF = GatingMode.OFF
SUNDAY = TODAY  # 2026-11-22
MONDAY_AND_THURSDAY = parse_recurrence("cada lunes y jueves")


def create(db: Database, *, rule: str = "cada lunes y jueves", due: date | None = None, group: str | None = "100@g.us",
           assignees: tuple[str, ...] = (), rotation: tuple[str, ...] = (), today: date = SUNDAY) -> Task:
    with db.write() as conn:
        ensure_users(conn, [ALICE, BOB, CAROL], NOW)
    created = units.run(db, svc.create_task, creator=ALICE, description="Sacar la basura", group_id=group, due=due,
                        assignees=assignees, now=NOW, recurrence=parse_recurrence(rule), rotation=rotation,
                        today=today)
    return read(db, created.id)


def read(db: Database, task_id: int) -> Task:
    with db.read() as conn:
        return load_tasks(conn, [task_id])[0]


def complete(db: Database, task_id: int, *, by: str = ALICE, today: date = SUNDAY) -> Any:
    return units.run(db, svc.complete_task, OFF, user_id=by, task_id=task_id, now=NOW, today=today)


@pytest.fixture
def group(db: Database) -> str:
    return make_group(db, members=(ALICE, BOB, CAROL))


class TestCreate:
    def test_without_a_date_the_first_occurrence_is_the_first_of_the_series_from_today(
        self, db: Database, group: str
    ) -> None:
        task = create(db)
        assert task.due_date == date(2026, 11, 23)
        assert task.recurrence is not None
        assert (task.recurrence.rule, task.recurrence.text) == ("FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves")

    def test_a_given_date_is_the_first_occurrence_and_the_rule_is_pinned_to_it(self, db: Database, group: str) -> None:
        task = create(db, rule="cada semana", due=date(2026, 12, 2))
        assert task.due_date == date(2026, 12, 2)
        assert task.recurrence is not None
        assert task.recurrence.rule == "FREQ=WEEKLY;BYDAY=WE"

    def test_the_creators_today_decides_the_first_date(self, db: Database, group: str) -> None:
        assert create(db, rule="cada día", today=date(2026, 11, 21)).due_date == date(2026, 11, 21)

    def test_with_turns_the_first_person_has_the_first_occurrence(self, db: Database, group: str) -> None:
        task = create(db, assignees=(BOB, CAROL), rotation=(BOB, CAROL))
        assert [p.id for p in task.assignees] == [BOB]
        assert task.recurrence is not None
        assert (task.recurrence.rotation, task.recurrence.turn) == ((BOB, CAROL), 0)

    @pytest.mark.parametrize(("group_id", "rotation"), [("100@g.us", (BOB,)), ("100@g.us", (BOB, BOB)),
                                                         (None, (BOB, CAROL))])
    def test_turns_need_a_group_and_two_people(
        self, db: Database, group: str, group_id: str | None, rotation: tuple[str, ...]
    ) -> None:
        with pytest.raises(InvalidRecurrence, match="turnos"):
            create(db, group=group_id, rotation=rotation)
        with db.read() as conn:
            assert conn.execute(schema.tasks.select()).first() is None


class TestComplete:
    def test_completing_creates_the_next_occurrence_with_the_same_description_group_and_assignees(
        self, db: Database, group: str
    ) -> None:
        first = create(db, assignees=(BOB, CAROL))
        done = complete(db, first.id, by=BOB, today=date(2026, 11, 23))
        assert done.newly_completed
        following = done.next_task
        assert following is not None
        assert following.id != first.id
        assert (following.description, following.group_id, following.created_by) == (
            "Sacar la basura", group, ALICE)
        assert following.due_date == date(2026, 11, 26)
        assert [p.id for p in following.assignees] == [BOB, CAROL]
        assert not following.completed
        assert following.recurrence == first.recurrence
        assert read(db, following.id) == following

    def test_an_unassigned_chore_stays_unassigned_though_its_completer_was_assigned(
        self, db: Database, group: str
    ) -> None:
        first = create(db)
        done = complete(db, first.id, by=CAROL)
        assert [p.id for p in done.task.assignees] == [CAROL]
        assert done.next_task is not None
        assert done.next_task.assignees == ()

    def test_missed_dates_are_skipped(self, db: Database, group: str) -> None:
        first = create(db)  # due Monday 23/11
        done = complete(db, first.id, today=date(2026, 12, 15))
        assert done.next_task is not None
        assert done.next_task.due_date == date(2026, 12, 17)

    def test_an_occurrence_without_a_date_counts_as_due_the_day_it_is_completed(
        self, db: Database, group: str
    ) -> None:
        first = create(db)
        units.run(db, svc.edit_task, OFF, user_id=ALICE, task_id=first.id, due=None)
        done = complete(db, first.id, today=date(2026, 11, 30))
        assert done.next_task is not None
        assert done.next_task.due_date == date(2026, 12, 3)

    def test_completing_again_creates_nothing_more(self, db: Database, group: str) -> None:
        first = create(db)
        complete(db, first.id)
        again = complete(db, first.id)
        assert not again.newly_completed
        assert again.next_task is None
        with db.read() as conn:
            assert len(conn.execute(schema.tasks.select()).all()) == 2

    def test_a_personal_chore_repeats_for_its_creator(self, db: Database) -> None:
        first = create(db, rule="cada día", group=None)
        done = complete(db, first.id)
        assert done.next_task is not None
        assert (done.next_task.group_id, [p.id for p in done.next_task.assignees]) == (None, [ALICE])
        assert done.next_task.due_date == date(2026, 11, 23)

    def test_a_task_that_does_not_repeat_has_no_next(self, db: Database, group: str) -> None:
        created = units.run(db, svc.create_task, creator=ALICE, description="Una vez", group_id=group, now=NOW)
        assert complete(db, created.id).next_task is None

    def test_a_series_whose_rule_has_ended_creates_nothing(self, db: Database, group: str) -> None:
        first = create(db, rule="cada día")
        with db.write() as conn:
            conn.execute(schema.tasks.update().values(recurrence_rule="FREQ=DAILY;COUNT=1"))
        assert complete(db, first.id).next_task is None


class TestTurns:
    def test_each_completion_passes_the_task_to_the_next_person_in_order(self, db: Database, group: str) -> None:
        task = create(db, assignees=(BOB, CAROL, ALICE), rotation=(BOB, CAROL, ALICE))
        seen = [task.assignees[0].id]
        for _ in range(4):
            following = complete(db, task.id).next_task
            assert following is not None
            seen.append(following.assignees[0].id)
            task = following
        assert seen == [BOB, CAROL, ALICE, BOB, CAROL]

    def test_a_person_whose_lid_user_became_their_phone_user_keeps_their_turn(
        self, db: Database, group: str
    ) -> None:
        lid, phone = "198765432100001", "34600111222"
        with db.write() as conn:
            ensure_users(conn, [lid, phone], NOW)
        task = create(db, assignees=(BOB, lid), rotation=(BOB, lid))
        with db.write() as conn:
            conn.execute(schema.users.delete().where(schema.users.c.id == lid))
            record_alias(conn, lid, phone, NOW)
        following = complete(db, task.id).next_task
        assert following is not None
        assert [p.id for p in following.assignees] == [phone]

    def test_a_person_nobody_knows_any_more_leaves_the_turn_unassigned(self, db: Database, group: str) -> None:
        with db.write() as conn:
            ensure_users(conn, ["999"], NOW)
        task = create(db, assignees=(BOB, "999"), rotation=(BOB, "999"))
        with db.write() as conn:
            conn.execute(schema.users.delete().where(schema.users.c.id == "999"))
        following = complete(db, task.id).next_task
        assert following is not None
        assert following.assignees == ()


class TestEnd:
    def test_a_null_recurrence_ends_the_series_and_the_occurrence_stays_open(self, db: Database, group: str) -> None:
        task = create(db)
        stopped = units.run(db, svc.edit_task, OFF, user_id=ALICE, task_id=task.id, recurrence=None)
        assert stopped.recurrence is None
        assert not stopped.completed
        assert complete(db, task.id).next_task is None

    def test_a_completed_occurrence_cannot_be_changed(self, db: Database, group: str) -> None:
        task = create(db)
        complete(db, task.id)
        with pytest.raises(Conflict):
            units.run(db, svc.edit_task, OFF, user_id=ALICE, task_id=task.id, recurrence=None)


def test_the_lists_show_the_recurrence(db: Database, group: str) -> None:
    task = create(db, assignees=(ALICE,))
    page = units.look(db, task_lists.list_my_tasks, OFF, user_id=ALICE, query=task_lists.MyTasksQuery(), today=TODAY,
                      now=NOW)
    assert [t.recurrence for t in page.items] == [task.recurrence]
    in_group = units.look(db, task_lists.list_group_tasks, OFF, user_id=ALICE, group_id=group)
    assert [t.recurrence for t in in_group.items] == [task.recurrence]
    assert TODAY + timedelta(days=1) == task.due_date


class TestSharedAndRecurring:
    """A chore for everyone that repeats (SPEC sections 19 and 20 together)."""

    def make(self, db: Database) -> Task:
        with db.write() as conn:
            ensure_users(conn, [ALICE, BOB, CAROL], NOW)
        created = units.run(db, svc.create_task, creator=ALICE, description="Enviar la hoja de gastos",
                            group_id="100@g.us",
                            assignees=(ALICE, BOB), completion=CompletionMode.EACH, now=NOW,
                            recurrence=parse_recurrence("cada lunes"), today=SUNDAY)
        return read(db, created.id)

    def test_a_part_done_creates_no_occurrence_and_the_last_part_creates_one_with_every_part_open(
        self, db: Database, group: str
    ) -> None:
        task = self.make(db)
        first = complete(db, task.id, by=ALICE)
        assert (first.newly_completed, first.part_done, first.next_task) == (False, True, None)
        last = complete(db, task.id, by=BOB)
        assert last.newly_completed
        following = last.next_task
        assert following is not None
        assert following.completion is CompletionMode.EACH
        assert following.due_date == date(2026, 11, 30)
        assert [(p.id, p.done) for p in following.assignees] == [(ALICE, False), (BOB, False)]

    def test_an_unassign_that_leaves_only_done_parts_completes_it_and_the_series_goes_on(
        self, db: Database, group: str
    ) -> None:
        task = self.make(db)
        complete(db, task.id, by=ALICE)
        after = units.run(db, svc.unassign_task, OFF, user_id=BOB, task_id=task.id, now=NOW)
        assert after.completed
        with db.read() as conn:
            newest = conn.execute(schema.tasks.select().order_by(schema.tasks.c.id.desc())).first()
        assert newest is not None
        assert newest.id != task.id
        assert (newest.completed, newest.completion, newest.due_date) == (False, "each", "2026-11-30")
