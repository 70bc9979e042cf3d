"""Nagging's settings inside the task use cases (SPEC section 25): ``/t insistir`` and ``!insistir`` start it, and
completing, unassigning or re-dating a task keeps each part's next nag (``task_assignments.nag_next_at``) right.

Choices the SPEC leaves open: only a group task with a due date nags (else InvalidChoreSetting, ``field`` nag_group
or nag_due). Completing a part or the task, or unassigning, stops those parts' nags. Re-dating starts them again
from the new date (the first nag the day after it in each assignee's zone, counts and the group notice reset);
clearing the date stops them and keeps the setting, so a later date starts them again. Someone who takes a nagging
task (``/t tomar``, a turn passed to them) is nagged from the task's first nag on.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode, TaskAction, check_action
from taskcore.chores.nagging import Nag, first_nag_at
from taskcore.errors import InvalidChoreSetting, NotFound
from taskcore.i18n import N_, _
from taskcore.model import Task
from taskcore.services.zones import zone_of
from taskcore.storage import nags as q
from taskcore.storage.tasks import load_tasks, task_facts
from taskcore.unit import UnitOfWork

EARLIEST = ZoneInfo("Etc/GMT-14")
"""The zone of assignees with no zone of their own when TZ is not at hand (a completion's next occurrence, a claim):
the first midnight anywhere, so the nag is never late; the tick then waits until it is due in the person's zone."""
NEEDS_GROUP = N_("solo las tareas de grupo pueden insistir")
NEEDS_DUE = N_("para insistir la tarea necesita fecha")


def set_nag(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, every_hours: int | None,
            zone: ZoneInfo, now: datetime) -> Task:
    """Nag every ``every_hours`` (None: stop) on a group task with a due date that the user may edit; ``zone`` is
    TZ, the zone of assignees with no other."""
    if every_hours is not None:
        Nag(every_hours)  # InvalidChoreSetting outside 1..168

    conn = uow.conn
    found = task_facts(conn, task_id, user_id)
    if found is None:
        raise NotFound(f"task {task_id} not found")
    check_action(TaskAction.EDIT, user_id, found[0], mode, found[1])
    start_nagging(conn, task_id, every_hours, zone)
    return load_tasks(conn, [task_id])[0]


def start_nagging(conn: Connection, task_id: int, every_hours: int | None, zone: ZoneInfo) -> None:
    """Inside a transaction: set the task's interval and schedule its open parts' first nags (None: stop them)."""
    if every_hours is not None:
        if q.nag_setting(conn, task_id)[1] is None:
            raise InvalidChoreSetting(_(NEEDS_DUE), field="nag_due")
        if load_tasks(conn, [task_id])[0].group_id is None:
            raise InvalidChoreSetting(_(NEEDS_GROUP), field="nag_group")
    q.set_every(conn, task_id, every_hours)
    restart(conn, task_id, zone)


def restart(conn: Connection, task_id: int, zone: ZoneInfo = EARLIEST) -> None:
    """Schedule each open part's first nag from the task's due date, counts and the group notice reset; stop them
    when the task does not nag, has no date or is completed (a re-date calls this)."""
    every, due, completed = q.nag_setting(conn, task_id)
    q.reset_escalation(conn, task_id)
    if every is None or due is None or completed:
        q.stop(conn, task_id)
        return
    pending = q.pending_counts(conn, task_id)
    q.schedule(conn, task_id, {user: first_nag_at(due, zone_of(conn, user, zone).zone) for user in pending})


def joined(conn: Connection, task_id: int, user_id: str, zone: ZoneInfo = EARLIEST) -> None:
    """A new assignee of a nagging task is nagged from its first nag on."""
    every, due, completed = q.nag_setting(conn, task_id)
    if every is not None and due is not None and not completed:
        q.schedule(conn, task_id, {user_id: first_nag_at(due, zone_of(conn, user_id, zone).zone)})


def settle(conn: Connection, task_id: int) -> None:
    """After a completion: the done parts (all of them once the task is completed) are nagged no more."""
    q.stop(conn, task_id, done_only=True)
