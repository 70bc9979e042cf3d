"""Properties of recurring tasks (SPEC sections 20 and 21): the next occurrence is in the series, after the previous
one and not before today; daylight saving time never moves a date, in zones with every kind of change; reminders
keep each user's wall time; turns go round over several completions.

The oracles are plain calendar arithmetic written here, independent of the RRULE library the code uses."""

from __future__ import annotations

import tempfile
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskcore import next_occurrence, parse_recurrence
from taskcore.access import GatingMode
from taskcore.recurrence import first_occurrence, pinned
from taskcore.reminders import next_slot
from taskcore.services import tasks as svc
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.users import ensure_users
from taskcore.zones import effective_zone
from tasksvc_run import units
from tests.builders import make_group

DAY = timedelta(days=1)
NAMES = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")
# One-hour changes both ways (Madrid, New York, London), at midnight (Santiago, Havana), half an hour (Lord Howe),
# 45 minutes off the hour (Chatham), southern hemisphere (Sydney, Auckland).
DST_ZONES = [ZoneInfo(name) for name in (
    "Europe/Madrid", "America/New_York", "Europe/London", "America/Santiago", "America/Havana",
    "Australia/Lord_Howe", "Pacific/Chatham", "Australia/Sydney", "Pacific/Auckland",
)]
MADRID = ZoneInfo("Europe/Madrid")


def _changes(zone: ZoneInfo, year: int) -> list[datetime]:
    """The UTC hours at which the zone's offset changes during ``year``."""
    found, hour = [], datetime(year, 1, 1, tzinfo=UTC)
    while hour.year == year:
        following = hour + timedelta(hours=1)
        if hour.astimezone(zone).utcoffset() != following.astimezone(zone).utcoffset():
            found.append(following)
        hour = following
    return found


CHANGES = [(zone, change) for zone in DST_ZONES for change in _changes(zone, 2026)]

dates = st.dates(date(2020, 1, 1), date(2035, 12, 31))
weekday_sets = st.sets(st.integers(0, 6), min_size=1, max_size=7)


@st.composite
def weekday_rules(draw: st.DrawFn) -> tuple[str, frozenset[int]]:
    """A ``cada lunes y jueves`` style rule as typed, and its weekdays."""
    days = sorted(draw(weekday_sets))
    names = [NAMES[d] for d in days]
    text = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} y {names[-1]}"
    return f"cada {text}", frozenset(days)


def _first_at_or_after(start: date, matches: object) -> date:
    day = start
    while not matches(day):  # type: ignore[operator]
        day += DAY
    return day


@settings(deadline=None)  # dateutil under a loaded CI machine: correctness, not speed, is tested here
@given(weekday_rules(), dates, st.integers(-40, 400))
def test_a_weekday_rules_next_occurrence_is_its_first_matching_day_after_the_previous_and_from_today(
    rule: tuple[str, frozenset[int]], after: date, shift: int
) -> None:
    text, days = rule
    today = after + timedelta(days=shift)
    found = next_occurrence(parse_recurrence(text), after, today=today)
    assert found is not None
    assert found > after
    assert found >= today
    assert found == _first_at_or_after(max(after + DAY, today), lambda d: d.weekday() in days)


@settings(deadline=None)  # dateutil under a loaded CI machine: correctness, not speed, is tested here
@given(st.sampled_from(["días", "semanas"]), st.integers(1, 99), dates, st.integers(-40, 800))
def test_an_every_n_rule_keeps_its_step_from_the_previous_occurrence(
    unit: str, every: int, after: date, shift: int
) -> None:
    today = after + timedelta(days=shift)
    rule = pinned(parse_recurrence(f"cada {every} {unit}"), after)
    step = every * (7 if unit == "semanas" else 1)
    found = next_occurrence(rule, after, today=today)
    assert found is not None
    assert found > after
    assert found >= today
    assert (found - after).days % step == 0
    assert found - timedelta(days=step) <= max(after, today - DAY)  # the first such date: none skipped too many


@settings(deadline=None)  # dateutil under a loaded CI machine: correctness, not speed, is tested here
@given(st.integers(1, 99), dates, st.integers(-40, 800))
def test_a_monthly_rule_keeps_its_day_of_the_month(every: int, after: date, shift: int) -> None:
    today = after + timedelta(days=shift)
    rule = pinned(parse_recurrence(f"cada {every} meses"), after)
    found = next_occurrence(rule, after, today=today)
    assert found is not None
    assert found > after
    assert found >= today
    months = (found.year - after.year) * 12 + found.month - after.month
    assert months % every == 0
    last_day = ((found.replace(day=28) + 4 * DAY).replace(day=1) - DAY).day
    assert found.day == min(after.day, last_day)


