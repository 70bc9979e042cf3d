"""The facts the chores' tallies read, one plain row each, as the storage layer hands them over."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True, slots=True)
class CompletionRow:
    """One person credited with one completion: the ``any`` task's ``completed_by``, or each assignee's own part of
    an ``each`` task; ``points`` are the task's (each part earns them all)."""

    user_id: str
    task_id: int
    points: int
    completed_at: datetime


@dataclass(frozen=True, slots=True)
class OpenRow:
    """One person's open part of an open task (an ``any`` task: one row per assignee)."""

    user_id: str
    task_id: int
    due_date: date | None
