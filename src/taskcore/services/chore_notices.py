"""What the chores (SPEC section 25) say in a group on their own: a text mentioning people, queued as the chat's
replies mention them (``@<digits>`` in the text, their JIDs in ``mentioned``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection

from taskcore.gateway.outbound import text_payload
from taskcore.queue_rules import JobKind
from taskcore.services.people import group_mentions
from taskcore.storage.queue import enqueue

CHORE_LABEL = "chore"


def tags(conn: Connection, group_id: str, people: Sequence[str]) -> dict[str, str]:
    """How a text mentions each person in the group: ``@<digits>`` in the form the group uses (SPEC 31, 32)."""
    return {user: f"@{digits}" for user, (digits, _) in group_mentions(conn, group_id, people).items()}


def post_in_group(conn: Connection, group_id: str, text: str, people: Sequence[str], *, dedupe_key: str,
                  task_id: int, max_attempts: int, now: datetime) -> int | None:
    """Queue ``text`` in the group, mentioning ``people`` as ``tags`` writes them; None when ``dedupe_key`` was
    queued before."""
    forms = group_mentions(conn, group_id, people)
    body = text_payload(chat_id=group_id, text=text, mentioned=[forms[user][1] for user in people])
    return enqueue(conn, chat_id=group_id, kind=JobKind.TEXT, payload=body, label=CHORE_LABEL, dedupe_key=dedupe_key,
                   max_attempts=max_attempts, now=now, task_id=task_id)
