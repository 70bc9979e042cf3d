"""Shared tasks (SPEC section 19): one completion for all, or each assignee their part, through the use cases."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from taskcore.access import GatingMode
from taskcore.completion import CompletionMode, InvalidCompletion, every_part_done, parse_mode_word, progress
from taskcore.errors import Conflict, Forbidden
from taskcore.model import Completion
from taskcore.reminders.digest import digest_until
from taskcore.services import tasks as svc
from taskcore.storage.db import Database
from taskcore.storage.reminders import digest_tasks
from tasksvc_run import units
from tests.builders import NOW, TODAY, make_group, make_task

ANA, BEA, CAROL, DANI = "111", "222", "333", "444"
MODE = GatingMode.ENFORCE
LATER = NOW + timedelta(hours=1)


@pytest.fixture
def shared(db: Database) -> int:
    """A group task for Ana, Bea and Carol, done by each; Dani is a member who is not assigned."""
    make_group(db, members=(ANA, BEA, CAROL, DANI))
    return make_task(db, creator=DANI, assignees=(ANA, BEA, CAROL), each=True, due="2026-11-25").id


def complete(db: Database, user: str, task_id: int, now: datetime = NOW) -> Completion:
    return units.run(db, svc.complete_task, MODE, user_id=user, task_id=task_id, now=now)


class TestEach:
    def test_a_new_shared_task_has_every_part_pending(self, db: Database, shared: int) -> None:
        task = units.look(db, svc.get_task, MODE, user_id=DANI, task_id=shared)
        assert (task.completion, task.progress) == (CompletionMode.EACH, (0, 3))
        assert [p.done for p in task.assignees] == [False, False, False]

    def test_an_assignee_completes_their_part_and_the_task_stays_open(self, db: Database, shared: int) -> None:
        done = complete(db, ANA, shared)
        assert (done.part_done, done.newly_completed, done.task.completed) == (True, False, False)
        assert done.task.progress == (1, 3)
        part = done.task.part_of(ANA)
        assert part is not None
        assert part.done_at == NOW

    def test_completing_ones_part_twice_changes_nothing(self, db: Database, shared: int) -> None:
        complete(db, ANA, shared)
        again = complete(db, ANA, shared, LATER)
        assert (again.part_done, again.newly_completed, again.task.progress) == (False, False, (1, 3))
        part = again.task.part_of(ANA)
        assert part is not None
        assert part.done_at == NOW

    def test_the_last_part_completes_the_task_as_the_seed_does(self, db: Database, shared: int) -> None:
        complete(db, ANA, shared)
        complete(db, BEA, shared)
        last = complete(db, CAROL, shared, LATER)
        assert (last.part_done, last.newly_completed) == (True, True)
        assert (last.task.completed, last.task.completed_at, last.task.completed_by) == (True, LATER, CAROL)
        assert complete(db, ANA, shared).newly_completed is False  # idempotent once completed

    def test_a_member_who_is_not_an_assignee_cannot_complete_it(self, db: Database, shared: int) -> None:
        with pytest.raises(Forbidden):
            complete(db, DANI, shared)

    def test_without_assignees_the_completer_takes_the_one_part_and_completes_it(self, db: Database) -> None:
        make_group(db, members=(ANA,))
        task = make_task(db, creator=ANA, each=True)
        done = complete(db, ANA, task.id)
        assert (done.newly_completed, [p.id for p in done.task.assignees]) == (True, [ANA])

    def test_claiming_adds_a_pending_part(self, db: Database, shared: int) -> None:
        complete(db, ANA, shared)
        task = units.run(db, svc.claim_task, MODE, user_id=DANI, task_id=shared, now=NOW)
        assert task.progress == (1, 4)

    def test_unassigning_removes_that_part_and_completes_when_the_rest_are_done(
        self, db: Database, shared: int
    ) -> None:
        complete(db, ANA, shared, NOW)
        complete(db, BEA, shared, NOW + timedelta(minutes=5))
        task = units.run(db, svc.unassign_task, MODE, user_id=CAROL, task_id=shared, now=LATER)
        assert (task.completed, task.completed_at, task.completed_by) == (True, LATER, BEA)
        assert task.progress == (2, 2)

    def test_unassigning_with_parts_left_to_do_keeps_it_open(self, db: Database, shared: int) -> None:
        complete(db, ANA, shared)
        task = units.run(db, svc.unassign_task, MODE, user_id=CAROL, task_id=shared, now=LATER)
        assert (task.completed, task.progress) == (False, (1, 2))

    def test_without_a_time_the_completion_is_dated_by_the_last_part(self, db: Database, shared: int) -> None:
        complete(db, ANA, shared, NOW)
        complete(db, BEA, shared, NOW + timedelta(minutes=5))
        task = units.run(db, svc.unassign_task, MODE, user_id=CAROL, task_id=shared)
        assert task.completed_at == NOW + timedelta(minutes=5)

    def test_the_last_assignee_leaving_an_undone_task_leaves_it_open(self, db: Database) -> None:
        make_group(db, members=(ANA,))
        task = make_task(db, creator=ANA, assignees=(ANA,), each=True)
        left = units.run(db, svc.unassign_task, MODE, user_id=ANA, task_id=task.id, now=NOW)
        assert (left.completed, left.assignees) == (False, ())

    def test_the_digest_leaves_out_a_task_whose_part_the_user_has_done(self, db: Database, shared: int) -> None:
        complete(db, ANA, shared)
        with db.read() as conn:
            found = digest_tasks(conn, [ANA, BEA], MODE, until=digest_until(TODAY))
        assert ANA not in found
        assert [t.id for t in found[BEA]] == [shared]


class TestMode:
    def test_switching_to_each_makes_every_assignee_complete_their_part(self, db: Database) -> None:
        make_group(db, members=(ANA, BEA))
        task = make_task(db, creator=ANA, assignees=(ANA, BEA))
        switched = units.run(db, svc.edit_task, MODE, user_id=ANA, task_id=task.id, completion=CompletionMode.EACH)
        assert (switched.completion, switched.progress) == (CompletionMode.EACH, (0, 2))
        assert complete(db, ANA, task.id).task.completed is False

    def test_switching_back_to_any_forgets_the_parts_and_one_completion_closes_it(
        self, db: Database, shared: int
    ) -> None:
        complete(db, ANA, shared)
        switched = units.run(db, svc.edit_task, MODE, user_id=DANI, task_id=shared, completion=CompletionMode.ANY)
        assert (switched.completion, [p.done for p in switched.assignees]) == (CompletionMode.ANY, [False] * 3)
        assert complete(db, BEA, shared).newly_completed is True

    def test_a_personal_task_has_no_parts(self, db: Database) -> None:
        task = make_task(db, creator=ANA, group_id=None)
        with pytest.raises(InvalidCompletion):
            units.run(db, svc.edit_task, MODE, user_id=ANA, task_id=task.id, completion=CompletionMode.EACH)
        with pytest.raises(InvalidCompletion):
            make_task(db, creator=ANA, group_id=None, each=True)

    def test_a_completed_task_keeps_its_mode(self, db: Database) -> None:
        make_group(db, members=(ANA,))
        task = make_task(db, creator=ANA)
        complete(db, ANA, task.id)
        with pytest.raises(Conflict):
            units.run(db, svc.edit_task, MODE, user_id=ANA, task_id=task.id, completion=CompletionMode.EACH)


def test_mode_words_and_progress_are_pure_rules() -> None:
    assert parse_mode_word(" Todos ") is CompletionMode.EACH
    assert parse_mode_word("UNO") is CompletionMode.ANY
    with pytest.raises(InvalidCompletion):
        parse_mode_word("algunos")
    assert progress([NOW, None, NOW]) == (2, 3)
    assert (every_part_done([NOW, NOW]), every_part_done([NOW, None]), every_part_done([])) == (True, False, False)
