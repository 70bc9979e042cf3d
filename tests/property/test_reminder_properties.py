"""Properties of reminder slots in zones with and without DST, checked against croniter itself."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from croniter import croniter
from hypothesis import given, settings
from hypothesis import strategies as st

from taskcore.reminders import ReminderFreq, reminder_due_slot, slot_key
from tests.cron import cron_expression

MINUTE = timedelta(minutes=1)
DAY = timedelta(days=1)
# Spring/autumn jumps of one hour, of half an hour (Lord Howe), at midnight (Santiago), none (UTC, Kolkata).
ZONES = [ZoneInfo(name) for name in (
    "Europe/Madrid", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Pacific/Chatham",
    "UTC", "Asia/Kolkata",
)]
SCHEDULED = [ReminderFreq.DAILY, ReminderFreq.WEEKDAYS, ReminderFreq.WEEKLY]  # the daily one first
WEEKDAYS = {ReminderFreq.DAILY: set(range(7)), ReminderFreq.WEEKDAYS: set(range(5)), ReminderFreq.WEEKLY: {0}}


def _transitions(zone: ZoneInfo, year: int) -> list[datetime]:
    """UTC instants (to the minute) where the zone's offset changes during ``year``."""
    found = []
    hour = datetime(year, 1, 1, tzinfo=UTC)
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


@st.composite
def instants(draw: st.DrawFn, zone: ZoneInfo) -> datetime:
    """An aware instant in 2025-2028, half the time within two days of one of the zone's 2026 DST changes."""
    near = TRANSITIONS[zone]
    if near and draw(st.booleans()):
        offset = draw(st.integers(-2 * 24 * 60, 2 * 24 * 60))
        seconds = draw(st.sampled_from([0, 0, 0, 1, 59]))
        return draw(st.sampled_from(near)) + timedelta(minutes=offset, seconds=seconds)
    return draw(st.datetimes(datetime(2025, 1, 1), datetime(2028, 12, 31), timezones=st.just(UTC)))


@st.composite
def schedules(draw: st.DrawFn) -> tuple[ReminderFreq, str, ZoneInfo]:
    """A frequency other than off, an HH:MM time (often near DST hours) and a zone."""
    hour = draw(st.one_of(st.sampled_from([0, 1, 2, 3, 23]), st.integers(0, 23)))
    minute = draw(st.one_of(st.sampled_from([0, 30, 59]), st.integers(0, 59)))
    return draw(st.sampled_from(SCHEDULED)), f"{hour:02d}:{minute:02d}", draw(st.sampled_from(ZONES))


@st.composite
def around_dst_changes(draw: st.DrawFn) -> tuple[ReminderFreq, str, ZoneInfo, datetime]:
    """A schedule whose time is within 90 minutes of a DST jump (missing and repeated wall times
    included) and an instant within three hours of that jump."""
    zone = draw(st.sampled_from([zone for zone in ZONES if TRANSITIONS[zone]]))
    change = draw(st.sampled_from(TRANSITIONS[zone]))
    wall = (change - MINUTE).astimezone(zone) + timedelta(minutes=draw(st.integers(-90, 90)))
    freq = draw(st.sampled_from([ReminderFreq.DAILY, *SCHEDULED]))
    seconds = draw(st.sampled_from([0, 0, 1, 59]))
    now = change + timedelta(minutes=draw(st.integers(-180, 180)), seconds=seconds)
    return freq, wall.strftime("%H:%M"), zone, now


graces = st.one_of(st.integers(0, 120), st.integers(0, 8 * 24 * 60))


def first_instant(wall: datetime, zone: ZoneInfo) -> datetime:
    """Oracle: a repeated wall time's first occurrence; a missing one's next existing wall minute."""
    while wall.replace(tzinfo=zone).astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall:
        wall += MINUTE
    return wall.replace(tzinfo=zone).astimezone(UTC)


def cron_slot(freq: ReminderFreq, at: str, now: datetime, zone: ZoneInfo, grace: int) -> datetime | None:
    """Oracle: every croniter wall time around now, mapped to instants; the latest not after now."""
    expression = cron_expression(freq, at)
    assert expression is not None
    wall_now = now.astimezone(zone).replace(tzinfo=None, second=0, microsecond=0)
    walls = croniter(expression, wall_now - timedelta(minutes=grace) - 2 * DAY)
    candidates = []
    while (wall := walls.get_next(datetime)) <= wall_now + 2 * DAY:
        candidates.append(first_instant(wall, zone))
    past = [slot for slot in candidates if slot <= now]
    latest = max(past, default=None)
    return latest if latest is not None and now - latest <= timedelta(minutes=grace) else None


def due(freq: ReminderFreq, at: str, now: datetime, zone: ZoneInfo, grace: int) -> datetime | None:
    return reminder_due_slot(freq, at, now=now, tz=zone, grace_minutes=grace)


