"""Missed turns (SPEC section 25): ``/t pasar`` hands a rotation's occurrence to the next person in turn, and an
occurrence still open two days after its date passes on by itself, once, the group told.

Choices the SPEC leaves open: the next person is ``chores.turns.next_in_turn`` (the away skipped, each in their own
today); the occurrence takes the new holder's place in the rotation, so the next occurrence goes to the one after
them. A pass by hand also counts as the occurrence's one pass: the new holder's turn never passes on by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode, TaskAction, check_action
from taskcore.chat import chore_replies as texts
from taskcore.chores.away import is_away
from taskcore.chores.turns import AUTO_PASS_AFTER, auto_pass_due, next_in_turn
from taskcore.errors import Conflict, NotFound, TaskcoreError
from taskcore.i18n import speaking
from taskcore.model import Task
from taskcore.services import nagging
from taskcore.services.chore_notices import post_in_group, tags
from taskcore.services.languages import group_language_of
from taskcore.services.zones import zone_of
from taskcore.storage import turns as q
from taskcore.storage.series import current_people
from taskcore.storage.tasks import load_tasks, task_facts
from taskcore.unit import Batch, Reading, UnitOfWork
from taskcore.zones import effective_zone

BATCH = 200


class NotRotation(TaskcoreError):
    """The task does not go by turns."""


class NotHolder(TaskcoreError):
    """The person asking is not the one whose turn it is."""


class NobodyNext(TaskcoreError):
    """Everyone else in the rotation is away."""


@dataclass(frozen=True, slots=True)
class Passed:
    """An occurrence handed on: the task as it is now, from whom, to whom."""

    task: Task
    holder: str
    to: str


def pass_turn(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, zone: ZoneInfo,
              now: datetime) -> Passed:
    """``/t pasar``: the holder hands the open occurrence on (NotRotation, NotHolder, NobodyNext, Conflict)."""

    conn = uow.conn
    found = task_facts(conn, task_id, user_id)
    if found is None:
        raise NotFound(f"task {task_id} not found")
    check_action(TaskAction.VIEW, user_id, found[0], mode, found[1])
    task = load_tasks(conn, [task_id])[0]
    if task.completed:
        raise Conflict(f"task {task_id} is completed")
    return _hand(conn, task, user_id, zone, now)


def _hand(conn: Connection, task: Task, holder: str, zone: ZoneInfo, now: datetime) -> Passed:
    series = task.recurrence
    if series is None or not series.rotation:
        raise NotRotation(f"task {task.id} has no rotation")
    if holder not in task.assignee_ids:
        raise NotHolder(f"task {task.id} is not {holder}'s turn")
    known = current_people(conn, series.rotation)
    order = [known.get(person, person) for person in series.rotation]
    to = next_in_turn(order, holder, _away(conn, order, zone, now))
    if to == holder:
        raise NobodyNext(f"task {task.id}: nobody else to take the turn")
    q.hand_over(conn, task.id, holder=holder, to=to, turn=order.index(to), now=now)
    q.mark_passed(conn, task.id, now)
    nagging.joined(conn, task.id, to, zone)
    return Passed(load_tasks(conn, [task.id])[0], holder, to)


def _away(conn: Connection, people: list[str], zone: ZoneInfo, now: datetime) -> set[str]:
    dates = q.away_dates(conn, people)
    return {user for user, until in dates.items()
            if is_away(until, now.astimezone(zone_of(conn, user, zone).zone).date())}


@dataclass(frozen=True, slots=True)
class AutoPassTick:
    """Pass on every open turn two days late in its holder's calendar, once, telling the group, each in a unit of
    its own (a batched use case: ``Database.run_batched``; ``result``: how many passed)."""

    now: datetime
    zone: ZoneInfo
    max_attempts: int
    default_language: str

    def read(self, uow: Reading, after: int | None) -> Batch[int, int]:
        """The next BATCH turns late in UTC, less those not late yet in their holder's calendar."""
        # Nobody's today is past UTC's by more than a day: an occurrence due later cannot be two days late anywhere.
        latest = self.now.date() - AUTO_PASS_AFTER + timedelta(days=1)
        ids = q.late_turns(uow.conn, due_on_or_before=latest, after=after or 0, limit=BATCH)
        return Batch(_maybe_late(uow.conn, ids, self.now, self.zone), ids[-1] if len(ids) == BATCH else None)

    def write(self, uow: UnitOfWork, part: int, before: Sequence[int]) -> int:
        """Pass task ``part`` on when it is still late: 1 if it was, else 0."""
        return int(_auto_one(uow.conn, task_id=part, now=self.now, zone=self.zone, max_attempts=self.max_attempts,
                             default=self.default_language))

    def result(self, outcomes: Sequence[int]) -> int:
        """How many turns passed."""
        return sum(outcomes)


def _maybe_late(conn: Connection, ids: list[int], now: datetime, zone: ZoneInfo) -> list[int]:
    """The ids worth a transaction: no assignee or no date, or an assignee whose today is two days past the date.
    The others (late in UTC, not yet in their holder's calendar) are read each minute until then, but cost no write."""
    found = q.turn_holders(conn, ids)
    return [task_id for task_id in ids if task_id not in found or _late_for_one(*found[task_id], now, zone)]


def _late_for_one(due: date, people: list[tuple[str, str | None]], now: datetime, zone: ZoneInfo) -> bool:
    if not people:
        return True
    return any(auto_pass_due(due, now.astimezone(effective_zone(tz, user, zone).zone).date(), passed_already=False)
               for user, tz in people)


def _auto_one(conn: Connection, *, task_id: int, now: datetime, zone: ZoneInfo, max_attempts: int,
              default: str) -> bool:
    task = next(iter(load_tasks(conn, [task_id])), None)
    if task is None or task.completed or task.due_date is None or task.group_id is None:
        return False
    due, group_id = task.due_date, task.group_id
    holder = next(iter(person.id for person in task.assignees), None)
    if holder is None:  # nobody holds it: looked at once, never again
        q.mark_passed(conn, task_id, now)
        return False
    today = now.astimezone(zone_of(conn, holder, zone).zone).date()
    if not auto_pass_due(due, today, passed_already=False) or not q.mark_passed(conn, task_id, now):
        return False
    try:
        passed = _hand(conn, task, holder, zone, now)
    except NobodyNext:
        return False
    with speaking(group_language_of(conn, group_id, default)):
        written = tags(conn, group_id, [holder, passed.to])
        text = texts.turn_auto_passed(task_id, task.description, written[holder], written[passed.to])
    post_in_group(conn, group_id, text, [holder, passed.to], dedupe_key=f"turn:{task_id}", task_id=task_id,
                  max_attempts=max_attempts, now=now)
    return True
