"""The reminder digest (SPEC section 10): a user's overdue, today's and next seven days' open tasks, in the language
in force (the tick opens ``speaking`` with the reader's, SPEC section 24)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Protocol

from taskcore.date_hints import shown_due
from taskcore.i18n import _

DIGEST_DAYS = 7
DIGEST_LINES = 20


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


def digest_until(today: date) -> date:
    """The last due date the digest lists."""
    return today + timedelta(days=DIGEST_DAYS)


def _line(task: DigestItem, *, with_date: bool, today: date) -> str:
    parts = [f"• #{task.id} {task.description}"]
    if with_date and task.due_date is not None:
        parts.append(shown_due(task.due_date, today))
    if task.group_name:
        parts.append(task.group_name)
    return " · ".join(parts)


def _sections(tasks: Sequence[DigestItem], today: date) -> list[tuple[str, list[DigestItem], bool]]:
    until = digest_until(today)
    dated = [t for t in tasks if t.due_date is not None and t.due_date <= until]
    return [
        (_("Vencidas"), [t for t in dated if t.due_date is not None and t.due_date < today], True),
        (_("Hoy"), [t for t in dated if t.due_date == today], False),
        (_("Próximos 7 días"), [t for t in dated if t.due_date is not None and t.due_date > today], True),
    ]


def digest_text(tasks: Sequence[DigestItem], *, today: date, unassigned: int) -> str | None:
    """The reminder message in the language in force: overdue, today's and the next 7 days' open tasks (dd/MM), then
    the count of unassigned tasks in the user's groups. None when there is nothing to tell."""
    if not tasks and unassigned <= 0:
        return None  # most users due at a peak: nothing to look through
    sections = [(title, items, dated) for title, items, dated in _sections(tasks, today) if items]
    if not sections and unassigned <= 0:
        return None
    lines = [_("⏰ Recordatorio de tus tareas")]
    shown = total = 0
    for title, items, dated in sections:
        total += len(items)
        room = max(0, DIGEST_LINES - shown)
        if room:
            lines += ["", f"{title} ({len(items)}):", *(_line(t, with_date=dated, today=today) for t in items[:room])]
            shown += min(room, len(items))
    if total > shown:
        lines.append(_("… y {more} más: míralas con /t web", more=total - shown))
    if not sections:
        lines += ["", _("No tienes tareas con fecha para esta semana.")]
    if unassigned > 0:
        lines += ["", _("Sin asignar en tus grupos: {count}. Usa /t ver en el grupo y /t tomar <id>.",
                        count=unassigned)]
    return "\n".join(lines)
