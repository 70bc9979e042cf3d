"""Who may see and act on a task, and which groups the bot serves (SPEC sections 3 and 4).

Pure decisions over plain values; the storage layer expresses the same rules in SQL.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from taskcore.errors import Conflict, Forbidden, NotFound


class GatingMode(StrEnum):
    """GROUP_GATING_MODE."""

    OFF = "off"
    DISCOVER = "discover"
    ENFORCE = "enforce"


class GroupStatus(StrEnum):
    """A group's stored access status."""

    PENDING = "pending"
    ALLOWED = "allowed"
    BLOCKED = "blocked"


class TaskAction(StrEnum):
    """What a user asks to do to a task."""

    VIEW = "view"
    CLAIM = "claim"
    UNASSIGN = "unassign"
    COMPLETE = "complete"
    EDIT = "edit"


class Discovery(StrEnum):
    """What to do with a group seen by a webhook or a sync."""

    KNOWN = "known"
    RECORD_PENDING = "record_pending"
    IGNORE = "ignore"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class TaskFacts:
    """What the rules need to know about a task."""

    group_id: str | None
    created_by: str
    assignees: Collection[str]
    completed: bool
    each: bool = False


@dataclass(frozen=True, slots=True)
class GroupFacts:
    """What the rules need to know about the task's group and the user's place in it."""

    status: GroupStatus | None
    user_is_active_member: bool


def effectively_allowed(mode: GatingMode, status: GroupStatus | None) -> bool:
    """In mode off every group is allowed; otherwise only a stored status of allowed counts."""
    return mode is GatingMode.OFF or status is GroupStatus.ALLOWED


def discovery_for(mode: GatingMode, status: GroupStatus | None) -> Discovery:
    """A group seen for the first time is recorded pending in discover mode and ignored in enforce mode."""
    if mode is GatingMode.OFF:
        return Discovery.OFF
    if status is not None:
        return Discovery.KNOWN
    return Discovery.RECORD_PENDING if mode is GatingMode.DISCOVER else Discovery.IGNORE


def sees_group(mode: GatingMode, group: GroupFacts) -> bool:
    """A user sees a group's tasks when the group is effectively allowed and they are an active member of it."""
    return effectively_allowed(mode, group.status) and group.user_is_active_member


def can_see(user_id: str, task: TaskFacts, mode: GatingMode, group: GroupFacts | None) -> bool:
    """Group task: the user sees its group (``sees_group``); personal task: creator or assignee."""
    if task.group_id is None:
        return user_id == task.created_by or user_id in task.assignees
    return group is not None and sees_group(mode, group)


def check_action(
    action: TaskAction, user_id: str, task: TaskFacts, mode: GatingMode, group: GroupFacts | None
) -> None:
    """Raise NotFound (not visible), Conflict (not open) or Forbidden; return when the action may proceed.

    Completing a completed task is allowed (idempotent); every other change needs an open task.
    """
    if not can_see(user_id, task, mode, group):
        raise NotFound("task not found")
    if action is TaskAction.VIEW:
        return
    if action is TaskAction.COMPLETE:
        if task.group_id is None and user_id not in task.assignees:
            raise Forbidden("only an assignee may complete a personal task")
        if task.each and not task.completed and task.assignees and user_id not in task.assignees:
            raise Forbidden("only an assignee may complete their part of a shared task")
        return
    if task.completed:
        raise Conflict("task is not open")


def assignees_on_creation(creator: str, group_id: str | None, mentioned: Sequence[str]) -> tuple[str, ...]:
    """A group task is assigned to the mentioned people, each once, in order (none: unassigned); a personal task
    to its creator."""
    return tuple(dict.fromkeys(mentioned)) if group_id else (creator,)


def completion_assigns_completer(task: TaskFacts) -> bool:
    """A group task with no assignees gets its completer assigned first (in each mode too: theirs is then the one
    part)."""
    return task.group_id is not None and not task.assignees and not task.completed


@dataclass(frozen=True, slots=True)
class GroupSnapshot:
    """What a sighting needs to know of a recorded group to decide whether anything must be written."""

    name: str | None
    active: bool
    status: GroupStatus | None
    language: str | None = None
    time_zone: str | None = None  # the group's (SPEC section 30)


@dataclass(frozen=True, slots=True)
class Sighting:
    """A group seen by a webhook or a sync: its stored status, whether it is served, whether to announce it."""

    group_id: str
    status: GroupStatus | None
    allowed: bool
    newly_discovered: bool


def known_sighting(mode: GatingMode, group_id: str, snap: GroupSnapshot | None,
                   name: str | None = None) -> Sighting | None:
    """The sighting of a group whose snapshot says nothing needs writing (known, active, same name, and not one
    to record as pending); None when the sighting must be recorded."""
    status = snap.status if snap else None
    discovery = discovery_for(mode, status)
    nothing_new = snap is not None and snap.active and name in (None, snap.name)
    if discovery is Discovery.IGNORE or (nothing_new and discovery is not Discovery.RECORD_PENDING):
        return Sighting(group_id, status, effectively_allowed(mode, status), newly_discovered=False)
    return None
