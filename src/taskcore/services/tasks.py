"""Task use cases: create, list, claim, unassign, complete, edit (SPEC sections 3, 4 and 6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from sqlalchemy import Connection

from taskcore.access import (
    GatingMode,
    GroupFacts,
    TaskAction,
    TaskFacts,
    assignees_on_creation,
    check_action,
    completion_assigns_completer,
    sees_group,
)
from taskcore.completion import CompletionMode, InvalidCompletion, every_part_done
from taskcore.errors import Forbidden, NotFound
from taskcore.model import Completion, CreatedTask, GroupSummary, Origin, Task
from taskcore.pagination import Page
from taskcore.recurrence import Recurrence
from taskcore.services import series as recurring
from taskcore.storage import task_lists as lists
from taskcore.storage import task_page
from taskcore.storage import tasks as q
from taskcore.storage.db import Database
from taskcore.text import may_occur_in_description, sanitize_description


class _Unset:
    """Marks a field the caller did not send (distinct from an explicit null)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


@dataclass(frozen=True, slots=True)
class MyTasksQuery:
    """GET /api/me/tasks, validated: status open|recent, search, dueBefore, soonDays, page, limit."""

    status: str = "open"
    search: str | None = None
    due_before: date | None = None
    soon_days: int | None = None
    page: int = 1
    limit: int = 20


def create_task(
    db: Database,
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
) -> CreatedTask:
    """Create a group task assigned to ``assignees`` (none: unassigned) or a personal task assigned to its creator.
    ``completion`` each (every assignee completes their part) is for group tasks only (InvalidCompletion).

    The creator and the assignees are users already (a front end resolves who acts and who is named first:
    ``services.identities``). The description is sanitised before anything is written; then one prepared statement
    per row, and no read-back: the chat creates a task per ``/t nueva``.

    With ``recurrence`` the task is the first of a series (SPEC section 20): without ``due`` it is due on the rule's
    first date on or after ``today`` (the creator's today; UTC's when None). With ``rotation`` (people in turn order,
    a group task only) the first of them is its assignee, whoever ``assignees`` names."""
    text = sanitize_description(description)
    series = None
    if recurrence is not None:
        series, due = recurring.new_series(recurrence, rotation, group_id=group_id, due=due,
                                           today=today or now.date())
    people = assignees_on_creation(creator, group_id, series.rotation[:1] if series and series.rotation else assignees)
    if completion is CompletionMode.EACH and group_id is None:
        raise InvalidCompletion("solo las tareas de grupo se completan por partes", field="completion")

    def work(conn: Connection) -> CreatedTask:
        task_id = q.insert_task(conn, group_id=group_id, description=text, due=due, created_by=creator, now=now,
                                origin=origin, completion=completion, series=series)
        q.insert_assignments(conn, task_id, people, by=creator, now=now)
        return CreatedTask(task_id, text, due, group_id, people, series)

    return db.transact(work)


def list_my_tasks(
    db: Database, mode: GatingMode, *, user_id: str, query: MyTasksQuery, today: date, now: datetime
) -> Page[Task]:
    """The user's open or recently completed tasks across groups, one page with the total."""
    flt = _my_tasks_filter(query, today)
    if flt is None:
        return Page(items=[], page=query.page, limit=query.limit, total=0)
    with db.read() as conn:
        return lists.my_tasks(conn, user_id, mode, flt, now)


def list_my_task_items(
    db: Database, mode: GatingMode, *, user_id: str, query: MyTasksQuery, today: date, now: datetime
) -> Page[dict[str, Any]]:
    """``list_my_tasks`` for the JSON API: the same page, its items as task item dicts (SPEC section 6) read
    straight from the database's rows (``storage.task_page``)."""
    flt = _my_tasks_filter(query, today)
    if flt is None:
        return Page(items=[], page=query.page, limit=query.limit, total=0)
    with db.read_prepared() as conn:
        items, total = task_page.my_task_items(conn, user_id, mode, flt, now)
    return Page(items=items, page=query.page, limit=query.limit, total=total)


def _my_tasks_filter(query: MyTasksQuery, today: date) -> lists.MyTasksFilter | None:
    """The storage filter of ``query`` (soonDays folded into dueBefore); None when no task can match."""
    due_before = query.due_before
    if query.soon_days is not None:
        soon = today + timedelta(days=query.soon_days)
        due_before = soon if due_before is None else min(due_before, soon)
    if query.search and not may_occur_in_description(query.search):
        return None
    return lists.MyTasksFilter(query.status, query.search or None, due_before, query.page, query.limit)


def list_my_groups(db: Database, mode: GatingMode, *, user_id: str) -> list[GroupSummary]:
    """The groups whose tasks the user sees, with counts."""
    with db.read() as conn:
        return lists.my_groups(conn, user_id, mode)


def list_group_tasks(
    db: Database,
    mode: GatingMode,
    *,
    user_id: str,
    group_id: str,
    unassigned_first: bool = False,
    only_unassigned: bool = False,
    limit: int = 50,
) -> Page[Task]:
    """A group's open tasks; Forbidden unless the group is effectively allowed and the user an active member."""
    with db.read() as conn:
        _require_group_access(q.group_facts(conn, group_id, user_id), mode)
        return lists.group_tasks(
            conn, group_id, unassigned_first=unassigned_first, only_unassigned=only_unassigned, limit=limit
        )


def _require_group_access(facts: GroupFacts, mode: GatingMode) -> None:
    if not sees_group(mode, facts):
        raise Forbidden("the group is not available to this user")


