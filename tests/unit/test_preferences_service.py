"""Reminder preferences: defaults, validation, the keep-the-last-time rule, and the reminder tick's query."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from taskcore.errors import InvalidFreq, InvalidTime
from taskcore.model import Preference
from taskcore.reminders import ReminderFreq
from taskcore.services.preferences import get_preference, set_preference
from taskcore.storage.db import Database
from taskcore.storage.schema import user_preferences, users
from tasksvc_run import units
from tests.queries import reminder_candidates

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ANA = "34600000001"
EVERY_FREQ = [freq.value for freq in ReminderFreq]


def save(
    db: Database, freq: ReminderFreq | str, time: str | None, *, user_id: str = ANA, at: datetime = NOW
) -> Preference:
    return units.run(db, set_preference, user_id=user_id, freq=freq, time=time, now=at)


def stored_rows(db: Database) -> list[tuple[str, str, str, datetime]]:
    p = user_preferences
    with db.read() as conn:
        rows = conn.execute(select(p.c.user_id, p.c.freq, p.c.time, p.c.updated_at).order_by(p.c.user_id))
        return [(user_id, freq, time, updated_at) for user_id, freq, time, updated_at in rows]


def candidates(db: Database, times: list[str]) -> list[tuple[str, str, str]]:
    with db.read() as conn:
        return sorted(reminder_candidates(conn, times=times))


# get_preference


def test_a_user_without_a_saved_preference_gets_off_at_0830(db: Database) -> None:
    assert units.look(db, get_preference, user_id=ANA) == Preference(freq="off", time="08:30", updated_at=None)


def test_the_saved_preference_is_returned(db: Database) -> None:
    save(db, "weekdays", "18:15")
    assert units.look(db, get_preference, user_id=ANA) == Preference(freq="weekdays", time="18:15", updated_at=NOW)


# set_preference


def test_saving_stores_one_row_with_updated_at(db: Database) -> None:
    saved = save(db, "daily", "09:00")
    assert saved == Preference(freq="daily", time="09:00", updated_at=NOW)
    assert stored_rows(db) == [(ANA, "daily", "09:00", NOW)]


def test_saving_creates_the_user_when_absent(db: Database) -> None:
    save(db, "daily", "09:00")
    with db.read() as conn:
        assert conn.execute(select(users.c.id)).scalars().all() == [ANA]


def test_the_time_is_normalised_to_two_digits_each(db: Database) -> None:
    assert save(db, "daily", "7:5").time == "07:05"
    assert units.look(db, get_preference, user_id=ANA).time == "07:05"


@pytest.mark.parametrize(
    ("given", "stored"),
    [*((freq, freq) for freq in EVERY_FREQ), (ReminderFreq.WEEKLY, "weekly"), (" DAILY ", "daily")],
)
def test_every_english_frequency_is_accepted_and_stored_by_its_value(
    db: Database, given: ReminderFreq | str, stored: str
) -> None:
    assert save(db, given, "09:00").freq == stored
    assert stored_rows(db) == [(ANA, stored, "09:00", NOW)]


def test_a_chat_word_for_a_frequency_is_stored_in_english(db: Database) -> None:
    assert save(db, "laborables", "09:00").freq == "weekdays"


@pytest.mark.parametrize("freq", ["hourly", "", "monthly", "1"])
def test_an_invalid_frequency_is_rejected_on_the_freq_field_and_nothing_saved(db: Database, freq: str) -> None:
    with pytest.raises(InvalidFreq) as rejected:
        save(db, freq, "09:00")
    assert rejected.value.field == "freq"
    assert stored_rows(db) == []


@pytest.mark.parametrize("time", ["24:00", "7", "07:60", "7.30", "", "noon"])
def test_an_invalid_time_is_rejected_on_the_time_field_and_nothing_saved(db: Database, time: str) -> None:
    with pytest.raises(InvalidTime) as rejected:
        save(db, "daily", time)
    assert rejected.value.field == "time"
    assert stored_rows(db) == []


def test_an_invalid_time_leaves_the_saved_preference_alone(db: Database) -> None:
    save(db, "daily", "09:00")
    with pytest.raises(InvalidTime):
        save(db, "off", "25:00", at=NOW + timedelta(hours=1))
    assert stored_rows(db) == [(ANA, "daily", "09:00", NOW)]


@pytest.mark.parametrize("freq", EVERY_FREQ)
def test_an_absent_time_keeps_the_last_saved_time_whatever_the_freq(db: Database, freq: str) -> None:
    save(db, "weekly", "21:45")
    assert save(db, freq, None, at=NOW + timedelta(hours=1)).time == "21:45"
    assert stored_rows(db) == [(ANA, freq, "21:45", NOW + timedelta(hours=1))]


@pytest.mark.parametrize("freq", EVERY_FREQ)
def test_an_absent_time_without_a_saved_one_is_0830_whatever_the_freq(db: Database, freq: str) -> None:
    assert save(db, freq, None).time == "08:30"
    assert stored_rows(db) == [(ANA, freq, "08:30", NOW)]


def test_a_given_time_replaces_the_saved_one(db: Database) -> None:
    save(db, "daily", "09:00")
    save(db, "daily", "10:30", at=NOW + timedelta(hours=1))
    assert stored_rows(db) == [(ANA, "daily", "10:30", NOW + timedelta(hours=1))]


def test_updated_at_is_set_on_every_upsert_even_without_a_change(db: Database) -> None:
    later = NOW + timedelta(days=2)
    save(db, "daily", "09:00")
    assert save(db, "daily", "09:00", at=later).updated_at == later
    assert units.look(db, get_preference, user_id=ANA).updated_at == later


def test_one_users_preference_does_not_touch_anothers(db: Database) -> None:
    save(db, "daily", "09:00", user_id="1")
    save(db, "weekly", None, user_id="2")
    assert stored_rows(db) == [("1", "daily", "09:00", NOW), ("2", "weekly", "08:30", NOW)]


# reminder_candidates


def test_candidates_are_the_preferences_at_the_asked_times(db: Database) -> None:
    save(db, "daily", "08:30", user_id="1")
    save(db, "weekdays", "08:31", user_id="2")
    save(db, "weekly", "09:00", user_id="3")
    assert candidates(db, ["08:30", "08:31"]) == [("1", "daily", "08:30"), ("2", "weekdays", "08:31")]


def test_candidates_leave_out_preferences_that_are_off(db: Database) -> None:
    save(db, "off", "08:30", user_id="1")
    save(db, "daily", "08:30", user_id="2")
    assert candidates(db, ["08:30"]) == [("2", "daily", "08:30")]


def test_no_times_means_no_candidates(db: Database) -> None:
    save(db, "daily", "08:30")
    assert candidates(db, []) == []


def test_candidates_are_plain_tuples(db: Database) -> None:
    save(db, "daily", "08:30")
    with db.read() as conn:
        found = reminder_candidates(conn, times=("08:30",))
    assert found == [(ANA, "daily", "08:30")]
    assert type(found[0]) is tuple


def test_candidates_cover_a_whole_grace_window_of_times(db: Database) -> None:
    for minute in range(61):
        save(db, "daily", f"08:{minute}" if minute < 60 else "09:00", user_id=str(minute))
    window = [f"08:{minute:02d}" for minute in range(30, 60)]
    assert len(candidates(db, window)) == 30


def test_users_without_a_preference_are_never_candidates(db: Database) -> None:
    with db.write() as conn:
        conn.execute(users.insert().values(id=ANA, created_at=NOW))
    assert candidates(db, ["08:30"]) == []
    with db.read() as conn:
        assert conn.execute(select(func.count()).select_from(user_preferences)).scalar_one() == 0
