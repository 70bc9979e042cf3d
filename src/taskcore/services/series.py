"""Recurring tasks inside the task use cases (SPEC section 20): a new series, and the occurrence that follows a
completed one. Called by ``services.tasks`` inside its transactions; never by a front end directly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime

from sqlalchemy import Connection

from taskcore.chores.away import is_away
from taskcore.chores.points import FAIRNESS_WINDOW, balanced_pick, points_since
from taskcore.chores.turns import next_in_turn
from taskcore.errors import InvalidRecurrence
from taskcore.i18n import _
from taskcore.model import Series, Task
from taskcore.recurrence import Recurrence, first_occurrence, next_occurrence, pinned
from taskcore.services.nagging import restart
from taskcore.storage import series as q
from taskcore.storage.checklists import copy_items
from taskcore.storage.quiet import away_dates
from taskcore.storage.summaries import away_users, completion_rows
from taskcore.storage.tasks import insert_assignments, load_tasks

MIN_ROTATION = 2


def new_series(
    recurrence: Recurrence, rotation: Sequence[str], *, group_id: str | None, due: date | None, today: date,
    balanced: bool = False,
) -> tuple[Series, date]:
    """The series of a task being created and its first due date: the one given, else the first occurrence on or
    after ``today``. A rotation needs a group and at least two different people (InvalidRecurrence otherwise)."""
    people = tuple(dict.fromkeys(rotation))
    if rotation and (group_id is None or len(people) < MIN_ROTATION):
        raise InvalidRecurrence(_("los turnos necesitan un grupo y al menos dos personas"), field="rotation")
    first = due or first_occurrence(recurrence, today=today)
    if first is None:
        raise InvalidRecurrence(_("la regla no tiene fechas: {rule}", rule=recurrence.rule), field="recurrence")
    fixed = pinned(recurrence, first)
    return Series(fixed.rule, fixed.text, people, 0, balanced and bool(people)), first


def first_turn(conn: Connection, series: Series, *, group_id: str, day: date, now: datetime) -> int:
    """The first occurrence's turn (SPEC section 30): the first person in order who is not away on its date; with
    ``!reparto``, the present one with the fewest points completed in the group over the last 30 days (ties: turn
    order). Everyone away: the first."""
    people = series.rotation
    away = away_users(conn, people, day)
    if series.balanced:
        rows = completion_rows(conn, group_id=group_id, start=now - FAIRNESS_WINDOW, end=now)
        return people.index(balanced_pick(people, points_since(rows, now), away, after=people[-1]))
    return people.index(next_in_turn(people, None, away))


def follow_up(
    conn: Connection, task_id: int, *, previous_assignees: Sequence[str], by: str, today: date, now: datetime
) -> Task | None:
    """Create the occurrence after the just completed task ``task_id`` when it repeats, and return it.

    It is due on the first date of the series after the completed one's due date (the day it was completed when it
    had none) that is not before ``today``; it has the same description, group and creator, and the assignees the
    completed one had before it was completed (a group task nobody had stays unassigned), or, with a rotation, the
    next person in turn."""
    (done,) = load_tasks(conn, [task_id])
    series = done.recurrence
    if series is None:
        return None
    due = next_occurrence(series.rule, done.due_date or today, today=today)
    if due is None:
        return None
    turn, people = None, list(previous_assignees)
    if series.rotation:
        known = q.current_people(conn, series.rotation)
        turn = _balanced_turn(conn, series, done, today=today, now=now) if series.balanced and done.group_id \
            else next_turn(conn, series, known, today)
        people = [known[series.rotation[turn]]] if series.rotation[turn] in known else []
    new_id = q.insert_next(conn, task_id, due=due, turn=turn, now=now)
    insert_assignments(conn, new_id, people, by=by, now=now)
    if done.items:
        copy_items(conn, task_id, new_id)  # the checklist again, nothing ticked (SPEC section 41)
    restart(conn, new_id)
    return load_tasks(conn, [new_id])[0]


def _balanced_turn(conn: Connection, series: Series, done: Task, *, today: date, now: datetime) -> int:
    """With ``!reparto``, the index of the present person with the fewest points completed in the group over the last
    30 days (ties: turn order after the holder, SPEC section 25)."""
    assert done.group_id is not None  # noqa: S101 - only group rotations are balanced (the caller checks)
    people = series.rotation
    rows = completion_rows(conn, group_id=done.group_id, start=now - FAIRNESS_WINDOW, end=now)
    away = away_users(conn, people, today)
    holder = people[series.turn % len(people)]
    return people.index(balanced_pick(people, points_since(rows, now), away, after=holder))


def next_turn(conn: Connection, series: Series, known: Mapping[str, str], today: date) -> int:
    """The index in the rotation of the next person in turn, skipping those away on ``today`` (SPEC section 25; their
    away dates read in one statement)."""
    away_until = away_dates(conn, set(known.values()))
    away = {person for person, user in known.items() if is_away(away_until.get(user), today)}
    return series.rotation.index(next_in_turn(series.rotation, series.rotation[series.turn], away))
