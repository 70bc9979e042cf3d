"""The reminder delivery ledger: one row per user and slot, and only the call that records it queues the digest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from taskcore.storage.db import Database
from taskcore.storage.reminders import claim_deliveries
from taskcore.storage.schema import reminder_deliveries
from taskcore.storage.users import ensure_users
from tests.builders import make_group
from tests.queries import claim_delivery, delivered

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
SLOT = "2026-01-05T07:30Z"
NEXT_SLOT = "2026-01-06T07:30Z"


def with_users(db: Database, *user_ids: str) -> None:
    with db.write() as conn:
        ensure_users(conn, user_ids, NOW)


def claim(db: Database, user_id: str = "1", slot: str = SLOT, outcome: str = "sent") -> bool:
    with db.write() as conn:
        return claim_delivery(conn, user_id=user_id, slot=slot, outcome=outcome, now=NOW)


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


def test_claiming_many_slots_returns_only_those_this_call_recorded(db: Database) -> None:
    make_group(db, "1@g.us", members=("1", "2", "3"))
    with db.write() as conn:
        assert claim_deliveries(conn, [("1", "s", "sent"), ("2", "s", "empty")], now=NOW) == {("1", "s"), ("2", "s")}
    with db.write() as conn:
        assert claim_deliveries(conn, [("1", "s", "sent"), ("3", "s", "late"), ("1", "t", "sent")], now=NOW) == {
            ("3", "s"), ("1", "t")}
    with db.write() as conn:
        assert claim_deliveries(conn, [], now=NOW) == set()
        with pytest.raises(ValueError, match="unknown delivery outcome"):
            claim_deliveries(conn, [("2", "u", "lost")], now=NOW)


def test_a_claim_of_more_rows_than_one_statement_takes_records_each_once(db: Database) -> None:
    users = [f"3460000{n:04d}" for n in range(150)]
    with_users(db, *users)
    earlier = {(user, SLOT) for user in users[::4]}
    with db.write() as conn:
        assert claim_deliveries(conn, [(user, slot, "sent") for user, slot in sorted(earlier)], now=NOW) == earlier
    with db.write() as conn:
        claimed = claim_deliveries(conn, [(user, SLOT, "empty") for user in users], now=NOW)
    assert claimed == {(user, SLOT) for user in users} - earlier
    with db.read() as conn:
        outcomes = dict(conn.execute(select(reminder_deliveries.c.user_id, reminder_deliveries.c.outcome)).all())
    assert outcomes == {user: "sent" if (user, SLOT) in earlier else "empty" for user in users}


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
