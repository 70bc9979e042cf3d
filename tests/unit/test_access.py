"""Who may see and act on a task; which groups the bot serves (SPEC sections 3 and 4)."""

import pytest

from taskcore.access import (
    Discovery,
    GatingMode,
    GroupFacts,
    GroupStatus,
    TaskAction,
    TaskFacts,
    can_see,
    check_action,
    completion_assigns_completer,
    discovery_for,
    effectively_allowed,
)
from taskcore.errors import Conflict, Forbidden, NotFound

ALICE, BOB = "111", "222"
MEMBER = GroupFacts(status=GroupStatus.ALLOWED, user_is_active_member=True)
OUTSIDER = GroupFacts(status=GroupStatus.ALLOWED, user_is_active_member=False)


def group_task(*, assignees: tuple[str, ...] = (), completed: bool = False) -> TaskFacts:
    return TaskFacts(group_id="1@g.us", created_by=BOB, assignees=frozenset(assignees), completed=completed)


def personal_task(*, created_by: str = ALICE, assignees: tuple[str, ...] = (ALICE,)) -> TaskFacts:
    return TaskFacts(group_id=None, created_by=created_by, assignees=frozenset(assignees), completed=False)


@pytest.mark.parametrize("status", [None, *GroupStatus])
def test_in_mode_off_every_group_is_effectively_allowed(status: GroupStatus | None) -> None:
    assert effectively_allowed(GatingMode.OFF, status)


@pytest.mark.parametrize("mode", [GatingMode.DISCOVER, GatingMode.ENFORCE])
def test_in_discover_and_enforce_only_allowed_counts(mode: GatingMode) -> None:
    assert effectively_allowed(mode, GroupStatus.ALLOWED)
    assert not effectively_allowed(mode, GroupStatus.PENDING)
    assert not effectively_allowed(mode, GroupStatus.BLOCKED)
    assert not effectively_allowed(mode, None)


def test_discover_records_an_unknown_group_as_pending() -> None:
    assert discovery_for(GatingMode.DISCOVER, None) is Discovery.RECORD_PENDING


def test_enforce_ignores_an_unknown_group() -> None:
    assert discovery_for(GatingMode.ENFORCE, None) is Discovery.IGNORE


def test_a_known_group_is_never_discovered_twice() -> None:
    assert discovery_for(GatingMode.DISCOVER, GroupStatus.BLOCKED) is Discovery.KNOWN


def test_an_active_member_of_an_allowed_group_sees_its_tasks() -> None:
    assert can_see(ALICE, group_task(), GatingMode.ENFORCE, MEMBER)


def test_a_non_member_does_not_see_group_tasks() -> None:
    assert not can_see(ALICE, group_task(), GatingMode.ENFORCE, OUTSIDER)


def test_a_member_of_a_pending_group_does_not_see_its_tasks_under_gating() -> None:
    pending = GroupFacts(status=GroupStatus.PENDING, user_is_active_member=True)
    assert not can_see(ALICE, group_task(), GatingMode.DISCOVER, pending)
    assert can_see(ALICE, group_task(), GatingMode.OFF, pending)


def test_personal_tasks_are_seen_by_creator_and_assignees_only() -> None:
    task = personal_task(created_by=ALICE, assignees=(BOB,))
    assert can_see(ALICE, task, GatingMode.OFF, None)
    assert can_see(BOB, task, GatingMode.OFF, None)
    assert not can_see("333", task, GatingMode.OFF, None)


@pytest.mark.parametrize("action", list(TaskAction))
def test_another_users_personal_task_does_not_exist_for_any_action(action: TaskAction) -> None:
    with pytest.raises(NotFound):
        check_action(action, BOB, personal_task(), GatingMode.OFF, None)


@pytest.mark.parametrize("action", [TaskAction.CLAIM, TaskAction.UNASSIGN, TaskAction.EDIT])
def test_changes_other_than_complete_need_an_open_task(action: TaskAction) -> None:
    with pytest.raises(Conflict):
        check_action(action, ALICE, group_task(completed=True), GatingMode.OFF, MEMBER)


def test_completing_a_completed_task_again_is_allowed() -> None:
    check_action(TaskAction.COMPLETE, ALICE, group_task(completed=True), GatingMode.OFF, MEMBER)


def test_any_active_member_may_complete_a_group_task() -> None:
    check_action(TaskAction.COMPLETE, ALICE, group_task(assignees=(BOB,)), GatingMode.ENFORCE, MEMBER)


def test_only_an_assignee_may_complete_a_personal_task() -> None:
    creator_not_assigned = personal_task(created_by=ALICE, assignees=(BOB,))
    with pytest.raises(Forbidden):
        check_action(TaskAction.COMPLETE, ALICE, creator_not_assigned, GatingMode.OFF, None)
    check_action(TaskAction.COMPLETE, BOB, creator_not_assigned, GatingMode.OFF, None)


def test_a_group_task_without_assignees_gets_its_completer_assigned() -> None:
    assert completion_assigns_completer(group_task())
    assert not completion_assigns_completer(group_task(assignees=(BOB,)))
    assert not completion_assigns_completer(personal_task(assignees=()))