def get_task(db: Database, mode: GatingMode, *, user_id: str, task_id: int) -> Task:
    """One task the user may see; NotFound otherwise."""
    with db.read() as conn:
        _checked(conn, mode, TaskAction.VIEW, user_id, task_id)
        return q.load_tasks(conn, [task_id])[0]


def _checked(conn: Connection, mode: GatingMode, action: TaskAction, user_id: str, task_id: int) -> TaskFacts:
    """Apply the access rules inside the transaction; return what they read of the task."""
    found = q.task_facts(conn, task_id, user_id)
    if found is None:
        raise NotFound(f"task {task_id} not found")
    facts, group = found
    check_action(action, user_id, facts, mode, group)
    return facts


def _change(
    db: Database, mode: GatingMode, action: TaskAction, *, user_id: str, task_id: int,
    apply: Callable[[Connection, TaskFacts], Any],
) -> Task:
    def work(conn: Connection) -> Task:
        apply(conn, _checked(conn, mode, action, user_id, task_id))
        return q.load_tasks(conn, [task_id])[0]

    return db.transact(work)


def claim_task(db: Database, mode: GatingMode, *, user_id: str, task_id: int, now: datetime) -> Task:
    """Add the user as an assignee of an open task they can see (idempotent)."""
    return _change(db, mode, TaskAction.CLAIM, user_id=user_id, task_id=task_id,
                   apply=lambda conn, _: q.add_assignment(conn, task_id, user_id, by=user_id, now=now))


def unassign_task(
    db: Database, mode: GatingMode, *, user_id: str, task_id: int, now: datetime | None = None
) -> Task:
    """Remove the user's assignment of an open task if present (idempotent). In each mode their part goes with it,
    and when every remaining part is done the task is completed then (``now``; without it, when the last remaining
    part was done) by whoever did the last part: the returned task says so (``completed``)."""

    def apply(conn: Connection, facts: TaskFacts) -> None:
        if q.remove_assignment(conn, task_id, user_id) and facts.each:
            _complete_when_every_part_is_done(conn, task_id, now)

    return _change(db, mode, TaskAction.UNASSIGN, user_id=user_id, task_id=task_id, apply=apply)


def _complete_when_every_part_is_done(conn: Connection, task_id: int, now: datetime | None) -> bool:
    parts = q.parts(conn, task_id)
    if not every_part_done(parts.values()):
        return False
    done = {user: when for user, when in parts.items() if when is not None}
    last = max(done, key=lambda user: (done[user], user))
    when = now or done[last]
    if not q.mark_completed(conn, task_id, last, when):
        return False
    # A recurring shared task completed this way goes on like any other completion (SPEC section 20).
    recurring.follow_up(conn, task_id, previous_assignees=list(parts), by=last, today=when.date(), now=when)
    return True


def complete_task(
    db: Database, mode: GatingMode, *, user_id: str, task_id: int, now: datetime, today: date | None = None
) -> Completion:
    """Complete a task (idempotent): the one completion use case of every front end (SPEC sections 3, 19, 20).

    A group task without assignees gets the completer assigned first. In the any mode that completes it; in the
    each mode it marks the completer's part done, and the last part completes the task. Completing an occurrence of
    a recurring task creates the next one in the same transaction, dated from ``today``, the completer's today
    (UTC's when None)."""
    outcome: dict[str, bool] = {}
    following: list[Task | None] = [None]

    def apply(conn: Connection, facts: TaskFacts) -> None:
        assigns = completion_assigns_completer(facts)
        before = [] if assigns else q.assignee_ids(conn, task_id)
        if assigns:
            q.add_assignment(conn, task_id, user_id, by=user_id, now=now)
        if facts.each and not facts.completed:
            outcome["part"] = q.mark_part_done(conn, task_id, user_id, now)
            if not every_part_done(q.parts(conn, task_id).values()):
                outcome["newly"] = False
                return
        outcome["newly"] = q.mark_completed(conn, task_id, user_id, now)
        if outcome["newly"]:
            following[0] = recurring.follow_up(conn, task_id, previous_assignees=before, by=user_id,
                                               today=today or now.date(), now=now)

    task = _change(db, mode, TaskAction.COMPLETE, user_id=user_id, task_id=task_id, apply=apply)
    return Completion(task=task, newly_completed=outcome["newly"], part_done=outcome.get("part", False),
                      next_task=following[0])


def edit_task(
    db: Database,
    mode: GatingMode,
    *,
    user_id: str,
    task_id: int,
    due: date | _Unset | None = UNSET,
    description: str | _Unset = UNSET,
    completion: CompletionMode | _Unset = UNSET,
    recurrence: _Unset | None = UNSET,
) -> Task:
    """Change the due date (None clears it), the description and/or the completion mode of an open task;
    ``recurrence=None`` ends its series (SPEC section 20: this occurrence stays, no other follows).

    The each mode is for group tasks only (InvalidCompletion); back in the any mode no part counts as done."""
    values: dict[str, Any] = {}
    if not isinstance(due, _Unset):
        values["due_date"] = due.isoformat() if due else None
    if not isinstance(description, _Unset):
        values["description"] = sanitize_description(description)
    if not isinstance(completion, _Unset):
        values["completion"] = CompletionMode(completion).value
    if recurrence is None:
        values |= q.series_columns(None)

    def apply(conn: Connection, facts: TaskFacts) -> None:
        if "completion" in values and facts.group_id is None:
            raise InvalidCompletion("solo las tareas de grupo se completan por partes", field="completion")
        q.update_task(conn, task_id, values)
        if values.get("completion") == CompletionMode.ANY.value and facts.each:
            q.clear_parts(conn, task_id)

    return _change(db, mode, TaskAction.EDIT, user_id=user_id, task_id=task_id, apply=apply)
