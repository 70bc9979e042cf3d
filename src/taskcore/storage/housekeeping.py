"""Bookkeeping tables: reminder deliveries, inbound de-duplication, metric counters, and the daily clean-up.

SPEC sections 5 (a message id seen before is ignored), 10 (one delivery per user and slot; maintenance) and 11
(counters bumped in the web process show at the bot's /metrics).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Delete, bindparam, delete, select

from taskcore.storage import web_auth
from taskcore.storage.db import Database
from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import inbound_messages, metric_counters, outbound_queue, reminder_deliveries

DELIVERY_OUTCOMES = frozenset({"sent", "empty", "late"})
_IN_CHUNK = 500  # bound on bind parameters per IN list, well under SQLite's and PostgreSQL's limits
rd, im, mc, oq = reminder_deliveries, inbound_messages, metric_counters, outbound_queue


# The reminder tick claims every due slot with it, thousands at 08:30: prepared (storage/prepared.py).
_CLAIM = Prepared(lambda dialect: dialect_insert(dialect, rd).on_conflict_do_nothing(
    index_elements=["user_id", "slot"]).returning(rd.c.user_id), ["user_id", "slot", "outcome", "recorded_at"])


def claim_delivery(conn: Connection, *, user_id: str, slot: str, outcome: str, now: datetime) -> bool:
    """Record the (user, slot) delivery; True only for the one caller whose row was inserted."""
    if outcome not in DELIVERY_OUTCOMES:
        raise ValueError(f"unknown delivery outcome {outcome!r}")
    row = {"user_id": user_id, "slot": slot, "outcome": outcome, "recorded_at": now}
    return _CLAIM.first(conn, row) is not None


@lru_cache(maxsize=8)
def _claim_many(count: int) -> Prepared:
    """INSERT of ``count`` delivery rows at once (parameters u0, s0, o0, r0, u1, ...), returning those inserted."""
    columns = ("user_id", "slot", "outcome", "recorded_at")
    rows = [{c: bindparam(f"{c[0]}{i}", type_=rd.c[c].type) for c in columns} for i in range(count)]
    keys = [f"{c[0]}{i}" for i in range(count) for c in columns]
    return Prepared(lambda dialect: dialect_insert(dialect, rd).values(rows).on_conflict_do_nothing(
        index_elements=["user_id", "slot"]).returning(rd.c.user_id, rd.c.slot), keys)


def claim_deliveries(
    conn: Connection, claims: Sequence[tuple[str, str, str]], *, now: datetime
) -> set[tuple[str, str]]:
    """``claim_delivery`` for many (user, slot, outcome) at once, in one statement; the (user, slot) pairs whose
    row this call inserted (the others were recorded by someone else)."""
    if not claims:
        return set()
    params: dict[str, Any] = {}
    for i, (user_id, slot, outcome) in enumerate(claims):
        if outcome not in DELIVERY_OUTCOMES:
            raise ValueError(f"unknown delivery outcome {outcome!r}")
        params |= {f"u{i}": user_id, f"s{i}": slot, f"o{i}": outcome, f"r{i}": now}
    return {(user_id, slot) for user_id, slot in _claim_many(len(claims)).all(conn, params)}


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


# The webhook runs it for every message: prepared (storage/prepared.py).
_SIGHTING = Prepared(lambda dialect: dialect_insert(dialect, im).on_conflict_do_nothing(
    index_elements=["instance", "message_id"]).returning(im.c.message_id), ["instance", "message_id", "seen_at"])


def first_sighting(target: Database | Connection, *, instance: str, message_id: str, now: datetime) -> bool:
    """True the first time (instance, message_id) is seen; False for a redelivery."""
    row = {"instance": instance, "message_id": message_id, "seen_at": now}
    if isinstance(target, Database):
        return target.transact(lambda conn: _SIGHTING.first(conn, row) is not None)
    return _SIGHTING.first(target, row) is not None


def _bump_statement(dialect: str) -> Any:
    stmt = dialect_insert(dialect, mc)
    return stmt.on_conflict_do_update(
        index_elements=[mc.c.name, mc.c.label], set_={"value": mc.c.value + stmt.excluded.value}
    )


_BUMP = Prepared(_bump_statement, ["name", "label", "value"])


def bump_counter(conn: Connection, name: str, label: str = "", by: int = 1) -> None:
    """Add ``by`` to the (name, label) counter, creating it at ``by``."""
    _BUMP.run(conn, {"name": name, "label": label, "value": by})


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
