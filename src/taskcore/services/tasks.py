"""Task use cases that change a task: create, claim, unassign, complete, edit (SPEC sections 3, 4 and 6); the
lists are ``services.task_lists``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any, Final
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import (
    GatingMode,
    TaskAction,
    TaskFacts,
    assignees_on_creation,
    check_action,
    completion_assigns_completer,
)
from taskcore.checklists import check_count, item_texts
from taskcore.chores.nagging import Nag
from taskcore.chores.points import DEFAULT_POINTS, check_points
from taskcore.chores.witness import needs_witness
from taskcore.completion import CompletionMode, InvalidCompletion, every_part_done
from taskcore.errors import NotFound
from taskcore.i18n import N_, _
from taskcore.model import Completion, CreatedTask, Origin, Task
from taskcore.recurrence import Recurrence
from taskcore.services import nagging
from taskcore.services import series as recurring
from taskcore.storage import checklists, held_points, proofs
from taskcore.storage import tasks as q
from taskcore.text import Description
from taskcore.unit import Reading, UnitOfWork


class _Unset:
    """Marks a field the caller did not send (distinct from an explicit null)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()
PARTS_IN_GROUPS = N_("solo las tareas de grupo se completan por partes")
PARTS_WITH_PHOTO = N_("una tarea con foto no se completa por partes: la foto es una por tarea")


def create_task(
    uow: UnitOfWork,
    *,
    creator: str,
    description: str,
    group_id: str | None = None,
    due: date | None = None,
    assignees: Sequence[str] = (),
    origin: Origin | None = None,
    completion: CompletionMode = CompletionMode.ANY,
    now: datetime,
    recurrence: Recurrence | None = None,
    rotation: Sequence[str] = (),
    today: date | None = None,
    points: int = 1,
    balanced: bool = False,
    items: Sequence[str] = (),
) -> CreatedTask:
    """Create a group task assigned to ``assignees`` (none: unassigned) or a personal task assigned to its creator.
    ``completion`` each (every assignee completes their part) is for group tasks only (InvalidCompletion).

    The creator and the assignees are users already (a front end resolves who acts and who is named first:
    ``services.identities``). The description is sanitised before anything is written (a ``Description`` is already:
    the text is sanitised once); then one prepared statement per row, and no read-back: the chat creates a task per
    ``/t nueva``.

    With ``recurrence`` the task is the first of a series (SPEC section 20): without ``due`` it is due on the rule's
    first date on or after ``today`` (the creator's today; UTC's when None). With ``rotation`` (people in turn order,
    a group task only) the first of them is its assignee, whoever ``assignees`` names; ``balanced`` (``!reparto``):
    each next occurrence goes to the one with the fewest points. ``points``: 1 to 10 (SPEC section 25). ``items``:
    its checklist, at most 20 (SPEC section 41; ``checklists.item_texts`` of them, InvalidItem otherwise)."""
    text = Description.of(description)
    if items:
        check_count(0, len(items))
        items = item_texts(items)
    points = points if points == DEFAULT_POINTS else check_points(points)
    series = None
    if recurrence is not None:
        series, due = recurring.new_series(recurrence, rotation, group_id=group_id, due=due,
                                           today=today or now.date(), balanced=balanced)
    people = assignees_on_creation(creator, group_id, series.rotation[:1] if series and series.rotation else assignees)
    if completion is CompletionMode.EACH and group_id is None:
        raise InvalidCompletion(_(PARTS_IN_GROUPS), field="completion")

    conn = uow.conn
    chosen, assigned = series, people
    if series is not None and series.rotation and group_id is not None and due is not None:
        turn = recurring.first_turn(conn, series, group_id=group_id, day=due, now=now)  # the away are skipped
        chosen = replace(series, turn=turn)
        assigned = assignees_on_creation(creator, group_id, series.rotation[turn:turn + 1])
    task_id = q.insert_task(conn, group_id=group_id, description=text, due=due, created_by=creator, now=now,
                            origin=origin, completion=completion, series=chosen, points=points)
    if assigned:
        q.insert_assignments(conn, task_id, assigned, by=creator, now=now)
    if items:
        checklists.add_items(conn, task_id, items)
    return CreatedTask(task_id, text, due, group_id, assigned, chosen, tuple(items))


def get_task(uow: Reading, mode: GatingMode, *, user_id: str, task_id: int) -> Task:
    """One task the user may see; NotFound otherwise."""
    conn = uow.conn
    checked(conn, mode, TaskAction.VIEW, user_id, task_id)
    return q.load_tasks(conn, [task_id])[0]


def checked(conn: Connection, mode: GatingMode, action: TaskAction, user_id: str, task_id: int) -> TaskFacts:
    """Apply the access rules inside the transaction; return what they read of the task."""
    found = q.task_facts(conn, task_id, user_id)
    if found is None:
        raise NotFound(f"task {task_id} not found")
    facts, group = found
    check_action(action, user_id, facts, mode, group)
    return facts


def claim_task(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, now: datetime) -> Task:
    """Add the user as an assignee of an open task they can see (idempotent); a nagging task nags them too."""
    conn = uow.conn
    checked(conn, mode, TaskAction.CLAIM, user_id, task_id)
    if q.add_assignment(conn, task_id, user_id, by=user_id, now=now):
        nagging.joined(conn, task_id, user_id)
    return q.load_tasks(conn, [task_id])[0]


