"""The reminder tick's query: users due at a time, minus those with the slot already recorded."""

from __future__ import annotations

from datetime import UTC, datetime

from taskcore.services import preferences
from taskcore.storage.db import Database
from taskcore.storage.reminders import undelivered_users
from tests.queries import claim_delivery

NOW = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
SLOT = "2026-11-23T07:30Z"


def test_users_with_the_slot_recorded_or_another_schedule_are_left_out(db: Database) -> None:
    for user, freq, time in [("1", "daily", "08:30"), ("2", "daily", "08:30"), ("3", "weekly", "08:30"),
                             ("4", "daily", "09:00"), ("5", "off", "08:30")]:
        preferences.set_preference(db, user_id=user, freq=freq, time=time, now=NOW)
    with db.write() as conn:
        claim_delivery(conn, user_id="2", slot=SLOT, outcome="sent", now=NOW)
    with db.read() as conn:
        assert sorted(undelivered_users(conn, time="08:30", freqs=["daily", "weekdays"], slot=SLOT)) == ["1"]


def test_no_schedule_asked_finds_nobody(db: Database) -> None:
    preferences.set_preference(db, user_id="1", freq="daily", time="08:30", now=NOW)
    with db.read() as conn:
        assert undelivered_users(conn, time="08:30", freqs=[], slot=SLOT) == []