@settings(max_examples=300)
@given(st.data(), schedules(), graces)
def test_a_due_slot_is_never_after_now_nor_older_than_the_grace(
    data: st.DataObject, schedule: tuple[ReminderFreq, str, ZoneInfo], grace: int
) -> None:
    freq, at, zone = schedule
    now = data.draw(instants(zone))
    slot = due(freq, at, now, zone, grace)
    if slot is not None:
        assert slot.tzinfo is zone
        assert timedelta(0) <= now - slot <= timedelta(minutes=grace)
        assert slot.second == slot.microsecond == 0


@settings(max_examples=150, deadline=None)
@given(st.data(), schedules(), graces)
def test_the_due_slot_is_the_one_croniter_schedules(
    data: st.DataObject, schedule: tuple[ReminderFreq, str, ZoneInfo], grace: int
) -> None:
    freq, at, zone = schedule
    now = data.draw(instants(zone))
    slot = due(freq, at, now, zone, grace)
    expected = cron_slot(freq, at, now, zone, grace)
    assert (None if slot is None else slot.astimezone(UTC)) == expected


@settings(max_examples=300, deadline=None)
@given(around_dst_changes(), st.integers(0, 180))
def test_around_dst_changes_the_due_slot_is_the_one_croniter_schedules(
    case: tuple[ReminderFreq, str, ZoneInfo, datetime], grace: int
) -> None:
    freq, at, zone, now = case
    slot = due(freq, at, now, zone, grace)
    expected = cron_slot(freq, at, now, zone, grace)
    assert (None if slot is None else slot.astimezone(UTC)) == expected


@settings(max_examples=100)
@given(st.data(), schedules(), graces)
def test_now_in_any_zone_gives_the_same_slot(
    data: st.DataObject, schedule: tuple[ReminderFreq, str, ZoneInfo], grace: int
) -> None:
    freq, at, zone = schedule
    now = data.draw(instants(zone))
    slots = [due(freq, at, now.astimezone(other), zone, grace) for other in (UTC, zone, ZONES[0])]
    assert len({None if slot is None else slot_key(slot) for slot in slots}) == 1


def sweep(
    freq: ReminderFreq, at: str, zone: ZoneInfo, grace: int, *, start: datetime, days: int, step: int
) -> set[datetime]:
    """Distinct slots seen calling every ``step`` minutes for ``days`` days from ``start``."""
    seen = set()
    for minutes in range(0, days * 24 * 60 + 1, step):
        slot = due(freq, at, start + timedelta(minutes=minutes), zone, grace)
        if slot is not None and slot.astimezone(UTC) >= start:
            seen.add(slot.astimezone(UTC))
    return seen


@st.composite
def sweep_starts(draw: st.DrawFn, zone: ZoneInfo) -> datetime:
    """A whole-minute UTC instant: often one or two days before one of the zone's DST changes."""
    near = TRANSITIONS[zone]
    if near and draw(st.booleans()):
        return draw(st.sampled_from(near)) - DAY - timedelta(minutes=draw(st.integers(0, 24 * 60 - 1)))
    day = draw(st.dates(date(2025, 1, 1), date(2028, 12, 31)))
    return datetime.combine(day, time(draw(st.integers(0, 23))), UTC)


def assert_one_slot_per_scheduled_day(
    freq: ReminderFreq, slots: set[datetime], zone: ZoneInfo, *, start: datetime, days: int
) -> None:
    local_days = sorted(slot.astimezone(zone).date() for slot in slots)
    assert len(local_days) == len(set(local_days)) == len(slots)
    assert all(day.weekday() in WEEKDAYS[freq] for day in local_days)
    first, last = start.astimezone(zone).date(), (start + days * DAY).astimezone(zone).date()
    inner = [first + i * DAY for i in range(1, (last - first).days)]
    assert {day for day in inner if day.weekday() in WEEKDAYS[freq]} <= set(local_days)


@settings(max_examples=12, deadline=None)
@given(st.data(), schedules(), st.integers(0, 90))
def test_sweeping_three_days_minute_by_minute_yields_one_daily_slot_per_day(
    data: st.DataObject, schedule: tuple[ReminderFreq, str, ZoneInfo], grace: int
) -> None:
    _, at, zone = schedule
    start = data.draw(sweep_starts(zone))
    slots = sweep(ReminderFreq.DAILY, at, zone, grace, start=start, days=3, step=1)
    assert_one_slot_per_scheduled_day(ReminderFreq.DAILY, slots, zone, start=start, days=3)


@settings(max_examples=12, deadline=None)
@given(st.data(), schedules(), st.integers(7, 90), st.sampled_from(SCHEDULED[1:]))
def test_sweeping_a_week_and_a_day_yields_one_slot_per_scheduled_day(
    data: st.DataObject, schedule: tuple[ReminderFreq, str, ZoneInfo], grace: int, freq: ReminderFreq
) -> None:
    # A step of 7 minutes with a grace of at least 7 still meets every slot inside its window.
    _, at, zone = schedule
    start = data.draw(sweep_starts(zone))
    slots = sweep(freq, at, zone, grace, start=start, days=8, step=7)
    assert_one_slot_per_scheduled_day(freq, slots, zone, start=start, days=8)
