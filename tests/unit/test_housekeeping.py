"""Bookkeeping tables: reminder deliveries, inbound de-duplication, metric counters and the daily clean-up."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Column, select

from taskcore.storage.db import Database
from taskcore.storage.housekeeping import (
    bump_counter,
    claim_delivery,
    delete_expired_auth,
    delete_old_deliveries,
    delete_old_inbound,
    delete_sent_queue_rows,
    delivered,
    first_sighting,
    read_counters,
)
from taskcore.storage.schema import (
    inbound_messages,
    outbound_queue,
    reminder_deliveries,
    web_sessions,
    web_tokens,
)
from taskcore.storage.users import ensure_users

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TICK = timedelta(microseconds=1)
DAY = timedelta(days=1)
SLOT = "2026-01-05T07:30Z"
NEXT_SLOT = "2026-01-06T07:30Z"


def with_users(db: Database, *user_ids: str) -> None:
    with db.write() as conn:
        ensure_users(conn, user_ids, NOW)


def claim(db: Database, user_id: str = "1", slot: str = SLOT, outcome: str = "sent") -> bool:
    with db.write() as conn:
        return claim_delivery(conn, user_id=user_id, slot=slot, outcome=outcome, now=NOW)


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


# Reminder deliveries


def test_the_first_claim_of_a_slot_records_it(db: Database) -> None:
    with_users(db, "1")
    assert claim(db, outcome="empty") is True
    with db.read() as conn:
        row = conn.execute(select(reminder_deliveries)).one()
    assert tuple(row) == ("1", SLOT, "empty", NOW)


def test_a_slot_is_claimed_only_once_whatever_the_outcome(db: Database) -> None:
    with_users(db, "1")
    claim(db, outcome="sent")
    assert claim(db, outcome="late") is False
    with db.read() as conn:
        assert conn.execute(select(reminder_deliveries.c.outcome)).scalars().all() == ["sent"]


def test_another_slot_or_another_user_is_a_new_claim(db: Database) -> None:
    with_users(db, "1", "2")
    claim(db, "1", SLOT)
    assert claim(db, "1", NEXT_SLOT) is True
    assert claim(db, "2", SLOT) is True


def test_an_unknown_outcome_is_refused(db: Database) -> None:
    with_users(db, "1")
    with pytest.raises(ValueError, match="outcome"):
        claim(db, outcome="maybe")


def test_delivered_names_the_recorded_pairs_among_those_asked(db: Database) -> None:
    with_users(db, "1", "2", "3")
    claim(db, "1", SLOT)
    claim(db, "2", NEXT_SLOT)
    claim(db, "3", SLOT)
    with db.read() as conn:
        found = delivered(conn, user_ids=["1", "2"], slots=[SLOT, NEXT_SLOT])
    assert found == {("1", SLOT), ("2", NEXT_SLOT)}


def test_delivered_with_nothing_asked_is_empty(db: Database) -> None:
    with_users(db, "1")
    claim(db, "1", SLOT)
    with db.read() as conn:
        assert delivered(conn, user_ids=[], slots=[SLOT]) == set()
        assert delivered(conn, user_ids=["1"], slots=[]) == set()


def test_delivered_answers_for_more_users_than_one_query_takes(db: Database) -> None:
    user_ids = [str(n) for n in range(1, 1201)]
    with_users(db, *user_ids)
    with db.write() as conn:
        for user_id in user_ids[::100]:
            claim_delivery(conn, user_id=user_id, slot=SLOT, outcome="sent", now=NOW)
    with db.read() as conn:
        found = delivered(conn, user_ids=user_ids, slots=[SLOT])
    assert found == {(user_id, SLOT) for user_id in user_ids[::100]}


# Inbound de-duplication


def test_a_message_id_is_new_only_the_first_time(db: Database) -> None:
    assert first_sighting(db, instance="main", message_id="ABC", now=NOW) is True
    assert first_sighting(db, instance="main", message_id="ABC", now=NOW + DAY) is False


def test_the_same_message_id_in_another_instance_is_new(db: Database) -> None:
    first_sighting(db, instance="main", message_id="ABC", now=NOW)
    assert first_sighting(db, instance="other", message_id="ABC", now=NOW) is True


def test_a_sighting_can_join_the_callers_transaction(db: Database) -> None:
    with db.write() as conn:
        assert first_sighting(conn, instance="main", message_id="ABC", now=NOW) is True
        assert first_sighting(conn, instance="main", message_id="ABC", now=NOW) is False
    with db.read() as conn:
        assert conn.execute(select(inbound_messages.c.seen_at)).scalar_one() == NOW


# Metric counters


def test_counters_add_up_across_calls(db: Database) -> None:
    with db.write() as conn:
        bump_counter(conn, "reactions_enqueued_total", "check")
    with db.write() as conn:
        bump_counter(conn, "reactions_enqueued_total", "check", by=4)
    assert read_counters(db) == {("reactions_enqueued_total", "check"): 5}


def test_counters_are_kept_per_name_and_label(db: Database) -> None:
    with db.write() as conn:
        bump_counter(conn, "reactions_enqueued_total", "check")
        bump_counter(conn, "reactions_enqueued_total", "robot", by=2)
        bump_counter(conn, "sync_runs_total")
    assert read_counters(db) == {
        ("reactions_enqueued_total", "check"): 1,
        ("reactions_enqueued_total", "robot"): 2,
        ("sync_runs_total", ""): 1,
    }


def test_no_counters_read_as_empty(db: Database) -> None:
    assert read_counters(db) == {}


# Clean-up


def test_tokens_are_deleted_from_their_expiry_on(db: Database) -> None:
    add_token(db, "expired", expires_at=NOW)
    add_token(db, "live", expires_at=NOW + TICK)
    assert delete_expired_auth(db, now=NOW) == 1
    assert values_of(db, web_tokens.c.token_hash) == {"live"}


def test_used_tokens_are_deleted_a_day_after_use(db: Database) -> None:
    add_token(db, "used-long-ago", expires_at=NOW + DAY, used_at=NOW - DAY - TICK)
    add_token(db, "used-a-day-ago", expires_at=NOW + DAY, used_at=NOW - DAY)
    assert delete_expired_auth(db, now=NOW) == 1
    assert values_of(db, web_tokens.c.token_hash) == {"used-a-day-ago"}


def test_sessions_are_deleted_from_their_absolute_expiry_on(db: Database) -> None:
    add_session(db, "expired", expires_at=NOW, last_used_at=NOW - TICK)
    add_session(db, "live", expires_at=NOW + TICK, last_used_at=NOW - TICK)
    assert delete_expired_auth(db, now=NOW) == 1
    assert values_of(db, web_sessions.c.id_hash) == {"live"}


def test_sessions_are_deleted_after_7_days_unused(db: Database) -> None:
    add_session(db, "idle", expires_at=NOW + DAY, last_used_at=NOW - 7 * DAY)
    add_session(db, "live", expires_at=NOW + DAY, last_used_at=NOW - 7 * DAY + TICK)
    assert delete_expired_auth(db, now=NOW) == 1
    assert values_of(db, web_sessions.c.id_hash) == {"live"}


def test_deliveries_older_than_the_boundary_are_deleted(db: Database) -> None:
    with_users(db, "1", "2")
    with db.write() as conn:
        claim_delivery(conn, user_id="1", slot=SLOT, outcome="sent", now=NOW - TICK)
        claim_delivery(conn, user_id="2", slot=SLOT, outcome="sent", now=NOW)
    assert delete_old_deliveries(db, older_than=NOW) == 1
    assert values_of(db, reminder_deliveries.c.user_id) == {"2"}


def test_inbound_ids_older_than_the_boundary_are_deleted(db: Database) -> None:
    first_sighting(db, instance="old", message_id="A", now=NOW - TICK)
    first_sighting(db, instance="new", message_id="A", now=NOW)
    assert delete_old_inbound(db, older_than=NOW) == 1
    assert values_of(db, inbound_messages.c.instance) == {"new"}
    assert first_sighting(db, instance="old", message_id="A", now=NOW) is True


def test_sent_queue_rows_older_than_the_boundary_are_deleted(db: Database) -> None:
    add_queue_row(db, "sent-before", status="sent", sent_at=NOW - TICK)
    add_queue_row(db, "sent-at", status="sent", sent_at=NOW)
    assert delete_sent_queue_rows(db, older_than=NOW) == 1
    assert values_of(db, outbound_queue.c.chat_id) == {"sent-at"}


def test_failed_and_waiting_queue_rows_are_kept_however_old(db: Database) -> None:
    add_queue_row(db, "failed", status="failed", sent_at=None)
    add_queue_row(db, "pending", status="pending", sent_at=None)
    add_queue_row(db, "sending", status="sending", sent_at=None)
    assert delete_sent_queue_rows(db, older_than=NOW) == 0
    assert values_of(db, outbound_queue.c.chat_id) == {"failed", "pending", "sending"}


def test_clean_ups_on_empty_tables_delete_nothing(db: Database) -> None:
    assert delete_expired_auth(db, now=NOW) == 0
    assert delete_old_deliveries(db, older_than=NOW) == 0
    assert delete_old_inbound(db, older_than=NOW) == 0
    assert delete_sent_queue_rows(db, older_than=NOW) == 0
