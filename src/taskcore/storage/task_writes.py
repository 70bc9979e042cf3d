"""Creating a task from the chat: the writes of ``services.tasks.create_task``, one statement each, no read-back.

The chat has just resolved the creator and the mentioned people (they exist), sanitised the description (before
writing anything) and knows everything the reply shows, so the task and its assignments are inserted directly: a
group task assigned to the given people (none: unassigned), a personal task to its creator, the origin recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, insert

from taskcore.model import Origin
from taskcore.storage.prepared import Prepared
from taskcore.storage.schema import task_assignments, tasks

_TASK_KEYS = ("group_id", "description", "due_date", "created_by", "created_at", "completed", "origin_chat_id",
              "origin_message_id", "origin_participant", "origin_message_at")
# Built once; rows go in as parameters. Every "/t nueva" runs them: prepared (storage/prepared.py).
_INSERT_TASK = Prepared(insert(tasks).returning(tasks.c.id), _TASK_KEYS)
_INSERT_ASSIGNMENT = Prepared(insert(task_assignments), ["task_id", "user_id", "assigned_at", "assigned_by"])


@dataclass(frozen=True, slots=True)
class CreatedTask:
    """What the chat shows of a task it has just created."""

    id: int
    description: str
    due_date: date | None
    group_id: str | None
    assignee_ids: tuple[str, ...]


def create_task(
    conn: Connection,
    *,
    creator: str,
    description: str,
    group_id: str | None,
    due: date | None,
    assignees: Sequence[str],
    origin: Origin | None,
    now: datetime,
) -> CreatedTask:
    """A group task for ``assignees`` (none: unassigned) or a personal task for its creator; users must exist and
    ``description`` be sanitised (``sanitize_description``)."""
    text = description
    people = tuple(dict.fromkeys(assignees)) if group_id else (creator,)
    row: dict[str, Any] = {
        "group_id": group_id, "description": text, "due_date": due.isoformat() if due else None,
        "created_by": creator, "created_at": now, "completed": False,
        "origin_chat_id": None, "origin_message_id": None, "origin_participant": None, "origin_message_at": None,
    }
    if origin is not None:
        row |= {"origin_chat_id": origin.chat_id, "origin_message_id": origin.message_id,
                "origin_participant": origin.participant, "origin_message_at": origin.sent_at}
    inserted = _INSERT_TASK.first(conn, row)
    if inserted is None:  # pragma: no cover - an INSERT ... RETURNING always returns its row
        raise AssertionError("the task insert returned no id")
    task_id = int(inserted[0])
    for user in people:
        _INSERT_ASSIGNMENT.run(conn, {"task_id": task_id, "user_id": user, "assigned_at": now, "assigned_by": creator})
    return CreatedTask(task_id, text, due, group_id, people)
