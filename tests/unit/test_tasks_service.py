"""Task use cases over a real database (seed sections 3-4, SPEC sections 3, 4, 6)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from taskcore.access import GatingMode
from taskcore.errors import Conflict, Forbidden, InvalidDescription, NotFound
from taskcore.services import task_lists
from taskcore.services import tasks as svc
from taskcore.services.task_lists import MyTasksQuery
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, TODAY, make_group, make_task

ALICE, BOB, CAROL = "111", "222", "333"
OFF, ENFORCE = GatingMode.OFF, GatingMode.ENFORCE


def ids(page: object) -> list[int]:
    return [task.id for task in page.items]  # type: ignore[attr-defined]


def mine(db: Database, user: str = ALICE, mode: GatingMode = ENFORCE, **query: object) -> object:
    return units.look(db, task_lists.list_my_tasks, mode, user_id=user, query=MyTasksQuery(**query),  # type: ignore[arg-type]
                      today=TODAY, now=NOW)


class TestCreate:
    def test_a_group_task_is_assigned_to_the_mentioned_users(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        task = make_task(db, creator=ALICE, assignees=(BOB, CAROL, BOB))
        assert [p.id for p in task.assignees] == [BOB, CAROL]
        assert task.group_name == "Grupo 100@g.us"

    def test_a_group_task_without_mentions_is_unassigned(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        assert make_task(db, creator=ALICE).assignees == ()

    def test_a_personal_task_is_assigned_to_its_creator(self, db: Database) -> None:
        task = make_task(db, creator=ALICE, group_id=None, assignees=(BOB,))
        assert [p.id for p in task.assignees] == [ALICE]
        assert task.group_id is None

    def test_the_description_is_sanitised_and_the_due_date_stored(self, db: Database) -> None:
        task = make_task(db, group_id=None, description="  <b>Pan</b>\n y leche ", due="2026-12-01")
        assert task.description == "Pan y leche"
        assert task.due_date == date(2026, 12, 1)
        assert not task.completed

    def test_an_empty_description_creates_nothing(self, db: Database) -> None:
        with pytest.raises(InvalidDescription):
            make_task(db, group_id=None, description="<br>")
        assert mine(db).total == 0  # type: ignore[attr-defined]


class TestMyTasks:
    def test_open_tasks_are_ordered_by_due_date_with_null_last(self, db: Database) -> None:
        a = make_task(db, group_id=None, due=None)
        b = make_task(db, group_id=None, due="2026-12-05")
        c = make_task(db, group_id=None, due="2026-11-01")
        assert ids(mine(db)) == [c.id, b.id, a.id]

    def test_mine_means_assigned_to_me_or_personal_and_created_by_me(self, db: Database) -> None:
        make_group(db, members=(ALICE, BOB))
        assigned = make_task(db, creator=BOB, assignees=(ALICE,))
        make_task(db, creator=ALICE)  # group task created by me but not assigned: not mine
        personal = make_task(db, creator=ALICE, group_id=None)
        make_task(db, creator=BOB, group_id=None)
        assert sorted(ids(mine(db))) == sorted([assigned.id, personal.id])

    def test_group_tasks_need_an_allowed_group_and_an_active_membership(self, db: Database) -> None:
        make_group(db, "1@g.us", status="allowed", members=(ALICE,))
        make_group(db, "2@g.us", status="pending", members=(ALICE,))
        make_group(db, "3@g.us", status="allowed", inactive=(ALICE,))
        make_group(db, "4@g.us", status="blocked", members=(ALICE,))
        visible = make_task(db, creator=BOB, group_id="1@g.us", assignees=(ALICE,))
        for group in ("2@g.us", "3@g.us", "4@g.us"):
            make_task(db, creator=BOB, group_id=group, assignees=(ALICE,))
        assert ids(mine(db, mode=ENFORCE)) == [visible.id]
        assert len(ids(mine(db, mode=OFF))) == 3  # off: every group allowed, membership still needed

    def test_pages_report_total_and_has_more(self, db: Database) -> None:
        for day in range(1, 6):
            make_task(db, group_id=None, due=f"2026-12-0{day}")
        first = mine(db, page=1, limit=2)
        last = mine(db, page=3, limit=2)
        assert (first.total, first.has_more, len(first.items)) == (5, True, 2)  # type: ignore[attr-defined]
        assert (last.has_more, len(last.items)) == (False, 1)  # type: ignore[attr-defined]

    def test_search_matches_wildcards_literally_and_ignores_ascii_case(self, db: Database) -> None:
        hit = make_task(db, group_id=None, description="Subir 100% del PRESUPUESTO_2026")
        make_task(db, group_id=None, description="Subir 1000 del presupuesto 2026")
        assert ids(mine(db, search="100%")) == [hit.id]
        assert ids(mine(db, search="presupuesto_")) == [hit.id]

    def test_search_folds_only_ascii_letters_on_every_database(self, db: Database) -> None:
        ecole = make_task(db, group_id=None, description="école de PAN")
        assert ids(mine(db, search="pan")) == [ecole.id]
        assert ids(mine(db, search="ÉCOLE")) == []

    def test_due_before_keeps_dated_tasks_on_or_before_it(self, db: Database) -> None:
        on = make_task(db, group_id=None, due="2026-12-01")
        make_task(db, group_id=None, due="2026-12-02")
        make_task(db, group_id=None)
        assert ids(mine(db, due_before=date(2026, 12, 1))) == [on.id]

    def test_soon_days_includes_overdue_and_excludes_undated(self, db: Database) -> None:
        overdue = make_task(db, group_id=None, due="2026-01-01")
        soon = make_task(db, group_id=None, due=(TODAY + timedelta(days=3)).isoformat())
        make_task(db, group_id=None, due=(TODAY + timedelta(days=4)).isoformat())
        make_task(db, group_id=None)
        assert ids(mine(db, soon_days=3)) == [overdue.id, soon.id]

    def test_recent_lists_my_completions_of_the_last_24_hours_newest_first(self, db: Database) -> None:
        old, mid, new = (make_task(db, group_id=None) for _ in range(3))
        units.run(db, svc.complete_task, OFF, user_id=ALICE, task_id=old.id, now=NOW - timedelta(hours=25))
        units.run(db, svc.complete_task, OFF, user_id=ALICE, task_id=mid.id, now=NOW - timedelta(hours=5))
        units.run(db, svc.complete_task, OFF, user_id=ALICE, task_id=new.id, now=NOW - timedelta(hours=1))
        page = mine(db, status="recent")
        assert ids(page) == [new.id, mid.id]
        assert all(t.completed and t.completed_at for t in page.items)  # type: ignore[attr-defined]


class TestGroups:
    def test_my_groups_lists_allowed_active_memberships_with_counts(self, db: Database) -> None:
        make_group(db, "1@g.us", name="B grupo", members=(ALICE,))
        make_group(db, "2@g.us", name="A grupo", members=(ALICE,))
        make_group(db, "3@g.us", name="C pendiente", status="pending", members=(ALICE,))
        make_task(db, creator=ALICE, group_id="1@g.us", assignees=(ALICE,))
        make_task(db, creator=ALICE, group_id="1@g.us")
        done = make_task(db, creator=ALICE, group_id="1@g.us")
        units.run(db, svc.complete_task, ENFORCE, user_id=ALICE, task_id=done.id, now=NOW)
        groups = units.look(db, task_lists.list_my_groups, ENFORCE, user_id=ALICE)
        assert [(g.name, g.open, g.unassigned) for g in groups] == [("A grupo", 0, 0), ("B grupo", 2, 1)]

    def test_group_tasks_come_unassigned_first_when_asked(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        taken = make_task(db, creator=ALICE, due="2026-11-01", assignees=(ALICE,))
        free = make_task(db, creator=ALICE, due="2026-12-01")
        plain = units.look(db, task_lists.list_group_tasks, ENFORCE, user_id=ALICE, group_id="100@g.us")
        first = units.look(db, task_lists.list_group_tasks, ENFORCE, user_id=ALICE, group_id="100@g.us",
                           unassigned_first=True)
        only = units.look(db, task_lists.list_group_tasks, ENFORCE, user_id=ALICE, group_id="100@g.us",
                          only_unassigned=True)
        assert (ids(plain), ids(first), ids(only)) == ([taken.id, free.id], [free.id, taken.id], [free.id])

    def test_group_tasks_respect_the_limit(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        for _ in range(3):
            make_task(db, creator=ALICE)
        page = units.look(db, task_lists.list_group_tasks, ENFORCE, user_id=ALICE, group_id="100@g.us", limit=2)
        assert (len(page.items), page.total, page.has_more) == (2, 3, True)

    @pytest.mark.parametrize(("status", "members"), [("pending", (ALICE,)), ("allowed", ()), (None, (ALICE,))])
    def test_group_tasks_are_forbidden_without_gating(self, db: Database, status: str | None,
                                                      members: tuple[str, ...]) -> None:
        make_group(db, status=status, members=members)
        with pytest.raises(Forbidden):
            units.look(db, task_lists.list_group_tasks, ENFORCE, user_id=ALICE, group_id="100@g.us")


class TestChanges:
    def test_claim_adds_the_user_once(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        task = make_task(db, creator=ALICE)
        units.run(db, svc.claim_task, ENFORCE, user_id=ALICE, task_id=task.id, now=NOW)
        again = units.run(db, svc.claim_task, ENFORCE, user_id=ALICE, task_id=task.id, now=NOW)
        assert [p.id for p in again.assignees] == [ALICE]

    def test_unassign_is_idempotent(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        task = make_task(db, creator=ALICE, assignees=(ALICE, BOB))
        units.run(db, svc.unassign_task, ENFORCE, user_id=ALICE, task_id=task.id)
        again = units.run(db, svc.unassign_task, ENFORCE, user_id=ALICE, task_id=task.id)
        assert [p.id for p in again.assignees] == [BOB]

    def test_completing_an_unassigned_group_task_assigns_the_completer(self, db: Database) -> None:
        make_group(db, members=(ALICE,))
        task = make_task(db, creator=ALICE)
        done = units.run(db, svc.complete_task, ENFORCE, user_id=ALICE, task_id=task.id, now=NOW)
        assert done.newly_completed
        assert (done.task.completed, done.task.completed_by, done.task.completed_at) == (True, ALICE, NOW)
        assert [p.id for p in done.task.assignees] == [ALICE]

    def test_completing_twice_is_idempotent(self, db: Database) -> None:
        make_group(db, members=(ALICE, BOB))
        task = make_task(db, creator=ALICE, assignees=(BOB,))
        units.run(db, svc.complete_task, ENFORCE, user_id=ALICE, task_id=task.id, now=NOW)
        again = units.run(db, svc.complete_task, ENFORCE, user_id=BOB, task_id=task.id, now=NOW + timedelta(hours=1))
        assert not again.newly_completed
        assert (again.task.completed_by, again.task.completed_at) == (ALICE, NOW)
        assert [p.id for p in again.task.assignees] == [BOB]

    def test_only_an_assignee_completes_a_personal_task(self, db: Database) -> None:
        task = make_task(db, creator=ALICE, group_id=None)
        units.run(db, svc.unassign_task, OFF, user_id=ALICE, task_id=task.id)
        with pytest.raises(Forbidden):
            units.run(db, svc.complete_task, OFF, user_id=ALICE, task_id=task.id, now=NOW)

    @pytest.mark.parametrize("action", ["claim", "unassign", "complete", "edit"])
    def test_another_users_personal_task_is_not_found(self, db: Database, action: str) -> None:
        task = make_task(db, creator=ALICE, group_id=None)
        with pytest.raises(NotFound):
            _act(db, action, BOB, task.id)

    @pytest.mark.parametrize("action", ["claim", "unassign", "complete", "edit"])
    def test_a_task_of_a_group_the_user_left_is_not_found(self, db: Database, action: str) -> None:
        make_group(db, members=(BOB,), inactive=(ALICE,))
        task = make_task(db, creator=BOB)
        with pytest.raises(NotFound):
            _act(db, action, ALICE, task.id)

    def test_a_missing_task_is_not_found(self, db: Database) -> None:
        with pytest.raises(NotFound):
            units.run(db, svc.claim_task, OFF, user_id=ALICE, task_id=999, now=NOW)

    @pytest.mark.parametrize("action", ["claim", "unassign", "edit"])
    def test_changes_to_a_completed_task_conflict(self, db: Database, action: str) -> None:
        make_group(db, members=(ALICE,))
        task = make_task(db, creator=ALICE)
        units.run(db, svc.complete_task, ENFORCE, user_id=ALICE, task_id=task.id, now=NOW)
        with pytest.raises(Conflict):
            _act(db, action, ALICE, task.id)

    def test_edit_sets_and_clears_the_due_date_and_keeps_what_is_not_sent(self, db: Database) -> None:
        task = make_task(db, group_id=None, description="Pan")
        dated = units.run(db, svc.edit_task, OFF, user_id=ALICE, task_id=task.id, due=date(2026, 12, 24))
        cleared = units.run(db, svc.edit_task, OFF, user_id=ALICE, task_id=task.id, due=None, description=" Leche ")
        assert (dated.due_date, dated.description) == (date(2026, 12, 24), "Pan")
        assert (cleared.due_date, cleared.description) == (None, "Leche")

    def test_edit_with_a_bad_description_changes_nothing(self, db: Database) -> None:
        task = make_task(db, group_id=None, description="Pan")
        with pytest.raises(InvalidDescription):
            units.run(db, svc.edit_task, OFF, user_id=ALICE, task_id=task.id, description=" ")
        assert units.look(db, svc.get_task, OFF, user_id=ALICE, task_id=task.id).description == "Pan"


def _act(db: Database, action: str, user: str, task_id: int) -> None:
    if action == "claim":
        units.run(db, svc.claim_task, ENFORCE, user_id=user, task_id=task_id, now=NOW)
    elif action == "unassign":
        units.run(db, svc.unassign_task, ENFORCE, user_id=user, task_id=task_id)
    elif action == "complete":
        units.run(db, svc.complete_task, ENFORCE, user_id=user, task_id=task_id, now=NOW)
    else:
        units.run(db, svc.edit_task, ENFORCE, user_id=user, task_id=task_id, description="x")
