"""Properties of summaries (SPEC section 25) in zones with DST changes: every completion counts in exactly the week
and the month of its local date, and the lines add up to the rows."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from taskcore.chores import CompletionRow, Period, period_span, summarise
from tests.strategies_chores import PEOPLE, instants, zones


@st.composite
def completions(draw: st.DrawFn) -> tuple[ZoneInfo, list[CompletionRow]]:
    """A zone and completions within a few weeks of each other, often near its DST changes."""
    zone = draw(zones)
    base = draw(instants(zone))
    offsets = st.integers(-40 * 24 * 60, 40 * 24 * 60)
    rows = [CompletionRow(draw(st.sampled_from(PEOPLE)), n, draw(st.integers(1, 10)),
                          base + timedelta(minutes=draw(offsets))) for n in range(draw(st.integers(0, 12)))]
    return zone, rows


@given(completions(), st.sampled_from(list(Period)))
def test_a_completion_counts_in_the_period_of_its_local_date_only(
    case: tuple[ZoneInfo, list[CompletionRow]], period: Period,
) -> None:
    zone, rows = case
    if not rows:
        return
    today = rows[0].completed_at.astimezone(zone).date()
    span = period_span(period, today)
    inside = [row for row in rows if span.first <= row.completed_at.astimezone(zone).date() <= span.last]
    lines = summarise(rows, period, today, zone)
    assert sum(line.completed for line in lines) == len(inside)
    assert sum(line.points for line in lines) == sum(row.points for row in inside)


@given(completions(), st.sampled_from(list(Period)))
def test_lines_are_ordered_by_points_then_completions_then_id(
    case: tuple[ZoneInfo, list[CompletionRow]], period: Period,
) -> None:
    zone, rows = case
    today = datetime(2026, 11, 26).date()
    lines = summarise(rows, period, today, zone, members=PEOPLE)
    assert [line.user_id for line in lines] == [line.user_id for line in sorted(
        lines, key=lambda line: (-line.points, -line.completed, line.user_id))]
    assert {line.user_id for line in lines} == set(PEOPLE)
