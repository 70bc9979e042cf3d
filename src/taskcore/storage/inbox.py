"""Queries on the inbox of webhook events (SPEC section 17): store, claim in order per chat, mark done or failed.

A chat's events are handled in id order: a claim takes pending rows oldest first and keeps, for each chat key, only
those no earlier pending row of the same key precedes outside the claim. On SQLite the one writer's transaction
sees every pending row, so that is all of them; on PostgreSQL rows are locked ``FOR UPDATE SKIP LOCKED`` and a chat
whose earlier rows another processor holds is left for later. The claim lasts as long as its transaction: the
rows are marked done in the transaction of their effects, and a processor that dies takes its locks (and its
uncommitted effects) with it, so its rows are pending again at once.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, exists, func, select, update

from taskcore.queue_rules import truncate_error
from taskcore.storage.counters import bump_counter
from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import inbound_messages, inbox

PENDING, DONE, FAILED = "pending", "done", "failed"
INBOX_FAILURES = "webhook_inbox_failures"  # the metric counter of events marked failed
_NEW_KEYS = ("chat_key", "event", "path_event", "payload", "status", "received_at", "done_at", "gateway")
# One row per event, with RETURNING so the caller learns each row's id (an executemany would not tell).
_INSERT = Prepared(lambda dialect: inbox.insert().returning(inbox.c.id), _NEW_KEYS)
_ANY_PENDING = Prepared(select(exists().where(inbox.c.status == bindparam("status"))), ["status"])


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to store: its chat key (the order it must keep), its kind, the per-event URL suffix it came on, the
    webhook body exactly as received (JSON text) and the gateway that sent it (whose decoder reads it again)."""

    chat_key: str
    event: str | None
    path_event: str | None
    payload: str
    gateway: str = "evolution"


@dataclass(frozen=True, slots=True)
class InboxRow:
    """A claimed pending event."""

    id: int
    chat_key: str
    path_event: str | None
    payload: str
    received_at: datetime
    gateway: str = "evolution"


def insert_events(conn: Connection, events: Sequence[NewEvent], *, now: datetime, done: bool = False) -> list[int]:
    """Store the events, in order, as pending rows (or as done at ``now``: handled in this transaction); their ids."""
    ids = []
    status, done_at = (DONE, now) if done else (PENDING, None)
    for event in events:
        row = _INSERT.first(conn, {"chat_key": event.chat_key, "event": event.event, "path_event": event.path_event,
                                   "payload": event.payload, "status": status, "received_at": now,
                                   "done_at": done_at, "gateway": event.gateway})
        assert row is not None  # noqa: S101 - INSERT ... RETURNING always yields the new row
        ids.append(int(row[0]))
    return ids


def waiting_chats(conn: Connection, chat_keys: Collection[str]) -> set[str]:
    """The chat keys among ``chat_keys`` that have pending rows (one index probe when nothing is pending)."""
    if not chat_keys or not (_ANY_PENDING.first(conn, {"status": PENDING}) or (False,))[0]:
        return set()
    found = conn.execute(select(inbox.c.chat_key).distinct()
                         .where(inbox.c.status == PENDING, inbox.c.chat_key.in_(list(chat_keys))))
    return {str(key) for key, in found}


def claim_pending(conn: Connection, *, limit: int) -> list[InboxRow]:
    """Up to ``limit`` pending rows, oldest first, that may be handled now in this transaction (module docstring)."""
    stmt = (select(inbox.c.id, inbox.c.chat_key, inbox.c.path_event, inbox.c.payload, inbox.c.received_at,
                   inbox.c.gateway).where(inbox.c.status == PENDING).order_by(inbox.c.id).limit(limit))
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(skip_locked=True)
    rows = [InboxRow(int(r.id), r.chat_key, r.path_event, r.payload, r.received_at, r.gateway)
            for r in conn.execute(stmt)]
    if conn.dialect.name != "postgresql" or not rows:
        return rows
    return _in_chat_order(conn, rows)


def _in_chat_order(conn: Connection, rows: list[InboxRow]) -> list[InboxRow]:
    """The rows of each chat that no pending row held elsewhere precedes (a prefix of the chat's pending rows)."""
    mine = [row.id for row in rows]
    elsewhere = conn.execute(
        select(inbox.c.chat_key, func.min(inbox.c.id))
        .where(inbox.c.status == PENDING, inbox.c.id <= max(mine), inbox.c.id.not_in(mine),
               inbox.c.chat_key.in_({row.chat_key for row in rows}))
        .group_by(inbox.c.chat_key))
    cut = {str(key): int(first) for key, first in elsewhere}
    return [row for row in rows if row.id < cut.get(row.chat_key, row.id + 1)]


