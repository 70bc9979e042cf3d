"""Queueing reactions: robot and warn on commands, check on the message that created a completed task."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from taskcore.gateway.outbound import reaction_payload
from taskcore.model import Completion
from taskcore.queue_rules import JobKind, emoji_class
from taskcore.reactions import ReactionPolicy, ReactionRequest, completion_check
from taskcore.storage.counters import bump_counter
from taskcore.storage.queue import enqueue
from taskcore.unit import UnitOfWork


def enqueue_reaction(
    conn: Connection,
    policy: ReactionPolicy,
    *,
    chat_id: str,
    message_id: str,
    participant: str | None,
    emoji: str,
    now: datetime,
    dedupe_key: str | None = None,
) -> bool:
    """Queue one reaction when the policy allows it in this chat; count it by emoji class."""
    if not policy.in_scope(chat_id):
        return False
    body = reaction_payload(chat_id=chat_id, message_id=message_id, participant=participant, emoji=emoji)
    label = emoji_class(emoji)
    job = enqueue(conn, chat_id=chat_id, kind=JobKind.REACTION, payload=body, label=label,
                  dedupe_key=dedupe_key, max_attempts=policy.max_attempts, now=now)
    if job is None:
        return False
    bump_counter(conn, "reactions_enqueued", label)
    return True


def react_to_completion(uow: UnitOfWork, policy: ReactionPolicy, completion: Completion, *, now: datetime) -> bool:
    """Queue the check mark on the origin message of a task this call completed (once per task)."""
    mark = completion_check(policy, completion, now)
    if mark is None:
        return False
    return enqueue_request(uow.conn, policy, mark, now=now)


def enqueue_request(conn: Connection, policy: ReactionPolicy, mark: ReactionRequest, *, now: datetime) -> bool:
    """``enqueue_reaction`` for a ReactionRequest."""
    return enqueue_reaction(conn, policy, chat_id=mark.chat_id, message_id=mark.message_id,
                            participant=mark.participant, emoji=mark.emoji, now=now, dedupe_key=mark.dedupe_key)
