"""Quiet hours (SPEC section 25): the window, whether a moment is inside it, when held messages go, one bundle each."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from taskcore.chores import (
    HeldBundle,
    HeldMessage,
    QuietHours,
    format_quiet,
    held_until,
    is_quiet,
    merge_held,
    parse_quiet,
)
from taskcore.errors import ValidationError

MADRID = ZoneInfo("Europe/Madrid")
NIGHT = QuietHours(time(22), time(7, 30))


@pytest.mark.parametrize(("text", "window"), [
    ("22:00-07:30", NIGHT), ("9:05-9:06", QuietHours(time(9, 5), time(9, 6))),
    (" 13:00 - 15:00 ", QuietHours(time(13), time(15))), ("00:00-23:59", QuietHours(time(0), time(23, 59))),
    ("22:00\u201307:30", NIGHT),
])
def test_a_window_is_read_as_two_wall_times(text: str, window: QuietHours) -> None:
    assert parse_quiet(text) == window


@pytest.mark.parametrize("text", ["22:00", "22:00-", "24:00-07:00", "22:60-07:00", "7-8", "22:00-07:30-08:00",
                                  "ab:cd-ef:gh", "", "22:00 07:30", "10:00-10:00", "222:00-07:00"])
def test_anything_else_is_refused_naming_the_quiet_field(text: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_quiet(text)
    assert caught.value.field == "quiet"


def test_a_window_with_seconds_is_refused() -> None:
    with pytest.raises(ValidationError):
        QuietHours(time(22, 0, 30), time(7))


def test_a_window_is_formatted_as_it_is_typed() -> None:
    assert format_quiet(parse_quiet("9:05-7:00")) == "09:05-07:00"


@pytest.mark.parametrize(("clock", "quiet"), [
    (time(21, 59), False), (time(22), True), (time(23, 59), True), (time(0), True), (time(7, 29, 59), True),
    (time(7, 30), False), (time(12), False),
])
def test_a_window_crossing_midnight_holds_from_its_start_up_to_its_end(clock: time, quiet: bool) -> None:
    assert is_quiet(NIGHT, datetime.combine(datetime(2026, 11, 26), clock)) is quiet


@pytest.mark.parametrize(("clock", "quiet"), [(time(12, 59), False), (time(13), True), (time(15), False)])
def test_a_daytime_window_holds_between_its_times(clock: time, quiet: bool) -> None:
    assert is_quiet(QuietHours(time(13), time(15)), datetime.combine(datetime(2026, 11, 26), clock)) is quiet


def test_outside_the_window_a_message_goes_now() -> None:
    assert held_until(NIGHT, datetime(2026, 11, 26, 12, tzinfo=UTC), MADRID) is None


def test_late_in_the_evening_a_message_waits_for_the_next_morning() -> None:
    now = datetime(2026, 11, 26, 22, 30, tzinfo=UTC)  # 23:30 in Madrid
    assert held_until(NIGHT, now, MADRID) == datetime(2026, 11, 27, 6, 30, tzinfo=UTC)


def test_after_midnight_a_message_waits_for_the_same_morning() -> None:
    now = datetime(2026, 11, 27, 1, tzinfo=UTC)
    assert held_until(NIGHT, now, MADRID) == datetime(2026, 11, 27, 6, 30, tzinfo=UTC)


def test_a_window_ending_in_the_spring_forward_gap_ends_when_the_clock_jumps() -> None:
    window = QuietHours(time(1), time(2, 30))  # 02:30 does not exist in Madrid on 29/03/2026
    now = datetime(2026, 3, 29, 0, 15, tzinfo=UTC)  # 01:15 local
    assert held_until(window, now, MADRID) == datetime(2026, 3, 29, 1, tzinfo=UTC)  # 03:00 local


def test_a_window_ending_in_the_repeated_hour_ends_at_the_pass_after_now() -> None:
    window = QuietHours(time(0), time(2, 30))  # 02:00-03:00 happens twice in Madrid on 25/10/2026
    first_pass = datetime(2026, 10, 24, 23, tzinfo=UTC)  # 01:00 local, summer time
    second_pass = datetime(2026, 10, 25, 1, 10, tzinfo=UTC)  # 02:10 local, winter time
    assert held_until(window, first_pass, MADRID) == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert held_until(window, second_pass, MADRID) == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)


def test_a_naive_now_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        held_until(NIGHT, datetime(2026, 11, 26, 23), MADRID)


def test_held_messages_are_merged_into_one_bundle_per_person_in_the_order_they_were_held() -> None:
    at = [datetime(2026, 11, 26, 22, minute, tzinfo=UTC) for minute in range(4)]
    held = [HeldMessage("ana", at[2], "nag #3"), HeldMessage("luis", at[1], "reminder"),
            HeldMessage("ana", at[0], "reminder"), HeldMessage("ana", at[3], "notice")]
    assert merge_held(held) == [HeldBundle("ana", ("reminder", "nag #3", "notice")), HeldBundle("luis", ("reminder",))]


def test_nothing_held_merges_into_nothing() -> None:
    assert merge_held([]) == []
