"""A command that names one task: the task must be visible here (a group names only its own tasks), and the
domain errors of changing it become short replies (SPEC sections 5 and 18)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taskcore.chat import replies
from taskcore.chat.result import Answer, Mention, rejected
from taskcore.errors import Conflict, Forbidden, NotFound
from taskcore.model import Task
from taskcore.services import tasks
from taskcore.services.conversation.turn import Turn
from taskcore.services.people import group_mentions


class _NotHere(NotFound):
    """A task that exists but belongs to another chat than the group it was named in."""


def _visible_here(turn: Turn, task_id: int) -> None:
    """In a group, only that group's tasks may be named (nothing private is shown there)."""
    if turn.group_id is None:
        return
    task = tasks.get_task(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=task_id)
    if task.group_id != turn.group_id:
        raise _NotHere(f"task {task_id} is not in this group")


def on_task(turn: Turn, task_id: int, action: Callable[[], Any]) -> Answer:
    """Run a change to one task and turn the domain errors into short replies."""
    try:
        _visible_here(turn, task_id)
        result = action()
    except _NotHere:
        return rejected(replies.not_in_this_group(task_id))
    except NotFound:
        return rejected(replies.not_found(task_id))
    except Conflict:
        return rejected(replies.already_completed(task_id), task_id)
    except Forbidden:
        return rejected(replies.forbidden(task_id), task_id)
    return result if isinstance(result, Answer) else Answer(str(result), task_id=task_id)


def next_turn(turn: Turn, task: Task | None) -> tuple[Mention, ...]:
    """Whose turn a completion's next occurrence is, mentioned so they are told (SPEC section 39); none without
    turns."""
    if task is None or task.group_id is None or not (task.recurrence and task.recurrence.rotation):
        return ()
    users = [person.id for person in task.assignees]
    conn = turn.uow.conn
    forms = group_mentions(conn, task.group_id, users)
    return tuple(Mention(*forms[user]) for user in users if user in forms)
