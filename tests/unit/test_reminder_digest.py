"""The digest text: overdue, today's and the next seven days' tasks, the unassigned count, cut when long."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from taskcore.model import Task
from taskcore.reminders.digest import DIGEST_LINES, digest_text

TODAY = date(2026, 11, 23)


def task(task_id: int, due: date | None, *, group: str | None = None, text: str = "Tarea") -> Task:
    return Task(id=task_id, description=f"{text} {task_id}", due_date=due, group_id=group and "1@g.us",
                group_name=group, created_by="1", created_at=datetime(2026, 1, 1, tzinfo=UTC), completed=False,
                completed_at=None, completed_by=None)


def test_the_digest_lists_overdue_today_and_the_next_seven_days_with_dd_mm_dates() -> None:
    tasks = [task(1, date(2026, 11, 20), group="Ops"), task(2, TODAY), task(3, date(2026, 11, 30)),
             task(4, date(2026, 12, 1))]
    text = digest_text(tasks, today=TODAY, unassigned=0)
    assert text == ("⏰ Recordatorio de tus tareas\n\nVencidas (1):\n• #1 Tarea 1 · 20/11 (vencida) · Ops\n\n"
                    "Hoy (1):\n• #2 Tarea 2\n\nPróximos 7 días (1):\n• #3 Tarea 3 · 30/11")


def test_a_task_due_tomorrow_says_so_in_the_digest() -> None:
    text = digest_text([task(5, TODAY + timedelta(days=1))], today=TODAY, unassigned=0)
    assert text is not None
    assert text.endswith(f"• #5 Tarea 5 · {(TODAY + timedelta(days=1)):%d/%m} (mañana)")


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
