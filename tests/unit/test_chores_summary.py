"""Summaries (SPEC section 25): per member, completions and points in the calendar week or month, and overdue tasks."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from taskcore.chores import (
    CompletionRow,
    MemberSummary,
    OpenRow,
    Period,
    Span,
    parse_period,
    period_span,
    span_instants,
    summarise,
    weekly_span,
)
from taskcore.errors import ValidationError

MADRID = ZoneInfo("Europe/Madrid")
TODAY = date(2026, 11, 26)  # a Thursday


@pytest.mark.parametrize(("word", "period"), [(None, Period.WEEK), ("semana", Period.WEEK), ("WEEK", Period.WEEK),
                                              ("mes", Period.MONTH), ("mês", Period.MONTH), ("month", Period.MONTH)])
def test_a_period_word_in_any_language_is_read(word: str | None, period: Period) -> None:
    assert parse_period(word) is period


def test_another_period_word_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError) as caught:
        parse_period("año")
    assert caught.value.field == "period"


def test_the_week_is_monday_to_sunday_around_today() -> None:
    assert period_span(Period.WEEK, TODAY) == Span(date(2026, 11, 23), date(2026, 11, 29))


def test_the_month_is_the_calendar_month() -> None:
    assert period_span(Period.MONTH, date(2028, 2, 10)) == Span(date(2028, 2, 1), date(2028, 2, 29))
    assert period_span(Period.MONTH, date(2026, 12, 31)) == Span(date(2026, 12, 1), date(2026, 12, 31))


@pytest.mark.parametrize(("post_day", "monday"), [(date(2026, 11, 23), date(2026, 11, 16)),
                                                  (date(2026, 11, 26), date(2026, 11, 16)),
                                                  (date(2026, 11, 27), date(2026, 11, 23)),
                                                  (date(2026, 11, 29), date(2026, 11, 23))])
def test_the_weekly_post_tells_about_this_week_from_friday_and_the_last_before(post_day: date, monday: date) -> None:
    assert weekly_span(post_day).first == monday


def test_a_span_starts_and_ends_at_local_midnight() -> None:
    start, end = span_instants(Span(date(2026, 11, 23), date(2026, 11, 29)), MADRID)
    assert (start, end) == (datetime(2026, 11, 22, 23, tzinfo=UTC), datetime(2026, 11, 29, 23, tzinfo=UTC))


def test_a_member_s_completions_points_and_overdue_tasks_are_summed() -> None:
    rows = [
        CompletionRow("ana", 1, 3, datetime(2026, 11, 22, 23, tzinfo=UTC)),  # Monday 00:00 in Madrid: counts
        CompletionRow("ana", 2, 2, datetime(2026, 11, 25, 10, tzinfo=UTC)),
        CompletionRow("ana", 3, 5, datetime(2026, 11, 22, 22, 59, tzinfo=UTC)),  # Sunday before: does not
        OpenRow("ana", 9, date(2026, 11, 25)), OpenRow("ana", 4, date(2026, 11, 20)),
        OpenRow("ana", 5, TODAY), OpenRow("ana", 6, None),
    ]
    assert summarise(rows, Period.WEEK, TODAY, MADRID) == [MemberSummary("ana", 2, 5, (4, 9))]


def test_members_are_ordered_by_points_then_completions_then_id() -> None:
    at = datetime(2026, 11, 25, 10, tzinfo=UTC)
    rows = [CompletionRow("eva", 1, 1, at), CompletionRow("luis", 2, 2, at), CompletionRow("ana", 3, 1, at),
            CompletionRow("ana", 4, 1, at), CompletionRow("bea", 5, 2, at)]
    assert [line.user_id for line in summarise(rows, Period.WEEK, TODAY, MADRID)] == ["ana", "bea", "luis", "eva"]


def test_members_with_nothing_to_show_appear_only_when_named() -> None:
    old = [CompletionRow("luis", 1, 3, datetime(2026, 10, 1, tzinfo=UTC))]
    assert summarise(old, Period.MONTH, TODAY, MADRID) == []
    assert summarise(old, Period.MONTH, TODAY, MADRID, members=["luis"]) == [MemberSummary("luis", 0, 0, ())]


def test_a_span_can_be_given_instead_of_a_period() -> None:
    rows = [CompletionRow("ana", 1, 3, datetime(2026, 11, 18, 10, tzinfo=UTC))]
    last_week = weekly_span(TODAY)
    assert summarise(rows, last_week, TODAY, MADRID) == [MemberSummary("ana", 1, 3, ())]
