"""One webhook event in, its effects out: dispatch by event kind, then queue what it sends."""

from __future__ import annotations

from sqlalchemy import Connection

from taskcore.chat.membership import groups_upserted, participants_changed
from taskcore.chat.messages import handle_message
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult
from taskcore.chat.unit import in_one_transaction
from taskcore.gateway.inbound import (
    ConnectionChanged,
    GroupsUpserted,
    Ignored,
    InboundEvent,
    InboundMessage,
    ParticipantsChange,
)
from taskcore.outbound import JobKind
from taskcore.services.reactions import enqueue_reaction
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue


def decide(db: Database, policy: ChatPolicy, event: InboundEvent, moment: Moment) -> ChatResult:
    """Apply the event to the database and say what to send and count (nothing is queued yet)."""
    if isinstance(event, InboundMessage):
        return handle_message(db, policy, event, moment)
    if isinstance(event, ParticipantsChange):
        return participants_changed(db, policy, event, moment)
    if isinstance(event, GroupsUpserted):
        return groups_upserted(db, policy, event, moment)
    if isinstance(event, ConnectionChanged):
        return ChatResult(f"connection {event.state or 'unknown'}")
    return ChatResult(f"ignored: {event.reason}")


def deliver(db: Database, policy: ChatPolicy, result: ChatResult, moment: Moment) -> None:
    """Queue the result's texts, then its reactions (those the reactions policy allows), in one transaction."""
    if not result.texts and not result.reactions:
        return

    def work(conn: Connection) -> None:
        for text in result.texts:
            enqueue(conn, chat_id=text.chat_id, kind=JobKind.TEXT, payload=text.payload, label=text.label,
                    dedupe_key=text.dedupe_key, max_attempts=policy.max_attempts, now=moment.now)
        for mark in result.reactions:
            enqueue_reaction(conn, policy.reactions, chat_id=mark.chat_id, message_id=mark.message_id,
                             participant=mark.participant, emoji=mark.emoji, now=moment.now,
                             dedupe_key=mark.dedupe_key)

    db.transact(work)


def handle_event(db: Database, policy: ChatPolicy, event: InboundEvent, moment: Moment) -> ChatResult:
    """Decide and deliver in one transaction: the one call per webhook event; nothing is kept if it fails."""
    if isinstance(event, Ignored | ConnectionChanged):
        return decide(db, policy, event, moment)

    def work(joined: Database) -> ChatResult:
        result = decide(joined, policy, event, moment)
        deliver(joined, policy, result, moment)
        return result

    return in_one_transaction(db, work)
