"""Hypothesis strategies for the chores' rules (SPEC section 25): zones with every kind of DST change, instants near
those changes, quiet windows near the hours they happen at, rotations and points."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import strategies as st

from taskcore.chores import QuietHours

MINUTE = timedelta(minutes=1)
# One-hour changes both ways (Madrid, New York), at midnight (Santiago, Havana), half an hour (Lord Howe), 45 minutes
# off the hour (Chatham), southern hemisphere (Sydney), none (UTC, Kolkata).
ZONES = [ZoneInfo(name) for name in (
    "Europe/Madrid", "America/New_York", "America/Santiago", "America/Havana", "Australia/Lord_Howe",
    "Pacific/Chatham", "Australia/Sydney", "UTC", "Asia/Kolkata",
)]
PEOPLE = ("ana", "luis", "eva", "bea", "joao", "sam")


def _transitions(zone: ZoneInfo, year: int) -> list[datetime]:
    """UTC instants (to the minute) where the zone's offset changes during ``year``."""
    found, hour = [], datetime(year, 1, 1, tzinfo=UTC)
    while hour.year == year:
        following = hour + timedelta(hours=1)
        if hour.astimezone(zone).utcoffset() != following.astimezone(zone).utcoffset():
            minute = hour
            while minute.astimezone(zone).utcoffset() == hour.astimezone(zone).utcoffset():
                minute += MINUTE
            found.append(minute)
        hour = following
    return found


TRANSITIONS = {zone: _transitions(zone, 2026) for zone in ZONES}

zones = st.sampled_from(ZONES)
"""A zone, most with DST changes of some kind."""


@st.composite
def instants(draw: st.DrawFn, zone: ZoneInfo) -> datetime:
    """An aware UTC instant in 2025-2028, half the time within two days of one of the zone's 2026 DST changes."""
    near = TRANSITIONS[zone]
    if near and draw(st.booleans()):
        offset = draw(st.integers(-2 * 24 * 60, 2 * 24 * 60))
        seconds = draw(st.sampled_from([0, 0, 0, 1, 59]))
        return draw(st.sampled_from(near)) + timedelta(minutes=offset, seconds=seconds)
    return draw(st.datetimes(datetime(2025, 1, 1), datetime(2028, 12, 31), timezones=st.just(UTC)))


clock_times = st.builds(
    time, st.one_of(st.sampled_from([0, 1, 2, 3, 22, 23]), st.integers(0, 23)),
    st.one_of(st.sampled_from([0, 30, 59]), st.integers(0, 59)))
"""A wall time to the minute, often in the hours DST changes happen at."""

quiet_windows = st.tuples(clock_times, clock_times).filter(lambda pair: pair[0] != pair[1]).map(
    lambda pair: QuietHours(*pair))
"""Any quiet window: daytime, crossing midnight, a minute long or a minute short of a day."""

rotations = st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=len(PEOPLE), unique=True)
"""A rotation's order of people."""

points_by_person = st.dictionaries(st.sampled_from(PEOPLE), st.integers(0, 40), max_size=len(PEOPLE))
"""Points over the last 30 days; people missing have none."""

away_sets = st.sets(st.sampled_from(PEOPLE))
"""The people away today."""