def mark_done(conn: Connection, ids: Sequence[int], *, now: datetime) -> None:
    """The events of ``ids`` were handled (in this transaction)."""
    if ids:
        conn.execute(update(inbox).where(inbox.c.id.in_(list(ids))).values(status=DONE, done_at=now))


def mark_failed(conn: Connection, row_id: int, *, error: str, now: datetime) -> None:
    """The event broke the code that handles it: kept as failed with the error's first line, not tried again until
    an operator says so (`tasksvc retry`); counted in ``webhook_inbox_failures`` (the alert's counter: a count of
    the failed rows kept for 30 days would keep it firing for a month)."""
    conn.execute(update(inbox).where(inbox.c.id == row_id).values(
        status=FAILED, done_at=now, last_error=truncate_error(error)))
    bump_counter(conn, INBOX_FAILURES)


def count_open(conn: Connection) -> dict[str, int]:
    """Pending and failed rows (two index counts; done rows, the many, are not counted)."""
    return {status: int(conn.execute(select(func.count()).select_from(inbox).where(inbox.c.status == status))
                        .scalar_one()) for status in (PENDING, FAILED)}


# Inbound de-duplication (SPEC section 5): a message id seen before, per gateway instance, is ignored. The road
# records its events' ids in the transaction that stores them.
im = inbound_messages


# The webhook runs it for every message: prepared (storage/prepared.py).
_SIGHTING = Prepared(lambda dialect: dialect_insert(dialect, im).on_conflict_do_nothing(
    index_elements=["instance", "message_id"]).returning(im.c.message_id), ["instance", "message_id", "seen_at"])


def first_sighting(conn: Connection, *, instance: str, message_id: str, now: datetime) -> bool:
    """True the first time (instance, message_id) is seen; False for a redelivery."""
    row = {"instance": instance, "message_id": message_id, "seen_at": now}
    return _SIGHTING.first(conn, row) is not None


# Rows per statement: one statement per size, so a few cover any count (15 = 8 + 4 + 2 + 1) and the driver's cache
# of prepared statements (128 a connection) keeps them all.
_SIZES = (32, 16, 8, 4, 2, 1)
_MANY: dict[int, Prepared] = {}


def _many(rows: int) -> Prepared:
    """``_SIGHTING`` for ``rows`` rows at once (parameters ``instance_<n>``, ``message_id_<n>``, ``seen_at_<n>``)."""
    found = _MANY.get(rows)
    if found is None:
        names = [(f"instance_{n}", f"message_id_{n}", f"seen_at_{n}") for n in range(rows)]
        values = [{"instance": bindparam(instance), "message_id": bindparam(message_id),
                   "seen_at": bindparam(seen_at, type_=im.c.seen_at.type)} for instance, message_id, seen_at in names]
        found = _MANY[rows] = Prepared(
            lambda dialect: dialect_insert(dialect, im).values(values).on_conflict_do_nothing(
                index_elements=["instance", "message_id"]).returning(im.c.instance, im.c.message_id),
            [name for row in names for name in row])
    return found


def first_sightings(conn: Connection, sightings: Sequence[tuple[str, str, datetime]]) -> list[bool]:
    """``first_sighting`` of each (instance, message_id, now), in order, in a few statements (``_SIZES``): a pair given
    twice is seen first once, as one at a time would have it."""
    new: set[tuple[str, str]] = set()
    at = 0
    while at < len(sightings):
        size = next(size for size in _SIZES if size <= len(sightings) - at)
        chunk, at = sightings[at:at + size], at + size
        params: dict[str, Any] = {}
        for n, (instance, message_id, now) in enumerate(chunk):
            params[f"instance_{n}"], params[f"message_id_{n}"], params[f"seen_at_{n}"] = instance, message_id, now
        new.update((instance, message_id) for instance, message_id in _many(len(chunk)).all(conn, params))
    firsts = []
    for instance, message_id, _ in sightings:
        firsts.append((instance, message_id) in new)
        new.discard((instance, message_id))
    return firsts
