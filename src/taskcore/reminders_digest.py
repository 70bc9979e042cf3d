"""The reminder tick's pure parts: which local times can be due, each schedule's due slot, and the digest text
(SPEC section 10). Values in, values out: ``now`` is always an argument.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from taskcore.dates import format_due_date
from taskcore.reminders import ReminderFreq, reminder_due_slot


class DigestItem(Protocol):
    """What a digest line shows of a task (a ``Task`` is one)."""

    @property
    def id(self) -> int:
        """The task id."""
        ...

    @property
    def description(self) -> str:
        """The description."""
        ...

    @property
    def due_date(self) -> date | None:
        """The due date."""
        ...

    @property
    def group_name(self) -> str | None:
        """The group's name; None for a personal task."""
        ...


MINUTE = timedelta(minutes=1)
LATE_AFTER = MINUTE  # a slot handled by a later minute's tick than its own is "late"
DIGEST_DAYS = 7
DIGEST_LINES = 20
_ALL_DAY = 24 * 60


def window_times(now: datetime, zone: ZoneInfo, grace_minutes: int) -> list[str]:
    """Every local ``HH:MM`` whose slot may be due at ``now``: the wall times of the last ``grace_minutes`` minutes,
    plus the wall times skipped by a spring-forward gap inside that span (they fire at the end of the gap)."""
    if grace_minutes >= _ALL_DAY - 1:
        return [f"{h:02d}:{m:02d}" for h in range(24) for m in range(60)]
    top = now.replace(second=0, microsecond=0)
    times = {(top - k * MINUTE).astimezone(zone).strftime("%H:%M") for k in range(grace_minutes + 1)}
    wall = (top - grace_minutes * MINUTE).astimezone(zone).replace(tzinfo=None)
    last = top.astimezone(zone).replace(tzinfo=None)
    while wall <= last:  # empty after a fall-back, when the wall clock went back: the instants above cover it
        times.add(wall.strftime("%H:%M"))
        wall += MINUTE
    return sorted(times)


def due_slots(
    schedules: Iterable[tuple[str, str]], *, now: datetime, zone: ZoneInfo, grace_minutes: int
) -> dict[tuple[str, str], datetime]:
    """The due slot of each distinct (freq, time) schedule; schedules with nothing due are left out."""
    found: dict[tuple[str, str], datetime] = {}
    for freq, time in set(schedules):
        slot = reminder_due_slot(freq, time, now=now, tz=zone, grace_minutes=grace_minutes)
        if slot is not None:
            found[(freq, time)] = slot
    return found


def plan_slots(
    now: datetime, zone: ZoneInfo, grace_minutes: int, *, since: datetime | None = None
) -> dict[tuple[str, str], datetime]:
    """The due slot of every (freq, time) schedule that can be due at ``now``. With ``since`` (the ``now`` of the
    last tick that completed) only the slots that fell due after it: the earlier ones that tick handled."""
    span = grace_minutes if since is None else min(grace_minutes, math.ceil((now - since) / MINUTE))
    times = window_times(now, zone, max(span, 0))
    slots = due_slots(((f.value, t) for t in times for f in ReminderFreq if f is not ReminderFreq.OFF),
                      now=now, zone=zone, grace_minutes=grace_minutes)
    return slots if since is None else {schedule: s for schedule, s in slots.items() if s > since}


def slot_outcome(slot: datetime, now: datetime) -> str:
    """``sent`` when handled within the slot's own minute, ``late`` when a later tick picks it up."""
    return "late" if now - slot >= LATE_AFTER else "sent"


def digest_until(today: date) -> date:
    """The last due date the digest lists."""
    return today + timedelta(days=DIGEST_DAYS)


def _line(task: DigestItem, *, with_date: bool) -> str:
    parts = [f"• #{task.id} {task.description}"]
    if with_date and task.due_date is not None:
        parts.append(format_due_date(task.due_date))
    if task.group_name:
        parts.append(task.group_name)
    return " · ".join(parts)


def _sections(tasks: Sequence[DigestItem], today: date) -> list[tuple[str, list[DigestItem], bool]]:
    until = digest_until(today)
    dated = [t for t in tasks if t.due_date is not None and t.due_date <= until]
    return [
        ("Vencidas", [t for t in dated if t.due_date is not None and t.due_date < today], True),
        ("Hoy", [t for t in dated if t.due_date == today], False),
        ("Próximos 7 días", [t for t in dated if t.due_date is not None and t.due_date > today], True),
    ]


def digest_text(tasks: Sequence[DigestItem], *, today: date, unassigned: int) -> str | None:
    """The reminder message in Spanish: overdue, today's and the next 7 days' open tasks (dd/MM), then the count of
    unassigned tasks in the user's groups. None when there is nothing to tell."""
    sections = [(title, items, dated) for title, items, dated in _sections(tasks, today) if items]
    if not sections and unassigned <= 0:
        return None
    lines = ["⏰ Recordatorio de tus tareas"]
    shown = total = 0
    for title, items, dated in sections:
        total += len(items)
        room = max(0, DIGEST_LINES - shown)
        if room:
            lines += ["", f"{title} ({len(items)}):", *(_line(t, with_date=dated) for t in items[:room])]
            shown += min(room, len(items))
    if total > shown:
        lines.append(f"… y {total - shown} más: míralas con /t web")
    if not sections:
        lines += ["", "No tienes tareas con fecha para esta semana."]
    if unassigned > 0:
        lines += ["", f"Sin asignar en tus grupos: {unassigned}. Usa /t ver en el grupo y /t tomar <id>."]
    return "\n".join(lines)
