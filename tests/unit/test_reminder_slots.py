"""Slot planning: the local times a tick looks at, the slots due in them, and whether a slot is handled on time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from taskcore.reminders.slots import DueWindow, due_slots, plan_slots, slot_outcome, window_times

MADRID = ZoneInfo("Europe/Madrid")


def test_the_window_holds_the_last_grace_minutes_of_local_time() -> None:
    times = window_times(datetime(2026, 11, 23, 7, 30, 20, tzinfo=UTC), MADRID, 60)
    assert times[0] == "07:30"
    assert times[-1] == "08:30"
    assert len(times) == 61


def test_the_window_after_a_spring_forward_holds_the_skipped_wall_times() -> None:
    times = window_times(datetime(2026, 3, 29, 1, 0, tzinfo=UTC), MADRID, 60)  # 03:00 CEST, just after the gap
    assert {"01:59", "02:00", "02:30", "02:59", "03:00"} <= set(times)


def test_the_window_after_a_fall_back_holds_both_passes_of_the_repeated_hour() -> None:
    times = window_times(datetime(2026, 10, 25, 1, 10, tzinfo=UTC), MADRID, 60)  # 02:10 CET, second pass
    assert {"02:10", "02:30", "02:59", "02:00"} <= set(times)


def test_a_grace_of_a_day_or_more_covers_every_minute() -> None:
    assert len(window_times(datetime(2026, 11, 23, 7, 30, tzinfo=UTC), MADRID, 1440)) == 1440


def test_due_slots_computes_each_schedule_once_and_leaves_out_those_not_due() -> None:
    now = datetime(2026, 11, 23, 7, 45, tzinfo=UTC)  # Monday 08:45 in Madrid
    slots = due_slots([("daily", "08:30"), ("daily", "08:30"), ("weekly", "08:30"), ("daily", "09:00")],
                      DueWindow.of(now, 60), MADRID)
    assert set(slots) == {("daily", "08:30"), ("weekly", "08:30")}
    assert slots[("daily", "08:30")] == datetime(2026, 11, 23, 7, 30, tzinfo=UTC)


def test_a_slot_picked_up_after_its_own_minute_is_late() -> None:
    slot = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
    assert slot_outcome(slot, slot + timedelta(seconds=59)) == "sent"
    assert slot_outcome(slot, slot + timedelta(minutes=1)) == "late"


def test_a_running_plan_holds_only_the_slots_that_fell_due_since_the_last_tick() -> None:
    now = datetime(2026, 11, 23, 7, 45, 0, 300000, tzinfo=UTC)  # Monday 08:45 in Madrid
    slots = plan_slots(now, MADRID, 60, since=now - timedelta(minutes=1))
    assert set(slots) == {("daily", "08:45"), ("weekdays", "08:45"), ("weekly", "08:45")}
    assert len(plan_slots(now, MADRID, 60)) == 3 * 60  # 07:45 is 60 min and 0.3 s old: past the grace


def test_a_running_plan_across_the_spring_forward_gap_holds_the_skipped_times() -> None:
    now = datetime(2026, 3, 29, 1, 0, tzinfo=UTC)  # 03:00 CEST, a Sunday
    slots = plan_slots(now, MADRID, 60, since=now - timedelta(minutes=1))
    assert slots[("daily", "02:30")] == now
    assert ("weekdays", "02:30") not in slots
