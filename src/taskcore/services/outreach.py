"""Messages the bot starts for a person on its own (SPEC section 25): reminders, nags, notices, as opposed to
replies to what the person sent (which are never held). One door for all of them, so quiet hours (held and merged)
apply to each the same way."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from taskcore.gateway.wire import send_text_body
from taskcore.queue_rules import JobKind
from taskcore.storage.queue import enqueue


def start_message(conn: Connection, *, user_id: str, chat_id: str, text: str, label: str, max_attempts: int,
                  now: datetime, dedupe_key: str | None = None, task_id: int | None = None) -> int | None:
    """Queue a message the bot starts for ``user_id`` in their direct chat ``chat_id``; the queued job's id (None:
    ``dedupe_key`` was queued before)."""
    return enqueue(conn, chat_id=chat_id, kind=JobKind.TEXT, payload=send_text_body(chat_id=chat_id, text=text),
                   label=label, dedupe_key=dedupe_key, max_attempts=max_attempts, now=now, task_id=task_id)
