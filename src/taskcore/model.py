"""Frozen records that use cases return: tasks, groups, preferences, origins."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from taskcore.access import GroupSnapshot, GroupStatus
from taskcore.chores.proof import Proof
from taskcore.completion import CompletionMode, progress
from taskcore.identity import needs_rekey


@dataclass(frozen=True, slots=True)
class Person:
    """A user as shown next to a task; ``done_at`` is when they finished their part of an each-mode task."""

    id: str
    name: str | None
    done_at: datetime | None = None

    @property
    def done(self) -> bool:
        """Their part is done."""
        return self.done_at is not None


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
    balanced: bool = False  # !reparto (SPEC section 25): the fewest points of the last 30 days, not plain turns


@dataclass(frozen=True, slots=True)
class Item:
    """An item of a task's checklist (SPEC section 41): its number (from 1), its text, whether it is ticked."""

    n: int
    text: str
    done: bool = False


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
    completion: CompletionMode = CompletionMode.ANY
    recurrence: Series | None = None
    nag_every_hours: int | None = None
    points: int = 1
    photo_required: bool = False  # done only with a photo, once approved (SPEC section 34)
    proof: Proof | None = None  # the photo kept for it (None while none is)
    items: tuple[Item, ...] = ()  # its checklist (SPEC section 41), in order

    @property
    def assignee_ids(self) -> frozenset[str]:
        """The ids of the assignees."""
        return frozenset(person.id for person in self.assignees)

    @property
    def each(self) -> bool:
        """Each assignee completes their own part."""
        return self.completion is CompletionMode.EACH

    @property
    def progress(self) -> tuple[int, int]:
        """(parts done, parts): meaningful in each mode."""
        return progress([person.done_at for person in self.assignees])

    def part_of(self, user_id: str) -> Person | None:
        """The user's assignment (their part), if any."""
        return next((person for person in self.assignees if person.id == user_id), None)


@dataclass(frozen=True, slots=True)
class CreatedTask:
    """A task just created, as the create use case knows it without reading it back."""

    id: int
    description: str
    due_date: date | None
    group_id: str | None
    assignee_ids: tuple[str, ...]
    recurrence: Series | None = None
    items: tuple[str, ...] = ()  # its checklist (SPEC section 41)


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
    """The outcome of a completion: the task, whether this call completed it, and in each mode whether it marked
    the user's part done (``part_done``; False when it was done already, or in any mode)."""

    task: Task
    newly_completed: bool
    part_done: bool = False
    next_task: Task | None = None
    """The next occurrence this completion created (a recurring task), else None."""
    points_held: bool = False
    """Its points wait for someone else's approval: its completer made it and held it alone (SPEC section 38)."""


@dataclass(frozen=True, slots=True)
class SenderFacts:
    """Everything a message's sender needs, read in one statement before anything is written.

    ``user_id`` is who the sender is unless a re-key is due: the phone digits, else the LID's alias target, else the
    LID digits. ``member_active`` is None when they are no member of the group; ``group`` None when the group row is
    absent (or the message is direct); ``time_zone`` and ``language`` what the user chose, if anything.
    """

    user_id: str
    alias_target: str | None
    lid_is_user: bool
    user_known: bool
    display_name: str | None
    last_seen_at: datetime | None
    member_active: bool | None
    member_seen_at: datetime | None
    group: GroupSnapshot | None
    time_zone: str | None = None
    language: str | None = None
    zone_told: bool = False  # the first reply that used their zone named it (SPEC section 30)

    def needs_rekey(self, phone: str | None, lid: str | None) -> bool:
        """True when a LID-only user must be re-keyed to the phone number (the full resolution does that)."""
        return needs_rekey(self.lid_is_user, phone, lid)
