"""The tick's planner (one computation per frequency, time and zone, shared by the rows of a tick) plans every row as
the row planned alone does: the latest slot in the user's zone, due within the grace, and the next slot."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from taskcore.reminders.schedule import latest_slot, next_slot, slot_key
from taskcore.reminders.slots import DueReminder, Plan, Planner, SavedPreference
from taskcore.zones import effective_zone

MADRID = ZoneInfo("Europe/Madrid")
SAVED = datetime(2026, 1, 1, tzinfo=UTC)
# Numbers whose country has one zone (Colombia, Germany), several (Spain, USA: TZ), invalid ones and LIDs.
USERS = ["573001234567", "573001234568", "4915112345678", "34600000001", "34600000002", "12025550123",
         "57123", "106934562345678", "99912345678"]
ZONES = [None, None, "America/Bogota", "europe/madrid", "Asia/Kolkata", "Australia/Lord_Howe", "Mars/Olympus"]
TIMES = ["08:30", "08:30", "02:30", "00:00", "23:59", "13:05"]


def reference(row: SavedPreference, now: datetime, grace: int) -> Plan:
    """The row planned alone, as the tick did before the planner (issue 18's ``plan_row``)."""
    if row.freq == "off":
        return Plan(row, None, None)
    zone = effective_zone(row.tz, row.user_id, MADRID).zone
    slot = latest_slot(row.freq, row.time, now=now, tz=zone)
    due = None
    if slot is not None and now - slot <= timedelta(minutes=grace):
        due = DueReminder(row.user_id, slot, slot_key(slot), now.astimezone(zone).date())
    return Plan(row, due, next_slot(row.freq, row.time, after=now, tz=zone))


rows = st.builds(
    lambda user, freq, time, tz: SavedPreference(user, freq, time, tz, SAVED, SAVED),
    st.sampled_from(USERS), st.sampled_from(["off", "daily", "daily", "weekdays", "weekly"]),
    st.one_of(st.sampled_from(TIMES), st.builds("{:02d}:{:02d}".format, st.integers(0, 23), st.integers(0, 59))),
    st.sampled_from(ZONES),
)
# Minutes of 2026, often near Madrid's and Lord Howe's DST changes (late March, early April, October).
instants = st.one_of(
    st.datetimes(datetime(2026, 1, 1), datetime(2026, 12, 31), timezones=st.just(UTC)),
    st.builds(lambda day, minute: datetime(2026, 3, 28, tzinfo=UTC) + timedelta(days=day, minutes=minute),
              st.integers(0, 10), st.integers(0, 24 * 60)),
    st.builds(lambda day, minute: datetime(2026, 10, 24, tzinfo=UTC) + timedelta(days=day, minutes=minute),
              st.integers(0, 3), st.integers(0, 24 * 60)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(rows, min_size=1, max_size=30), instants, st.integers(0, 180))
def test_a_shared_planner_plans_each_row_as_the_row_alone(batch: list[SavedPreference], now: datetime,
                                                          grace: int) -> None:
    planner = Planner(now=now, fallback=MADRID, grace_minutes=grace)
    assert [planner.plan(row) for row in batch] == [reference(row, now, grace) for row in batch]
