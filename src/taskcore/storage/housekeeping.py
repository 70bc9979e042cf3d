"""Bookkeeping tables: reminder deliveries, inbound de-duplication, metric counters, and the daily clean-up.

SPEC sections 5 (a message id seen before is ignored), 10 (one delivery per user and slot; maintenance) and 11
(counters bumped in the web process show at the bot's /metrics).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Connection, Delete, delete, select

from taskcore.storage import web_auth
from taskcore.storage.db import Database
from taskcore.storage.schema import inbound_messages, metric_counters, outbound_queue, reminder_deliveries
from taskcore.storage.sql import dialect_insert, insert_ignore

DELIVERY_OUTCOMES = frozenset({"sent", "empty", "late"})
_IN_CHUNK = 500  # bound on bind parameters per IN list, well under SQLite's and PostgreSQL's limits
rd, im, mc, oq = reminder_deliveries, inbound_messages, metric_counters, outbound_queue


def claim_delivery(conn: Connection, *, user_id: str, slot: str, outcome: str, now: datetime) -> bool:
    """Record the (user, slot) delivery; True only for the one caller whose row was inserted."""
    if outcome not in DELIVERY_OUTCOMES:
        raise ValueError(f"unknown delivery outcome {outcome!r}")
    row = {"user_id": user_id, "slot": slot, "outcome": outcome, "recorded_at": now}
    return insert_ignore(conn, rd, row, ["user_id", "slot"])


def delivered(conn: Connection, *, user_ids: Iterable[str], slots: Iterable[str]) -> set[tuple[str, str]]:
    """The (user, slot) pairs among ``user_ids`` x ``slots`` that already have a recorded delivery."""
    users, wanted = list(dict.fromkeys(user_ids)), list(dict.fromkeys(slots))
    found: set[tuple[str, str]] = set()
    if not wanted:
        return found
    for start in range(0, len(users), _IN_CHUNK):
        chunk = users[start : start + _IN_CHUNK]
        stmt = select(rd.c.user_id, rd.c.slot).where(rd.c.user_id.in_(chunk), rd.c.slot.in_(wanted))
        found.update((user_id, slot) for user_id, slot in conn.execute(stmt))
    return found


def first_sighting(target: Database | Connection, *, instance: str, message_id: str, now: datetime) -> bool:
    """True the first time (instance, message_id) is seen; False for a redelivery."""
    row = {"instance": instance, "message_id": message_id, "seen_at": now}
    if isinstance(target, Database):
        return target.transact(lambda conn: insert_ignore(conn, im, row, ["instance", "message_id"]))
    return insert_ignore(target, im, row, ["instance", "message_id"])


def bump_counter(conn: Connection, name: str, label: str = "", by: int = 1) -> None:
    """Add ``by`` to the (name, label) counter, creating it at ``by``."""
    stmt = dialect_insert(conn, mc).values(name=name, label=label, value=by)
    stmt = stmt.on_conflict_do_update(
        index_elements=[mc.c.name, mc.c.label], set_={"value": mc.c.value + stmt.excluded.value}
    )
    conn.execute(stmt)


def read_counters(db: Database) -> dict[tuple[str, str], int]:
    """Every counter by (name, label)."""
    with db.read() as conn:
        rows = conn.execute(select(mc.c.name, mc.c.label, mc.c.value))
        return {(name, label): int(value) for name, label, value in rows}


def delete_expired_auth(db: Database, *, now: datetime) -> int:
    """Delete login tokens and sessions that can no longer be used; the number of rows deleted."""
    return db.transact(lambda conn: web_auth.delete_expired(conn, now=now))


def delete_old_deliveries(db: Database, *, older_than: datetime) -> int:
    """Delete delivery records made before ``older_than``; the number deleted."""
    return _delete(db, delete(rd).where(rd.c.recorded_at < older_than))


def delete_old_inbound(db: Database, *, older_than: datetime) -> int:
    """Delete inbound message ids first seen before ``older_than``; the number deleted."""
    return _delete(db, delete(im).where(im.c.seen_at < older_than))


def delete_sent_queue_rows(db: Database, *, older_than: datetime) -> int:
    """Delete queue rows sent before ``older_than``; failed and pending rows are kept. The number deleted."""
    return _delete(db, delete(oq).where(oq.c.status == "sent", oq.c.sent_at < older_than))


def _delete(db: Database, stmt: Delete) -> int:
    return db.transact(lambda conn: int(conn.execute(stmt).rowcount))
