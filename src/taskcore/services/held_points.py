"""Points need someone else (SPEC section 38): the points of a group task its completer created and held alone are
held at its completion (``services.tasks.complete_task``) until another member of the group, or a group admin,
approves them with ``/t aprobar <id>``, as a photo is approved (SPEC section 34); and what waits for a person's
approval (``/t pendientes``). Rules: ``chores.witness``."""

from __future__ import annotations

from collections.abc import Collection

from taskcore.access import GatingMode
from taskcore.chores.witness import HeldPoints
from taskcore.model import Task
from taskcore.services import tasks
from taskcore.services.proof import ProofRefused
from taskcore.storage import held_points as q
from taskcore.unit import Reading, UnitOfWork

__all__ = ["approve_points", "held_for", "is_held"]


def is_held(uow: Reading, task_id: int) -> bool:
    """Whether the task's points wait for someone else's approval."""
    conn = uow.conn
    return q.is_held(conn, task_id)


def approve_points(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int) -> Task:
    """Count the task's held points: ``user_id`` is an active member of its group who did not complete it (NotFound
    when they may not see it; ProofRefused ``own_points``, ``not_member`` or ``nothing_waiting`` otherwise)."""
    task = tasks.get_task(uow, mode, user_id=user_id, task_id=task_id)
    conn = uow.conn
    if task.completed_by == user_id:
        raise ProofRefused("own_points", task_id)
    if task.group_id is None or not q.is_member(conn, task.group_id, user_id):
        raise ProofRefused("not_member", task_id)
    if not q.release(conn, task_id):
        raise ProofRefused("nothing_waiting", task_id)
    return task


def held_for(uow: Reading, *, user_id: str, group_ids: Collection[str]) -> list[HeldPoints]:
    """The held points of these groups (the user's) that the user may approve: every one they did not earn."""
    conn = uow.conn
    return q.held_in(conn, sorted(group_ids), besides=user_id)
