"""The daily clean-up's deletes: each table loses exactly what is past its retention, and keeps its boundary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Column, select

from taskcore.storage import sightings
from taskcore.storage.db import Database
from taskcore.storage.retention import (
    delete_expired_auth,
    delete_old_deliveries,
    delete_old_inbound,
    delete_sent_queue_rows,
)
from taskcore.storage.schema import (
    inbound_messages,
    outbound_queue,
    reminder_deliveries,
    web_sessions,
    web_tokens,
)
from taskcore.storage.users import ensure_users
from tests.queries import claim_delivery

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TICK = timedelta(microseconds=1)
DAY = timedelta(days=1)
SLOT = "2026-01-05T07:30Z"


def with_users(db: Database, *user_ids: str) -> None:
    with db.write() as conn:
        ensure_users(conn, user_ids, NOW)


def values_of(db: Database, column: Column[str]) -> set[str]:
    with db.read() as conn:
        return set(conn.execute(select(column)).scalars())


def add_token(db: Database, name: str, *, expires_at: datetime, used_at: datetime | None = None) -> None:
    with_users(db, "1")
    row = {"token_hash": name, "user_id": "1", "created_at": NOW - 2 * DAY, "expires_at": expires_at}
    with db.write() as conn:
        conn.execute(web_tokens.insert().values(**row, used_at=used_at))


def add_session(db: Database, name: str, *, expires_at: datetime, last_used_at: datetime) -> None:
    with_users(db, "1")
    row = {"id_hash": name, "user_id": "1", "created_at": NOW - 20 * DAY}
    with db.write() as conn:
        conn.execute(web_sessions.insert().values(**row, expires_at=expires_at, last_used_at=last_used_at))


def add_queue_row(db: Database, chat: str, *, status: str, sent_at: datetime | None) -> None:
    row = {"kind": "text", "payload": "{}", "max_attempts": 6, "next_attempt_at": NOW - 30 * DAY}
    stamps = {"created_at": NOW - 30 * DAY, "updated_at": NOW - 30 * DAY, "sent_at": sent_at}
    with db.write() as conn:
        conn.execute(outbound_queue.insert().values(**row, **stamps, chat_id=chat, status=status))


def test_tokens_are_deleted_from_their_expiry_on(db: Database) -> None:
    add_token(db, "expired", expires_at=NOW)
    add_token(db, "live", expires_at=NOW + TICK)
    assert db.transact(lambda conn: delete_expired_auth(conn, now=NOW)) == 1
    assert values_of(db, web_tokens.c.token_hash) == {"live"}


def test_used_tokens_are_deleted_a_day_after_use(db: Database) -> None:
    add_token(db, "used-long-ago", expires_at=NOW + DAY, used_at=NOW - DAY - TICK)
    add_token(db, "used-a-day-ago", expires_at=NOW + DAY, used_at=NOW - DAY)
    assert db.transact(lambda conn: delete_expired_auth(conn, now=NOW)) == 1
    assert values_of(db, web_tokens.c.token_hash) == {"used-a-day-ago"}


def test_sessions_are_deleted_from_their_absolute_expiry_on(db: Database) -> None:
    add_session(db, "expired", expires_at=NOW, last_used_at=NOW - TICK)
    add_session(db, "live", expires_at=NOW + TICK, last_used_at=NOW - TICK)
    assert db.transact(lambda conn: delete_expired_auth(conn, now=NOW)) == 1
    assert values_of(db, web_sessions.c.id_hash) == {"live"}


def test_sessions_are_deleted_after_7_days_unused(db: Database) -> None:
    add_session(db, "idle", expires_at=NOW + DAY, last_used_at=NOW - 7 * DAY)
    add_session(db, "live", expires_at=NOW + DAY, last_used_at=NOW - 7 * DAY + TICK)
    assert db.transact(lambda conn: delete_expired_auth(conn, now=NOW)) == 1
    assert values_of(db, web_sessions.c.id_hash) == {"live"}


def test_deliveries_older_than_the_boundary_are_deleted(db: Database) -> None:
    with_users(db, "1", "2")
    with db.write() as conn:
        claim_delivery(conn, user_id="1", slot=SLOT, outcome="sent", now=NOW - TICK)
        claim_delivery(conn, user_id="2", slot=SLOT, outcome="sent", now=NOW)
    assert db.transact(lambda conn: delete_old_deliveries(conn, older_than=NOW)) == 1
    assert values_of(db, reminder_deliveries.c.user_id) == {"2"}


def test_inbound_ids_older_than_the_boundary_are_deleted(db: Database) -> None:
    first_sighting(db, instance="old", message_id="A", now=NOW - TICK)
    first_sighting(db, instance="new", message_id="A", now=NOW)
    assert db.transact(lambda conn: delete_old_inbound(conn, older_than=NOW)) == 1
    assert values_of(db, inbound_messages.c.instance) == {"new"}
    assert first_sighting(db, instance="old", message_id="A", now=NOW) is True


def test_sent_queue_rows_older_than_the_boundary_are_deleted(db: Database) -> None:
    add_queue_row(db, "sent-before", status="sent", sent_at=NOW - TICK)
    add_queue_row(db, "sent-at", status="sent", sent_at=NOW)
    assert db.transact(lambda conn: delete_sent_queue_rows(conn, older_than=NOW)) == 1
    assert values_of(db, outbound_queue.c.chat_id) == {"sent-at"}


def test_failed_and_waiting_queue_rows_are_kept_however_old(db: Database) -> None:
    add_queue_row(db, "failed", status="failed", sent_at=None)
    add_queue_row(db, "pending", status="pending", sent_at=None)
    add_queue_row(db, "sending", status="sending", sent_at=None)
    assert db.transact(lambda conn: delete_sent_queue_rows(conn, older_than=NOW)) == 0
    assert values_of(db, outbound_queue.c.chat_id) == {"failed", "pending", "sending"}


def test_clean_ups_on_empty_tables_delete_nothing(db: Database) -> None:
    assert db.transact(lambda conn: delete_expired_auth(conn, now=NOW)) == 0
    assert db.transact(lambda conn: delete_old_deliveries(conn, older_than=NOW)) == 0
    assert db.transact(lambda conn: delete_old_inbound(conn, older_than=NOW)) == 0
    assert db.transact(lambda conn: delete_sent_queue_rows(conn, older_than=NOW)) == 0


def first_sighting(db: Database, *, instance: str, message_id: str, now: datetime) -> bool:
    """One sighting in its own transaction."""
    return db.transact(lambda conn: sightings.first_sighting(conn, instance=instance, message_id=message_id, now=now))
