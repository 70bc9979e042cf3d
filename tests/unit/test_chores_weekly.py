"""The weekly summary's moment (SPEC section 25): ``<día> HH:MM`` in three languages, and its next instant."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from taskcore.chores import WeeklyMoment, next_weekly, parse_weekly
from taskcore.errors import ValidationError

MADRID = ZoneInfo("Europe/Madrid")


@pytest.mark.parametrize(("words", "weekday"), [
    (["lunes"], 0), (["Miércoles"], 2), (["miercoles"], 2), (["SÁBADO"], 5), (["domingo"], 6),
    (["segunda"], 0), (["terça-feira"], 1), (["terca"], 1), (["sexta"], 4), (["sábado"], 5),
    (["monday"], 0), (["Thursday"], 3), (["sunday"], 6),
])
def test_weekday_names_in_spanish_portuguese_and_english_are_read(words: list[str], weekday: int) -> None:
    assert parse_weekly([*words, "20:00"]) == WeeklyMoment(weekday, time(20))


def test_the_time_may_have_one_hour_digit() -> None:
    assert parse_weekly(["lunes", "9:05"]) == WeeklyMoment(0, time(9, 5))


@pytest.mark.parametrize("word", ["no", "NO", "off", "não", "nao"])
def test_no_stops_the_weekly_summary(word: str) -> None:
    assert parse_weekly([word]) is None


@pytest.mark.parametrize("words", [[], ["lunes"], ["20:00"], ["lunes", "24:00"], ["lunes", "20:60"],
                                   ["lunes", "20"], ["lunes", "20:00", "extra"], ["mañana", "20:00"],
                                   ["20:00", "lunes"], ["no", "20:00"]])
def test_anything_else_is_refused_naming_the_field(words: list[str]) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_weekly(words)
    assert caught.value.field == "weekly"


def test_the_next_moment_is_later_this_week() -> None:
    now = datetime(2026, 11, 26, 12, tzinfo=UTC)  # Thursday 13:00 in Madrid
    assert next_weekly(now, 6, time(20), MADRID) == datetime(2026, 11, 29, 19, tzinfo=UTC)


def test_the_moment_itself_is_not_next_the_week_after_is() -> None:
    now = datetime(2026, 11, 29, 19, tzinfo=UTC)
    assert next_weekly(now, 6, time(20), MADRID) == datetime(2026, 12, 6, 19, tzinfo=UTC)


def test_a_time_the_clock_skips_posts_when_it_jumps() -> None:
    now = datetime(2026, 3, 27, tzinfo=UTC)
    assert next_weekly(now, 6, time(2, 30), MADRID) == datetime(2026, 3, 29, 1, tzinfo=UTC)  # 03:00 local


def test_a_repeated_time_posts_at_its_first_pass_only() -> None:
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 summer time
    assert next_weekly(datetime(2026, 10, 24, tzinfo=UTC), 6, time(2, 30), MADRID) == first
    assert next_weekly(first, 6, time(2, 30), MADRID) == datetime(2026, 11, 1, 1, 30, tzinfo=UTC)


def test_a_weekday_out_of_range_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="weekday"):
        next_weekly(datetime(2026, 11, 26, tzinfo=UTC), 7, time(20), MADRID)
