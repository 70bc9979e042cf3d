"""The reminder tick's pure parts: candidate local times, due slots, late or on time, and the digest text."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from taskcore.model import Task
from taskcore.reminders_digest import (
    DIGEST_LINES,
    digest_text,
    due_slots,
    plan_slots,
    slot_outcome,
    window_times,
)

MADRID = ZoneInfo("Europe/Madrid")
TODAY = date(2026, 11, 23)


def task(task_id: int, due: date | None, *, group: str | None = None, text: str = "Tarea") -> Task:
    return Task(id=task_id, description=f"{text} {task_id}", due_date=due, group_id=group and "1@g.us",
                group_name=group, created_by="1", created_at=datetime(2026, 1, 1, tzinfo=UTC), completed=False,
                completed_at=None, completed_by=None)


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
                      now=now, zone=MADRID, grace_minutes=60)
    assert set(slots) == {("daily", "08:30"), ("weekly", "08:30")}
    assert slots[("daily", "08:30")] == datetime(2026, 11, 23, 7, 30, tzinfo=UTC)


def test_a_slot_picked_up_after_its_own_minute_is_late() -> None:
    slot = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
    assert slot_outcome(slot, slot + timedelta(seconds=59)) == "sent"
    assert slot_outcome(slot, slot + timedelta(minutes=1)) == "late"


def test_the_digest_lists_overdue_today_and_the_next_seven_days_with_dd_mm_dates() -> None:
    tasks = [task(1, date(2026, 11, 20), group="Ops"), task(2, TODAY), task(3, date(2026, 11, 30)),
             task(4, date(2026, 12, 1))]
    text = digest_text(tasks, today=TODAY, unassigned=0)
    assert text == ("⏰ Recordatorio de tus tareas\n\nVencidas (1):\n• #1 Tarea 1 · 20/11 · Ops\n\n"
                    "Hoy (1):\n• #2 Tarea 2\n\nPróximos 7 días (1):\n• #3 Tarea 3 · 30/11")


def test_the_digest_ends_with_the_unassigned_count_of_the_users_groups() -> None:
    text = digest_text([task(2, TODAY)], today=TODAY, unassigned=3)
    assert text is not None
    assert text.endswith("Sin asignar en tus grupos: 3. Usa /t ver en el grupo y /t tomar <id>.")


def test_only_unassigned_tasks_still_make_a_digest() -> None:
    text = digest_text([], today=TODAY, unassigned=2)
    assert text is not None
    assert "No tienes tareas con fecha para esta semana." in text


def test_nothing_open_makes_no_digest() -> None:
    assert digest_text([task(9, date(2026, 12, 25))], today=TODAY, unassigned=0) is None


def test_a_long_digest_is_cut_with_a_pointer_to_the_web() -> None:
    text = digest_text([task(i, TODAY) for i in range(1, 31)], today=TODAY, unassigned=0)
    assert text is not None
    assert text.count("• #") == DIGEST_LINES
    assert text.endswith("… y 10 más: míralas con /t web")


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
