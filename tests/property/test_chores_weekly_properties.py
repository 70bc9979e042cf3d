"""Properties of the weekly summary's moment (SPEC section 25) in zones with every kind of DST change: the next one
is strictly after now, within a week and an hour, on the weekday and wall time asked (or the end of a gap that
skipped it), and no earlier moment qualifies."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from taskcore.chores import next_weekly
from tests.strategies_chores import clock_times, instants, zones

WEEK_AND_AN_HOUR = timedelta(days=7, hours=1)


@st.composite
def moments(draw: st.DrawFn) -> tuple[datetime, int, time, ZoneInfo]:
    zone = draw(zones)
    return draw(instants(zone)), draw(st.integers(0, 6)), draw(clock_times), zone


@given(moments())
def test_the_next_post_is_after_now_within_a_week_on_its_weekday_and_time(
    case: tuple[datetime, int, time, ZoneInfo],
) -> None:
    now, weekday, at, zone = case
    post = next_weekly(now, weekday, at, zone)
    assert now < post <= now + WEEK_AND_AN_HOUR
    local = post.astimezone(zone)
    if local.time() != at:  # the clock skipped ``at``: the post is the first instant after the jump
        before = (post - timedelta(seconds=1)).astimezone(zone)
        assert before.replace(tzinfo=None) < datetime.combine(local.date(), at) < local.replace(tzinfo=None)
        assert local.weekday() == weekday or before.weekday() == weekday
    else:
        assert local.weekday() == weekday


@given(moments(), st.floats(0, 1, exclude_max=True))
def test_no_earlier_moment_after_now_qualifies(case: tuple[datetime, int, time, ZoneInfo], fraction: float) -> None:
    now, weekday, at, zone = case
    post = next_weekly(now, weekday, at, zone)
    between = now + (post - now) * fraction
    if between < post:
        assert next_weekly(between, weekday, at, zone) == post
