"""Reminder preferences and due slots (SPEC sections 10 and 15), on frozen clocks in Europe/Madrid."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from taskcore.errors import InvalidFreq, InvalidTime
from taskcore.reminders import (
    DEFAULT_TIME,
    ReminderFreq,
    normalize_reminder_time,
    parse_freq,
    reminder_due_slot,
    slot_key,
)
from tests.cron import cron_expression

MADRID = ZoneInfo("Europe/Madrid")
MONDAY = (2026, 11, 23)
SATURDAY = (2026, 11, 28)
SUNDAY = (2026, 11, 29)


def madrid(y: int, m: int, d: int, hh: int, mm: int, *, ss: int = 0, fold: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, ss, tzinfo=MADRID, fold=fold)


def utc(y: int, m: int, d: int, hh: int, mm: int, *, ss: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, ss, tzinfo=UTC)


def due(
    now: datetime, *, freq: ReminderFreq | str = ReminderFreq.DAILY, at: str = "08:30", grace: int = 0
) -> datetime | None:
    return reminder_due_slot(freq, at, now=now, tz=MADRID, grace_minutes=grace)


def due_instant(now: datetime, *, at: str, grace: int = 0) -> datetime | None:
    # Datetimes in one zone compare by wall time, ignoring fold; around DST compare UTC instants.
    slot = due(now, at=at, grace=grace)
    return None if slot is None else slot.astimezone(UTC)


# --- reminder times --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7:5", "07:05"), ("07:05", "07:05"), ("0:0", "00:00"), ("23:59", "23:59"), ("  9:30\t", "09:30"),
     ("7h30", "07:30"), ("23h", "23:00"), ("07:30 am", "07:30"), ("11pm", "23:00"), ("12am", "00:00"),
     ("12 p.m.", "12:00"), ("8:30 PM", "20:30")],
)
def test_times_as_people_write_them_are_normalised_to_two_digit_hours_and_minutes(text: str, expected: str) -> None:
    assert normalize_reminder_time(text) == expected


@pytest.mark.parametrize(
    "text",
    ["24:00", "7", "07:60", "7.30", "007:00", "07:000", "", "  ", "7:", ":30", "-1:00", "+7:00", "7 :30",
     "07:30:00", "٠٧:٣٠", "０７:３０", "13pm", "0am", "7h61", "8"],
)
def test_anything_but_a_time_of_day_is_rejected(text: str) -> None:
    with pytest.raises(InvalidTime):
        normalize_reminder_time(text)


def test_a_rejected_time_names_the_time_field_and_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="HH:MM") as caught:
        normalize_reminder_time("25:00")
    assert isinstance(caught.value, InvalidTime)
    assert caught.value.field == "time"


def test_the_default_time_is_half_past_eight() -> None:
    assert normalize_reminder_time(DEFAULT_TIME) == DEFAULT_TIME == "08:30"


# --- frequencies -----------------------------------------------------------------------------


@pytest.mark.parametrize("freq", list(ReminderFreq))
def test_every_english_value_parses_to_its_frequency(freq: ReminderFreq) -> None:
    assert parse_freq(freq.value) is freq


@pytest.mark.parametrize(
    ("word", "expected"),
    [("off", ReminderFreq.OFF), ("apagado", ReminderFreq.OFF), ("no", ReminderFreq.OFF),
     ("diario", ReminderFreq.DAILY), ("laborables", ReminderFreq.WEEKDAYS), ("semanal", ReminderFreq.WEEKLY)],
)
def test_spanish_chat_words_parse_to_their_frequency(word: str, expected: ReminderFreq) -> None:
    assert parse_freq(word) is expected


def test_frequencies_ignore_case_and_surrounding_spaces() -> None:
    assert parse_freq("  Laborables ") is ReminderFreq.WEEKDAYS


@pytest.mark.parametrize("word", ["", "mensual", "dia rio", "daily!", "1"])
def test_an_unknown_frequency_is_rejected_listing_the_accepted_ones(word: str) -> None:
    with pytest.raises(InvalidFreq, match="off, diario, laborables o semanal") as caught:
        parse_freq(word)
    assert caught.value.field == "freq"


# --- cron expressions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("freq", "expected"),
    [
        (ReminderFreq.DAILY, "5 7 * * *"),
        (ReminderFreq.WEEKDAYS, "5 7 * * 1-5"),
        (ReminderFreq.WEEKLY, "5 7 * * 1"),
    ],
)
def test_each_schedule_has_its_cron_expression_in_local_time(freq: ReminderFreq, expected: str) -> None:
    assert cron_expression(freq, "7:05") == expected


def test_reminders_off_have_no_cron_expression() -> None:
    assert cron_expression("off", "08:30") is None


# --- due slots: ordinary days ----------------------------------------------------------------


def test_a_daily_slot_is_due_at_its_exact_time_with_no_grace() -> None:
    assert due(madrid(*MONDAY, 8, 30)) == madrid(*MONDAY, 8, 30)


def test_with_no_grace_a_slot_one_second_late_is_not_due() -> None:
    assert due(madrid(*MONDAY, 8, 30, ss=1)) is None


def test_a_slot_is_not_due_before_its_time() -> None:
    assert due(madrid(*MONDAY, 8, 29, ss=59), grace=10) is None


def test_a_slot_stays_due_until_the_grace_window_closes() -> None:
    assert due(madrid(*MONDAY, 8, 40), grace=10) == madrid(*MONDAY, 8, 30)


def test_a_slot_past_the_grace_window_is_not_due() -> None:
    assert due(madrid(*MONDAY, 8, 40, ss=1), grace=10) is None


def test_the_slot_is_expressed_in_the_users_time_zone() -> None:
    slot = due(utc(*MONDAY, 7, 30))
    assert slot is not None
    assert slot.tzinfo is MADRID
    assert (slot.hour, slot.minute) == (8, 30)


def test_now_in_any_time_zone_gives_the_same_slot() -> None:
    assert due(utc(*MONDAY, 7, 35), grace=5) == due(madrid(*MONDAY, 8, 35), grace=5) == utc(*MONDAY, 7, 30)


def test_the_time_zone_may_be_given_by_name_and_the_frequency_by_value() -> None:
    slot = reminder_due_slot("daily", "8:30", now=utc(*MONDAY, 7, 30), tz="Europe/Madrid", grace_minutes=0)
    assert slot == madrid(*MONDAY, 8, 30)


def test_a_grace_window_reaching_back_a_day_finds_yesterdays_slot() -> None:
    assert due(madrid(*MONDAY, 8, 0), grace=24 * 60) == madrid(2026, 11, 22, 8, 30)


def test_reminders_off_are_never_due() -> None:
    assert due(madrid(*MONDAY, 8, 30), freq="off", grace=10_000) is None


def test_weekly_slots_fall_on_mondays() -> None:
    assert due(madrid(*MONDAY, 8, 30), freq=ReminderFreq.WEEKLY) == madrid(*MONDAY, 8, 30)


def test_weekly_slots_are_not_due_on_other_days() -> None:
    tuesday = madrid(2026, 11, 24, 8, 30)
    assert due(tuesday, freq=ReminderFreq.WEEKLY) is None


def test_the_latest_weekly_slot_is_last_mondays() -> None:
    assert due(madrid(*SUNDAY, 9, 0), freq="weekly", grace=7 * 24 * 60) == madrid(*MONDAY, 8, 30)


@pytest.mark.parametrize("day", [SATURDAY, SUNDAY])
def test_weekday_slots_skip_saturday_and_sunday(day: tuple[int, int, int]) -> None:
    assert due(madrid(*day, 8, 30), freq=ReminderFreq.WEEKDAYS) is None


def test_weekday_slots_fire_on_monday() -> None:
    assert due(madrid(*MONDAY, 8, 30), freq=ReminderFreq.WEEKDAYS) == madrid(*MONDAY, 8, 30)


def test_the_latest_weekday_slot_on_sunday_is_fridays() -> None:
    assert due(madrid(*SUNDAY, 9, 0), freq="weekdays", grace=3 * 24 * 60) == madrid(2026, 11, 27, 8, 30)


def test_a_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError, match="aware"):
        due(datetime(2026, 11, 23, 8, 30))


def test_a_negative_grace_is_rejected() -> None:
    with pytest.raises(ValueError, match="grace"):
        due(madrid(*MONDAY, 8, 30), grace=-1)


def test_an_unknown_time_zone_name_is_rejected() -> None:
    with pytest.raises(ValueError, match="time zone"):
        reminder_due_slot("daily", "08:30", now=utc(*MONDAY, 7, 30), tz="Europe/Atlantis", grace_minutes=0)


def test_an_invalid_time_is_rejected_when_computing_slots() -> None:
    with pytest.raises(InvalidTime):
        due(madrid(*MONDAY, 8, 30), at="8.30")


# --- due slots: spring forward, 2026-03-29 (02:00 CET -> 03:00 CEST) -------------------------


def test_a_slot_in_the_spring_gap_fires_when_the_clock_jumps() -> None:
    assert due_instant(utc(2026, 3, 29, 1, 0), at="02:30") == utc(2026, 3, 29, 1, 0)


def test_a_slot_in_the_spring_gap_reads_three_oclock_summer_time() -> None:
    slot = due(utc(2026, 3, 29, 1, 0), at="02:30")
    assert slot is not None
    assert (slot.hour, slot.minute, slot.utcoffset()) == (3, 0, timedelta(hours=2))


def test_a_slot_in_the_spring_gap_is_not_due_before_the_jump() -> None:
    assert due_instant(utc(2026, 3, 29, 0, 59, ss=59), at="02:30") is None


def test_a_slot_in_the_spring_gap_stays_due_for_the_grace_window() -> None:
    assert due_instant(madrid(2026, 3, 29, 3, 10), at="02:30", grace=10) == utc(2026, 3, 29, 1, 0)


def test_a_slot_in_the_spring_gap_past_the_grace_window_is_not_due() -> None:
    assert due_instant(madrid(2026, 3, 29, 3, 10, ss=1), at="02:30", grace=10) is None


def test_a_slot_just_before_the_spring_gap_keeps_winter_time() -> None:
    assert due_instant(utc(2026, 3, 29, 0, 59), at="01:59") == utc(2026, 3, 29, 0, 59)


def test_a_slot_after_the_spring_gap_keeps_summer_time() -> None:
    assert due_instant(utc(2026, 3, 29, 6, 30), at="08:30") == utc(2026, 3, 29, 6, 30)


def test_the_day_after_spring_forward_the_gap_time_exists_again() -> None:
    assert due_instant(utc(2026, 3, 30, 0, 30), at="02:30") == utc(2026, 3, 30, 0, 30)


# --- due slots: fall back, 2026-10-25 (03:00 CEST -> 02:00 CET) ------------------------------


def test_a_repeated_slot_fires_at_its_first_occurrence() -> None:
    assert due_instant(utc(2026, 10, 25, 0, 30), at="02:30") == utc(2026, 10, 25, 0, 30)


def test_a_repeated_slot_reads_its_summer_time_offset() -> None:
    slot = due(utc(2026, 10, 25, 0, 30), at="02:30")
    assert slot is not None
    assert (slot.hour, slot.minute, slot.utcoffset()) == (2, 30, timedelta(hours=2))


def test_a_repeated_slot_does_not_fire_again_at_its_second_occurrence() -> None:
    assert due_instant(madrid(2026, 10, 25, 2, 30, fold=1), at="02:30") is None


def test_a_repeated_slot_is_still_due_in_the_repeated_hour_within_grace() -> None:
    # 02:10 CET is a wall time before 02:30 but an instant 40 minutes after 02:30 CEST.
    now = madrid(2026, 10, 25, 2, 10, fold=1)
    assert due_instant(now, at="02:30", grace=45) == utc(2026, 10, 25, 0, 30)


def test_a_repeated_slot_past_the_grace_window_is_not_due_in_the_repeated_hour() -> None:
    assert due_instant(madrid(2026, 10, 25, 2, 10, fold=1), at="02:30", grace=39) is None


def test_within_a_long_grace_both_occurrences_give_the_same_slot() -> None:
    first = due_instant(madrid(2026, 10, 25, 2, 30, fold=0), at="02:30", grace=90)
    second = due_instant(madrid(2026, 10, 25, 2, 30, fold=1), at="02:30", grace=90)
    assert first is not None
    assert second is not None
    assert slot_key(first) == slot_key(second) == "2026-10-25T00:30Z"


def test_a_slot_after_the_repeated_hour_fires_in_winter_time() -> None:
    assert due_instant(utc(2026, 10, 25, 2, 0), at="03:00") == utc(2026, 10, 25, 2, 0)


def test_a_slot_after_the_repeated_hour_is_not_due_during_it() -> None:
    assert due_instant(madrid(2026, 10, 25, 2, 59, fold=1), at="03:00", grace=0) is None


def test_a_weekly_slot_the_day_after_fall_back_is_in_winter_time() -> None:
    slot = due(utc(2026, 10, 26, 7, 30), freq="weekly")
    assert slot is not None
    assert slot.astimezone(UTC) == utc(2026, 10, 26, 7, 30)


# --- slot keys -------------------------------------------------------------------------------


def test_a_slot_key_is_the_utc_minute_in_iso_8601() -> None:
    assert slot_key(madrid(*MONDAY, 8, 30)) == "2026-11-23T07:30Z"


def test_the_same_instant_in_any_zone_has_the_same_key() -> None:
    instant = madrid(2026, 3, 29, 3, 0)
    assert slot_key(instant) == slot_key(instant.astimezone(UTC)) == slot_key(instant + timedelta(seconds=5))


def test_a_naive_slot_has_no_key() -> None:
    with pytest.raises(ValueError, match="aware"):
        slot_key(datetime(2026, 11, 23, 8, 30))
