"""One webhook event in, its effects out: dispatch by event kind, then queue what it sends."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.chat.membership import groups_upserted, participants_changed
from taskcore.chat.messages import handle_message
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.reacting import handle_reaction
from taskcore.chat.result import ChatResult
from taskcore.chat.transaction import in_one_transaction
from taskcore.gateway.inbound import (
    ConnectionChanged,
    GroupsUpserted,
    Ignored,
    InboundEvent,
    InboundMessage,
    InboundReaction,
    ParticipantsChange,
    chat_key,
)
from taskcore.services.queue import queue_all_replies, queue_replies
from taskcore.storage.db import Database, is_schema_error, is_unavailable


def decide(db: Database, policy: ChatPolicy, event: InboundEvent, moment: Moment, *,
           sighted: bool | None = None) -> ChatResult:
    """Apply the event to the database and say what to send and count (nothing is queued yet); ``sighted`` as in
    ``handle_message``, for a message."""
    if isinstance(event, InboundMessage):
        return handle_message(db, policy, event, moment, sighted=sighted)
    if isinstance(event, InboundReaction):
        return handle_reaction(db, policy, event, moment)
    if isinstance(event, ParticipantsChange):
        return participants_changed(db, policy, event, moment)
    if isinstance(event, GroupsUpserted):
        return groups_upserted(db, policy, event, moment)
    if isinstance(event, ConnectionChanged):
        return ChatResult(f"connection {event.state or 'unknown'}")
    return ChatResult(f"ignored: {event.reason}")


def deliver(db: Database, policy: ChatPolicy, result: ChatResult, moment: Moment) -> None:
    """Queue the result's texts, then its reactions (those the reactions policy allows), in one transaction."""
    queue_replies(db, result.texts, result.reactions, reaction_policy=policy.reactions,
                  max_attempts=policy.max_attempts, now=moment.now)


def deliver_all(db: Database, policy: ChatPolicy, batch: Sequence[tuple[ChatResult, Moment]]) -> None:
    """``deliver`` for the results of several events, in their order, in one transaction (their texts in one driver
    call: ``queue_all_replies``)."""
    queue_all_replies(db, [(result.texts, result.reactions, moment.now) for result, moment in batch],
                      reaction_policy=policy.reactions, max_attempts=policy.max_attempts)


def handle_event(db: Database, policy: ChatPolicy, event: InboundEvent, moment: Moment) -> ChatResult:
    """Decide and deliver in one transaction: the one call per webhook event; nothing is kept if it fails."""
    if isinstance(event, Ignored | ConnectionChanged):
        return decide(db, policy, event, moment)

    def work(joined: Database) -> ChatResult:
        return _decide_and_deliver(joined, policy, event, moment)

    return in_one_transaction(db, work)


def handle_events(
    db: Database, policy: ChatPolicy, batch: Sequence[tuple[InboundEvent, Moment]]
) -> list[ChatResult | Exception]:
    """Several events of different chats in one transaction (group commit), each as ``handle_event`` would.

    When any of them fails nothing of the batch is kept, and each is handled again alone, so the others still take
    effect and the failing one leaves nothing behind. The result of each event, or the exception it failed with.
    When the database cannot take an event now (``is_unavailable``), the later events of its chat are not tried
    and report the same exception: the caller keeps them, in order, for a later try.
    A retried event must see the same moment (and the same rate-limit decision: ``Moment.take_token`` memoised).
    """
    together = _all_or_nothing(db, policy, batch) if len(batch) > 1 else None
    if together is not None:
        return list(together)
    results: list[ChatResult | Exception] = []
    stalled: dict[str, Exception] = {}
    for event, moment in batch:
        key = chat_key(event)
        if key in stalled:
            results.append(stalled[key])
            continue
        try:
            results.append(handle_event(db, policy, event, moment))
        except Exception as exc:  # reported to the caller, per event
            results.append(exc)
            if is_unavailable(exc) or is_schema_error(exc):
                stalled[key] = exc
    return results


def _all_or_nothing(
    db: Database, policy: ChatPolicy, batch: Sequence[tuple[InboundEvent, Moment]]
) -> list[ChatResult] | None:
    """Every event in one transaction; None when one failed (then nothing was kept)."""
    try:
        return in_one_transaction(db, lambda joined: [
            _decide_and_deliver(joined, policy, event, moment) for event, moment in batch])
    except Exception:  # which event failed, and why, is found by handling each alone
        return None


def _decide_and_deliver(joined: Database, policy: ChatPolicy, event: InboundEvent, moment: Moment) -> ChatResult:
    result = decide(joined, policy, event, moment)
    deliver(joined, policy, result, moment)
    return result
