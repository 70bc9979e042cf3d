"""Which task a message of the conversation is about (SPEC section 18): the use case the chat asks."""

from __future__ import annotations

from taskcore.storage import links
from taskcore.storage.db import Database


def task_for_message(db: Database, *, message_id: str) -> int | None:
    """The task a quoted or reacted message is linked to (it created the task, or the bot wrote it about exactly
    that task), or None. Whether the asker may see or act on the task is the task use cases' business."""
    with db.read() as conn:
        return links.task_of_message(conn, message_id)