# Rule -> the steps in days between consecutive dates, and the weekdays its dates fall on.
CALENDAR = {
    "cada día": ({1}, set(range(7))),
    "cada lunes": ({7}, {0}),
    "cada laborable": ({1, 3}, set(range(5))),
    "cada 2 días": ({2}, set(range(7))),
    "cada domingo y lunes": ({1, 6}, {0, 6}),
}


@settings(deadline=None)  # dateutil under a loaded CI machine: correctness, not speed, is tested here
@given(st.sampled_from(CHANGES), st.integers(-72, 72), st.sampled_from(sorted(CALENDAR)))
def test_dst_never_moves_a_date(change: tuple[ZoneInfo, datetime], hours: int, text: str) -> None:
    """Around each 2026 DST change of nine zones: the series a person starts on their today (in their zone) steps by
    whole calendar days, on the rule's weekdays, as on a calendar without clock changes."""
    zone, instant = change
    today = (instant + timedelta(hours=hours)).astimezone(zone).date()
    rule = parse_recurrence(text)
    first = first_occurrence(rule, today=today)
    assert first is not None
    steps, weekdays = CALENDAR[text]
    assert first == _first_at_or_after(today, lambda d: d.weekday() in weekdays)
    series = [first]
    for _ in range(8):
        following = next_occurrence(rule, series[-1], today=today)
        assert following is not None
        series.append(following)
    assert {(b - a).days for a, b in pairwise(series)} <= steps
    assert {d.weekday() for d in series} <= weekdays


@settings(deadline=None)  # dateutil under a loaded CI machine: correctness, not speed, is tested here
@given(st.sampled_from(CHANGES), st.integers(-72, 72), st.integers(0, 23), st.integers(0, 59))
def test_a_users_reminder_keeps_their_wall_time_across_their_dst_changes(
    change: tuple[ZoneInfo, datetime], hours: int, hour: int, minute: int
) -> None:
    zone, instant = change
    after = instant + timedelta(hours=hours)
    slot = next_slot("daily", f"{hour:02d}:{minute:02d}", after=after, tz=zone)
    assert slot is not None
    assert slot > after
    local = slot.astimezone(zone)
    wall = datetime(local.year, local.month, local.day, hour, minute)
    exists = wall.replace(tzinfo=zone).astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall
    if exists:
        assert (local.hour, local.minute) == (hour, minute)
    else:  # a time skipped by a spring-forward fires at the end of the gap, on the same day
        assert local.date() == wall.date()
        assert local.replace(tzinfo=None) > wall
    assert slot - after <= 2 * DAY


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.integers(1, 8), weekday_rules(), st.lists(st.integers(0, 20), min_size=8, max_size=8))
def test_turns_go_round_over_several_completions(
    people: int, completions: int, rule: tuple[str, frozenset[int]], delays: list[int]
) -> None:
    """Each completion (done some days late or early) gives the next occurrence to the next person in order, due on
    a matching day after the previous one and not before the completer's today."""
    ids = [f"3460000000{n}" for n in range(people)]
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(sqlite_url(Path(folder) / "tasks.db"))
        try:
            migrator.migrate(db)
            group = make_group(db, members=tuple(ids))
            with db.write() as conn:
                ensure_users(conn, ids, datetime(2026, 1, 1, tzinfo=UTC))
            today = date(2026, 11, 22)
            created = units.run(db, svc.create_task, creator=ids[0], description="turno", group_id=group, assignees=ids,
                                now=datetime(2026, 11, 22, 10, tzinfo=UTC), recurrence=parse_recurrence(rule[0]),
                                rotation=ids, today=today)
            task_id, due, turns = created.id, created.due_date, [created.assignee_ids[0]]
            for n in range(completions):
                today = (due or today) + timedelta(days=delays[n])
                now = datetime(today.year, today.month, today.day, 12, tzinfo=UTC)
                done = units.run(db, svc.complete_task, GatingMode.OFF, user_id=ids[0], task_id=task_id, now=now,
                                 today=today)
                following = done.next_task
                assert following is not None
                assert following.due_date is not None
                assert due is not None
                assert following.due_date > due
                assert following.due_date >= today
                assert following.due_date.weekday() in rule[1]
                turns.append(following.assignees[0].id)
                task_id, due = following.id, following.due_date
            assert turns == [ids[n % people] for n in range(completions + 1)]
        finally:
            db.dispose()


@settings(deadline=None)  # dateutil under a loaded CI machine: correctness, not speed, is tested here
@given(st.sampled_from([zone.key for zone in DST_ZONES]), st.sampled_from(["573001234567", "34600111111"]))
def test_a_chosen_zone_always_wins_over_the_phone_and_tz(name: str, phone: str) -> None:
    assert effective_zone(name, phone, MADRID).zone == ZoneInfo(name)
