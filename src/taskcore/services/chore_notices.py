"""What the chores (SPEC section 25) say in a group on their own: a text mentioning people, queued as the chat's
replies mention them (``@<digits>`` in the text, their JIDs in ``mentioned``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection

from taskcore.gateway.wire import mention_jid, send_text_body
from taskcore.queue_rules import JobKind
from taskcore.storage.queue import enqueue

CHORE_LABEL = "chore"


def tag(user_id: str) -> str:
    """How a text mentions a person: ``@<digits>``."""
    return f"@{user_id.partition('@')[0]}"


def post_in_group(conn: Connection, group_id: str, text: str, people: Sequence[str], *, dedupe_key: str,
                  task_id: int, max_attempts: int, now: datetime) -> int | None:
    """Queue ``text`` in the group, mentioning ``people``; None when ``dedupe_key`` was queued before."""
    body = send_text_body(chat_id=group_id, text=text, mentioned=[mention_jid(user) for user in people])
    return enqueue(conn, chat_id=group_id, kind=JobKind.TEXT, payload=body, label=CHORE_LABEL, dedupe_key=dedupe_key,
                   max_attempts=max_attempts, now=now, task_id=task_id)
