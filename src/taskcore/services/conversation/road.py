"""The road of every inbox event: stored, admitted, decided, acted on and answered, in one unit of work.

``handle_arrived`` is what the webhook's group commit calls with the events that arrived together: one unit of
work (``Database.unit``) stores them and handles at once those whose chat has nothing pending (their rows are
written done; their messages' ids are recorded together first, and what they send is queued after the last of them
is decided, in their order: nothing the conversation decides reads either but the sighting itself), so an event
costs one commit and no claim; the events of a chat with earlier events still pending are stored pending behind
them, for the processor. When one of the events breaks the code, that unit is rolled back and they are all stored
pending: the processor then finds which one broke, as below.

``handle_inbox`` is what the bot's processor calls. It claims up to ``limit`` pending events (in order per chat),
handles each the same way (``handle``: by kind, then ``queue_all_replies``), and marks them done in the same unit:
a crash before the commit leaves them pending, with none of their effects, for the next try; after it, each has
taken effect once.

The events are first tried together in one transaction, without a SAVEPOINT (on SQLite a savepoint copies every page
it changes to a sub-journal: it doubled the cost of each statement). When one of them fails, that transaction is
rolled back and the events are claimed again and each handled alone under its own SAVEPOINT, with the same moment
(and rate-limit decision): the others still take effect, and the one that broke (a bug) is kept as failed with its
error instead of blocking its chat forever. A database that cannot take the work now (``is_unavailable``) or a
schema error fails the whole call, and every claimed event stays pending.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult
from taskcore.gateway.events import (
    ConnectionChanged,
    DeliveryStatus,
    Echo,
    GatewayEvent,
    GroupsUpserted,
    Ignored,
    InboundEvent,
    InboundMessage,
    InboundPhoto,
    InboundReaction,
    ParticipantsChange,
)
from taskcore.gateway.port import Codec
from taskcore.services.conversation.membership import groups_upserted, participants_changed
from taskcore.services.conversation.messages import handle_message, handle_reaction
from taskcore.services.conversation.photos import handle_photo
from taskcore.services.conversation.store import ConversationUnit
from taskcore.services.queue import queue_all_replies_on
from taskcore.storage import inbox
from taskcore.storage.db import Database, is_schema_error, is_unavailable
from taskcore.storage.inbox import InboxRow, NewEvent

T = TypeVar("T")


def chat_key(event: GatewayEvent) -> str:
    """The key by which the road keeps events in order (a chat's events are handled one after the other): the chat
    of a message, the group of a group event."""
    if isinstance(event, InboundMessage | InboundReaction | InboundPhoto):
        return event.chat_id
    if isinstance(event, ParticipantsChange):
        return event.group_id
    if isinstance(event, GroupsUpserted):
        return event.groups[0].group_id
    return "connection" if isinstance(event, ConnectionChanged) else "ignored"



@dataclass(frozen=True, slots=True)
class Handled:
    """One claimed event, as parsed, and its result or the exception it failed with (then it is kept as failed)."""

    row: InboxRow
    event: InboundEvent
    result: ChatResult | Exception


@dataclass(frozen=True, slots=True)
class Arrived:
    """What ``handle_arrived`` did: the row id of each event (in their order), the events handled at once, and how
    many were stored pending for the processor."""

    ids: list[int]
    handled: list[Handled]
    pending: int


def handle_arrived(
    db: Database, policy: ChatPolicy, events: Sequence[tuple[NewEvent, InboundEvent, Moment]], *,
    wait_ms: int | None = None,
) -> Arrived:
    """Store the events that arrived together (each with what it parsed to and its moment) in one transaction that
    waits at most ``wait_ms`` for the database, handling at once those whose chat has nothing pending (module
    docstring). A database that cannot take them raises, and nothing is stored."""
    if not events:
        return Arrived([], [], 0)
    now = events[0][2].now

    def together(uow: ConversationUnit) -> Arrived:
        waiting = inbox.waiting_chats(uow.conn, {new.chat_key for new, _, _ in events})
        at_once = [n for n, (new, _, _) in enumerate(events) if new.chat_key not in waiting]
        later = [n for n, (new, _, _) in enumerate(events) if new.chat_key in waiting]
        sighted = _message_sightings(uow, [events[n][1:] for n in at_once])
        results = [handle(uow, policy, events[n][1], events[n][2], sighted=first)
                   for n, first in zip(at_once, sighted, strict=True)]
        _queue(uow, policy, [(result, events[n][2]) for n, result in zip(at_once, results, strict=True)])
        done_ids = inbox.insert_events(uow.conn, [events[n][0] for n in at_once], now=now, done=True)
        later_ids = inbox.insert_events(uow.conn, [events[n][0] for n in later], now=now) if later else []
        ids = dict(zip(at_once + later, done_ids + later_ids, strict=True))
        handled = [Handled(_row(row_id, events[n][0], now), events[n][1], result)
                   for n, row_id, result in zip(at_once, done_ids, results, strict=True)]
        return Arrived([ids[n] for n in range(len(events))], handled, len(later))

    def all_pending(uow: ConversationUnit) -> Arrived:
        return Arrived(inbox.insert_events(uow.conn, [new for new, _, _ in events], now=now), [], len(events))

    return _together_or(db, together, all_pending, wait_ms=wait_ms)


def _message_sightings(uow: ConversationUnit, events: Sequence[tuple[InboundEvent, Moment]]) -> list[bool | None]:
    """The messages' ids recorded together, in order (``first_sightings``): whether each is seen for the first time;
    None for the other events, which record what they need themselves."""
    messages = [(event.instance, event.message_id, moment.now) for event, moment in events
                if isinstance(event, InboundMessage)]
    firsts = iter(inbox.first_sightings(uow.conn, messages))
    return [next(firsts) if isinstance(event, InboundMessage) else None for event, _ in events]


def _row(row_id: int, new: NewEvent, now: datetime) -> InboxRow:
    return InboxRow(row_id, new.chat_key, new.path_event, new.payload, now, new.gateway)


def stored_event(row: InboxRow, codecs: Mapping[str, Codec]) -> InboundEvent:
    """The event a stored webhook body carries, read again by the decoder of the gateway that sent it."""
    try:
        payload = json.loads(row.payload)
    except ValueError:
        return Ignored("malformed envelope")
    codec = codecs.get(row.gateway)
    if not isinstance(payload, dict) or codec is None:
        return Ignored("malformed envelope" if codec else f"no decoder for gateway {row.gateway!r}")
    event = codec.decode(payload, path_event=row.path_event)
    return Ignored("not a conversation's event", event.kind) if isinstance(event, Echo | DeliveryStatus) else event


def handle_inbox(
    db: Database, policy: ChatPolicy, moment: Callable[[InboxRow], Moment], *, limit: int,
    codecs: Mapping[str, Codec], parsed: Mapping[int, InboundEvent] | None = None, wait_ms: int | None = None,
) -> list[Handled]:
    """Claim, handle and finish up to ``limit`` pending events in one transaction (module docstring); ``codecs`` read
    a stored event again (by the gateway that sent it), ``parsed`` holds events already decoded by id (those this
    process stored), ``wait_ms`` bounds the wait for the database. Nothing claimed: an empty list."""
    known = parsed or {}
    moments: dict[int, Moment] = {}  # one per event, kept for a second try: the same instant and token decision

    def claimed(uow: ConversationUnit) -> list[tuple[InboxRow, InboundEvent, Moment]]:
        rows = inbox.claim_pending(uow.conn, limit=limit)
        return [(row, known.get(row.id) or stored_event(row, codecs), moments.setdefault(row.id, moment(row)))
                for row in rows]

    def together(uow: ConversationUnit) -> list[Handled]:
        batch = claimed(uow)
        handled = [Handled(row, event, _effects(uow, policy, event, at)) for row, event, at in batch]
        return _finish(uow, handled, moments)

    def alone(uow: ConversationUnit) -> list[Handled]:
        return _finish(uow, [_alone(uow, policy, *item) for item in claimed(uow)], moments)

    return _together_or(db, together, alone, wait_ms=wait_ms)


def _together_or(db: Database, together: Callable[[ConversationUnit], T],
                 otherwise: Callable[[ConversationUnit], T], *, wait_ms: int | None) -> T:
    """``together`` in one unit of work; when one of its events broke the code (nothing of it was kept),
    ``otherwise`` in another. A database that cannot take the work, or a schema error, is raised as it is."""
    try:
        return _committed(db, together, wait_ms=wait_ms)
    except Exception as exc:
        if is_unavailable(exc) or is_schema_error(exc):
            raise
    return _committed(db, otherwise, wait_ms=wait_ms)


def _committed(db: Database, work: Callable[[ConversationUnit], T], *, wait_ms: int | None) -> T:
    """``work`` in a unit of work of ``db`` (waiting at most ``wait_ms`` for it), committed when it returns."""
    with db.unit(wait_ms=wait_ms) as uow:
        done = work(uow)
        uow.commit()
        return done


def _finish(uow: ConversationUnit, handled: list[Handled], moments: Mapping[int, Moment]) -> list[Handled]:
    """Mark the handled events done and the broken ones failed, in the unit of work of their effects."""
    if handled:
        now = moments[handled[0].row.id].now
        inbox.mark_done(uow.conn, [h.row.id for h in handled if not isinstance(h.result, Exception)], now=now)
        for h in handled:
            if isinstance(h.result, Exception):
                inbox.mark_failed(uow.conn, h.row.id, error=_error_line(h.result), now=now)
    return handled


def _alone(uow: ConversationUnit, policy: ChatPolicy, row: InboxRow, event: InboundEvent, moment: Moment) -> Handled:
    try:
        with uow.savepoint():
            return Handled(row, event, _effects(uow, policy, event, moment))
    except Exception as exc:
        if is_unavailable(exc) or is_schema_error(exc):
            raise
        return Handled(row, event, exc)


def _effects(uow: ConversationUnit, policy: ChatPolicy, event: InboundEvent, moment: Moment) -> ChatResult:
    """One event handled alone: decided, then what it sends queued."""
    result = handle(uow, policy, event, moment)
    _queue(uow, policy, [(result, moment)])
    return result


def handle(uow: ConversationUnit, policy: ChatPolicy, event: InboundEvent, moment: Moment, *,
           sighted: bool | None = None) -> ChatResult:
    """The one dispatch of an event, by kind: apply it and say what to send and count (nothing is queued yet);
    ``sighted`` as in ``handle_message``, for a message."""
    if isinstance(event, InboundMessage):
        return handle_message(uow, policy, event, moment, sighted=sighted)
    if isinstance(event, InboundReaction):
        return handle_reaction(uow, policy, event, moment)
    if isinstance(event, InboundPhoto):
        return handle_photo(uow, policy, event, moment)
    if isinstance(event, ParticipantsChange):
        return participants_changed(uow, policy, event, moment)
    if isinstance(event, GroupsUpserted):
        return groups_upserted(uow, policy, event, moment)
    return ChatResult(f"connection {event.state or 'unknown'}" if isinstance(event, ConnectionChanged)
                      else f"ignored: {event.reason}")


def _queue(uow: ConversationUnit, policy: ChatPolicy, batch: Sequence[tuple[ChatResult, Moment]]) -> None:
    """Queue what the events sent, in their order: their texts in one driver call, then the reactions the
    reactions policy allows."""
    queue_all_replies_on(uow.conn, [(result.texts, result.reactions, moment.now) for result, moment in batch],
                         reaction_policy=policy.reactions, max_attempts=policy.max_attempts)


def _error_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
