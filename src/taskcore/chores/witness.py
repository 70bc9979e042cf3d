"""Points need someone else (SPEC section 38): a person cannot give themselves points alone. Pure rules.

The points of a group task whose completer created it and holds it alone (its only assignee, or the one a completion
of an unassigned task assigned) count only once another member of the group, or a group admin, approves them with
``/t aprobar <id>``; never the completer, even when they are a group admin themselves (docs/decisions.md). A task
completed through an approved photo needs nothing more: its approver was someone else already; nor does a turn of a
chore several people take turns on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from taskcore.model import Task

__all__ = ["HeldPoints", "needs_witness"]


def needs_witness(task: Task, completer: str) -> bool:
    """Whether the points of ``task``, just completed by ``completer``, wait for someone else's approval. A turn of a
    chore that goes round several people does not: the rotation gave it, and the others take the next turns."""
    if task.recurrence is not None and len(set(task.recurrence.rotation)) > 1:
        return False
    return task.group_id is not None and task.created_by == completer and task.assignee_ids == {completer}


@dataclass(frozen=True, slots=True)
class HeldPoints:
    """A task whose points wait for someone's approval: its number, group, what it says, who did it (their name,
    never a number), its points and since when they wait (UTC)."""

    task_id: int
    group_id: str
    group_name: str | None
    description: str
    completer_name: str | None
    points: int
    since: datetime
