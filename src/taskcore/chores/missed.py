"""Missed chores, reviewed (SPEC section 41), the pure rules: a group's penalty, when an occurrence counts as missed,
and a missed one's states.

When an occurrence counts as missed (docs/decisions.md, "Issue 54: missed chores and the kitchen display"): an open
occurrence of a recurring group chore, in a group whose penalty is above 0, once its date has passed in the group's
zone (the group's ``/t zona``, else TZ): from the first minute of the next day. Only occurrences due on or after the
day the penalty was turned on count (turning it on never charges a year of old overdue chores). Who missed it: in
``any`` mode every assignee, in ``each`` mode the assignees whose part is not done; an occurrence nobody holds is
looked at and counts for nobody. It is looked at once (``tasks.missed_at``), and each person misses it once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _

MAX_PENALTY = 100
MAX_REASON = 300


class MissedState(StrEnum):
    """Where a missed occurrence stands: waiting for a group admin, then applied (deducted) or excused."""

    WAITING = "waiting"
    APPLIED = "applied"
    EXCUSED = "excused"


@dataclass(frozen=True, slots=True)
class Missed:
    """One person's missed occurrence: its own number, the task's, what it says, its date, the group, who missed it
    (their name, never a number), the points it costs, where it stands and why it was excused."""

    id: int
    task_id: int
    description: str
    due_date: date
    group_id: str
    group_name: str | None
    user_id: str
    user_name: str | None
    points: int
    state: MissedState
    found_at: datetime
    reason: str | None = None


def check_penalty(points: object) -> int:
    """A whole number from 0 (off) to MAX_PENALTY -> itself; InvalidChoreSetting (field ``points``) otherwise."""
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_PENALTY:
        raise InvalidChoreSetting(_("la penalización va de 0 (sin penalización) a {high} puntos", high=MAX_PENALTY),
                                  field="points")
    return points


def counts_as_missed(due: date, *, today: date, since: date) -> bool:
    """Whether an open occurrence due on ``due`` is missed at the group's ``today``, the penalty on since ``since``."""
    return since <= due < today