def unassign_task(
    uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, now: datetime | None = None
) -> Task:
    """Remove the user's assignment of an open task if present (idempotent). In each mode their part goes with it,
    and when every remaining part is done the task is completed then (``now``; without it, when the last remaining
    part was done) by whoever did the last part: the returned task says so (``completed``)."""

    conn = uow.conn
    facts = checked(conn, mode, TaskAction.UNASSIGN, user_id, task_id)
    if q.remove_assignment(conn, task_id, user_id) and facts.each:
        _complete_when_every_part_is_done(conn, task_id, now)
    return q.load_tasks(conn, [task_id])[0]


def _complete_when_every_part_is_done(conn: Connection, task_id: int, now: datetime | None) -> bool:
    parts = q.parts(conn, task_id)
    if not every_part_done(parts.values()):
        return False
    done = {user: when for user, when in parts.items() if when is not None}
    last = max(done, key=lambda user: (done[user], user))
    when = now or done[last]
    if not q.mark_completed(conn, task_id, last, when):
        return False
    checklists.tick_all(conn, task_id, when)
    nagging.settle(conn, task_id)
    # A recurring shared task completed this way goes on like any other completion (SPEC section 20).
    recurring.follow_up(conn, task_id, previous_assignees=list(parts), by=last, today=when.date(), now=when)
    return True


def complete_task(
    uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, now: datetime, today: date | None = None,
    proven: bool = False,
) -> Completion:
    """Complete a task (idempotent): the one completion use case of every front end (SPEC sections 3, 19, 20).

    A group task without assignees gets the completer assigned first. In the any mode that completes it; in the
    each mode it marks the completer's part done, and the last part completes the task. Completing an occurrence of
    a recurring task creates the next one in the same transaction, dated from ``today``, the completer's today
    (UTC's when None). A task that needs a photo (SPEC section 34) raises PhotoRequired unless ``proven`` (its
    photo was just approved). The points of a group task its completer created and held alone wait for someone
    else's approval (SPEC section 38: ``points_held``)."""
    conn = uow.conn
    facts = checked(conn, mode, TaskAction.COMPLETE, user_id, task_id)
    if not proven and not facts.completed:
        proofs.check_unproven(conn, task_id)
    assigns = completion_assigns_completer(facts)
    before = [] if assigns else q.assignee_ids(conn, task_id)
    if assigns:
        q.add_assignment(conn, task_id, user_id, by=user_id, now=now)
    part = False
    if facts.each and not facts.completed:
        part = q.mark_part_done(conn, task_id, user_id, now)
        nagging.settle(conn, task_id)
        if not every_part_done(q.parts(conn, task_id).values()):
            return Completion(task=q.load_tasks(conn, [task_id])[0], newly_completed=False, part_done=part)
    newly = q.mark_completed(conn, task_id, user_id, now)
    nagging.settle(conn, task_id)
    following = recurring.follow_up(conn, task_id, previous_assignees=before, by=user_id, today=today or now.date(),
                                    now=now) if newly else None
    task = q.load_tasks(conn, [task_id])[0]
    if newly and not all(item.done for item in task.items):  # its own done word ticks the rest (SPEC section 41)
        checklists.tick_all(conn, task_id, now)
        task = replace(task, items=tuple(replace(item, done=True) for item in task.items))
    held = newly and not proven and needs_witness(task, user_id)  # points need someone else (SPEC section 38)
    if held:
        held_points.hold(conn, task_id, now)
    return Completion(task=task, newly_completed=newly, part_done=part, next_task=following, points_held=held)


def edit_task(
    uow: UnitOfWork,
    mode: GatingMode,
    *,
    user_id: str,
    task_id: int,
    due: date | _Unset | None = UNSET,
    description: str | _Unset = UNSET,
    completion: CompletionMode | _Unset = UNSET,
    recurrence: _Unset | None = UNSET,
    zone: ZoneInfo = nagging.EARLIEST,
    points: int | _Unset = UNSET,
    nag: int | _Unset | None = UNSET,
) -> Task:
    """Change the due date (None clears it), the description, the points, the nag interval (None: stop nagging)
    and/or the completion mode of an open task; ``recurrence=None`` ends its series (SPEC section 20: this occurrence
    stays, no other follows).

    The each mode is for group tasks only (InvalidCompletion); back in the any mode no part counts as done.
    A new date starts a nagging task's nags again from it (``zone``: TZ, for assignees with no other zone). ``nag``
    follows ``/t insistir``'s rules on the task as edited (InvalidChoreSetting, field nag_group or nag_due: nothing is
    written then)."""
    values: dict[str, Any] = {}
    if not isinstance(due, _Unset):
        values["due_date"] = due.isoformat() if due else None
    if not isinstance(description, _Unset):
        values["description"] = Description.of(description)
    if not isinstance(completion, _Unset):
        values["completion"] = CompletionMode(completion).value
    if recurrence is None:
        values |= q.series_columns(None)
    if not isinstance(points, _Unset):
        values["points"] = check_points(points)
    if isinstance(nag, int):
        Nag(nag)  # InvalidChoreSetting outside 1..168

    conn = uow.conn
    facts = checked(conn, mode, TaskAction.EDIT, user_id, task_id)
    if "completion" in values and facts.group_id is None:
        raise InvalidCompletion(_(PARTS_IN_GROUPS), field="completion")
    if values.get("completion") == CompletionMode.EACH.value and proofs.requires_photo(conn, task_id):
        raise InvalidCompletion(_(PARTS_WITH_PHOTO), field="photo")
    q.update_task(conn, task_id, values)
    if values.get("completion") == CompletionMode.ANY.value and facts.each:
        q.clear_parts(conn, task_id)
    if not isinstance(nag, _Unset):
        nagging.start_nagging(conn, task_id, nag, zone)
    elif "due_date" in values:
        nagging.restart(conn, task_id, zone)
    return q.load_tasks(conn, [task_id])[0]
