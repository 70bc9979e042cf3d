"""Frozen records that use cases return: tasks, groups, preferences, origins."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from taskcore.access import GroupStatus


@dataclass(frozen=True, slots=True)
class Person:
    """A user as shown next to a task."""

    id: str
    name: str | None


@dataclass(frozen=True, slots=True)
class Origin:
    """The chat message that created a task, so the bot can react to it later."""

    chat_id: str
    message_id: str
    participant: str | None
    sent_at: datetime | None


@dataclass(frozen=True, slots=True)
class Series:
    """How a recurring task repeats (SPEC section 20): the RRULE pinned to its first date, its Spanish reading, and
    the people who take turns (ids in order; empty when nobody does) with the index of this occurrence's turn."""

    rule: str
    text: str
    rotation: tuple[str, ...] = ()
    turn: int = 0


@dataclass(frozen=True, slots=True)
class Task:
    """A task as the API and the chat show it."""

    id: int
    description: str
    due_date: date | None
    group_id: str | None
    group_name: str | None
    created_by: str
    created_at: datetime
    completed: bool
    completed_at: datetime | None
    completed_by: str | None
    assignees: tuple[Person, ...] = ()
    origin: Origin | None = field(default=None, compare=False)
    recurrence: Series | None = None

    @property
    def assignee_ids(self) -> frozenset[str]:
        """The ids of the assignees."""
        return frozenset(person.id for person in self.assignees)


@dataclass(frozen=True, slots=True)
class CreatedTask:
    """A task just created, as the create use case knows it without reading it back."""

    id: int
    description: str
    due_date: date | None
    group_id: str | None
    assignee_ids: tuple[str, ...]
    recurrence: Series | None = None


@dataclass(frozen=True, slots=True)
class GroupSummary:
    """A group in the user's list, with its open and unassigned counts."""

    id: str
    name: str | None
    active: bool
    open: int
    unassigned: int


@dataclass(frozen=True, slots=True)
class GroupRecord:
    """A group known to the registry, with its access status."""

    id: str
    name: str | None
    status: GroupStatus | None
    active: bool


@dataclass(frozen=True, slots=True)
class Preference:
    """A user's reminder preference."""

    freq: str
    time: str
    updated_at: datetime | None = None
    tz: str | None = None
    """The time zone the user chose (None: their number's country's, else TZ)."""


@dataclass(frozen=True, slots=True)
class Completion:
    """The outcome of a completion: the task, and whether this call completed it."""

    task: Task
    newly_completed: bool
    next_task: Task | None = None
    """The next occurrence this completion created (a recurring task), else None."""
